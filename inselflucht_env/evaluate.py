"""Evaluate an agent on a fixed set of deals: win rate, loss causes, speed.

    inselflucht-evaluate --agent heuristic --players 2 --meter normal --episodes 1000
    inselflucht-evaluate --agent search --episodes 200 --simulations 200 --json
    inselflucht-evaluate --agent ppo_2p_normal --episodes 1000   # a shipped policy by name
    python -m train.evaluate --agent checkpoints/ppo_2p_normal   # the same, from the repo

``--agent`` is anything ``agents.make_agent`` builds: a name, ``kind:argument`` (e.g.
``netsearch:checkpoints/exit_4p_normal``), a checkpoint folder or a shipped policy's name.

Episode i is dealt with seed ``--seed + i``: that seed drives the deal and every flood
reshuffle (``State.new`` and ``apply``), and a separate generator derived from it is the
agent's own, so every agent plays exactly the same deals and flood orders as long as the
game goes the same way. Episodes run in ``--workers`` processes (default: all cores) with a
progress bar on stderr, or with ``--backend ray [--address auto]`` as Ray tasks on every CPU
of a Ray cluster, with the same per-episode results (``evaluate_ray``, docs/scaling.md).
The summary gives the win rate with a 95% Wilson interval, the loss causes L1-L6 (R6.3),
mean turns, treasures lifted, cards salvaged, and speed (games and decisions per second of
wall time, and the agent's own thinking time per decision).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import sys
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from . import actions as A
from .agents import make_agent
from .cli import natural_int, positive_float, positive_int, run, unit_fraction
from .config import METER_PRESETS, GameConfig
from .engine import State
from .errors import InputError
from .stats import wilson

LOSS_CAUSES = ("L1", "L2", "L3", "L4", "L5", "L6")
AGENT_STREAM = 0x5EED_A6E7  # mixed into the seed for the agent's generator
MAX_DECISIONS = 5000  # a safety net: no legal game is anywhere near this long


@dataclass
class Episode:
    """One game's result."""

    seed: int
    outcome: str
    turns: int
    lifted: int
    salvaged: int
    decisions: int
    agent_seconds: float
    max_decision_seconds: float = 0.0


def play_episode(agent, config: GameConfig, seed: int) -> Episode:
    """Play one game with ``agent`` deciding for every figure."""
    deal_rng = np.random.default_rng(seed)
    agent_rng = np.random.default_rng([seed, AGENT_STREAM])
    state = State.new(config, deal_rng)
    decisions = salvaged = 0
    think = longest = 0.0
    clock = time.perf_counter
    while state.outcome is None:
        t0 = clock()
        action = agent.act(state, agent_rng)
        dt = clock() - t0
        think += dt
        if dt > longest:
            longest = dt
        if state.pending is None and A.SALVAGE <= action < A.SALVAGE + 4:
            salvaged += 1
        state.apply(action, deal_rng)
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise RuntimeError(f"seed {seed}: no end after {MAX_DECISIONS} decisions")
    return Episode(
        seed, state.outcome, state.turn, sum(state.lifted), salvaged, decisions, think, longest
    )


# ---------------------------------------------------------------- worker processes
_WORKER: dict[str, Any] = {}


def _init_worker(spec: str, agent_kwargs: dict[str, Any], config: GameConfig) -> None:
    _WORKER.update(spec=spec, agent_kwargs=agent_kwargs, config=config, agent=None)


def _run_chunk(seeds: list[int]) -> list[Episode]:
    # The agent is built here, not in the pool's initializer: an error there (a corrupt
    # checkpoint) would make the pool respawn workers forever; here it reaches the caller.
    if _WORKER["agent"] is None:
        _WORKER["agent"] = make_agent(_WORKER["spec"], **_WORKER["agent_kwargs"])
    return [play_episode(_WORKER["agent"], _WORKER["config"], s) for s in seeds]


def _chunks(seeds: list[int], size: int) -> list[list[int]]:
    return [seeds[i : i + size] for i in range(0, len(seeds), size)]


BACKENDS = ("pool", "ray")
ADDRESS_NEEDS_RAY = "--address is for --backend ray; the process pool runs on this machine only"


def run_episodes(
    spec: str,
    config: GameConfig,
    seeds: Iterable[int],
    workers: int = 1,
    agent_kwargs: dict[str, Any] | None = None,
    progress: bool = True,
    desc: str | None = None,
    backend: str = "pool",
    address: str | None = None,
) -> list[Episode]:
    """Play one episode per seed (in parallel if ``workers > 1``); results sorted by seed.

    ``backend="ray"`` runs them as Ray tasks on every CPU of the cluster at ``address``
    (None: a local Ray; ``workers`` is then unused), with the same records for the same
    seeds (``evaluate_ray``).
    """
    if backend == "ray":
        from .evaluate_ray import run_episodes_ray

        return run_episodes_ray(spec, config, seeds, agent_kwargs, progress, desc, address)
    if backend != "pool":
        raise InputError(f"backend {backend!r}: expected one of {list(BACKENDS)}")
    if address is not None:
        raise InputError(ADDRESS_NEEDS_RAY)
    seeds = list(seeds)
    agent_kwargs = dict(agent_kwargs or {})
    bar = _progress(len(seeds), desc or spec, progress)
    results: list[Episode] = []
    try:
        if workers <= 1 or len(seeds) <= 1:
            _init_worker(spec, agent_kwargs, config)
            for s in seeds:
                results.append(_run_chunk([s])[0])
                bar.update(1)
        else:
            size = max(1, min(50, len(seeds) // (workers * 8)))
            ctx = mp.get_context("fork" if sys.platform.startswith("linux") else "spawn")
            with ctx.Pool(workers, _init_worker, (spec, agent_kwargs, config)) as pool:
                for chunk in pool.imap_unordered(_run_chunk, _chunks(seeds, size)):
                    results.extend(chunk)
                    bar.update(len(chunk))
    finally:
        bar.close()
    results.sort(key=lambda e: e.seed)
    return results


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress(total: int, desc: str, enabled: bool):
    if not enabled:
        return _NoBar()
    try:
        from tqdm import tqdm
    except ImportError:  # tqdm is in the [train] extra only
        return _NoBar()
    return tqdm(total=total, desc=desc, unit="game", file=sys.stderr, dynamic_ncols=True)


# ---------------------------------------------------------------- summary
def summarize(episodes: list[Episode], seconds: float | None = None) -> dict[str, Any]:
    """The statistics of a list of episodes (``seconds``: wall time, for the speeds)."""
    n = len(episodes)
    wins = sum(e.outcome == "win" for e in episodes)
    lo, hi = wilson(wins, n)
    causes = {c: sum(e.outcome == c for e in episodes) for c in LOSS_CAUSES}
    other = n - wins - sum(causes.values())
    if other:
        causes["other"] = other
    decisions = sum(e.decisions for e in episodes)
    think = sum(e.agent_seconds for e in episodes)
    mean = (lambda xs: sum(xs) / n) if n else (lambda xs: 0.0)
    out: dict[str, Any] = {
        "episodes": n,
        "wins": wins,
        "win_rate": wins / n if n else 0.0,
        "ci_low": lo,
        "ci_high": hi,
        "loss_causes": causes,
        "mean_turns": mean([e.turns for e in episodes]),
        "mean_turns_won": (
            sum(e.turns for e in episodes if e.outcome == "win") / wins if wins else None
        ),
        "mean_lifted": mean([e.lifted for e in episodes]),
        "mean_salvaged": mean([e.salvaged for e in episodes]),
        "decisions": decisions,
        "agent_seconds_per_decision": think / decisions if decisions else 0.0,
        "max_agent_seconds_per_decision": max(
            (e.max_decision_seconds for e in episodes), default=0.0
        ),
    }
    if seconds is not None:
        out["seconds"] = seconds
        out["games_per_second"] = n / seconds if seconds > 0 else None
        out["decisions_per_second"] = decisions / seconds if seconds > 0 else None
    return out


def evaluate(
    spec: str,
    players: int = 2,
    meter: str = "normal",
    taucher: bool = False,
    short_game: bool = False,
    episodes: int = 1000,
    seed: int = 0,
    workers: int | None = None,
    agent_kwargs: dict[str, Any] | None = None,
    progress: bool = True,
    details: bool = False,
    backend: str = "pool",
    address: str | None = None,
) -> dict[str, Any]:
    """Run the harness and return the summary dict (what ``--json`` prints); with
    ``backend="ray"``, ``workers`` is the Ray cluster's CPU count."""
    config = GameConfig.make(players=players, taucher=taucher, short_game=short_game, meter=meter)
    if backend == "ray":
        from .evaluate_ray import connect

        workers = connect(address)  # an unreachable address fails here, before any game
    workers = workers or os.cpu_count() or 1
    t0 = time.perf_counter()
    eps = run_episodes(
        spec,
        config,
        range(seed, seed + episodes),
        workers,
        agent_kwargs,
        progress,
        backend=backend,
        address=address,
    )
    seconds = time.perf_counter() - t0
    summary = {
        "agent": spec,
        "players": players,
        "meter": meter,
        "taucher": taucher,
        "short_game": short_game,
        "seed": seed,
        "workers": workers,
        "backend": backend,
        "agent_kwargs": dict(agent_kwargs or {}),
    }
    summary.update(summarize(eps, seconds))
    if details:
        summary["per_episode"] = [asdict(e) for e in eps]
    return summary


def format_summary(s: dict[str, Any]) -> str:
    variant = (
        ", ".join(
            v for v, on in (("Taucher", s["taucher"]), ("Kurzes Spiel", s["short_game"])) if on
        )
        or "plain"
    )
    causes = "  ".join(f"{c}: {k}" for c, k in s["loss_causes"].items())
    lines = [
        f"agent {s['agent']} | {s['players']} player(s), meter {s['meter']}, {variant} | "
        f"seeds {s['seed']}..{s['seed'] + s['episodes'] - 1}",
        f"win rate     {100 * s['win_rate']:.1f}%  ({s['wins']}/{s['episodes']}; 95% Wilson "
        f"interval {100 * s['ci_low']:.1f}-{100 * s['ci_high']:.1f}%)",
        f"losses       {causes}",
        f"mean turns   {s['mean_turns']:.2f}   treasures lifted {s['mean_lifted']:.2f}   "
        f"cards salvaged {s['mean_salvaged']:.2f}",
        f"speed        {s['games_per_second']:.1f} games/s, {s['decisions_per_second']:.0f} "
        f"decisions/s on {s['workers']} worker(s); agent "
        f"{1000 * s['agent_seconds_per_decision']:.3f} ms/decision (longest "
        f"{1000 * s['max_agent_seconds_per_decision']:.1f} ms); {s['seconds']:.1f} s",
    ]
    return "\n".join(lines)


# the search flags each agent kind takes (netsearch has no probe or candidate limit; its
# PUCT constant, heuristic prior and rollouts are its own)
SEARCH_FLAGS = {
    "search": ("simulations", "seconds", "probe", "max_candidates"),
    "netsearch": ("simulations", "seconds", "c_puct", "heuristic_prior", "rollout_depth"),
    "netflat": ("simulations", "seconds", "probe", "max_candidates", "rollout_depth"),
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
    p.add_argument("--players", type=int, default=2, choices=(1, 2, 3, 4))
    p.add_argument("--meter", default="normal", choices=sorted(METER_PRESETS))
    p.add_argument("--taucher", action="store_true", help="variant Taucher: swim for 1 action")
    p.add_argument("--short-game", action="store_true", help="variant Kurzes Spiel")
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


def check_backend_args(backend: str, address: str | None, workers: int | None) -> None:
    """One clear line for flag combinations a backend cannot run, before anything starts."""
    if backend == "pool" and address is not None:
        raise InputError(ADDRESS_NEEDS_RAY)
    if backend == "ray":
        if workers is not None:
            raise InputError(
                "--workers is for --backend pool; --backend ray uses every CPU "
                "of the Ray cluster (start it with the CPUs you want: "
                "`ray start --head --num-cpus N`)"
            )
        from .evaluate_ray import import_ray

        import_ray()  # not installed: one line saying how to install it


def main(argv: list[str] | None = None) -> None:
    """The command line (console script ``inselflucht-evaluate``); a bad agent or checkpoint
    is one line on stderr and exit status 2."""
    args = build_parser().parse_args(argv)
    run(lambda: _evaluate_and_print(args))


def _evaluate_and_print(args: argparse.Namespace) -> dict[str, Any]:
    agent_kwargs = _kwargs_from_args(args)
    check_backend_args(args.backend, args.address, args.workers)
    make_agent(args.agent, **agent_kwargs)  # a bad spec fails here, before any worker starts
    summary = evaluate(
        args.agent,
        args.players,
        args.meter,
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
    )
    if args.json:
        print(json.dumps(summary))
    else:
        print(format_summary(summary))
    return summary


if __name__ == "__main__":
    main()
