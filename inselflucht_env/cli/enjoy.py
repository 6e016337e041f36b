"""Watch a team play one game: a header, every decision narrated, the board after each turn.

    inselflucht-enjoy [--agent exit_2p_normal_dagger] [--seed 0] [--every-decision] [--gif game.gif]
    python -m train.enjoy --agent checkpoints/exit_4p_normal --seed 7     # from the repository

One agent plays every figure (a learned policy sees each decision from the deciding figure's
seat). ``--agent`` is anything ``agents.make_agent`` builds: a shipped policy by name, a
checkpoint folder, ``netsearch:...``, or ``heuristic``. A checkpoint's own game settings
(players, meter, variants) are used unless given. Each decision is printed as ``play``
narrates it (the action and the public changes it caused); the island is drawn at the end of
every turn, or after every decision with ``--every-decision``. ``--gif`` also writes the
``rgb_array`` frames as an animated GIF.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, TextIO

import numpy as np

from inselflucht_env.agents import make_agent
from inselflucht_env.cli.args import natural_int, run
from inselflucht_env.envs.inselflucht import InselfluchtEnv
from inselflucht_env.games.inselflucht.render.narrate import public_events
from inselflucht_env.games.inselflucht.render.text import OUTCOME_TEXT, render_ansi
from inselflucht_env.games.inselflucht.rules.actions import ACTION_NAMES
from inselflucht_env.games.inselflucht.rules.config import METER_PRESETS
from inselflucht_env.games.inselflucht.rules.public import describe

DEFAULT_AGENT = "exit_2p_normal_dagger"
ENV_KEYS = ("players", "taucher", "short_game", "meter")


def _settings(agent: Any, given: dict[str, Any]) -> dict[str, Any]:
    """The game settings: the flags given, else the checkpoint's training env, else defaults."""
    trained: dict[str, Any] = {}
    policy = getattr(agent, "policy", None)
    if callable(policy):
        trained = policy().metadata.get("config", {}).get("env", {})
    settings = {k: trained[k] for k in ENV_KEYS if k in trained}
    settings.update({k: v for k, v in given.items() if v is not None})
    return settings


def play(
    spec: str,
    seed: int,
    gif: str | None = None,
    delay: float = 0.0,
    colour: bool = False,
    every_decision: bool = False,
    out: TextIO = sys.stdout,
    **settings: Any,
) -> str:
    """Play one game with ``spec`` for every figure, print it, and return the outcome."""
    started = time.perf_counter()
    print(f"loading {spec} ...", file=out, flush=True)
    agent = make_agent(spec)
    env_kwargs = _settings(agent, settings)
    print(f"loaded in {time.perf_counter() - started:.1f} s", file=out, flush=True)
    env = InselfluchtEnv(render_mode="rgb_array" if gif else None, **env_kwargs)
    _, info = env.reset(seed=seed)
    state = env.game_state
    config = env.config
    print(
        f"Inselflucht: {spec} plays all {config.figures} figure(s); seed {seed}; "
        f"{config.players} player(s), meter {env_kwargs.get('meter', 'normal')}"
        f"{', Taucher' if config.taucher else ''}"
        f"{', Kurzes Spiel' if config.short_game else ''}. "
        f"Replay with --seed {seed}.",
        file=out,
    )
    print(render_ansi(state, colour=colour), file=out)
    frames = [env.render()] if gif else []
    rng = np.random.default_rng([seed, 1])
    decisions = 0
    while state.outcome is None:
        who, turn, before = state.decider, state.turn, describe(state)
        action = int(agent.act(state, rng))
        _, _, terminated, truncated, info = env.step(action)
        decisions += 1
        print(f"#{decisions} turn {turn}, figure {who}: {ACTION_NAMES[action]}", file=out)
        for line in public_events(before, describe(state)):
            print(f"   {line}", file=out)
        if every_decision or state.turn != turn or state.outcome is not None:
            print(render_ansi(state, colour=colour), file=out)
        if gif:
            frames.append(env.render())
        if delay:
            time.sleep(delay)
    if gif:
        from inselflucht_env.replay import write_gif

        write_gif(frames, gif)
        print(f"wrote {len(frames)} frames to {gif}", file=out)
    outcome = str(state.outcome)
    print(
        f"outcome: {outcome} ({OUTCOME_TEXT.get(outcome, outcome)}) after {decisions} "
        f"decisions, {state.turn} turns",
        file=out,
    )
    return outcome


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="inselflucht-enjoy", description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--agent",
        "--checkpoint",
        dest="agent",
        default=DEFAULT_AGENT,
        help="a shipped policy name, a checkpoint folder, netsearch:..., or any "
        f"agent name (default {DEFAULT_AGENT})",
    )
    p.add_argument("--seed", type=natural_int, default=0, help="seed of the deal")
    p.add_argument(
        "--players",
        type=int,
        choices=(1, 2, 3, 4),
        default=None,
        help="default: the checkpoint's training setting (else 2)",
    )
    p.add_argument("--meter", choices=sorted(METER_PRESETS), default=None)
    p.add_argument("--taucher", action="store_true", default=None)
    p.add_argument("--short-game", action="store_true", default=None)
    p.add_argument(
        "--every-decision",
        action="store_true",
        help="draw the island after every decision, not only after each turn",
    )
    p.add_argument("--gif", help="also write the game as an animated GIF to this path")
    p.add_argument("--delay", type=float, default=0.0, help="seconds between decisions")
    p.add_argument("--colour", action="store_true", help="ANSI colours")
    return p


def main(argv: list[str] | None = None) -> None:
    """The command line (console script ``inselflucht-enjoy``)."""
    args = build_parser().parse_args(argv)
    run(
        lambda: play(
            args.agent,
            args.seed,
            args.gif,
            args.delay,
            args.colour,
            args.every_decision,
            players=args.players,
            meter=args.meter,
            taucher=args.taucher,
            short_game=args.short_game,
        )
    )


if __name__ == "__main__":
    main()
