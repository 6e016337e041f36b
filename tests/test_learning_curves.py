"""Curriculum ladders (a stage may change players, variants and meter) and the learning-curve
report (train/tools/learning_curves.py) on tiny synthetic runs."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
import yaml

from train import config as cfg


def load_text(tmp_path: Path, text: str) -> dict:
    path = tmp_path / "c.yaml"
    path.write_text(text)
    return cfg.load(path)


# 1. Config: a stage names any game keys; a missing one is the env section's --------------


def test_a_stage_takes_any_game_key(tmp_path):
    conf = load_text(
        tmp_path,
        "env: {players: 4}\ncurriculum: {stages: ["
        "{until: 1e5, players: 2.0, taucher: true, short_game: true, meter: leicht},"
        " {until: 2e5, players: 2}, {until: 3e5, meter: [1, 2, 3]}]}",
    )
    stages = conf["curriculum"]["stages"]
    assert stages[0] == {
        "until": 100_000,
        "players": 2,
        "taucher": True,
        "short_game": True,
        "meter": "leicht",
    }
    assert type(stages[0]["players"]) is int and stages[2]["meter"] == [1, 2, 3]


@pytest.mark.parametrize(
    "stage, message",
    [
        ("{until: 10, players: 5}", "has a bad stage 1: 'players'=5 must be one of [1, 2, 3, 4]"),
        ("{until: 10, players: true}", "has a bad stage 1: 'players'=True must be of type int"),
        ("{until: 10, taucher: 1}", "has a bad stage 1: 'taucher'=1 must be of type bool"),
        ("{until: 10, short_game: 'yes'}", "has a bad stage 1: 'short_game'='yes' must be of type"),
        ("{until: 10, meter: medium}", "has a bad stage 1: 'meter'='medium' must be one of"),
        (
            "{until: 10, reward: win}",
            (
                "has a bad stage 1: unknown key(s) ['reward']; a stage "
                "takes 'until' and any of ['players', 'taucher', "
                "'short_game', 'meter']"
            ),
        ),
        ("{players: 2}", "has a bad stage 1: 'until' is missing"),
        ("{until: 10}", "has a bad stage 1: it changes nothing"),
        (
            "{until: 3, players: 2}",
            ("has a bad stage 1: 'until'=3 must be greater than the previous stage's 5"),
        ),
        ("[2, 10]", "has a bad stage 1 (list): each stage must be a mapping"),
    ],
)
def test_a_bad_stage_is_named_with_its_key(tmp_path, stage, message):
    with pytest.raises(cfg.ConfigError, match=re.escape(message)) as err:
        load_text(tmp_path, f"curriculum: {{stages: [{{until: 5, meter: leicht}}, {stage}]}}")
    assert "curriculum.stages=" in str(err.value)


# 2. The callback changes the game, players included, under any wrapper -------------------


class _Logger:
    def __init__(self):
        self.values: dict[str, float] = {}

    def record(self, key, value):
        self.values[key] = value


def _curriculum(stages, env_kw, venv):
    from train.train import Curriculum

    curriculum = Curriculum(stages, env_kw)
    logger = _Logger()
    model = type(
        "Model",
        (),
        {"get_env": lambda self: venv, "logger": logger, "num_timesteps": 0, "_last_obs": None},
    )()
    curriculum.init_callback(model)
    return curriculum, model, logger


@pytest.mark.parametrize("advice", ["none", "heuristic"])
def test_curriculum_changes_players_through_the_wrappers(advice):
    from stable_baselines3.common.env_util import make_vec_env

    from inselflucht_env.envs.advice import AdviceWrapper, observation_size
    from inselflucht_env.games.inselflucht.rules.config import GameConfig
    from train.train import ENV_IDS, env_kwargs

    env_kw = {**env_kwargs(cfg.defaults()["env"]), "players": 4}
    wrap = (
        {}
        if advice == "none"
        else {"wrapper_class": AdviceWrapper, "wrapper_kwargs": {"advisor": advice}}
    )
    venv = make_vec_env(ENV_IDS["inselflucht"], n_envs=2, seed=7, env_kwargs=env_kw, **wrap)
    stages = [
        {"until": 100, "players": 2, "taucher": True, "short_game": True, "meter": "leicht"},
        {"until": 200, "players": 1},
    ]
    curriculum, model, logger = _curriculum(stages, env_kw, venv)
    curriculum.on_training_start({}, {})  # built as 4p: reset into stage 0 at once
    assert model._last_obs.shape == (2, observation_size(advice))
    want = {
        0: GameConfig.make(2, True, True, "leicht"),
        1: GameConfig.make(1),
        2: GameConfig.make(4),
    }
    rng = np.random.default_rng(0)
    for t in range(0, 300, 10):
        model.num_timesteps = t  # on_step reads the model's count
        curriculum.on_step()
        stage = curriculum.stage
        assert stage == (0 if t < 100 else 1 if t < 200 else 2)
        curriculum.on_rollout_end()
        assert logger.values["curriculum/stage"] == stage
        assert logger.values["curriculum/players"] == want[stage].players
        assert all(env.unwrapped.config == want[stage] for env in venv.envs)
        obs = venv.reset()  # a new game of the stage: 504 (+36) numbers for any player count
        assert obs.shape == (2, observation_size(advice))
        assert all(env.unwrapped.game_state.config == want[stage] for env in venv.envs)
        for _ in range(3):  # legal play goes on under the new player count
            masks = venv.env_method("action_masks")
            venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    venv.close()


def test_no_reset_when_stage_zero_is_the_built_game():
    from stable_baselines3.common.env_util import make_vec_env

    from train.train import ENV_IDS, env_kwargs

    env_kw = env_kwargs(cfg.defaults()["env"])  # 2 players, normal
    venv = make_vec_env(ENV_IDS["inselflucht"], n_envs=1, env_kwargs=env_kw)
    curriculum, model, _ = _curriculum([{"until": 10, "players": 2}], env_kw, venv)
    curriculum.on_training_start({}, {})
    assert model._last_obs is None and curriculum.stage == 0
    venv.close()


# 3. learning_curves on a fake PPO run and a fake expert-iteration run ---------------------


def _fake_ppo_run(folder: Path) -> Path:
    conf = cfg.validate(
        {
            "env": {"players": 4},
            "curriculum": {"stages": [{"until": 200, "players": 2, "meter": "leicht"}]},
            "training": {"total_timesteps": 400},
            "eval": {"freq": 100, "episodes": 4},
        }
    )
    folder.mkdir()
    (folder / "config.yaml").write_text(yaml.safe_dump(conf, sort_keys=False))
    (folder / "eval").mkdir()
    np.savez(
        folder / "eval" / "evaluations.npz",
        timesteps=np.array([100, 200, 300, 400]),
        results=np.array([[0, 0, 0, 0], [1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0.0]]),
        ep_lengths=np.full((4, 4), 50),
    )
    return folder


def _fake_exit_run(folder: Path) -> Path:
    from torch.utils.tensorboard import SummaryWriter

    folder.mkdir()
    (folder / "config.yaml").write_text(
        yaml.safe_dump(
            {
                "env": {"players": 4, "meter": "normal"},
                "self_play": {"games": 400},
                "eval": {"network_games": 400, "search_games": 60},
            }
        )
    )
    writer = SummaryWriter(str(folder / "tb"))
    for i, (net, search, play) in enumerate(
        [(0.30, 0.50, 0.49), (0.35, 0.55, 0.52), (0.40, 0.60, 0.58)]
    ):
        writer.add_scalar("eval/network_win_rate", net, i)
        writer.add_scalar("eval/search_win_rate", search, i)
        writer.add_scalar("eval/network_ms_per_decision", 0.3, i)  # not a win rate: left out
        writer.add_scalar("self_play/win_rate", play, i)
    writer.close()
    return folder


def test_learning_curves_from_a_ppo_run_alone(tmp_path):
    from train.tools.learning_curves import main

    run = _fake_ppo_run(tmp_path / "ppo_run")
    out = tmp_path / "docs"
    out.mkdir()
    (out / "learning.md").write_text(
        "# Learning\n<!-- ppo-table:start -->\nold\n"
        "<!-- ppo-table:end -->\ntext kept\n"
        "<!-- exit-table:start -->\n<!-- exit-table:end -->\n"
    )
    data = main(["--ppo", str(run), "--out", str(out)])
    saved = json.loads((out / "learning.json").read_text())
    assert saved == json.loads(json.dumps(data)) and saved["exit"] == []
    ppo = saved["ppo"]
    assert [p["x"] for p in ppo["evaluation"]] == [100, 200, 300, 400]
    assert [p["wins"] for p in ppo["evaluation"]] == [0, 1, 2, 3]
    assert [p["win_rate"] for p in ppo["evaluation"]] == [0, 0.25, 0.5, 0.75]
    assert all(p["ci_low"] <= p["win_rate"] <= p["ci_high"] for p in ppo["evaluation"])
    assert [(s["from"], s["until"], s["label"]) for s in ppo["stages"]] == [
        (0, 200, "2p leicht"),
        (200, 400, "4p normal (target)"),
    ]
    assert ppo["heuristic"]["win_rate"] == 0.477 and ppo["config"]["env"]["players"] == 4
    assert (out / "learning.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    md = (out / "learning.md").read_text()
    assert "old" not in md and "text kept" in md and "| 300 | 1 | 50.0% (2/4;" in md
    assert "no expert-iteration run given yet" in md


def test_the_legs_of_a_resumed_ppo_run_make_one_curve(tmp_path):
    """A resumed leg starts at 250 although the first went on to 400: each leg counts up to
    where the next one starts."""
    from train.tools.learning_curves import ppo_legs

    first = _fake_ppo_run(tmp_path / "leg1")
    second = _fake_ppo_run(tmp_path / "leg2")
    np.savez(
        second / "eval" / "evaluations.npz",
        timesteps=np.array([250, 350]),
        results=np.array([[1, 1, 1, 1], [1, 1, 1, 0.0]]),
        ep_lengths=np.full((2, 4), 50),
    )
    ppo = ppo_legs([first, second], "0.5")
    assert [(p["x"], p["wins"]) for p in ppo["evaluation"]] == [
        (100, 0),
        (200, 1),
        (250, 4),
        (350, 3),
    ]
    assert ppo["legs"] == [str(first), str(second)] and ppo["heuristic"]["win_rate"] == 0.5


def test_learning_curves_read_the_expert_iteration_event_files(tmp_path):
    from train.tools.learning_curves import main

    out = tmp_path / "docs"
    data = main(
        [
            "--ppo",
            str(_fake_ppo_run(tmp_path / "ppo_run")),
            "--exit",
            str(_fake_exit_run(tmp_path / "exit_run")),
            "--out",
            str(out),
            "--heuristic-exit",
            "0.5",
        ]
    )
    (ex,) = data["exit"]
    assert ex["x"] == "self-play games" and sorted(ex["evaluation"]) == [
        "network",
        "search",
        "self_play",
    ]
    network = ex["evaluation"]["network"]
    assert [(p["iteration"], p["x"], p["wins"], p["episodes"]) for p in network] == [
        (0, 0, 120, 400),
        (1, 400, 140, 400),
        (2, 800, 160, 400),
    ]
    assert [p["x"] for p in ex["evaluation"]["self_play"]] == [400, 800]  # no teacher games
    assert ex["heuristic"]["win_rate"] == 0.5
    assert (
        json.loads((out / "learning.json").read_text())["exit"][0]["evaluation"] == ex["evaluation"]
    )


def test_expert_iteration_games_count_dagger_rounds_and_logged_games(tmp_path):
    """The x axis adds up the games each iteration really played: ``self_play/games`` where
    logged, else ``warm_start.dagger_games`` for a DAgger round and ``self_play.games`` after,
    as the schedule sets them for that iteration."""
    from torch.utils.tensorboard import SummaryWriter

    from train.tools.learning_curves import exit_curve

    run = tmp_path / "exit_run"
    run.mkdir()
    conf = {
        "env": {"players": 4, "meter": "normal"},
        "self_play": {"games": 100},
        "warm_start": {"dagger_iterations": 2, "dagger_games": 1000},
        "eval": {"network_games": 200},
        "schedule": {"changes": [{"from": 2, "set": {"warm_start.dagger_games": 500}}]},
    }
    (run / "config.yaml").write_text(yaml.safe_dump(conf))
    writer = SummaryWriter(str(run / "tb"))
    for i in range(5):
        writer.add_scalar("eval/network_win_rate", 0.1 * i, i)
        if i:
            writer.add_scalar("self_play/win_rate", 0.05, i)
        if i == 4:
            writer.add_scalar("self_play/games", 50, i)  # logged: wins over the config
    writer.close()
    ex = exit_curve(run, heuristic="0.5")
    assert [p["x"] for p in ex["evaluation"]["network"]] == [0, 1000, 1500, 1600, 1650]
    assert [p["episodes"] for p in ex["evaluation"]["self_play"]] == [1000, 500, 100, 50]
    assert "games" not in ex["evaluation"]


def test_learning_curves_need_the_evaluation_log(tmp_path):
    from train.tools.learning_curves import main

    run = _fake_ppo_run(tmp_path / "ppo_run")
    (run / "eval" / "evaluations.npz").unlink()
    with pytest.raises(FileNotFoundError, match="no evaluation log"):
        main(["--ppo", str(run), "--out", str(tmp_path / "docs")])


def test_the_heuristic_reference_can_be_measured_on_the_evaluation_deals(tmp_path):
    from train.tools.learning_curves import heuristic_reference

    reference = heuristic_reference("measure", {"players": 2, "meter": "normal"}, 3, 11_000_000)
    assert reference["episodes"] == 3 and reference["seeds"] == "11000000-11000002"
    assert reference["setting"] == "2p normal" and "--seed 11000000" in reference["source"]
    assert heuristic_reference(None, {"players": 4, "meter": "normal"})["win_rate"] == 0.477
    assert heuristic_reference(None, {"players": 4, "meter": "normal", "taucher": True}) is None


def test_several_expert_iteration_runs_share_the_plot_and_get_a_table_each(tmp_path, monkeypatch):
    import matplotlib.figure

    from train.tools.learning_curves import main

    legends: list[str] = []  # the 4p normal panel's (the only setting of these runs)

    def record_legends(fig, *args, **kwargs):
        legends.extend(t.get_text() for t in fig.axes[0].get_legend().get_texts())

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", record_legends)
    out = tmp_path / "docs"
    out.mkdir()
    (out / "learning.md").write_text("<!-- exit-table:start -->\n<!-- exit-table:end -->\n")
    runs = [_fake_exit_run(tmp_path / name) for name in ("first", "second")]
    ppo = str(_fake_ppo_run(tmp_path / "ppo_run"))
    argv = ["--ppo", ppo, "--exit", str(runs[0]), "--exit", str(runs[1]), "--out", str(out)]
    data = main([*argv, "--heuristic-exit", "0.5"])
    assert [Path(ex["run"]).name for ex in data["exit"]] == ["first", "second"]
    md = (out / "learning.md").read_text()
    assert md.count("| iteration | self-play games |") == 2 and "first" in md and "second" in md
    # two runs on one setting: the panel draws the best one only, the heuristic's line once
    assert sum(t.endswith(": raw network") for t in legends) == 1
    assert sum(t.startswith("heuristic, 4p normal") for t in legends) == 1


def test_an_earlier_learning_json_keeps_the_curves_whose_run_folders_are_gone(tmp_path):
    """--previous: the PPO curve and the expert-iteration runs of the earlier file stay, a
    run read again by --exit replaces its old curve in place, a new run comes last."""
    from train.tools.learning_curves import main

    out = tmp_path / "docs"
    first, second = (_fake_exit_run(tmp_path / name) for name in ("first", "second"))
    ppo = str(_fake_ppo_run(tmp_path / "ppo_run"))
    argv = ["--ppo", ppo, "--exit", str(first), "--exit", str(second), "--out", str(out)]
    before = main([*argv, "--heuristic-exit", "0.5"])
    saved = tmp_path / "earlier.json"
    saved.write_text((out / "learning.json").read_text())
    shutil.rmtree(tmp_path / "ppo_run")
    shutil.rmtree(first)  # gone: its curve can only come from the earlier file
    from torch.utils.tensorboard import SummaryWriter

    writer = SummaryWriter(str(second / "tb"))  # the second run went on: iteration 3
    writer.add_scalar("eval/network_win_rate", 0.45, 3)
    writer.close()
    third = _fake_exit_run(tmp_path / "third")
    after = main(
        ["--previous", str(saved), "--exit", str(third), "--exit", str(second), "--out", str(out)]
        + ["--heuristic-exit", "0.5"]
    )
    assert after["ppo"] == json.loads(json.dumps(before["ppo"]))
    assert [Path(ex["run"]).name for ex in after["exit"]] == ["first", "second", "third"]
    assert after["exit"][0] == json.loads(json.dumps(before["exit"][0]))
    assert [p["iteration"] for p in after["exit"][1]["evaluation"]["network"]] == [0, 1, 2, 3]
    assert after["previous"] == {
        "file": str(saved),
        "created": before["created"],
        "command": before["command"],
    }


@pytest.mark.parametrize(
    "text, message",
    [
        ("not json", "not a readable JSON file"),
        ('{"ppo": {"evaluation": []}}', "not a learning.json"),
        ('{"ppo": {"evaluation": []}, "exit": [{"target": "4p"}]}', "not a learning.json"),
    ],
)
def test_a_bad_earlier_learning_json_is_named(tmp_path, text, message):
    from train.tools.learning_curves import main

    bad = tmp_path / "learning.json"
    bad.write_text(text)
    with pytest.raises(ValueError, match=message):
        main(["--previous", str(bad), "--out", str(tmp_path / "docs")])
    assert not (tmp_path / "docs").exists()  # nothing written


def test_the_curves_need_a_ppo_run_or_an_earlier_file(tmp_path, capsys):
    from train.tools.learning_curves import main

    with pytest.raises(SystemExit):
        main(["--out", str(tmp_path / "docs")])
    assert "give --ppo" in capsys.readouterr().err


def test_the_plot_has_one_panel_per_setting_with_at_most_five_lines(tmp_path, monkeypatch):
    """The best run of each setting, PPO where its target is, the heuristic's and the plain
    search's levels (issue 37)."""
    import matplotlib.figure

    from train.tools.learning_curves import exit_curve, plot, ppo_curve

    seen: dict[str, list[str]] = {}

    def record(fig, *args, **kwargs):
        for ax in fig.axes:
            if ax.get_title():
                seen[ax.get_title()] = [line.get_label() for line in ax.get_lines()]

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", record)
    weak = exit_curve(_fake_exit_run(tmp_path / "weak"), heuristic="0.5")
    strong = exit_curve(_fake_exit_run(tmp_path / "strong"), heuristic="0.5")
    for p in strong["evaluation"]["network"]:
        p["win_rate"] = min(1.0, p["win_rate"] + 0.3)
    other = exit_curve(_fake_exit_run(tmp_path / "other"), heuristic="0.9")
    other["target"] = other["heuristic"]["setting"] = "2p normal"
    ppo = ppo_curve(_fake_ppo_run(tmp_path / "ppo_run"))
    search = {"4p normal": {"win_rate": 0.83}, "2p normal": {"win_rate": 0.96}}
    plot({"ppo": ppo, "exit": [weak, strong, other]}, tmp_path / "plot.png", search)
    assert set(seen) == {"2p normal", "4p normal"}
    assert all(len(labels) <= 5 for labels in seen.values()), seen
    assert any(label.startswith("strong: raw network") for label in seen["4p normal"])
    assert not any(label.startswith("weak") for label in seen["4p normal"])
    assert any(label.startswith("plain search") for label in seen["2p normal"])


def test_other_ppo_runs_get_a_curve_and_a_table_each_and_are_kept(tmp_path, monkeypatch):
    """``--ppo-also``: PPO from the best network beside PPO from scratch, drawn on its
    target's panel and tabled; a later ``--previous`` keeps it when its folder is gone."""
    import shutil

    import matplotlib.figure

    from train.tools.learning_curves import main

    drawn: list[str] = []

    def record(fig, *args, **kwargs):
        drawn.extend(line.get_label() for ax in fig.axes for line in ax.get_lines())

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", record)
    scratch = _fake_ppo_run(tmp_path / "ppo_4p_normal_compiled-20261207-050907")
    best = _fake_ppo_run(tmp_path / "ppo_4p_normal_from_best-20261207-065955")
    out = tmp_path / "docs"
    out.mkdir()
    (out / "learning_history.md").write_text(
        "<!-- ppo-table:start -->\n<!-- ppo-table:end -->\n"
        "<!-- ppo-also-table:start -->\nold\n<!-- ppo-also-table:end -->\n"
    )
    data = main(["--ppo", str(scratch), "--ppo-also", str(best), "--out", str(out)])
    assert [c["run"] for c in data["ppo_also"]] == [str(best)]
    assert "ppo_4p_normal_from_best (top axis: steps)" in drawn
    assert "PPO from scratch (top axis: steps)" in drawn
    history = (out / "learning_history.md").read_text()
    assert "old" not in history and f"Run `{best}` (4p normal)" in history
    shutil.rmtree(best)
    kept = main(["--previous", str(out / "learning.json"), "--out", str(tmp_path / "again")])
    assert kept["ppo_also"] == json.loads(json.dumps(data["ppo_also"]))
