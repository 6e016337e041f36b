"""Replays: any episode as a small JSON file of seed, options and action names (R8).

The engine draws every random card from the env's seeded generator, so the env's keyword
arguments, the ``reset`` seed and options, and the action names replay a game exactly.

* ``record``: ``Replay``, the record, with ``save(path)`` / ``Replay.load(path)`` and
  ``Replay.from_engine_game``; what a valid file is (a malformed one raises ``ValueError``
  naming the bad field).
* ``run``: ``ReplayRecorder`` (a Gymnasium wrapper that records every episode),
  ``record_episode`` (one episode played by agents), ``replay(rep)`` (re-run a record,
  checking every step: ``ReplayMismatchError``) and ``write_gif``.

The command line is ``inselflucht-replay`` (``inselflucht_env.cli.replay``).
"""

from inselflucht_env.replay.record import (
    ENV_KEYS,
    FORMAT,
    FORMAT_VERSION,
    SEED_LIMIT,
    Replay,
    env_kwargs_of,
    normalise_options,
)
from inselflucht_env.replay.run import (
    ReplayMismatchError,
    ReplayRecorder,
    ReplayResult,
    record_episode,
    replay,
    write_gif,
)

__all__ = [
    "ENV_KEYS",
    "FORMAT",
    "FORMAT_VERSION",
    "SEED_LIMIT",
    "Replay",
    "ReplayMismatchError",
    "ReplayRecorder",
    "ReplayResult",
    "env_kwargs_of",
    "normalise_options",
    "record_episode",
    "replay",
    "write_gif",
]
