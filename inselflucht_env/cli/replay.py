"""``inselflucht-replay``: check a replay file, show it as text or write it as a GIF (R8).

python -m inselflucht_env.cli.replay game.json [--ansi] [--colour] [--gif game.gif] [--fps 2]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import IO

from inselflucht_env.games.inselflucht.rules.actions import action_index
from inselflucht_env.replay import Replay, replay, write_gif

__all__ = ["main"]


def main(argv: Sequence[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Run the command line; 0 when the file replays exactly, 1 (message on stderr) if not."""
    out = stdout or sys.stdout
    parser = argparse.ArgumentParser(
        prog="inselflucht-replay",
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
    from inselflucht_env.games.inselflucht.render.text import render_ansi

    env = rep.make_env()
    env.reset(seed=rep.seed, options=rep.options)
    print(render_ansi(env.game_state, colour=colour), file=out)
    for i, (name, fig) in enumerate(zip(rep.actions, deciders), start=1):
        env.step(action_index(name))
        print(f"\n--- step {i}: figure {fig} plays {name}", file=out)
        print(render_ansi(env.game_state, colour=colour), file=out)


if __name__ == "__main__":
    raise SystemExit(main())
