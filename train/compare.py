"""Compare two agents on the seeds both played (paired, exact McNemar test).

    python -m train.evaluate --agent heuristic --episodes 500 --json --details > h.json
    python -m train.evaluate --agent search --episodes 500 --json --details > s.json
    python -m train.compare s.json h.json

Both files are ``train.evaluate --json --details`` outputs for the same game settings. The
deals are fixed by the seeds, so a seed won by one agent and lost by the other is a paired
observation; the exact McNemar test asks whether those discordant seeds split evenly. How
each agent lost the deals that only the other won (R6.3's L1-L6, or an illegal action)
says where the weaker one falls short, e.g. places cut off (L4) or time run out (L6).

A side may be several files joined with ``+``: runs of one agent (same settings and agent
options) on disjoint seeds, e.g. a slow search evaluated in two sittings::

    python -m train.compare g.json s_0_99.json+s_100_299.json
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from inselflucht_env.cli.args import run
from inselflucht_env.errors import InputError
from inselflucht_env.evaluation.stats import difference_ci, mcnemar, wilson
from inselflucht_env.games.inselflucht.rules.engine import OUTCOMES
from train.json_file import read_evaluation

SETTINGS = ("players", "meter", "taucher", "short_game")
SAME_RUN = ("agent", *SETTINGS, "agent_kwargs")  # what joined runs must share


def join(parts: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One summary (agent, settings, options, ``per_episode``) of runs of one agent on
    disjoint seeds; ``InputError`` if they differ in any of those or share a seed."""
    first = parts[0]
    seen: dict[int, int] = {}  # seed -> the run (counted from 1) that played it
    for i, part in enumerate(parts):
        for key in SAME_RUN:
            if part.get(key) != first.get(key):
                raise InputError(
                    f"cannot join run {i + 1} to run 1: they differ in {key} "
                    f"({part.get(key)!r} vs {first.get(key)!r})"
                )
        for e in part["per_episode"]:
            if e["seed"] in seen:
                raise InputError(
                    f"cannot join runs {seen[e['seed']]} and {i + 1}: both played seed {e['seed']}"
                )
            seen[e["seed"]] = i + 1
    episodes = sorted((e for part in parts for e in part["per_episode"]), key=lambda e: e["seed"])
    return {**{k: first.get(k) for k in SAME_RUN}, "per_episode": episodes}


def _label(run: dict[str, Any], other: dict[str, Any]) -> str:
    """The agent's name, with its options where the other run is the same agent with
    different ones (``netsearch:x (c_puct=2.0, simulations=100)``)."""
    kwargs = run.get("agent_kwargs") or {}
    if run["agent"] != other["agent"] or kwargs == (other.get("agent_kwargs") or {}):
        return run["agent"]
    return f"{run['agent']} ({', '.join(f'{k}={v}' for k, v in sorted(kwargs.items()))})"


def loss_causes(outcomes: dict[int, str], seeds: Sequence[int]) -> dict[str, int]:
    """How many of ``seeds`` ended in each loss (``engine.OUTCOMES`` order, none left out
    but those that never happened)."""
    counts = {o: sum(outcomes[s] == o for s in seeds) for o in OUTCOMES if o != "win"}
    return {o: n for o, n in counts.items() if n}


def compare(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Paired statistics of summary ``a`` against ``b`` (each with ``per_episode``)."""
    for key in SETTINGS:
        if a.get(key) != b.get(key):
            raise InputError(f"the runs differ in {key}: {a.get(key)!r} vs {b.get(key)!r}")
    oa = {e["seed"]: e["outcome"] for e in a["per_episode"]}
    ob = {e["seed"]: e["outcome"] for e in b["per_episode"]}
    wa, wb = ({s: o == "win" for s, o in out.items()} for out in (oa, ob))
    seeds = sorted(set(wa) & set(wb))
    if not seeds:
        raise InputError("the runs share no seeds")
    seeds_only_a = [s for s in seeds if wa[s] and not wb[s]]
    seeds_only_b = [s for s in seeds if wb[s] and not wa[s]]
    only_a, only_b = len(seeds_only_a), len(seeds_only_b)
    n = len(seeds)
    ka, kb = sum(wa[s] for s in seeds), sum(wb[s] for s in seeds)
    d, lo, hi = difference_ci(only_a, only_b, n)
    return {
        "a": _label(a, b),
        "b": _label(b, a),
        "seeds": n,
        "first_seed": seeds[0],
        "last_seed": seeds[-1],
        "wins_a": ka,
        "wins_b": kb,
        "win_rate_a": ka / n,
        "ci_a": wilson(ka, n),
        "win_rate_b": kb / n,
        "ci_b": wilson(kb, n),
        "only_a": only_a,
        "only_b": only_b,
        "a_lost_only_b_won": loss_causes(oa, seeds_only_b),
        "b_lost_only_a_won": loss_causes(ob, seeds_only_a),
        "difference": d,
        "difference_ci": (lo, hi),
        "p_value": mcnemar(only_a, only_b),
    }


def _causes(counts: dict[str, int]) -> str:
    return ", ".join(f"{cause} {n}" for cause, n in counts.items()) or "none"


def format_comparison(c: dict[str, Any]) -> str:
    pa, pb = 100 * c["win_rate_a"], 100 * c["win_rate_b"]
    return "\n".join(
        [
            f"{c['a']} vs {c['b']} on {c['seeds']} shared seeds "
            f"({c['first_seed']}..{c['last_seed']})",
            f"  {c['a']}: {c['wins_a']} wins = {pa:.1f}% (95% {100 * c['ci_a'][0]:.1f}-"
            f"{100 * c['ci_a'][1]:.1f}%)",
            f"  {c['b']}: {c['wins_b']} wins = {pb:.1f}% (95% {100 * c['ci_b'][0]:.1f}-"
            f"{100 * c['ci_b'][1]:.1f}%)",
            f"  won only by {c['a']}: {c['only_a']}, only by {c['b']}: {c['only_b']}",
            f"  how {c['a']} lost the deals only {c['b']} won: {_causes(c['a_lost_only_b_won'])}",
            f"  how {c['b']} lost the deals only {c['a']} won: {_causes(c['b_lost_only_a_won'])}",
            f"  difference {100 * c['difference']:+.1f} points (paired 95% "
            f"{100 * c['difference_ci'][0]:+.1f} to {100 * c['difference_ci'][1]:+.1f}); exact "
            f"McNemar p = {c['p_value']:.3g}",
        ]
    )


def read_side(paths: str) -> dict[str, Any]:
    """The summary in ``paths``: one ``evaluate --json --details`` file, or several joined
    with ``+`` (``join``)."""
    parts = []
    for path in paths.split("+"):
        summary = read_evaluation(path, path)
        if "per_episode" not in summary:
            raise InputError(
                f"{path}: no per_episode records (run train.evaluate --json --details)"
            )
        parts.append(summary)
    return join(parts)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(prog="python -m train.compare", description=__doc__.split("\n")[0])
    p.add_argument(
        "a",
        help="evaluate --json --details output of the first agent (several on disjoint "
        "seeds: joined with +)",
    )
    p.add_argument("b", help="... of the second agent")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)

    def compared() -> dict[str, Any]:
        c = compare(read_side(args.a), read_side(args.b))
        print(json.dumps(c) if args.json else format_comparison(c))
        return c

    return run(compared)


if __name__ == "__main__":
    main()
