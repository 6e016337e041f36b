"""``inselflucht-evaluate``: an agent on a fixed set of deals: win rate, loss causes, speed.

    inselflucht-evaluate --agent heuristic --players 2 --meter normal --episodes 1000
    inselflucht-evaluate --game forbidden_island --agent heuristic --difficulty novice --json
    inselflucht-evaluate --agent search --episodes 200 --simulations 200 --json
    inselflucht-evaluate --agent exit_2p_normal_dagger --episodes 1000   # a shipped policy
    python -m train.evaluate --agent checkpoints/ppo_2p_normal   # the same, from the repo

``--agent`` is anything ``agents.make_agent`` builds: a name, ``kind:argument`` (e.g.
``netsearch:checkpoints/exit_4p_normal``), a checkpoint folder or a shipped policy's name.
Episode i is dealt with seed ``--seed + i``; episodes run in ``--workers`` processes
(default: all cores) with a progress bar on stderr, or with ``--backend ray [--address
auto]`` as Ray tasks on every CPU of a Ray cluster, with the same per-episode results
(``inselflucht_env.evaluation``, docs/scaling.md).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from inselflucht_env.agents import make_agent
from inselflucht_env.agents.base import ENGINES
from inselflucht_env.cli.args import natural_int, positive_float, positive_int, run, unit_fraction
from inselflucht_env.errors import InputError
from inselflucht_env.evaluation.harness import (
    BACKENDS,
    check_backend_args,
    evaluate,
    format_summary,
)
from inselflucht_env.game import game_names
from inselflucht_env.games.forbidden_island.rules.config import DIFFICULTIES
from inselflucht_env.games.inselflucht.rules.config import METER_PRESETS

# the search flags each agent kind takes (netsearch has no probe or candidate limit; its
# PUCT constant, heuristic prior and rollouts are its own)
# (``engine``: the compiled core or the Python reference, for every agent that has both)
SEARCH_FLAGS = {
    "heuristic": ("engine",),
    "novice": ("engine",),
    "search": ("simulations", "seconds", "probe", "max_candidates", "engine"),
    "netsearch": ("simulations", "seconds", "c_puct", "heuristic_prior", "rollout_depth", "engine"),
    "netflat": ("simulations", "seconds", "probe", "max_candidates", "rollout_depth", "engine"),
}


def _kwargs_from_args(args: argparse.Namespace) -> dict[str, Any]:
    flags = SEARCH_FLAGS.get(args.agent.partition(":")[0], ())
    unused = [
        f"--{f.replace('_', '-')}"
        for keys in SEARCH_FLAGS.values()
        for f in keys
        if f not in flags and getattr(args, f) is not None
    ]
    if unused:
        raise InputError(f"agent {args.agent!r} takes none of {sorted(set(unused))}")
    return {f: getattr(args, f) for f in flags if getattr(args, f) is not None}


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="inselflucht-evaluate", description=__doc__.split("\n")[0])
    p.add_argument(
        "--agent",
        default="heuristic",
        help="random | heuristic | novice | search | netsearch:CHECKPOINT | "
        "netflat:CHECKPOINT | a checkpoint folder or shipped policy name",
    )
    p.add_argument("--game", default="inselflucht", choices=game_names())
    p.add_argument("--players", type=int, default=2, choices=(1, 2, 3, 4))
    p.add_argument(
        "--meter", default=None, choices=sorted(METER_PRESETS), help="inselflucht (default normal)"
    )
    p.add_argument("--taucher", action="store_true", help="inselflucht: swim for 1 action")
    p.add_argument("--short-game", action="store_true", help="inselflucht: Kurzes Spiel")
    p.add_argument(
        "--difficulty",
        default=None,
        choices=tuple(DIFFICULTIES),
        help="forbidden_island: the water level's start (default novice)",
    )
    p.add_argument(
        "--roles",
        default=None,
        help="forbidden_island: one role per seat, comma-separated (e.g. pilot,diver); "
        "default random",
    )
    p.add_argument("--episodes", type=positive_int, default=1000)
    p.add_argument("--seed", type=natural_int, default=0, help="episode i uses seed + i")
    p.add_argument(
        "--workers",
        type=positive_int,
        default=None,
        help="processes (default: all cores; pool backend only)",
    )
    p.add_argument(
        "--backend",
        default="pool",
        choices=BACKENDS,
        help="pool: processes on this machine; ray: Ray tasks on every CPU of a "
        "Ray cluster (needs the [rllib] extra)",
    )
    p.add_argument(
        "--address",
        default=None,
        help="with --backend ray: the cluster to join (auto, HEAD_IP:6379); "
        "default: start a local Ray",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--details", action="store_true", help="with --json: one record per episode")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument(
        "--engine",
        choices=ENGINES,
        default=None,
        help="heuristic, novice and the searches: the compiled core (default) or the Python "
        "reference (the same heuristic choices; the search's random stream differs)",
    )
    g = p.add_argument_group("search agents (search, netsearch:..., netflat:...)")
    g.add_argument(
        "--simulations",
        type=positive_int,
        default=None,
        help="rollouts (search) or simulations (netsearch) per decision at most",
    )
    g.add_argument(
        "--seconds", type=positive_float, default=None, help="wall seconds per decision at most"
    )
    g.add_argument(
        "--probe",
        type=int,
        default=None,
        help="rollouts of the heuristic's choice before searching alternatives",
    )
    g.add_argument("--max-candidates", type=int, default=None)
    g.add_argument(
        "--c-puct",
        type=positive_float,
        default=None,
        help="netsearch: PUCT exploration constant (default 1.0)",
    )
    g.add_argument(
        "--heuristic-prior",
        type=unit_fraction,
        default=None,
        help="netsearch: share of the heuristic's choice in every node's prior (default 0)",
    )
    g.add_argument(
        "--rollout-depth",
        type=natural_int,
        default=None,
        help="netsearch, netflat: heuristic decisions played on from a leaf before the value "
        "head judges it (netsearch default 0, netflat 20; 400 plays every rollout to the end)",
    )
    return p


def main(argv: list[str] | None = None) -> None:
    """The command line (console script ``inselflucht-evaluate``); a bad agent or checkpoint
    is one line on stderr and exit status 2."""
    args = build_parser().parse_args(argv)
    run(lambda: _evaluate_and_print(args))


def _variant(args: argparse.Namespace) -> dict[str, Any] | None:
    """The game's own settings from the flags; a flag of the other game is an error."""
    theirs = {
        "inselflucht": ("--difficulty", args.difficulty is not None or args.roles is not None),
        "forbidden_island": (
            "--meter, --taucher, --short-game",
            args.meter is not None or args.taucher or args.short_game,
        ),
    }
    flags, used = theirs.get(args.game, ("", False))
    if used:
        raise InputError(f"--game {args.game} takes none of {flags}")
    if args.game == "inselflucht":
        return None
    variant: dict[str, Any] = {}
    if args.difficulty is not None:
        variant["difficulty"] = args.difficulty
    if args.roles is not None:
        variant["roles"] = [r.strip() for r in args.roles.split(",")]
    return variant


def _evaluate_and_print(args: argparse.Namespace) -> dict[str, Any]:
    agent_kwargs = _kwargs_from_args(args)
    check_backend_args(args.backend, args.address, args.workers)
    variant = _variant(args)
    # a bad spec fails here, before any worker starts
    make_agent(args.agent, game=args.game, **agent_kwargs)
    summary = evaluate(
        args.agent,
        args.players,
        args.meter or "normal",
        args.taucher,
        args.short_game,
        args.episodes,
        args.seed,
        args.workers,
        agent_kwargs,
        progress=not args.no_progress,
        details=args.details,
        backend=args.backend,
        address=args.address,
        game=args.game,
        variant=variant,
    )
    if args.json:
        print(json.dumps(summary))
    else:
        print(format_summary(summary))
    return summary


if __name__ == "__main__":
    main()
