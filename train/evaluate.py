"""Evaluate an agent on a fixed set of deals: win rate, loss causes, speed.

    python -m train.evaluate --agent heuristic --players 2 --meter normal --episodes 1000
    python -m train.evaluate --agent search --episodes 200 --simulations 200 --json
    python -m train.evaluate --agent checkpoints/ppo_2p_normal --episodes 1000

Episode i is dealt with seed ``--seed + i``: that seed drives the deal and every flood
reshuffle (``State.new`` and ``apply``), and a separate generator derived from it is the
agent's own, so every agent plays exactly the same deals and flood orders as long as the
game goes the same way. Episodes run in ``--workers`` processes (default: all cores) with a
progress bar on stderr. The summary gives the win rate with a 95% Wilson interval, the loss
causes L1-L6 (R6.3), mean turns, treasures lifted, cards salvaged, and speed (games and
decisions per second of wall time, and the agent's own thinking time per decision).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import sys
import time
from dataclasses import asdict, dataclass
from typing import Any, Iterable

import numpy as np

from inselflucht_env import actions as A
from inselflucht_env.agents import make_agent
from inselflucht_env.config import METER_PRESETS, GameConfig
from inselflucht_env.engine import State
from train.stats import wilson

LOSS_CAUSES = ("L1", "L2", "L3", "L4", "L5", "L6")
AGENT_STREAM = 0x5EED_A6E7  # mixed into the seed for the agent's generator
MAX_DECISIONS = 5000        # a safety net: no legal game is anywhere near this long


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
    return Episode(seed, state.outcome, state.turn, sum(state.lifted), salvaged, decisions, think,
                   longest)


# ---------------------------------------------------------------- worker processes
_WORKER: dict[str, Any] = {}


def _init_worker(spec: str, agent_kwargs: dict[str, Any], config: GameConfig) -> None:
    _WORKER["agent"] = make_agent(spec, **agent_kwargs)
    _WORKER["config"] = config


def _run_chunk(seeds: list[int]) -> list[Episode]:
    agent, config = _WORKER["agent"], _WORKER["config"]
    return [play_episode(agent, config, s) for s in seeds]


def _chunks(seeds: list[int], size: int) -> list[list[int]]:
    return [seeds[i:i + size] for i in range(0, len(seeds), size)]


def run_episodes(spec: str, config: GameConfig, seeds: Iterable[int], workers: int = 1,
                 agent_kwargs: dict[str, Any] | None = None, progress: bool = True,
                 desc: str | None = None) -> list[Episode]:
    """Play one episode per seed (in parallel if ``workers > 1``); results sorted by seed."""
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
        "mean_turns_won": (sum(e.turns for e in episodes if e.outcome == "win") / wins
                           if wins else None),
        "mean_lifted": mean([e.lifted for e in episodes]),
        "mean_salvaged": mean([e.salvaged for e in episodes]),
        "decisions": decisions,
        "agent_seconds_per_decision": think / decisions if decisions else 0.0,
        "max_agent_seconds_per_decision": max((e.max_decision_seconds for e in episodes),
                                              default=0.0),
    }
    if seconds is not None:
        out["seconds"] = seconds
        out["games_per_second"] = n / seconds if seconds > 0 else None
        out["decisions_per_second"] = decisions / seconds if seconds > 0 else None
    return out


def evaluate(spec: str, players: int = 2, meter: str = "normal", taucher: bool = False,
             short_game: bool = False, episodes: int = 1000, seed: int = 0,
             workers: int | None = None, agent_kwargs: dict[str, Any] | None = None,
             progress: bool = True, details: bool = False) -> dict[str, Any]:
    """Run the harness and return the summary dict (what ``--json`` prints)."""
    config = GameConfig.make(players=players, taucher=taucher, short_game=short_game, meter=meter)
    workers = workers or os.cpu_count() or 1
    t0 = time.perf_counter()
    eps = run_episodes(spec, config, range(seed, seed + episodes), workers, agent_kwargs,
                       progress)
    seconds = time.perf_counter() - t0
    summary = {"agent": spec, "players": players, "meter": meter, "taucher": taucher,
               "short_game": short_game, "seed": seed, "workers": workers,
               "agent_kwargs": dict(agent_kwargs or {})}
    summary.update(summarize(eps, seconds))
    if details:
        summary["per_episode"] = [asdict(e) for e in eps]
    return summary


def format_summary(s: dict[str, Any]) -> str:
    variant = ", ".join(v for v, on in (("Taucher", s["taucher"]), ("Kurzes Spiel", s["short_game"]))
                        if on) or "plain"
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


def _kwargs_from_args(args: argparse.Namespace) -> dict[str, Any]:
    kw: dict[str, Any] = {}
    if args.agent == "search":
        for key in ("simulations", "seconds", "probe", "max_candidates"):
            value = getattr(args, key)
            if value is not None:
                kw[key] = value
    return kw


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m train.evaluate", description=__doc__.split("\n")[0])
    p.add_argument("--agent", default="heuristic",
                   help="random | heuristic | novice | search | a checkpoint path")
    p.add_argument("--players", type=int, default=2, choices=(1, 2, 3, 4))
    p.add_argument("--meter", default="normal", choices=sorted(METER_PRESETS))
    p.add_argument("--taucher", action="store_true", help="variant Taucher: swim for 1 action")
    p.add_argument("--short-game", action="store_true", help="variant Kurzes Spiel")
    p.add_argument("--episodes", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0, help="episode i uses seed + i")
    p.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--details", action="store_true", help="with --json: one record per episode")
    p.add_argument("--no-progress", action="store_true")
    g = p.add_argument_group("search agent")
    g.add_argument("--simulations", type=int, default=None, help="rollouts per decision at most")
    g.add_argument("--seconds", type=float, default=None, help="wall seconds per decision at most")
    g.add_argument("--probe", type=int, default=None,
                   help="rollouts of the heuristic's choice before searching alternatives")
    g.add_argument("--max-candidates", type=int, default=None)
    return p


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = build_parser().parse_args(argv)
    if args.episodes < 1:
        raise SystemExit("--episodes must be >= 1")
    summary = evaluate(args.agent, args.players, args.meter, args.taucher, args.short_game,
                       args.episodes, args.seed, args.workers, _kwargs_from_args(args),
                       progress=not args.no_progress, details=args.details)
    if args.json:
        print(json.dumps(summary))
    else:
        print(format_summary(summary))
    return summary


if __name__ == "__main__":
    main()
