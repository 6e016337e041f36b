"""How hard is Inselflucht? Win rates over players x meter x variant, as a report and a plot.

    python -m train.difficulty                      # the full grid, writes docs/difficulty.*
    python -m train.difficulty --heuristic-games 200 --search-games 0 --out /tmp/d.md
    python -m train.difficulty --from-json docs/difficulty.json   # redraw only
    python -m train.difficulty --from-json docs/difficulty.json \
        --network checkpoints/exit_2p_normal      # add a learned network's grid
    python -m train.difficulty --backend ray --address auto      # on a Ray cluster

Plays every cell of players 1-4 x meter ``leicht | normal | schwer`` (R7.3) x {plain,
Taucher (R7.1), Kurzes Spiel (R7.2)} with the heuristic (an expert team), the novice (the
heuristic with a random slip at 20% of its decisions: a beginner team) and the search
agent (a stronger, slower team: fewer games, ``--search-variants`` to play only some
cells), and any trained network (``--network CHECKPOINT``, repeatable: its raw policy,
fast enough for ``--network-games`` 1,000 per cell), on the same seeds for all (cell seeds
``--seed + i``; the search plays the first ``--search-games`` of the heuristic's seeds, so
the two are paired). The headline and the plot's top row show, per cell, the strongest
measured team (``strongest``), and it writes

* ``docs/difficulty.json``: every cell's summary (``train.evaluate.summarize``) and its
  outcomes by seed (``W`` a win, ``1``-``6`` the loss cause L1-L6);
* ``docs/difficulty.md``: tables of win rates with 95% Wilson intervals, games per cell,
  loss causes, and the paired comparison of the two agents;
* ``docs/difficulty.png``: win rate against players, one panel per variant, one line per
  meter, with the intervals as error bars.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from inselflucht_env.agents import AGENT_NAMES, NOVICE_EPSILON, make_agent
from inselflucht_env.cli.args import natural_int, positive_float, positive_int, run
from inselflucht_env.errors import InputError
from inselflucht_env.evaluation.harness import (
    BACKENDS,
    LOSS_CAUSES,
    check_backend_args,
    run_episodes,
    summarize,
)
from inselflucht_env.evaluation.stats import mcnemar
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from train.json_file import read_evaluation, write_json

PLAYERS = (1, 2, 3, 4)
METERS = ("leicht", "normal", "schwer")
VARIANTS = {"plain": (False, False), "Taucher": (True, False), "Kurzes Spiel": (False, True)}
HEADLINE = (2, "normal", "plain")
NOT_STRONG = ("novice", "random")  # beginner and random teams never count as "strong"
STRONGEST = "strongest measured team"
DEFAULT_JSON = "docs/difficulty.json"


def encode_outcomes(outcomes: list[str]) -> str:
    """Outcomes by seed as one string: ``W`` for a win, ``1``-``6`` for L1-L6."""
    return "".join("W" if o == "win" else o[1:] if o.startswith("L") else "?" for o in outcomes)


def decode_outcomes(text: str | list[str]) -> list[str]:
    if isinstance(text, list):
        return text
    return ["win" if ch == "W" else f"L{ch}" for ch in text]


def cell_key(players: int, meter: str, variant: str) -> str:
    return f"{players}p/{meter}/{variant}"


def strongest(grids: dict[str, dict[str, Any]], key: str) -> tuple[str, dict[str, Any]] | None:
    """The strongest measured team in one cell: the agent with the highest lower end of the
    95% Wilson interval (more games breaking ties), so that 8 lucky games do not outrank a
    thousand; the novice and random teams are left out. ``None`` if no such agent played it.
    """
    played = [
        (agent, grid[key])
        for agent, grid in grids.items()
        if agent not in NOT_STRONG and key in grid
    ]
    if not played:
        return None
    return max(played, key=lambda t: (t[1]["ci_low"], t[1]["episodes"]))


def strongest_grid(grids: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every played cell's strongest team, as a grid whose cells also name their ``agent``."""
    out: dict[str, dict[str, Any]] = {}
    for players, meter, variant in ((p, m, v) for v in VARIANTS for m in METERS for p in PLAYERS):
        key = cell_key(players, meter, variant)
        best = strongest(grids, key)
        if best:
            out[key] = {**best[1], "agent": best[0]}
    return out


def run_grid(
    agent: str,
    games: int,
    seed: int,
    workers: int,
    agent_kwargs: dict[str, Any],
    cells: list[tuple[int, str, str]],
    headline_games: int | None = None,
    backend: str = "pool",
    address: str | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for players, meter, variant in cells:
        taucher, short = VARIANTS[variant]
        n = headline_games if (headline_games and (players, meter, variant) == HEADLINE) else games
        if n <= 0:
            continue
        config = GameConfig.make(players=players, taucher=taucher, short_game=short, meter=meter)
        t0 = time.perf_counter()
        eps = run_episodes(
            agent,
            config,
            range(seed, seed + n),
            workers,
            agent_kwargs,
            desc=f"{agent} {cell_key(players, meter, variant)}",
            backend=backend,
            address=address,
        )
        summary = summarize(eps, time.perf_counter() - t0)
        summary["outcomes"] = encode_outcomes([e.outcome for e in eps])
        summary.update(players=players, meter=meter, variant=variant, seed=seed)
        out[cell_key(players, meter, variant)] = summary
    return out


def _run_variant(run: dict[str, Any], seed: int, source: str) -> str:
    """The variant of a harness run that can be merged into a grid of ``seed``, or
    ``InputError`` saying why it cannot."""
    by_flags: dict[tuple[Any, Any], str] = {flags: name for name, flags in VARIANTS.items()}
    variant = by_flags.get((run.get("taucher"), run.get("short_game")))
    if variant is None or run.get("meter") not in METERS or "per_episode" not in run:
        raise InputError(
            f"--merge-run {source}: not a grid cell with per-episode details "
            "(python -m train.evaluate --json --details)"
        )
    if run.get("seed") != seed:
        raise InputError(
            f"--merge-run {source}: seeds start at {run.get('seed')}, the grid's at "
            f"{seed}; the cells would not be paired"
        )
    return variant


def read_merge_runs(paths: list[str], seed: int) -> list[tuple[str, dict[str, Any]]]:
    """Every ``--merge-run`` file read and checked before any game is played."""
    runs = []
    for path in paths:
        run = read_evaluation(path, f"--merge-run {path}")
        _run_variant(run, seed, path)
        runs.append((path, run))
    return runs


def merge_run(data: dict[str, Any], run: dict[str, Any], source: str) -> str:
    """Put a harness run (``evaluate --json --details``) into the grid as its cell."""
    variant = _run_variant(run, data["meta"]["seed"], source)
    agent = run["agent"]
    cell = {k: v for k, v in run.items() if k != "per_episode"}
    cell["outcomes"] = encode_outcomes(
        [e["outcome"] for e in sorted(run["per_episode"], key=lambda e: e["seed"])]
    )
    cell["variant"] = variant
    cell["source"] = source
    key = cell_key(run["players"], run["meter"], variant)
    data["agents"].setdefault(agent, {})[key] = cell
    merged = [m for m in data["meta"].get("merged", []) if (m["agent"], m["cell"]) != (agent, key)]
    merged.append(
        {
            "agent": agent,
            "cell": key,
            "source": source,
            "episodes": run["episodes"],
            "workers": run.get("workers"),
            "agent_kwargs": run.get("agent_kwargs"),
        }
    )
    data["meta"]["merged"] = merged
    return key


# ---------------------------------------------------------------- report
def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _cell_text(c: dict[str, Any] | None, with_agent: bool = False) -> str:
    if not c:
        return "–"
    half = (c["ci_high"] - c["ci_low"]) / 2
    who = f", {c['agent']}" if with_agent else ""
    return f"{_pct(c['win_rate'])} ±{_pct(half)} (n={c['episodes']}{who})"


def _grid_table(grid: dict[str, Any], with_agent: bool = False) -> list[str]:
    """A grid as a markdown table: one row per players x variant played, meters across."""
    lines = [
        "| players | variant | " + " | ".join(METERS) + " |",
        "|---|---|" + "---|" * len(METERS),
    ]
    for variant in VARIANTS:
        for players in PLAYERS:
            cells = [grid.get(cell_key(players, m, variant)) for m in METERS]
            if any(cells):
                row = [_cell_text(c, with_agent) for c in cells]
                lines.append(f"| {players} | {variant} | " + " | ".join(row) + " |")
    return lines


def paired(h: dict[str, Any], s: dict[str, Any]) -> dict[str, Any]:
    """McNemar on the seeds both agents played (the search's seeds are the first ones)."""
    ho, so = decode_outcomes(h["outcomes"]), decode_outcomes(s["outcomes"])
    n = min(len(ho), len(so))
    hw = [o == "win" for o in ho[:n]]
    sw = [o == "win" for o in so[:n]]
    only_s = sum(b and not a for a, b in zip(hw, sw))
    only_h = sum(a and not b for a, b in zip(hw, sw))
    return {
        "n": n,
        "heuristic_wins": sum(hw),
        "search_wins": sum(sw),
        "only_search": only_s,
        "only_heuristic": only_h,
        "p_value": mcnemar(only_s, only_h),
    }


def write_markdown(data: dict[str, Any], path: Path, plot_name: str | None) -> None:
    meta = data["meta"]
    grids = data["agents"]
    lines = [
        "# How hard is Inselflucht?",
        "",
        f"Generated by `{meta.get('command', 'python -m train.difficulty')}` "
        f"({meta['date']}, {meta['seconds'] / 60:.0f} min on {meta['workers']} worker(s)). "
        "Win rates in percent with the half-width of the 95% Wilson interval and the "
        "games played per cell; every cell uses the seeds "
        f"{meta['seed']}, {meta['seed'] + 1}, … (the search agent the first of them, so "
        "its results are paired with the heuristic's).",
        "",
    ]
    for m in meta.get("merged", []):
        kw = m.get("agent_kwargs") or {}
        lines.append(
            f"The {m['agent']} cell {m['cell']} comes from a separate, longer run, "
            f"`python -m train.evaluate --agent {m['agent']} --episodes "
            f"{m.get('episodes')} --json --details` "
            + (f"(agent settings {kw})" if kw else "(the agent's default settings)")
            + f", on the same seeds: `{m['source']}`, merged with `--merge-run`."
        )
        lines.append("")
    for n in meta.get("networks", []):
        lines.append(
            f"The {n['agent']} grid ({n['games']} games per cell, "
            f"{'/'.join(map(str, n.get('players', PLAYERS)))} players; its raw policy: the argmax "
            f"of its masked policy, no search) comes from `{n['command']}` ({n['date']}, "
            f"{n['seconds'] / 60:.0f} min on {n['workers']} worker(s))."
        )
        lines.append("")
    h = grids.get("heuristic", {})
    s = grids.get("search", {})
    best = strongest_grid(grids)
    hk = cell_key(*HEADLINE)
    lines += ["## Headline", ""]
    if hk in best:
        c = best[hk]
        four = [
            f"{m} {_pct(best[k]['win_rate'])}% ({best[k]['agent']})"
            for m in METERS
            if (k := cell_key(4, m, "plain")) in best
        ]
        lines.append(
            f"* **How often a strong team wins** (the strongest measured team per cell, "
            f"see below), 2 players, normal meter, no variant: **{_pct(c['win_rate'])}%** "
            f"({_pct(c['ci_low'])}–{_pct(c['ci_high'])}%, {c['episodes']} games, by "
            f"{c['agent']})" + (f"; at 4 players {', '.join(four)}." if four else ".")
        )
    if hk in h:
        c = h[hk]
        lines.append(
            f"* **2 players, normal meter, no variant**: the heuristic team wins "
            f"**{_pct(c['win_rate'])}%** of {c['episodes']} games "
            f"(95% interval {_pct(c['ci_low'])}–{_pct(c['ci_high'])}%)."
        )
    if hk in s:
        c = s[hk]
        lines.append(
            f"* The search agent wins **{_pct(c['win_rate'])}%** of {c['episodes']} "
            f"games there ({_pct(c['ci_low'])}–{_pct(c['ci_high'])}%)."
        )
        if hk in h:
            pr = paired(h[hk], s[hk])
            lines.append(
                f"* Paired on the same {pr['n']} seeds: heuristic {pr['heuristic_wins']}"
                f", search {pr['search_wins']} wins; won only by search "
                f"{pr['only_search']}, only by the heuristic {pr['only_heuristic']} "
                f"(exact McNemar p = {pr['p_value']:.3g})."
            )
    if h:
        easiest = max(h.values(), key=lambda c: (c["win_rate"], -c["players"]))
        hardest = min(h.values(), key=lambda c: c["win_rate"])
        lines.append(
            f"* Easiest cell for the heuristic: {easiest['players']} player(s), "
            f"{easiest['meter']}, {easiest['variant']} ({_pct(easiest['win_rate'])}%); "
            f"hardest: {hardest['players']} player(s), {hardest['meter']}, "
            f"{hardest['variant']} ({_pct(hardest['win_rate'])}%)."
        )
    nv = grids.get("novice", {})
    if nv:
        opts = [(f"{m}, {v}", nv.get(cell_key(2, m, v))) for v in VARIANTS for m in METERS]
        opts = [(name, c) for name, c in opts if c]
        if opts:
            ranked = sorted(opts, key=lambda t: -t[1]["win_rate"])
            base = nv.get(cell_key(2, "normal", "plain"))
            singles = [(v, nv.get(cell_key(2, "normal", v))) for v in ("Taucher", "Kurzes Spiel")]
            singles.append(("the leicht meter", nv.get(cell_key(2, "leicht", "plain"))))
            singles = [(v, c) for v, c in singles if c]
            if base and singles:
                singles.sort(key=lambda t: -t[1]["win_rate"])
                (v, c), rest = singles[0], singles[1:]
                close = [
                    f"{v2} {_pct(c2['win_rate'])}% ({_pct(c2['ci_low'])}–{_pct(c2['ci_high'])})"
                    for v2, c2 in rest
                    if c2["ci_high"] >= c["ci_low"]
                ]
                lines.append(
                    f"* **For beginners**: the single change that helps a beginner team "
                    f"(2 players) most is **{v}**: {_pct(c['win_rate'])}% "
                    f"({_pct(c['ci_low'])}–{_pct(c['ci_high'])}) instead of "
                    f"{_pct(base['win_rate'])}% in the plain normal game"
                    + (f", within the noise of {', '.join(close)}" if close else "")
                    + f"; best of all is {ranked[0][0]} "
                    f"({_pct(ranked[0][1]['win_rate'])}%)."
                )
            lines.append(
                "* A **beginner team** (the novice: the heuristic with a random slip at "
                f"{100 * NOVICE_EPSILON:.0f}% of its decisions), 2 players: "
                + "; ".join(f"{name} {_pct(c['win_rate'])}%" for name, c in ranked)
                + "."
            )
    lines.append("")
    if plot_name:
        lines += [f"![win rates]({plot_name})", ""]
    if best:
        lines += [
            "## Strongest measured team per cell",
            "",
            "The agent with the highest lower end of its 95% interval among those that "
            "played the cell (not the novice), so a handful of lucky games does not outrank "
            f"a thousand ({', '.join(sorted({c['agent'] for c in best.values()}))} appear). "
            "Win rate % ±95% half-width (games, agent):",
            "",
            *_grid_table(best, with_agent=True),
            "",
        ]
    for agent, grid in grids.items():
        if not grid:
            continue
        kw = meta["agent_kwargs"].get(agent) or {}
        lines += [
            f"## {agent}" + (f" ({', '.join(f'{k}={v}' for k, v in kw.items())})" if kw else ""),
            "",
            "Win rate % ±95% half-width (games):",
            "",
            *_grid_table(grid),
        ]
        lines += [
            "",
            "Loss causes (games), mean turns, treasures lifted, agent time:",
            "",
            "| cell | games | wins | "
            + " | ".join(LOSS_CAUSES)
            + " | mean turns | lifted | ms/decision |",
            "|---|---|---|" + "---|" * len(LOSS_CAUSES) + "---|---|---|",
        ]
        for key, c in grid.items():
            lines.append(
                f"| {key} | {c['episodes']} | {c['wins']} | "
                + " | ".join(str(c["loss_causes"].get(k, 0)) for k in LOSS_CAUSES)
                + f" | {c['mean_turns']:.1f} | {c['mean_lifted']:.2f} | "
                f"{1000 * c['agent_seconds_per_decision']:.2f} |"
            )
        lines.append("")
    if h and s:
        lines += [
            "## Search against heuristic, paired per cell",
            "",
            "| cell | seeds | heuristic wins | search wins | only search | only heuristic "
            "| McNemar p |",
            "|---|---|---|---|---|---|---|",
        ]
        tot = {"n": 0, "heuristic_wins": 0, "search_wins": 0, "only_search": 0, "only_heuristic": 0}
        for key in s:
            if key in h:
                pr = paired(h[key], s[key])
                for k in tot:
                    tot[k] += pr[k]
                lines.append(
                    f"| {key} | {pr['n']} | {pr['heuristic_wins']} | {pr['search_wins']} "
                    f"| {pr['only_search']} | {pr['only_heuristic']} | {pr['p_value']:.3g} |"
                )
        lines.append(
            f"| **all these cells** | {tot['n']} | {tot['heuristic_wins']} | "
            f"{tot['search_wins']} | {tot['only_search']} | {tot['only_heuristic']} | "
            f"{mcnemar(tot['only_search'], tot['only_heuristic']):.3g} |"
        )
        lines.append("")
    lines += [
        "Notes: with 1 player the player runs two figures and plays exactly like 2 players "
        "(R2.4), so the 1-player cells repeat the 2-player cells seed for seed. In the short "
        "game `normal` and `schwer` start from the same meter (R7.2: the short game drops "
        "A♣, which `schwer` lacks anyway), so those cells coincide too.",
        "",
        "Loss causes (R6.3): L1 an unlifted king sank, L2 the helicopter sank, L3 a figure "
        "drowned, L4 a king or the helicopter was cut off, L5 too few cards left, L6 the "
        "water rose past the last meter card.",
        "",
    ]
    path.write_text("\n".join(lines))


def write_plot(data: dict[str, Any], path: Path) -> None:
    """The strongest measured team on top, then one row of panels per agent; one panel
    per variant, one line per meter. Top-row points not played by the heuristic name
    their agent."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    agents = [a for a in ("heuristic", "search", "novice") if data["agents"].get(a)]
    agents += [a for a in data["agents"] if a not in agents and data["agents"][a]]
    rows = [(STRONGEST, strongest_grid(data["agents"]))] if data["agents"] else []
    rows += [(a, data["agents"][a]) for a in agents]
    fig, axes = plt.subplots(
        len(rows),
        len(VARIANTS),
        figsize=(12, 3.4 * len(rows)),
        sharex=True,
        sharey=True,
        squeeze=False,
    )
    colours = {"leicht": "tab:green", "normal": "tab:blue", "schwer": "tab:red"}
    shift = {"leicht": -0.06, "normal": 0.0, "schwer": 0.06}
    for row, (agent, grid) in zip(axes, rows):
        ref: dict[str, Any] = {}
        if agent != "heuristic":
            ref = data["agents"].get("heuristic") or {}
        for ax, variant in zip(row, VARIANTS):
            if not any(c["variant"] == variant for c in grid.values()):
                ax.text(2.5, 50, "not played", ha="center", va="center", color="grey")
            for meter in METERS if ref else ():
                pts = [
                    (pl, 100 * ref[cell_key(pl, meter, variant)]["win_rate"])
                    for pl in PLAYERS
                    if cell_key(pl, meter, variant) in ref
                ]
                if pts:
                    ax.plot(*zip(*pts), ls=":", color=colours[meter], alpha=0.45, lw=1)
            for meter in METERS:
                xs, ys, lo, hi, ns = [], [], [], [], []
                for players in PLAYERS:
                    c = grid.get(cell_key(players, meter, variant))
                    if c:
                        if agent == STRONGEST and c["agent"] != "heuristic":
                            ax.annotate(
                                Path(c["agent"]).name,
                                (players + shift[meter], 100 * c["win_rate"]),
                                xytext=(4, 4 if meter != "schwer" else -10),
                                textcoords="offset points",
                                fontsize=6,
                                color=colours[meter],
                            )
                        xs.append(players + shift[meter])
                        ys.append(100 * c["win_rate"])
                        lo.append(100 * (c["win_rate"] - c["ci_low"]))
                        hi.append(100 * (c["ci_high"] - c["win_rate"]))
                        ns.append(c["episodes"])
                if xs:
                    ax.errorbar(
                        xs,
                        ys,
                        yerr=[lo, hi],
                        marker="o",
                        ms=4,
                        capsize=3,
                        color=colours[meter],
                        label=meter,
                    )
            games = sorted({c["episodes"] for k, c in grid.items() if c["variant"] == variant})
            ax.set_title(
                f"{agent} | {variant}"
                + (
                    f" | n={games[0]}"
                    if len(games) == 1
                    else f" | n={games[0]}-{games[-1]}"
                    if games
                    else ""
                ),
                fontsize=9,
            )
            ax.set_xticks(PLAYERS)
            ax.set_ylim(0, 102)
            ax.grid(alpha=0.3)
        row[0].set_ylabel("win rate (%)")
    for ax in axes[-1]:
        ax.set_xlabel("players")
    axes[0][0].legend(title="meter", fontsize=8, loc="lower left")
    fig.suptitle(
        "Inselflucht: win rates by players, meter and variant (95% Wilson intervals; "
        "dotted: the heuristic, for reference)"
    )
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.3 / fig.get_figheight()))  # room for the title
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _players_option(p: argparse.ArgumentParser, flag: str, who: str) -> None:
    p.add_argument(
        flag,
        nargs="+",
        type=int,
        default=list(PLAYERS),
        choices=PLAYERS,
        help=f"player counts whose cells {who}",
    )


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m train.difficulty", description=__doc__.split("\n")[0]
    )
    p.add_argument("--heuristic-games", type=natural_int, default=1000, help="games per cell")
    p.add_argument(
        "--headline-games",
        type=natural_int,
        default=None,
        help="heuristic games for the 2-player normal plain cell (default: as others)",
    )
    p.add_argument(
        "--novice-games",
        type=natural_int,
        default=1000,
        help="games per cell for the novice (heuristic with 20%% random slips; 0: skip)",
    )
    p.add_argument("--search-games", type=natural_int, default=10, help="games per cell (0: skip)")
    p.add_argument(
        "--search-variants",
        nargs="+",
        default=list(VARIANTS),
        choices=list(VARIANTS),
        help="variants whose cells the search agent plays",
    )
    _players_option(p, "--search-players", "the search agent plays")
    p.add_argument(
        "--search-headline-games",
        type=natural_int,
        default=None,
        help="search games for the 2-player normal plain cell",
    )
    p.add_argument("--search-simulations", type=positive_int, default=100)
    p.add_argument("--search-seconds", type=positive_float, default=0.5)
    p.add_argument("--search-probe", type=positive_int, default=6)
    p.add_argument(
        "--network",
        action="append",
        default=[],
        metavar="CHECKPOINT",
        help="a trained network (checkpoint folder or shipped name) that plays every cell "
        "with its raw policy; repeatable; with --from-json its grid is added to that file",
    )
    p.add_argument("--network-games", type=natural_int, default=1000, help="games per cell")
    _players_option(p, "--network-players", "the networks play")
    p.add_argument("--seed", type=natural_int, default=0)
    p.add_argument("--workers", type=positive_int, default=None, help="processes (pool backend)")
    p.add_argument(
        "--backend",
        default="pool",
        choices=BACKENDS,
        help="pool: processes on this machine; ray: Ray tasks on every CPU of a "
        "Ray cluster (docs/scaling.md)",
    )
    p.add_argument(
        "--address",
        default=None,
        help="with --backend ray: the cluster to join (auto, HEAD_IP:6379); default: a local Ray",
    )
    p.add_argument("--out", default="docs/difficulty.md")
    p.add_argument("--plot", default="docs/difficulty.png")
    p.add_argument(
        "--json-out",
        default=None,
        help=f"the grid's data (default: the --from-json file, else {DEFAULT_JSON}; '' for none)",
    )
    p.add_argument("--from-json", default=None, help="only redraw the report from this file")
    p.add_argument(
        "--merge-run",
        action="append",
        default=[],
        metavar="PATH",
        help="a `train.evaluate --json --details` output whose cell replaces the "
        "grid's cell for that agent (e.g. a longer search run); repeatable",
    )
    return p


def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    run(lambda: _main(args, argv))


def check_networks(specs: list[str], games: int) -> None:
    """Fail before any game is played: each ``--network`` must be a loadable checkpoint,
    played by its raw policy (a search over it is ``train.evaluate``'s, ``--merge-run``)."""
    from inselflucht_env.learned.agents import CheckpointAgent

    if specs and games <= 0:
        raise InputError(f"--network-games {games}: must be >= 1 when --network is given")
    for spec in specs:
        if spec in AGENT_NAMES:
            raise InputError(
                f"--network {spec!r}: a built-in agent, not a network checkpoint (the grid "
                "plays the heuristic, the novice and the search itself)"
            )
        if not isinstance(make_agent(spec), CheckpointAgent):  # a bad checkpoint fails here
            raise InputError(
                f"--network {spec!r}: not a network checkpoint; the grid plays a network's "
                "raw policy (evaluate a search with train.evaluate, add it with --merge-run)"
            )


def _main(args: argparse.Namespace, argv: list[str] | None) -> None:
    check_networks(args.network, args.network_games)
    base = json.loads(Path(args.from_json).read_text()) if args.from_json else None
    merges = read_merge_runs(args.merge_run, base["meta"]["seed"] if base else args.seed)
    json_out = args.json_out if args.json_out is not None else args.from_json or DEFAULT_JSON
    command = "python -m train.difficulty " + " ".join(argv or sys.argv[1:])
    cells = [(p, m, v) for v in VARIANTS for m in METERS for p in PLAYERS]
    workers = 1
    if not args.from_json or args.network:
        check_backend_args(args.backend, args.address, args.workers)
        if args.backend == "ray":
            from inselflucht_env.evaluation.ray_backend import connect

            workers = connect(args.address)  # the cluster's CPUs; a bad address fails here
        else:
            workers = args.workers or os.cpu_count() or 1
    grid_kw = {"backend": args.backend, "address": args.address}
    if base is not None:
        data = base
        for grid in data["agents"].values():
            for cell in grid.values():
                cell["outcomes"] = encode_outcomes(decode_outcomes(cell["outcomes"]))
    else:
        search_kw = {
            "simulations": args.search_simulations,
            "seconds": args.search_seconds,
            "probe": args.search_probe,
        }
        t0 = time.time()
        data = {
            "meta": {
                "seed": args.seed,
                "workers": workers,
                "date": time.strftime("%Y-%m-%d"),
                "command": command,
                "agent_kwargs": {
                    "heuristic": {},
                    "novice": {"epsilon": NOVICE_EPSILON},
                    "search": search_kw,
                },
            },
            "agents": {},
        }
        data["agents"]["heuristic"] = run_grid(
            "heuristic",
            args.heuristic_games,
            args.seed,
            workers,
            {},
            cells,
            args.headline_games,
            **grid_kw,
        )
        if args.novice_games > 0:
            data["agents"]["novice"] = run_grid(
                "novice", args.novice_games, args.seed, workers, {}, cells, **grid_kw
            )
        if args.search_games > 0 or args.search_headline_games:
            search_cells = [
                c for c in cells if c[2] in args.search_variants and c[0] in args.search_players
            ]
            data["agents"]["search"] = run_grid(
                "search",
                args.search_games,
                args.seed,
                workers,
                search_kw,
                search_cells,
                args.search_headline_games,
                **grid_kw,
            )
        data["meta"]["seconds"] = time.time() - t0
        if json_out:  # kept before the networks and merges play or fail
            write_json(Path(json_out), data)
    network_cells = [c for c in cells if c[0] in args.network_players]
    for spec in args.network:
        t0 = time.time()
        data["agents"][spec] = run_grid(
            spec, args.network_games, data["meta"]["seed"], workers, {}, network_cells, **grid_kw
        )
        data["meta"]["agent_kwargs"][spec] = {}
        runs = [n for n in data["meta"].get("networks", []) if n["agent"] != spec]
        runs.append(
            {
                "agent": spec,
                "games": args.network_games,
                "players": sorted(args.network_players),
                "command": command,
                "date": time.strftime("%Y-%m-%d"),
                "seconds": time.time() - t0,
                "workers": workers,
            }
        )
        data["meta"]["networks"] = runs
        if json_out:
            write_json(Path(json_out), data)
    for path, evaluation in merges:
        merge_run(data, evaluation, path)
    if json_out and merges:
        write_json(Path(json_out), data)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    plot = Path(args.plot) if args.plot else None
    if plot:
        write_plot(data, plot)
    write_markdown(data, out, os.path.relpath(plot, out.parent) if plot else None)
    print(f"wrote {out}" + (f" and {plot}" if plot else ""))


if __name__ == "__main__":
    main()
