"""Learning curves: PPO's win rate against environment steps, expert iteration's against
self-play games, with the heuristic's win rate on the target as a dashed reference.

    python -m train.tools.learning_curves --ppo runs/<ppo> [--exit runs/<exit> ...] --out docs/
    python -m train.tools.learning_curves --previous docs/learning.json \
        --exit runs/<new> --out docs/

``--ppo-also <run> [<leg> ...]`` (repeatable) adds other PPO runs, e.g. PPO from the best
network (``policy.init``): each is drawn in its target's panel beside PPO from scratch and
gets its own table. ``--exit`` may be given several times: every expert-iteration run is
drawn in the right panel (labelled by its setting) and gets its own table. Run folders are
not in git, so ``--previous docs/learning.json`` keeps the curves of an earlier
``learning.json`` whose folders are gone: its PPO curve unless ``--ppo`` is given, and its
other PPO and expert-iteration curves in their order, each replaced where ``--ppo-also`` /
``--exit`` reads the same run folder again; new runs follow. The earlier file's ``created``
and ``command`` are kept under ``previous``.

Writes ``learning.json`` (the data behind the plot: x values, wins, episodes, win rates with
95% Wilson intervals, run folders, their resolved configs, the commands) and ``learning.png``
(two panels) into ``--out``. Where ``--out`` holds a ``learning.md`` with the marked sections
``<!-- ppo-table:start -->`` / ``<!-- ppo-table:end -->`` (and likewise ``ppo-also-table``
and ``exit-table``), their content is replaced by the tables of the data; the rest
of that file is left alone.

What is read (nothing is unpickled):

* PPO (``train.train``): ``<run>/config.yaml``; ``<run>/eval/evaluations.npz`` written by
  MaskableEvalCallback (``timesteps`` (n,), ``results`` (n, episodes) episode returns under
  the win reward, ``ep_lengths``), loaded with ``allow_pickle=False``; an episode with return
  > 0 is a win. Optional: the TensorBoard scalars ``game/win_rate`` (the last 200 *training*
  games, i.e. of the stage then played, under its rules) and ``game/fps`` in ``<run>/tb``, and
  ``<run>/final/metadata.json`` (wall time, steps/s). Curriculum stages come from the config.
* Expert iteration (``train.expert_iteration``, optional): every TensorBoard scalar under
  ``<run>/tb`` whose tag matches ``eval/<agent>_win_rate`` (``network``: the raw network's
  argmax; ``search``: the network-guided search) and ``self_play/win_rate``, indexed by the
  event step = iteration. Without event files, ``<run>/progress.json``'s ``history`` (one
  record per iteration with the same names). Self-play games after iteration *i* add up
  the scalar ``self_play/games`` of iterations 1..i (iteration 0 is the warm start: none);
  for an iteration that did not log it, its count from ``<run>/config.yaml``
  (``warm_start.dagger_games`` for a DAgger round, else ``self_play.games``, as its
  ``schedule`` sets them for that iteration); without
  those keys the x axis is the iteration. Episodes per point come from
  ``eval.<agent>_games`` of that config (none: no interval).

The heuristic reference: ``--heuristic-ppo`` / ``--heuristic-exit`` take a win rate (0-1), a
``train.evaluate --json`` file or ``measure``: play the heuristic now (seconds), for PPO on
1,000 deals of its evaluation's seed block (4,000,000 + training.seed; the callback draws its
deals from one generator seeded there, so they are not the same deals), for expert iteration
on exactly the deals its raw network is evaluated on (11,000,000 on, ``eval.network_games``).
By default: the measured rates of NOTES.md for the run's setting (``HEURISTIC`` below: 1,000
deals, seeds 0-999).
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from inselflucht_env.evaluation.stats import wilson
from train import exit_config
from train.json_file import write_json
from train.seeds import EVAL_SEEDS as PPO_EVAL_SEEDS  # PPO's periodic evaluation (+ seed)

# The heuristic team's win rate (train.evaluate, 1,000 deals, seeds 0-999), NOTES.md
# "How strong play can get"; keyed by (players, meter) without variants.
HEURISTIC = {
    (2, "normal"): (0.944, 1000),
    (4, "normal"): (0.477, 1000),
    (2, "schwer"): (0.653, 1000),
    (3, "normal"): (0.758, 1000),
}
EXIT_EVAL_SEEDS = 11_000_000  # train/expert_iteration.py: its evaluation deals
EXIT_TAG = re.compile(r"^eval/(?P<agent>.+)_win_rate$")
SELF_PLAY_TAG = "self_play/win_rate"
GAMES_TAG = "self_play/games"
MARKERS = {"ppo": "ppo-table", "ppo_also": "ppo-also-table", "exit": "exit-table"}
LEADERBOARD_INDEX = Path(__file__).resolve().parents[2] / "docs" / "leaderboard" / "index.json"
# A run folder: NAME-YYYYMMDD-HHMMSS (train.expert_iteration); NAME may hold hyphens.
RUN_FOLDER = re.compile(r"(?P<name>.+)-(?P<year>\d{4})(?P<month>\d\d)(?P<day>\d\d)-\d{6}")


def _read_yaml(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8")) if path.is_file() else {}


def _point(x: int, wins: int | None, n: int | None, rate: float) -> dict[str, Any]:
    point: dict[str, Any] = {"x": int(x), "win_rate": round(float(rate), 6)}
    if n and wins is not None:
        lo, hi = wilson(wins, n)
        point.update(wins=int(wins), episodes=int(n), ci_low=round(lo, 6), ci_high=round(hi, 6))
    return point


def tensorboard_scalars(folder: Path) -> dict[str, list[tuple[int, float]]]:
    """Every scalar series in the event files under ``folder``: tag -> [(step, value)],
    sorted by step (a later file wins a step logged twice, as after a resume)."""
    from tensorboard.backend.event_processing.event_accumulator import (
        SCALARS,
        EventAccumulator,
    )

    series: dict[str, dict[int, float]] = {}
    for events in sorted(folder.rglob("events.out.tfevents.*"), key=lambda p: p.stat().st_mtime):
        acc = EventAccumulator(str(events), size_guidance={SCALARS: 0})
        acc.Reload()
        for tag in acc.Tags().get("scalars", []):
            for event in acc.Scalars(tag):
                series.setdefault(tag, {})[int(event.step)] = float(event.value)
    return {tag: sorted(values.items()) for tag, values in series.items()}


def _setting(env: dict) -> dict[str, Any]:
    return {
        k: env.get(k, d)
        for k, d in (("players", 2), ("taucher", False), ("short_game", False), ("meter", "normal"))
    }


def _describe(game: dict) -> str:
    meter = game["meter"] if isinstance(game["meter"], str) else f"meter {game['meter']}"
    return " + ".join(
        [f"{game['players']}p {meter}"]
        + (["Taucher"] if game["taucher"] else [])
        + (["Kurzes Spiel"] if game["short_game"] else [])
    )


def _from_summary(s: dict, setting: dict, source: str) -> dict[str, Any]:
    """A reference from a ``train.evaluate --json`` summary."""
    return {
        "win_rate": s["win_rate"],
        "episodes": s["episodes"],
        "wins": s["wins"],
        "ci_low": s.get("ci_low"),
        "ci_high": s.get("ci_high"),
        "seeds": f"{s['seed']}-{s['seed'] + s['episodes'] - 1}",
        "setting": _describe({**setting, **{k: s[k] for k in setting if k in s}}),
        "source": source,
    }


def heuristic_reference(
    given: str | None, env: dict, episodes: int = 1000, seed: int = 0
) -> dict[str, Any] | None:
    """The heuristic's win rate on ``env``'s setting: ``given`` (a rate, a JSON file of
    ``train.evaluate --json``, or ``measure``: play ``episodes`` deals from ``seed`` now, one
    process, a few seconds) or the table of NOTES.md; None if none applies."""
    setting = _setting(env)
    if given == "measure":
        if not isinstance(setting["meter"], str):
            return None
        from inselflucht_env.evaluation.harness import evaluate

        summary = evaluate(
            "heuristic", episodes=episodes, seed=seed, workers=1, progress=False, **setting
        )
        return _from_summary(
            summary,
            setting,
            (
                f"measured: python -m train.evaluate --agent heuristic --players "
                f"{setting['players']} --meter {setting['meter']}"
                + (" --taucher" if setting["taucher"] else "")
                + (" --short-game" if setting["short_game"] else "")
                + f" --episodes {episodes} --seed {seed} --workers 1"
            ),
        )
    if given:
        path = Path(given)
        if path.is_file():
            return _from_summary(
                json.loads(path.read_text(encoding="utf-8")),
                setting,
                f"python -m train.evaluate --agent heuristic --json ({path})",
            )
        return {
            "win_rate": float(given),
            "setting": _describe(setting),
            "source": "given on the command line",
        }
    if setting["taucher"] or setting["short_game"] or not isinstance(setting["meter"], str):
        return None
    known = HEURISTIC.get((setting["players"], setting["meter"]))
    if known is None:
        return None
    return {
        "win_rate": known[0],
        "episodes": known[1],
        "wins": round(known[0] * known[1]),
        "seeds": f"0-{known[1] - 1}",
        "setting": _describe(setting),
        "source": "NOTES.md (train.evaluate, heuristic)",
    }


# --------------------------------------------------------------------------------- PPO
def ppo_curve(run: Path, heuristic: str | None = None) -> dict[str, Any]:
    """The PPO run's evaluation curve, stages and speed (see the module docstring)."""
    conf = _read_yaml(run / "config.yaml")
    npz = run / "eval" / "evaluations.npz"
    if not npz.is_file():
        raise FileNotFoundError(
            f"{npz}: no evaluation log (was eval.freq 0, or has the run "
            "not reached its first evaluation yet?)"
        )
    with np.load(npz, allow_pickle=False) as data:
        timesteps, results = data["timesteps"], data["results"]
        lengths = data["ep_lengths"] if "ep_lengths" in data.files else None
    results = results.reshape(len(timesteps), -1)
    points = []
    for i, (t, row) in enumerate(zip(timesteps, results)):
        point = _point(t, int((row > 0).sum()), row.size, float((row > 0).mean()))
        if lengths is not None:
            point["mean_episode_length"] = round(float(np.mean(lengths[i])), 2)
        points.append(point)

    env = conf.get("env", {})
    seed = conf.get("training", {}).get("seed", 0)
    stages, start = [], 0
    for stage in conf.get("curriculum", {}).get("stages", []):
        game = {**_setting(env), **{k: v for k, v in stage.items() if k != "until"}}
        stages.append({"from": start, "until": stage["until"], **game, "label": _describe(game)})
        start = stage["until"]
    total = conf.get("training", {}).get("total_timesteps")
    stages.append(
        {
            "from": start,
            "until": total,
            **_setting(env),
            "label": _describe(_setting(env)) + " (target)",
        }
    )

    out: dict[str, Any] = {
        "run": str(run),
        "target": _describe(_setting(env)),
        "x": "environment steps",
        "evaluation": points,
        "stages": stages,
        "evaluation_note": (
            "MaskableEvalCallback, deterministic policy, win reward, on the "
            "target (the config's env section); deals drawn from one generator "
            f"seeded {PPO_EVAL_SEEDS + seed}"
        ),
        # measured on the evaluation's seed block (not the callback's exact deals)
        "heuristic": heuristic_reference(heuristic, env, 1000, PPO_EVAL_SEEDS + seed),
        "config": conf,
        "train_command": f"python -m train.train --config {run / 'config.yaml'} --no-progress",
    }
    tb = run / "tb"
    if tb.is_dir():
        scalars = tensorboard_scalars(tb)
        out["training_games"] = [
            {"x": s, "win_rate": round(v, 6)} for s, v in scalars.get("game/win_rate", [])
        ]
        if scalars.get("game/fps"):
            out["steps_per_second_last"] = round(scalars["game/fps"][-1][1], 1)
    meta = run / "final" / "metadata.json"
    if meta.is_file():
        m = json.loads(meta.read_text(encoding="utf-8"))
        out["final"] = {
            k: m.get(k)
            for k in ("timesteps", "train_wall_seconds", "ppo_wall_seconds", "train_fps", "machine")
        }
    return out


def ppo_legs(runs: list[Path], heuristic: str | None = None) -> dict[str, Any]:
    """One curve from the legs of a resumed PPO run (``--resume`` writes a new run folder
    whose step count goes on): each leg's points up to where the next leg starts; the first
    leg's settings, the last leg's final policy."""
    curves = [ppo_curve(run, heuristic if i == 0 else None) for i, run in enumerate(runs)]
    if len(curves) == 1:
        return curves[0]
    out = dict(curves[0], run=str(runs[0]), legs=[str(r) for r in runs])
    for key in ("evaluation", "training_games"):
        merged: list[dict] = []
        for i, curve in enumerate(curves):
            nxt = next((c["evaluation"][0]["x"] for c in curves[i + 1 :] if c["evaluation"]), None)
            merged += [p for p in curve.get(key, []) if nxt is None or p["x"] < nxt]
        out[key] = merged
    out.pop("final", None)
    if "final" in curves[-1]:
        out["final"] = curves[-1]["final"]
    return out


# ----------------------------------------------------------------- expert iteration
def _games_per_iteration(conf: dict[str, Any], logged: dict[int, float]) -> Any:
    """Games played in iteration i: as logged, else as the config says for it (DAgger
    rounds play ``warm_start.dagger_games``, later iterations ``self_play.games``; a
    ``schedule`` may change either from some iteration on)."""

    def games(i: int) -> int | None:
        if i in logged:
            return int(logged[i])
        now = exit_config.at_iteration(conf, i)
        ws, sp = now.get("warm_start", {}), now.get("self_play", {})
        if i <= ws.get("dagger_iterations", 0):
            return ws.get("dagger_games")
        return sp.get("games")

    return games


def exit_curve(run: Path, heuristic: str | None = None) -> dict[str, Any]:
    """The expert-iteration run's evaluation per iteration (see the module docstring)."""
    conf = _read_yaml(run / "config.yaml")
    series: dict[str, list[tuple[int, float]]] = {}
    source = None
    if (run / "tb").is_dir():
        series = {
            tag: values
            for tag, values in tensorboard_scalars(run / "tb").items()
            if EXIT_TAG.match(tag) or tag in (SELF_PLAY_TAG, GAMES_TAG)
        }
        source = f"TensorBoard event files under {run / 'tb'}"
    if not series and (run / "progress.json").is_file():
        history = json.loads((run / "progress.json").read_text(encoding="utf-8"))["history"]
        for record in history:
            for tag, value in record.items():
                if EXIT_TAG.match(tag) or tag in (SELF_PLAY_TAG, GAMES_TAG):
                    series.setdefault(tag, []).append((int(record["iteration"]), float(value)))
        source = f"{run / 'progress.json'} (history)"
    if not series:
        raise FileNotFoundError(
            f"{run}: no scalars named eval/<agent>_win_rate in tb/ event files or progress.json"
        )
    per_iteration = conf.get("self_play", {}).get("games")
    games = _games_per_iteration(conf, dict(series.pop(GAMES_TAG, [])))
    x_name = "self-play games" if per_iteration else "iteration"
    last = max((i for values in series.values() for i, _ in values), default=0)
    played, total = [0], 0
    for i in range(1, last + 1):
        total += games(i) if per_iteration else 1
        played.append(total)
    evaluation = {}
    for tag, values in sorted(series.items()):
        match = EXIT_TAG.match(tag)
        agent = match["agent"] if match else "self_play"
        if not match:
            values = [(i, v) for i, v in values if i > 0]  # iteration 0: the teacher's games
        eval_games = conf.get("eval", {}).get(f"{agent}_games")
        points = []
        for i, v in values:
            if match:
                n = eval_games
            else:
                n = games(i) if per_iteration else None
            points.append({**_point(played[i], round(v * n) if n else None, n, v), "iteration": i})
        if points:
            evaluation[agent] = points
    return {
        "run": str(run),
        "target": _describe(_setting(conf.get("env", {}))),
        "x": x_name,
        "games_per_iteration": per_iteration,
        "source": source,
        "evaluation": evaluation,
        "evaluation_note": (
            "eval/network: the raw network's argmax, eval/search: the "
            "network-guided search, on fixed deals (seeds 11,000,000 on); "
            "self_play: the search with exploration noise in its own "
            "self-play games"
        ),
        # on the deals the raw network is evaluated on
        "heuristic": heuristic_reference(
            heuristic,
            conf.get("env", {}),
            conf.get("eval", {}).get("network_games", 400),
            EXIT_EVAL_SEEDS,
        ),
        "config": conf,
    }


def read_previous(path: Path) -> dict[str, Any]:
    """An earlier ``learning.json``, checked for the two curves' keys before anything is kept."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise ValueError(f"--previous {path}: not a readable JSON file ({err})") from None
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("ppo"), dict)
        or "evaluation" not in data["ppo"]
        or not isinstance(data.get("exit"), list)
        or not all(isinstance(ex, dict) and "run" in ex for ex in data["exit"])
        or not isinstance(data.get("ppo_also", []), list)
        or not all(isinstance(c, dict) and "run" in c for c in data.get("ppo_also", []))
    ):
        raise ValueError(
            f"--previous {path}: not a learning.json of train.tools.learning_curves "
            "(needs 'ppo' with 'evaluation' and 'exit', a list of runs with 'run')"
        )
    return data


def merge_curves(kept: list[dict], fresh: list[dict]) -> list[dict]:
    """The kept curves in their order, each replaced by a fresh reading of the same run
    folder; the other fresh ones after them."""
    by_run = {ex["run"]: ex for ex in fresh}
    merged = [by_run.pop(ex["run"], ex) for ex in kept]
    return merged + [ex for ex in fresh if ex["run"] in by_run]


# ----------------------------------------------------------------------- outputs
def _band(ax, points, label, style="-o", colour=None, interval=True):
    xs = [p["x"] for p in points]
    (line,) = ax.plot(
        xs, [100 * p["win_rate"] for p in points], style, ms=3, label=label, color=colour
    )
    if interval and points and "ci_low" in points[0]:
        ax.fill_between(
            xs,
            [100 * p["ci_low"] for p in points],
            [100 * p["ci_high"] for p in points],
            alpha=0.2,
            color=line.get_color(),
        )


def _heuristic_line(ax, reference, colour="grey"):
    if reference:
        deals = f" ({reference['episodes']:,} deals)" if reference.get("episodes") else ""
        ax.axhline(
            100 * reference["win_rate"],
            ls="--",
            lw=1,
            color=colour,
            label=f"heuristic, {reference['setting']}: {100 * reference['win_rate']:.1f}%{deals}",
        )


def _short(v: float, _position: object = None) -> str:
    """An axis tick: 2.5M, 500k, 0."""
    return f"{v / 1e6:g}M" if abs(v) >= 1e6 else f"{v / 1e3:g}k" if v else "0"


SETTING_ORDER = ("2p normal", "2p schwer", "4p normal")


def search_levels(index: Path = LEADERBOARD_INDEX) -> dict[str, dict[str, Any]]:
    """The plain search's row of each setting in the leaderboard index (``train.leaderboard``),
    keyed like the curves' targets (``"2p normal"``; Inselflucht's rows only, the curves'
    game); empty when the index is missing."""
    if not index.exists():
        return {}
    rows = json.loads(index.read_text())["rows"]
    return {
        f"{r['players']}p {r['meter']}": r
        for r in rows
        if r["role"] == "search" and r.get("game", "inselflucht") == "inselflucht"
    }


def _run_name(curve: dict[str, Any]) -> str:
    """A run's name without its time stamp (``ppo_2p_normal_from_best``)."""
    name = RUN_FOLDER.fullmatch(Path(curve["run"]).name)
    return name["name"] if name else Path(curve["run"]).name


def best_run(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The run whose raw network ends highest (its last evaluated point)."""
    return max(
        runs, key=lambda ex: (ex["evaluation"].get("network") or [{"win_rate": -1}])[-1]["win_rate"]
    )


def plot(data: dict[str, Any], path: Path, search: dict[str, dict[str, Any]] | None = None) -> None:
    """One panel per setting: the best expert-iteration run there (its raw network and, where
    measured, its guided search), PPO from scratch and the other PPO runs (``ppo_also``)
    whose target is that setting, and the heuristic's and the plain search's levels as
    dashed lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    search = search_levels() if search is None else search
    runs = data.get("exit") or []
    ppo = data.get("ppo")
    settings = [s for s in SETTING_ORDER if any(ex["target"] == s for ex in runs)]
    settings += sorted({ex["target"] for ex in runs} - set(settings))
    ppo_runs = ([("PPO from scratch", ppo)] if ppo else []) + [
        (_run_name(c), c) for c in data.get("ppo_also") or []
    ]
    settings += sorted({c["target"] for _, c in ppo_runs} - set(settings))
    fig, axes = plt.subplots(
        1, max(1, len(settings)), figsize=(5 * max(1, len(settings)), 4.2), squeeze=False
    )
    for ax, setting in zip(axes[0], settings):
        here = [ex for ex in runs if ex["target"] == setting]
        if here:
            ex = best_run(here)
            label = _run_name(ex)
            _band(ax, ex["evaluation"].get("network", []), f"{label}: raw network", "-o", "C0")
            if ex["evaluation"].get("search"):
                _band(ax, ex["evaluation"]["search"], f"{label}: guided search", "-s", "C1")
            ax.set_xlabel(ex["x"])
            _heuristic_line(ax, ex["heuristic"], "grey")
        curves = [c for c in ppo_runs if c[1]["target"] == setting]
        if curves:
            twin = ax.twiny()  # PPO counts environment steps, not games
            for (label, curve), colour in zip(curves, ("C2", "C3", "C4", "C5")):
                _band(twin, curve["evaluation"], f"{label} (top axis: steps)", "-", colour)
            twin.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(_short))
            twin.tick_params(labelsize=7)
            twin.legend(fontsize=7, loc="lower right")
            if not here:
                _heuristic_line(ax, curves[0][1]["heuristic"], "grey")
        level = search.get(setting)
        if level:
            ax.axhline(
                100 * level["win_rate"],
                ls="--",
                lw=1,
                color="black",
                label=f"plain search, 100 rollouts: {100 * level['win_rate']:.1f}%",
            )
        ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(_short))
        ax.set(title=setting, ylabel="win rate (%)", ylim=(-2, 106))
        ax.legend(fontsize=7, loc="lower left" if setting.startswith("2p") else "center left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _pct(p: dict) -> str:
    text = f"{100 * p['win_rate']:.1f}%"
    if "ci_low" in p:
        text += f" ({p['wins']}/{p['episodes']}; {100 * p['ci_low']:.1f}-{100 * p['ci_high']:.1f}%)"
    return text


def _reference_line(reference: dict | None) -> str:
    if not reference:
        return "\nNo heuristic reference for this setting."
    text = f"{100 * reference['win_rate']:.1f}%"
    if reference.get("episodes"):
        text += f" ({reference['wins']}/{reference['episodes']}"
        if reference.get("ci_low") is not None:
            text += f"; {100 * reference['ci_low']:.1f}-{100 * reference['ci_high']:.1f}%"
        text += f", seeds {reference['seeds']})"
    return f"\nThe heuristic on {reference['setting']}: {text}; source: {reference['source']}."


def _ppo_table(ppo: dict[str, Any]) -> str:
    """One PPO run's evaluations, a row each, and its heuristic reference."""

    def stage_of(t: int) -> int:  # the stage trained just before the evaluation at ``t``
        return next(
            (k for k, s in enumerate(ppo["stages"]) if s["until"] is None or t <= s["until"]),
            len(ppo["stages"]) - 1,
        )

    train = {p["x"]: p["win_rate"] for p in ppo.get("training_games", [])}
    rows = [
        (
            "| env steps | stage trained | evaluation win rate on the target (95% interval) "
            "| mean eval game length | training games' win rate (last 200) |"
        ),
        "|---:|---|---|---:|---:|",
    ]
    for p in ppo["evaluation"]:
        near = max((s for s in train if s <= p["x"]), default=None)
        length = f"{p['mean_episode_length']:.1f}" if "mean_episode_length" in p else ""
        recent = "" if near is None else f"{100 * train[near]:.1f}%"
        rows.append(f"| {p['x']:,} | {stage_of(p['x'])} | {_pct(p)} | {length} | {recent} |")
    return "\n".join(rows) + "\n" + _reference_line(ppo["heuristic"])


def tables(data: dict[str, Any]) -> dict[str, str]:
    """Markdown tables of the data, by section: ``ppo``, ``ppo_also`` and ``exit``."""
    also = [
        f"Run `{c['run']}` ({c['target']}"
        + (f", legs {', '.join(f'`{leg}`' for leg in c['legs'])}" if c.get("legs") else "")
        + ").\n\n"
        + _ppo_table(c)
        for c in data.get("ppo_also") or []
    ]
    out = {
        "ppo": _ppo_table(data["ppo"]),
        "ppo_also": "\n\n".join(also) if also else "*(no other PPO run given: --ppo-also)*",
    }
    parts = []
    for ex in data.get("exit") or []:
        agents = list(ex["evaluation"])
        by_iteration: dict[int, dict] = {}
        for agent in agents:
            for p in ex["evaluation"][agent]:
                by_iteration.setdefault(p["iteration"], {"x": p["x"]})[agent] = p
        rows = [
            f"| iteration | {ex['x']} | " + " | ".join(agents) + " |",
            "|---:|---:|" + "---|" * len(agents),
        ]
        for i, row in sorted(by_iteration.items()):
            rows.append(
                f"| {i} | {row['x']:,} | "
                + " | ".join(_pct(row[a]) if a in row else "" for a in agents)
                + " |"
            )
        parts.append(
            f"Run `{ex['run']}` ({ex['target']}), read from {ex['source']}.\n\n"
            + "\n".join(rows)
            + "\n"
            + _reference_line(ex["heuristic"])
        )
    out["exit"] = (
        "\n\n".join(parts)
        if parts
        else "*(no expert-iteration run given yet: run the command above with --exit)*"
    )
    return out


def fill_markdown(path: Path, sections: dict[str, str]) -> bool:
    """Replace the marked sections of ``path`` (if it exists); True if anything changed."""
    if not path.is_file():
        return False
    text = original = path.read_text(encoding="utf-8")
    for key, body in sections.items():
        start, end = f"<!-- {MARKERS[key]}:start -->", f"<!-- {MARKERS[key]}:end -->"
        if start in text and end in text:
            head, rest = text.split(start, 1)
            text = f"{head}{start}\n{body}\n{end}{rest.split(end, 1)[1]}"
    if text != original:
        path.write_text(text, encoding="utf-8")
    return text != original


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--ppo",
        type=Path,
        nargs="+",
        help="run folder of train.train (or --previous); a resumed run's legs in order",
    )
    p.add_argument(
        "--ppo-also",
        type=Path,
        nargs="+",
        action="append",
        default=[],
        help="another train.train run drawn beside (e.g. PPO from the best network), its legs "
        "in order; repeat for several",
    )
    p.add_argument(
        "--previous",
        type=Path,
        help="an earlier learning.json: keep its curves (PPO without --ppo; expert-iteration "
        "runs not read again by --exit)",
    )
    p.add_argument(
        "--exit",
        type=Path,
        action="append",
        default=[],
        help="run folder of train.expert_iteration (optional; repeat for several runs)",
    )
    p.add_argument("--out", type=Path, default=Path("docs"), help="folder for learning.json/png")
    p.add_argument(
        "--plot-only",
        action="store_true",
        help="with --previous: only draw learning.png from it (no run read, nothing else written)",
    )
    p.add_argument(
        "--heuristic-ppo",
        help="heuristic win rate on the PPO target: a rate, a "
        "train.evaluate --json file, or 'measure' (1,000 deals of the evaluation's "
        "seed block); default: NOTES.md",
    )
    p.add_argument(
        "--heuristic-exit",
        help="the same for every expert-iteration run's target; "
        "'measure' plays the deals each raw network is evaluated on",
    )
    args = p.parse_args(argv)
    if args.ppo is None and args.previous is None:
        p.error("give --ppo (a train.train run folder) or --previous (an earlier learning.json)")
    previous = read_previous(args.previous) if args.previous else {"exit": []}
    previous.setdefault("ppo_also", [])
    if args.plot_only:
        if args.previous is None or args.ppo or args.exit or args.ppo_also:
            p.error("--plot-only takes --previous only")
        plot(previous, args.out / "learning.png")
        print(f"wrote {args.out / 'learning.png'}")
        return previous
    fresh = [exit_curve(run, args.heuristic_exit) for run in args.exit]
    data: dict[str, Any] = {
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": "python -m train.tools.learning_curves "
        + shlex.join(sys.argv[1:] if argv is None else argv),
        "ppo": ppo_legs(args.ppo, args.heuristic_ppo) if args.ppo else previous["ppo"],
        "ppo_also": merge_curves(
            previous["ppo_also"], [ppo_legs(legs, args.heuristic_ppo) for legs in args.ppo_also]
        ),
        "exit": merge_curves(previous["exit"], fresh),
    }
    if args.previous:
        data["previous"] = {
            "file": str(args.previous),
            **{k: previous[k] for k in ("created", "command") if k in previous},
        }
    args.out.mkdir(parents=True, exist_ok=True)
    write_json(args.out / "learning.json", data)  # atomic: it may be the --previous read above
    plot(data, args.out / "learning.png")
    # the per-round tables live in the report's appendix (docs/learning_history.md)
    pages = [args.out / name for name in ("learning_history.md", "learning.md")]
    filled = [page for page in pages if fill_markdown(page, tables(data))]
    print(
        f"wrote {args.out / 'learning.json'}, {args.out / 'learning.png'}"
        + "".join(f", tables in {page}" for page in filled)
    )
    return data


if __name__ == "__main__":
    main()
