"""Replays: any episode as a small JSON file of seed, options and action names (R8).

The engine draws every random card from the env's seeded generator, so the env's keyword
arguments, the ``reset`` seed and options, and the action names replay a game exactly.
This module is the command line and the one place to import from; each job has its module:

* ``replay_record``: ``Replay``, the record, with ``save(path)`` / ``Replay.load(path)``
  (JSON) and ``Replay.from_engine_game`` for a game played on the engine directly with
  ``np.random.default_rng(seed)`` (as the evaluation harness does).
* ``replay_format``: what a valid replay file is; a malformed or corrupt one raises
  ``ValueError`` saying what is wrong and where.
* ``replay_json``: the readable JSON layout of the files.
* ``replay_recorder``: ``ReplayRecorder``, a Gymnasium wrapper that records what the env
  does (the seed and options at ``reset``, the action name at every ``step``;
  ``recorder.replay`` is the episode so far), and ``record_episode``, one episode played
  by agents.
* ``replay_runner``: ``replay(rep)`` re-runs a record, checks every step and the outcome
  (``ReplayMismatchError``) and collects frames.
* ``replay_gif``: ``write_gif(frames, path, fps)``, ``render_mode="rgb_array"`` frames as an
  animated GIF.

Command line (``main``)::

    python -m inselflucht_env.replay game.json [--ansi] [--colour] [--gif game.gif] [--fps 2]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import IO

from .actions import action_index
from .replay_format import ENV_KEYS, FORMAT, FORMAT_VERSION, SEED_LIMIT, normalise_options
from .replay_gif import write_gif
from .replay_record import Replay, env_kwargs_of
from .replay_recorder import ReplayRecorder, record_episode
from .replay_runner import ReplayMismatchError, ReplayResult, replay

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
    "main",
    "normalise_options",
    "record_episode",
    "replay",
    "write_gif",
]


def main(argv: Sequence[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Run the command line; 0 when the file replays exactly, 1 (message on stderr) if not."""
    out = stdout or sys.stdout
    parser = argparse.ArgumentParser(
        prog="python -m inselflucht_env.replay",
        description="Check an Inselflucht replay file, show it as text or write it as a GIF.",
    )
    parser.add_argument("file", help="replay JSON file")
    parser.add_argument("--ansi", action="store_true", help="print the game step by step")
    parser.add_argument(
        "--colour", "--color", action="store_true", help="with --ansi: ANSI colours"
    )
    parser.add_argument("--gif", metavar="OUT", help="write the game as an animated GIF")
    parser.add_argument("--fps", type=float, default=2.0, help="GIF frames per second (2)")
    args = parser.parse_args(argv)
    try:
        rep = Replay.load(args.file)
        result = replay(rep)  # verify first, without rendering
        kw = ", ".join(f"{k}={v}" for k, v in rep.env_kwargs.items())
        print(
            f"{args.file}: {kw}; seed {rep.seed}; {len(rep.actions)} action(s); "
            f"outcome {result.outcome or 'unfinished'}: replayed exactly",
            file=out,
        )
        if args.ansi:
            _print_ansi(rep, result.deciders, args.colour, out)
        if args.gif:
            frames = replay(rep, render_mode="rgb_array").frames
            write_gif(frames, args.gif, fps=args.fps)
            print(f"wrote {args.gif} ({len(frames)} frames)", file=out)
    except (OSError, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0


def _print_ansi(rep: Replay, deciders: list[int], colour: bool, out: IO[str]) -> None:
    from .render_text import render_ansi

    env = rep.make_env()
    env.reset(seed=rep.seed, options=rep.options)
    print(render_ansi(env.game_state, colour=colour), file=out)
    for i, (name, fig) in enumerate(zip(rep.actions, deciders), start=1):
        env.step(action_index(name))
        print(f"\n--- step {i}: figure {fig} plays {name}", file=out)
        print(render_ansi(env.game_state, colour=colour), file=out)


if __name__ == "__main__":
    raise SystemExit(main())
