"""Record a guided search's result against the plain search in a shipped network's metadata.

    python -m train.tools.record_search checkpoints/exit_2p_schwer_dagger \\
        g_0_299.json+g_300_599.json s_0_299.json+s_300_599.json

``train.ship`` evaluates the raw network; the search it guides is far too slow for that (a
few hundred deals take core-hours), so it is evaluated by hand, often in sittings:
``train.evaluate --agent netflat:checkpoints/NAME --simulations 100 ... --json --details``
and the plain ``search`` at the same budget on the same seeds. This tool joins those files
(``+``, as in ``train.compare``), checks that they are what they claim -- the guided side
searches with this checkpoint's network, the other is the plain search, both at the same
rollout budget and in the game the network was trained for -- and writes the paired result
under ``guided_search.<kind>`` (``netflat`` or ``netsearch``) in ``metadata.json``: each
side's wins, interval and time per decision on the shared seeds, the exact McNemar test,
and the command that reproduces each side. Re-shipping the network (``train.ship``) starts
its metadata afresh, so a record never outlives the weights it was measured with.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from inselflucht_env.cli.args import run
from inselflucht_env.errors import InputError
from inselflucht_env.learned.checkpoint import read_metadata, record_result
from inselflucht_env.learned.shipped import resolve
from train.compare import SETTINGS, compare, format_comparison, read_side

GUIDED_KINDS = ("netflat", "netsearch")
METADATA_KEY = "guided_search"


def _check_guided(guided: dict[str, Any], folder: Path) -> str:
    """The guided side's agent kind; ``InputError`` unless it searches with ``folder``."""
    kind, _, path = str(guided["agent"]).partition(":")
    if kind not in GUIDED_KINDS or not path:
        raise InputError(
            f"the guided side is {guided['agent']!r}, not a search guided by a network "
            f"({' or '.join(k + ':CHECKPOINT' for k in GUIDED_KINDS)})"
        )
    if resolve(path).resolve() != folder.resolve():
        raise InputError(f"the guided side searched with {path}, not with {folder}")
    return kind


def _check_budgets(guided: dict[str, Any], plain: dict[str, Any]) -> None:
    """``InputError`` unless the second side is the plain search at the guided one's budget."""
    if plain["agent"] != "search":
        raise InputError(f"the second side is {plain['agent']!r}, not the plain search")
    budget = [(side.get("agent_kwargs") or {}).get("simulations") for side in (guided, plain)]
    if None in budget or budget[0] != budget[1]:
        raise InputError(
            f"the two searches must name the same --simulations budget, got {budget[0]} "
            f"(guided) and {budget[1]} (plain)"
        )


def _check_game(side: dict[str, Any], env: dict[str, Any]) -> None:
    """``InputError`` unless ``side`` played the game the network was trained for."""
    for key in SETTINGS:
        if side.get(key) != env[key]:
            raise InputError(
                f"{side['agent']} played {key}={side.get(key)!r}, the network was trained "
                f"for {key}={env[key]!r}"
            )


def command(side: dict[str, Any], seeds: Sequence[int]) -> str:
    """The ``train.evaluate`` command that plays ``side``'s agent on ``seeds`` (consecutive)."""
    options = [
        f"--agent {side['agent']}",
        f"--players {side['players']}",
        f"--meter {side['meter']}",
        *(["--taucher"] if side["taucher"] else []),
        *(["--short-game"] if side["short_game"] else []),
        *(f"--{k.replace('_', '-')} {v}" for k, v in sorted(side["agent_kwargs"].items())),
        f"--episodes {len(seeds)} --seed {seeds[0]} --json --details",
    ]
    return "python -m train.evaluate " + " ".join(options)


def _figures(side: dict[str, Any], paired: dict[str, Any], which: str) -> dict[str, Any]:
    """``side``'s wins and interval on the shared seeds (from ``paired``, where it is side
    ``which``, "a" or "b"), its time per decision there and the command that plays them."""
    seeds = range(paired["first_seed"], paired["last_seed"] + 1)
    episodes = [e for e in side["per_episode"] if e["seed"] in seeds]
    seconds = sum(e["agent_seconds"] for e in episodes)
    return {
        "agent": side["agent"],
        "agent_kwargs": side["agent_kwargs"],
        "episodes": paired["seeds"],
        "wins": paired[f"wins_{which}"],
        "win_rate": paired[f"win_rate_{which}"],
        "ci": paired[f"ci_{which}"],
        "agent_seconds_per_decision": seconds / sum(e["decisions"] for e in episodes),
        "command": command(side, seeds),
    }


def record_guided_search(
    checkpoint: str | Path, guided: dict[str, Any], plain: dict[str, Any]
) -> dict[str, Any]:
    """Check ``guided`` (joined ``train.evaluate`` summaries of a search guided by
    ``checkpoint``) and ``plain`` (the plain search), and store their paired result in the
    checkpoint's metadata under ``guided_search.<kind>``; returns that record."""
    folder, meta = read_metadata(resolve(checkpoint))
    kind = _check_guided(guided, folder)
    _check_budgets(guided, plain)
    env = (meta.get("config") or {}).get("env")
    if not isinstance(env, dict):
        raise InputError(f"{folder}: its metadata names no game (config.env) to check against")
    for side in (guided, plain):
        _check_game(side, env)
    paired = compare(guided, plain)
    first, last, shared = paired["first_seed"], paired["last_seed"], paired["seeds"]
    if last - first + 1 != shared:
        raise InputError(
            f"the shared seeds {first}..{last} have gaps ({shared} of them): "
            "evaluate both agents on one consecutive range"
        )
    record = {
        "guided": _figures(guided, paired, "a"),
        "plain_search": _figures(plain, paired, "b"),
        "paired_vs_plain_search": paired,
    }
    record_result(folder, METADATA_KEY, {**meta.get(METADATA_KEY, {}), kind: record})
    return record


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(
        prog="python -m train.tools.record_search", description=__doc__.split("\n")[0]
    )
    p.add_argument("checkpoint", help="the shipped network (folder or name)")
    p.add_argument(
        "guided",
        help="train.evaluate --json --details output of netflat:/netsearch:CHECKPOINT "
        "(several on disjoint seeds: joined with +)",
    )
    p.add_argument("plain", help="... of the plain search at the same --simulations")
    args = p.parse_args(argv)

    def recorded() -> dict[str, Any]:
        record = record_guided_search(
            args.checkpoint, read_side(args.guided), read_side(args.plain)
        )
        print(format_comparison(record["paired_vs_plain_search"]))
        for side in ("guided", "plain_search"):
            seconds = 1000 * record[side]["agent_seconds_per_decision"]
            print(f"  {record[side]['agent']}: {seconds:.0f} ms per decision")
        print(f"recorded in {resolve(args.checkpoint)}")
        return record

    return run(recorded)


if __name__ == "__main__":
    main()
