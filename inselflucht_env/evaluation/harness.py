"""The evaluation harness: play an agent on a fixed set of deals and summarise win rate,
loss causes and speed.

``evaluate`` is what ``inselflucht-evaluate`` (``cli/evaluate.py``) runs: episode i is dealt
with seed ``seed + i`` (``episode.py``), on a backend (``pool``: processes here,
``pool.py``; ``ray``: every CPU of a Ray cluster, ``ray_backend.py``, docs/scaling.md) that
returns the same per-episode results. The summary gives the win rate with a 95% Wilson
interval, the loss causes L1-L6 (R6.3), mean turns, treasures lifted, cards salvaged, and
speed (games and decisions per second of wall time, and the agent's own thinking time per
decision).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from dataclasses import asdict
from typing import Any

from inselflucht_env.errors import InputError
from inselflucht_env.evaluation.episode import LOSS_CAUSES, Backend, Episode, EpisodeTask
from inselflucht_env.evaluation.pool import PoolBackend
from inselflucht_env.evaluation.stats import wilson
from inselflucht_env.game import get_game

BACKENDS = ("pool", "ray")
ADDRESS_NEEDS_RAY = "--address is for --backend ray; the process pool runs on this machine only"


def make_backend(name: str, workers: int = 1, address: str | None = None) -> Backend:
    """The backend called ``name`` (``BACKENDS``); Ray is imported only when asked for."""
    if name == "ray":
        from inselflucht_env.evaluation.ray_backend import RayBackend

        return RayBackend(address)
    if name != "pool":
        raise InputError(f"backend {name!r}: expected one of {list(BACKENDS)}")
    if address is not None:
        raise InputError(ADDRESS_NEEDS_RAY)
    return PoolBackend(workers)


def run_episodes(
    spec: str,
    config: Any,
    seeds: Iterable[int],
    workers: int = 1,
    agent_kwargs: dict[str, Any] | None = None,
    progress: bool = True,
    desc: str | None = None,
    backend: str = "pool",
    address: str | None = None,
    game: str = "inselflucht",
) -> list[Episode]:
    """Play one episode per seed (in parallel if ``workers > 1``); results sorted by seed.

    ``backend="ray"`` runs them as Ray tasks on every CPU of the cluster at ``address``
    (None: a local Ray; ``workers`` is then unused), with the same records for the same
    seeds.
    """
    runner = make_backend(backend, workers, address)
    task = EpisodeTask(spec, config, dict(agent_kwargs or {}), game)
    return runner.run(task, seeds, progress, desc)


def summarize(
    episodes: list[Episode],
    seconds: float | None = None,
    losses: tuple[str, ...] = LOSS_CAUSES,
) -> dict[str, Any]:
    """The statistics of a list of episodes (``seconds``: wall time, for the speeds;
    ``losses``: the game's loss codes, Inselflucht's by default)."""
    n = len(episodes)
    wins = sum(e.outcome == "win" for e in episodes)
    lo, hi = wilson(wins, n)
    causes = {c: sum(e.outcome == c for e in episodes) for c in losses}
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
    game: str = "inselflucht",
    variant: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Run the harness and return the summary dict (what ``--json`` prints); with
    ``backend="ray"``, ``workers`` is the Ray cluster's CPU count.

    ``meter``, ``taucher`` and ``short_game`` are Inselflucht's settings; another game
    takes its own from ``variant`` (Forbidden Island: ``difficulty``, ``roles``), and its
    defaults (``Game.variant_defaults``) fill the rest.
    """
    rules = get_game(game)
    if game == "inselflucht":
        if variant:
            raise InputError(f"inselflucht takes meter, taucher, short_game, not {sorted(variant)}")
        settings: dict[str, Any] = {"meter": meter, "taucher": taucher, "short_game": short_game}
    else:
        settings = {**rules.variant_defaults, **(variant or {})}
        unknown = sorted(set(settings) - set(rules.variant_defaults))
        if unknown:
            raise InputError(
                f"{game} has no setting {unknown}: it takes {sorted(rules.variant_defaults)}"
            )
    try:
        config = rules.make_config(players=players, **settings)
    except ValueError as err:
        raise InputError(f"{game}: {err}") from None
    runner = make_backend(backend, workers or os.cpu_count() or 1, address)
    workers = runner.cpus()
    task = EpisodeTask(spec, config, dict(agent_kwargs or {}), game)
    t0 = time.perf_counter()
    eps = runner.run(task, range(seed, seed + episodes), progress, None)
    seconds = time.perf_counter() - t0
    summary = {
        "game": game,
        "agent": spec,
        "players": players,
        **{k: list(v) if isinstance(v, tuple) else v for k, v in settings.items()},
        "seed": seed,
        "workers": workers,
        "backend": backend,
        "agent_kwargs": dict(agent_kwargs or {}),
    }
    summary.update(summarize(eps, seconds, rules.losses))
    if details:
        summary["per_episode"] = [asdict(e) for e in eps]
    return summary


def format_summary(s: dict[str, Any]) -> str:
    if s.get("game", "inselflucht") == "inselflucht":
        variant = ", ".join(
            v for v, on in (("Taucher", s["taucher"]), ("Kurzes Spiel", s["short_game"])) if on
        )
        setting = f"meter {s['meter']}, {variant or 'plain'}"
    else:
        roles = s.get("roles")
        setting = f"{s['game']}, {s['difficulty']}, roles {'/'.join(roles) if roles else 'random'}"

    causes = "  ".join(f"{c}: {k}" for c, k in s["loss_causes"].items())
    lines = [
        f"agent {s['agent']} | {s['players']} player(s), {setting} | "
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
        from inselflucht_env.evaluation.ray_backend import import_ray

        import_ray()  # not installed: one line saying how to install it
