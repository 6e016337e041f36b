"""Evaluation: play an agent on a fixed set of deals, on one machine or a Ray cluster.

``episode`` (one game, the task and the ``Backend`` interface) is the bottom; ``pool`` and
``ray_backend`` are the two backends; ``harness`` picks one, runs it and summarises;
``stats`` holds the intervals. The command line is ``inselflucht-evaluate``
(``inselflucht_env.cli.evaluate``).
"""

from inselflucht_env.evaluation.episode import (
    AGENT_STREAM,
    LOSS_CAUSES,
    Backend,
    Episode,
    EpisodeTask,
    play_episode,
)
from inselflucht_env.evaluation.harness import (
    BACKENDS,
    evaluate,
    format_summary,
    make_backend,
    run_episodes,
    summarize,
)

__all__ = [
    "AGENT_STREAM",
    "BACKENDS",
    "LOSS_CAUSES",
    "Backend",
    "Episode",
    "EpisodeTask",
    "evaluate",
    "format_summary",
    "make_backend",
    "play_episode",
    "run_episodes",
    "summarize",
]
