"""How hard is Forbidden Island? Win rates over players x difficulty x roles, as a report.

    python -m train.difficulty_forbidden_island       # docs/difficulty_forbidden_island.*
    python -m train.difficulty_forbidden_island --games 100 --search-games 0 --out /tmp/fi.md

Plays every cell of players 2-4 x difficulty ``novice | normal | elite | legendary``
(FR2.3) x roles {random (dealt per game, FR2.2), and two fixed sets, ``ROLE_SETS``} with
the heuristic team (``--games`` per cell), the novice (the heuristic with a random slip at
20% of its decisions) and the determinized search (``--search-games`` per cell, on the
first of the heuristic's seeds, so the two are paired; ``--search-cells`` limits it to the
random-roles cells). Cell seeds are ``--seed + i`` for every agent. Writes

* ``docs/difficulty_forbidden_island.json``: every cell's summary and its outcomes by seed
  (``W`` a win, ``1``-``4`` the loss cause L1-L4);
* ``docs/difficulty_forbidden_island.md``: a table per agent of win rates with 95% Wilson
  intervals, the loss causes of the heuristic's games, and the paired search-vs-heuristic
  comparison (McNemar).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from inselflucht_env.cli.args import natural_int, run
from inselflucht_env.evaluation.harness import run_episodes, summarize
from inselflucht_env.evaluation.stats import mcnemar
from inselflucht_env.game import get_game
from train.json_file import write_json

GAME = "forbidden_island"
PLAYERS = (2, 3, 4)
DIFFICULTIES = ("novice", "normal", "elite", "legendary")
ROLE_SETS = {  # name -> the roles of the first n seats
    "random": None,
    "pilot, engineer, navigator, messenger": ("pilot", "engineer", "navigator", "messenger"),
    "diver, explorer, messenger, engineer": ("diver", "explorer", "messenger", "engineer"),
}
LOSS_CODES = {"win": "W", "L1": "1", "L2": "2", "L3": "3", "L4": "4"}


def cell_key(players: int, difficulty: str, roles: str) -> str:
    return f"{players}p/{difficulty}/{roles}"


def play_cell(
    agent: str, players: int, difficulty: str, roles: str, games: int, seed: int, kwargs: dict
) -> dict[str, Any]:
    """One cell: ``games`` deals from ``seed`` on, summarized, with the outcomes by seed."""
    fixed = ROLE_SETS[roles]
    config = get_game(GAME).make_config(
        players=players, difficulty=difficulty, roles=None if fixed is None else fixed[:players]
    )
    started = time.perf_counter()
    episodes = run_episodes(
        agent, config, range(seed, seed + games), agent_kwargs=kwargs, progress=False, game=GAME
    )
    summary = summarize(episodes, time.perf_counter() - started, get_game(GAME).losses)
    summary["outcomes"] = "".join(LOSS_CODES.get(e.outcome, "?") for e in episodes)
    return summary


def _pct(cell: dict[str, Any]) -> str:
    return f"{100 * cell['win_rate']:.1f}% ({100 * cell['ci_low']:.0f}–{100 * cell['ci_high']:.0f})"


def write_markdown(data: dict[str, Any], path: Path) -> None:
    lines = [
        "# How hard is Forbidden Island?",
        "",
        f"Written by `{data['command']}` ({data['seconds']:.0f} s). Win rate with its 95% "
        "Wilson interval, per players x difficulty (FR2.3), with random roles and two fixed "
        "role sets (the first n roles of each list). Seeds "
        f"{data['seed']}..{data['seed'] + data['games'] - 1} in every cell.",
    ]
    for agent, cells in data["agents"].items():
        lines += ["", f"## {agent}", "", "| roles | players | " + " | ".join(DIFFICULTIES) + " |"]
        lines.append("|---|---:|" + "---|" * len(DIFFICULTIES))
        for roles in ROLE_SETS:
            for players in PLAYERS:
                row = [cells.get(cell_key(players, d, roles)) for d in DIFFICULTIES]
                if not any(row):
                    continue
                text = [_pct(c) if c else "" for c in row]
                lines.append(f"| {roles} | {players} | " + " | ".join(text) + " |")
    heuristic = data["agents"].get("heuristic", {})
    if heuristic:
        lines += [
            "",
            "## How the heuristic loses",
            "",
            "| cell | games | " + " | ".join(get_game(GAME).losses) + " |",
            "|---|---:|" + "---:|" * len(get_game(GAME).losses),
        ]
        for key, cell in heuristic.items():
            causes = " | ".join(str(cell["loss_causes"].get(c, 0)) for c in get_game(GAME).losses)
            lines.append(f"| {key} | {cell['episodes']} | {causes} |")
    search = data["agents"].get("search", {})
    if search and heuristic:
        lines += [
            "",
            "## Search against the heuristic, paired deals",
            "",
            "| cell | games | search | heuristic | only search | only heuristic | McNemar p |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for key, s in search.items():
            h = heuristic[key]["outcomes"][: s["episodes"]]
            only_s = sum(a == "W" and b != "W" for a, b in zip(s["outcomes"], h))
            only_h = sum(b == "W" and a != "W" for a, b in zip(s["outcomes"], h))
            lines.append(
                f"| {key} | {s['episodes']} | {s['wins']} | {h.count('W')} | {only_s} | "
                f"{only_h} | {mcnemar(only_s, only_h):.3g} |"
            )
    path.write_text("\n".join(lines) + "\n")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m train.difficulty_forbidden_island", description=__doc__.split("\n")[0]
    )
    p.add_argument(
        "--games", type=natural_int, default=500, help="heuristic and novice games per cell"
    )
    p.add_argument("--search-games", type=natural_int, default=100, help="search games per cell")
    p.add_argument(
        "--simulations", type=natural_int, default=50, help="search rollouts per decision"
    )
    p.add_argument("--search-cells", choices=("random", "all"), default="random")
    p.add_argument("--seed", type=natural_int, default=0)
    p.add_argument("--workers", type=natural_int, default=1)
    p.add_argument("--out", default="docs/difficulty_forbidden_island.md")
    return p


def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    run(lambda: _main(args, argv))


def _main(args: argparse.Namespace, argv: list[str] | None) -> None:
    started = time.perf_counter()
    plan: list[tuple[str, int, dict[str, Any]]] = [
        ("heuristic", args.games, {}),
        ("novice", args.games, {}),
    ]
    if args.search_games:
        plan.append(("search", args.search_games, {"simulations": args.simulations}))
    agents: dict[str, dict[str, Any]] = {}
    for agent, games, kwargs in plan:
        cells: dict[str, Any] = {}
        for roles in ROLE_SETS:
            if agent == "search" and args.search_cells == "random" and roles != "random":
                continue
            for players in PLAYERS:
                for difficulty in DIFFICULTIES:
                    key = cell_key(players, difficulty, roles)
                    cells[key] = play_cell(
                        agent, players, difficulty, roles, games, args.seed, kwargs
                    )
                    print(f"{agent:9} {key:50} {_pct(cells[key])}", flush=True)
        agents[agent] = cells
    out = Path(args.out)
    command = " ".join(["python -m train.difficulty_forbidden_island", *(argv or [])])
    data = {
        "command": command,
        "seed": args.seed,
        "games": args.games,
        "search_games": args.search_games,
        "simulations": args.simulations,
        "seconds": time.perf_counter() - started,
        "agents": agents,
    }
    write_json(out.with_suffix(".json"), data)
    write_markdown(data, out)
    print(f"wrote {out} and {out.with_suffix('.json')}")


if __name__ == "__main__":
    main()
