"""The process-pool backend: episodes in worker processes on this machine."""

from __future__ import annotations

import multiprocessing as mp
import sys
from collections.abc import Iterable
from typing import Any

from inselflucht_env.agents import make_agent
from inselflucht_env.evaluation.episode import (
    Episode,
    EpisodeTask,
    chunk_size,
    chunks,
    play_episode,
    progress_bar,
)

_WORKER: dict[str, Any] = {}  # per worker process: its task and the agent built for it


def _init_worker(task: EpisodeTask) -> None:
    _WORKER.update(task=task, agent=None)


def _run_chunk(seeds: list[int]) -> list[Episode]:
    # The agent is built here, not in the pool's initializer: an error there (a corrupt
    # checkpoint) would make the pool respawn workers forever; here it reaches the caller.
    task: EpisodeTask = _WORKER["task"]
    if _WORKER["agent"] is None:
        _WORKER["agent"] = make_agent(task.spec, game=task.game, **task.agent_kwargs)
    return [play_episode(_WORKER["agent"], task.config, s, task.game) for s in seeds]


class PoolBackend:
    """``workers`` processes (forked on Linux); one worker plays in this process."""

    name = "pool"

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers

    def cpus(self) -> int:
        return self.workers

    def run(
        self,
        task: EpisodeTask,
        seeds: Iterable[int],
        progress: bool = True,
        desc: str | None = None,
    ) -> list[Episode]:
        seeds = list(seeds)
        bar = progress_bar(len(seeds), desc or task.spec, progress)
        results: list[Episode] = []
        try:
            if self.workers <= 1 or len(seeds) <= 1:
                _init_worker(task)
                for s in seeds:
                    results.extend(_run_chunk([s]))
                    bar.update(1)
            else:
                size = chunk_size(len(seeds), self.workers)
                ctx = mp.get_context("fork" if sys.platform.startswith("linux") else "spawn")
                with ctx.Pool(self.workers, _init_worker, (task,)) as pool:
                    for chunk in pool.imap_unordered(_run_chunk, chunks(seeds, size)):
                        results.extend(chunk)
                        bar.update(len(chunk))
        finally:
            bar.close()
        results.sort(key=lambda e: e.seed)
        return results
