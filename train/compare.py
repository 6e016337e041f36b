"""Compare two agents on the seeds both played (paired, exact McNemar test).

    python -m train.evaluate --agent heuristic --episodes 500 --json --details > h.json
    python -m train.evaluate --agent search --episodes 500 --json --details > s.json
    python -m train.compare s.json h.json

Both files are ``train.evaluate --json --details`` outputs for the same game settings. The
deals are fixed by the seeds, so a seed won by one agent and lost by the other is a paired
observation; the exact McNemar test asks whether those discordant seeds split evenly.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from inselflucht_env.stats import difference_ci, mcnemar, wilson

SETTINGS = ("players", "meter", "taucher", "short_game")


def compare(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Paired statistics of summary ``a`` against ``b`` (each with ``per_episode``)."""
    for key in SETTINGS:
        if a.get(key) != b.get(key):
            raise ValueError(f"the runs differ in {key}: {a.get(key)!r} vs {b.get(key)!r}")
    wa = {e["seed"]: e["outcome"] == "win" for e in a["per_episode"]}
    wb = {e["seed"]: e["outcome"] == "win" for e in b["per_episode"]}
    seeds = sorted(set(wa) & set(wb))
    if not seeds:
        raise ValueError("the runs share no seeds")
    only_a = sum(wa[s] and not wb[s] for s in seeds)
    only_b = sum(wb[s] and not wa[s] for s in seeds)
    n = len(seeds)
    ka, kb = sum(wa[s] for s in seeds), sum(wb[s] for s in seeds)
    d, lo, hi = difference_ci(only_a, only_b, n)
    return {
        "a": a["agent"],
        "b": b["agent"],
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
        "difference": d,
        "difference_ci": (lo, hi),
        "p_value": mcnemar(only_a, only_b),
    }


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
            f"  difference {100 * c['difference']:+.1f} points (paired 95% "
            f"{100 * c['difference_ci'][0]:+.1f} to {100 * c['difference_ci'][1]:+.1f}); exact "
            f"McNemar p = {c['p_value']:.3g}",
        ]
    )


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(prog="python -m train.compare", description=__doc__.split("\n")[0])
    p.add_argument("a", help="evaluate --json --details output of the first agent")
    p.add_argument("b", help="... of the second agent")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    c = compare(json.loads(Path(args.a).read_text()), json.loads(Path(args.b).read_text()))
    print(json.dumps(c) if args.json else format_comparison(c))
    return c


if __name__ == "__main__":
    main()
