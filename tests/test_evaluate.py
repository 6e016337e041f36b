"""The evaluation harness: reproducible results, right statistics, the CLI contract."""

from __future__ import annotations

import json
import math

import pytest

from inselflucht_env.cli.evaluate import main as evaluate_main
from inselflucht_env.evaluation import harness as E
from inselflucht_env.evaluation.stats import difference_ci, half_width_games, mcnemar, wilson


# ---------------------------------------------------------------- statistics on toy cases
def test_wilson_interval_known_values():
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    assert wilson(3, 10) == pytest.approx((0.1078, 0.6032), abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(10, 10)
    assert hi == 1.0 and lo == pytest.approx(0.7225, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(3, 2)


def test_wilson_contains_rate_and_shrinks():
    for n in (10, 100, 1000):
        lo, hi = wilson(n // 4, n)
        assert lo < 0.25 < hi
    assert (wilson(250, 1000)[1] - wilson(250, 1000)[0]) < (wilson(25, 100)[1] - wilson(25, 100)[0])


def test_mcnemar_exact():
    assert mcnemar(0, 0) == 1.0
    assert mcnemar(5, 5) == 1.0
    assert mcnemar(0, 6) == pytest.approx(2 / 64)  # all 6 discordant pairs one way
    assert mcnemar(10, 2) == pytest.approx(2 * sum(math.comb(12, i) for i in range(3)) / 4096)
    assert mcnemar(1, 9) == mcnemar(9, 1)


def test_mcnemar_exact_on_more_than_a_thousand_discordant_seeds():
    assert mcnemar(700, 700) == 1.0
    assert mcnemar(600, 800) == pytest.approx(1.0e-7, rel=0.5)  # z = 5.3
    assert mcnemar(0, 1500) == 0.0  # below the smallest float, not an overflow


def test_difference_ci_and_games_needed():
    # 30 seeds won by A only, 10 by B only, of 100: d = 0.2, Wald SE = sqrt((0.4 - 0.04) / 100)
    assert difference_ci(30, 10, 100) == pytest.approx((0.2, 0.0824, 0.3176), abs=1e-4)
    assert half_width_games(0.5, 0.03) == 1068


def test_summarize_toy_case():
    eps = [
        E.Episode(0, "win", 10, 4, 8, 40, 0.1, 0.01),
        E.Episode(1, "L1", 6, 1, 3, 20, 0.1, 0.02),
        E.Episode(2, "win", 12, 4, 8, 50, 0.1, 0.05),
        E.Episode(3, "L6", 22, 3, 7, 90, 0.1, 0.01),
    ]
    s = E.summarize(eps, seconds=2.0)
    assert s["episodes"] == 4 and s["wins"] == 2 and s["win_rate"] == 0.5
    assert (s["ci_low"], s["ci_high"]) == pytest.approx((0.1500, 0.8500), abs=1e-4)  # 2 of 4
    assert s["loss_causes"] == {"L1": 1, "L2": 0, "L3": 0, "L4": 0, "L5": 0, "L6": 1}
    assert s["mean_turns"] == 12.5 and s["mean_turns_won"] == 11
    assert s["mean_lifted"] == 3.0 and s["mean_salvaged"] == 6.5
    assert s["decisions"] == 200 and s["decisions_per_second"] == 100.0
    assert s["games_per_second"] == 2.0
    assert s["agent_seconds_per_decision"] == pytest.approx(0.4 / 200)
    assert s["max_agent_seconds_per_decision"] == 0.05


# ---------------------------------------------------------------- harness
def _strip_timing(summary: dict) -> dict:
    drop = {
        "seconds",
        "games_per_second",
        "decisions_per_second",
        "agent_seconds_per_decision",
        "max_agent_seconds_per_decision",
        "workers",
    }
    out = {k: v for k, v in summary.items() if k not in drop}
    out["per_episode"] = [
        {k: v for k, v in e.items() if k not in ("agent_seconds", "max_decision_seconds")}
        for e in summary.get("per_episode", [])
    ]
    return out


def test_harness_is_reproducible_and_independent_of_workers():
    a = E.evaluate("heuristic", episodes=12, seed=5, workers=1, progress=False, details=True)
    b = E.evaluate("heuristic", episodes=12, seed=5, workers=1, progress=False, details=True)
    c = E.evaluate("heuristic", episodes=12, seed=5, workers=2, progress=False, details=True)
    assert _strip_timing(a) == _strip_timing(b) == _strip_timing(c)
    assert [e["seed"] for e in a["per_episode"]] == list(range(5, 17))


class DealRecorder:
    """Plays as ``make_agent(inner)`` and notes, per game, the island cards at its first
    decision and every flood pass's order (drawn part public, rest from the decks)."""

    def __init__(self, inner: str, log: dict):
        from inselflucht_env.agents import make_agent

        self.inner, self.games = make_agent(inner), log.setdefault(inner, [])
        self.state = None

    def act(self, state, rng):
        if state is not self.state:  # a new game: its first decision sees the fresh deal
            self.state = state
            self.games.append({"turn": state.turn, "cards": list(state.card), "passes": {}})
        reshuffled = len(state.config.meter) - len(state.meter)  # passes drawn to the end
        order = (state.col_discard + state.col_deck[::-1], state.row_discard + state.row_deck[::-1])
        self.games[-1]["passes"][reshuffled] = order
        return self.inner.act(state, rng)


def test_agents_see_the_same_deals(monkeypatch):
    """Episode i's deal depends on its seed only, whoever plays it: through the harness a
    random and a heuristic agent meet the same island cards and the same flood passes on
    each seed (as far as both games go), and different seeds give different deals."""
    from inselflucht_env import agents
    from inselflucht_env.games.inselflucht.rules.config import GameConfig

    monkeypatch.setattr(agents, "_KINDS", dict(agents._KINDS))
    log: dict[str, list] = {}
    agents.register_agent_kind("deals", lambda inner, **kw: DealRecorder(inner, log))
    cfg, seeds = GameConfig.make(players=2), [42, 43, 44, 45]
    runs = {
        name: E.run_episodes(f"deals:{name}", cfg, seeds, progress=False)
        for name in ("random", "heuristic")
    }
    assert [e.seed for e in runs["random"]] == [e.seed for e in runs["heuristic"]] == seeds
    assert [e.outcome for e in runs["heuristic"]].count("win") > 0
    assert all(e.outcome != "win" for e in runs["random"])  # two different players
    r, h = log["random"], log["heuristic"]
    assert len(r) == len(h) == 4 and all(g["turn"] == 1 for g in r + h)
    assert [g["cards"] for g in r] == [g["cards"] for g in h]
    assert len({tuple(g["cards"]) for g in r}) == 4
    shared = 0
    for a, b in zip(r, h):
        both = sorted(set(a["passes"]) & set(b["passes"]))
        assert both[0] == 0 and [a["passes"][k] for k in both] == [b["passes"][k] for k in both]
        shared += len(both)
    assert shared >= 12  # the first pass of each deal and at least 8 later ones


def test_cli_json_contract(capsys):
    evaluate_main(
        [
            "--agent",
            "random",
            "--episodes",
            "6",
            "--seed",
            "3",
            "--workers",
            "1",
            "--json",
            "--no-progress",
            "--players",
            "3",
            "--meter",
            "schwer",
            "--taucher",
        ]
    )
    out = json.loads(capsys.readouterr().out)
    for key in (
        "agent",
        "episodes",
        "wins",
        "win_rate",
        "ci_low",
        "ci_high",
        "loss_causes",
        "mean_turns",
        "seconds",
        "decisions_per_second",
        "mean_lifted",
        "mean_salvaged",
    ):
        assert key in out
    assert out["agent"] == "random" and out["episodes"] == 6 and out["players"] == 3
    assert out["taucher"] is True and out["meter"] == "schwer"
    assert set(out["loss_causes"]) >= {"L1", "L2", "L3", "L4", "L5", "L6"}
    assert out["wins"] + sum(out["loss_causes"].values()) == 6


def test_cli_text_output(capsys):
    evaluate_main(
        [
            "--agent",
            "heuristic",
            "--episodes",
            "3",
            "--workers",
            "1",
            "--no-progress",
            "--short-game",
        ]
    )
    text = capsys.readouterr().out
    assert "win rate" in text and "Wilson" in text and "L1:" in text and "decisions/s" in text


def test_search_agent_runs_in_the_harness():
    s = E.evaluate(
        "search",
        episodes=1,
        seed=0,
        workers=1,
        progress=False,
        short_game=True,
        agent_kwargs={"simulations": 8, "probe": 2, "seconds": 5.0},
    )
    assert s["episodes"] == 1 and s["decisions"] > 0


def test_difficulty_report_small(tmp_path):
    """The grid script end to end on a tiny budget, then a redraw from its JSON."""
    from train import difficulty as D

    md, png, js = tmp_path / "d.md", tmp_path / "d.png", tmp_path / "d.json"
    D.main(
        [
            "--heuristic-games",
            "1",
            "--novice-games",
            "1",
            "--search-games",
            "1",
            "--search-simulations",
            "4",
            "--search-probe",
            "2",
            "--search-variants",
            "Taucher",
            "--search-players",
            "2",
            "--workers",
            "1",
            "--out",
            str(md),
            "--plot",
            str(png),
            "--json-out",
            str(js),
        ]
    )
    data = json.loads(js.read_text())
    assert len(data["agents"]["heuristic"]) == 36 and len(data["agents"]["novice"]) == 36
    assert list(data["agents"]["search"]) == [
        "2p/leicht/Taucher",
        "2p/normal/Taucher",
        "2p/schwer/Taucher",
    ]
    text = md.read_text()
    assert "Headline" in text and "| 2 | plain |" in text and "McNemar" in text
    assert png.stat().st_size > 10_000
    md.unlink()
    run = E.evaluate(
        "search",
        players=2,
        meter="normal",
        episodes=2,
        workers=1,
        progress=False,
        details=True,
        agent_kwargs={"simulations": 4, "probe": 2},
    )
    run_path = tmp_path / "run.json"
    run_path.write_text(json.dumps(run))
    D.main(
        [
            "--from-json",
            str(js),
            "--merge-run",
            str(run_path),
            "--out",
            str(md),
            "--plot",
            "",
            "--json-out",
            str(js),
        ]
    )
    text = md.read_text()
    assert text.startswith("# How hard is Inselflucht?") and "separate, longer run" in text
    assert json.loads(js.read_text())["agents"]["search"]["2p/normal/plain"]["episodes"] == 2


def test_compare_paired_toy_case(tmp_path):
    from train.compare import compare

    base = {"players": 2, "meter": "normal", "taucher": False, "short_game": False}
    a = {
        **base,
        "agent": "a",
        "per_episode": [
            {"seed": s, "outcome": o} for s, o in enumerate(["win", "win", "win", "L1", "win"])
        ],
    }
    b = {
        **base,
        "agent": "b",
        "per_episode": [
            {"seed": s, "outcome": o} for s, o in enumerate(["win", "L2", "L6", "L1", "win", "win"])
        ],
    }
    c = compare(a, b)
    assert c["seeds"] == 5 and c["wins_a"] == 4 and c["wins_b"] == 2
    assert c["only_a"] == 2 and c["only_b"] == 0
    assert c["b_lost_only_a_won"] == {"L2": 1, "L6": 1} and c["a_lost_only_b_won"] == {}
    assert c["p_value"] == pytest.approx(0.5)
    assert c["difference"] == pytest.approx(0.4)
    with pytest.raises(ValueError):
        compare(a, {**b, "players": 3})


def _run(agent, seeds, outcomes, **extra):
    base = {"players": 2, "meter": "schwer", "taucher": False, "short_game": False}
    episodes = [{"seed": s, "outcome": o} for s, o in zip(seeds, outcomes, strict=True)]
    return {**base, "agent": agent, **extra, "per_episode": episodes}


def test_compare_joins_one_agents_runs_on_disjoint_seeds(tmp_path, capsys):
    from train.compare import main

    kwargs = {"agent_kwargs": {"simulations": 100}}
    parts = {
        "a.json": _run("netsearch:x", range(4), ["win", "L6", "win", "L1"]),
        "b1.json": _run("search", range(2), ["win", "win"], **kwargs),
        "b2.json": _run("search", range(2, 4), ["L2", "win"], **kwargs),
    }
    for name, summary in parts.items():
        (tmp_path / name).write_text(json.dumps(summary))
    c = main([str(tmp_path / "a.json"), f"{tmp_path / 'b1.json'}+{tmp_path / 'b2.json'}", "--json"])
    assert (c["seeds"], c["wins_a"], c["wins_b"], c["only_a"], c["only_b"]) == (4, 2, 3, 1, 2)
    assert json.loads(capsys.readouterr().out)["last_seed"] == 3


def test_compare_says_how_each_side_lost_the_deals_only_the_other_won(tmp_path, capsys):
    """R6.3: the loss causes of the discordant deals, in L1-L6 order; a deal both lost
    (seed 4) and one both won (seed 0) are not counted."""
    from train.compare import main

    a = _run("network", range(6), ["win", "L6", "L4", "win", "L1", "L6"])
    b = _run("heuristic", range(6), ["win", "win", "win", "L4", "L2", "win"])
    for name, summary in (("a.json", a), ("b.json", b)):
        (tmp_path / name).write_text(json.dumps(summary))
    main([str(tmp_path / "a.json"), str(tmp_path / "b.json")])
    out = capsys.readouterr().out
    assert "how network lost the deals only heuristic won: L4 1, L6 2" in out
    assert "how heuristic lost the deals only network won: L4 1" in out


def test_compare_refuses_to_join_different_agents_or_a_seed_twice():
    from inselflucht_env.errors import InputError
    from train.compare import join

    first = _run("search", range(2), ["win", "win"], agent_kwargs={"simulations": 100})
    other_budget = _run("search", range(2, 4), ["win", "L1"], agent_kwargs={"simulations": 50})
    with pytest.raises(InputError, match="differ in agent_kwargs"):
        join([first, other_budget])
    with pytest.raises(InputError, match="both played seed 1"):
        join([first, _run("search", [1, 2], ["win", "L1"], agent_kwargs={"simulations": 100})])


def test_compare_cli_names_a_file_without_episode_records(tmp_path, capsys):
    from train.compare import main

    (tmp_path / "a.json").write_text(json.dumps({"agent": "heuristic", "wins": 3}))
    with pytest.raises(SystemExit) as err:
        main([str(tmp_path / "a.json"), str(tmp_path / "a.json")])
    assert err.value.code == 2 and "no per_episode records" in capsys.readouterr().err


def test_compare_names_the_options_where_one_agent_meets_itself():
    from train.compare import compare

    a = _run("netsearch:x", [0], ["win"], agent_kwargs={"simulations": 100, "c_puct": 2.0})
    b = _run("netsearch:x", [0], ["L6"], agent_kwargs={"simulations": 100})
    c = compare(a, b)
    assert c["a"] == "netsearch:x (c_puct=2.0, simulations=100)"
    assert c["b"] == "netsearch:x (simulations=100)"
    assert compare(a, _run("heuristic", [0], ["win"]))["a"] == "netsearch:x"
