"""Training pipeline: config validation, a smoke run, resuming, shipping and enjoy."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch
import yaml

from inselflucht_env.envs.inselflucht import InselfluchtEnv
from inselflucht_env.learned import load_policy
from train import config as cfg

CONFIG = Path(__file__).resolve().parent.parent / "configs" / "ppo_2p_normal.yaml"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "c.yaml"
    path.write_text(text)
    return path


def test_shipped_configs_validate_and_keep_their_values():
    paths = sorted(CONFIG.parent.rglob("ppo_*.yaml"))  # exit_*, rllib_*: their own schemas
    assert len(paths) >= 5
    for path in paths:
        conf = cfg.load(path)
        for section, keys in yaml.safe_load(path.read_text()).items():
            for key, value in keys.items():
                assert conf[section][key] == value, f"{path.name}: {section}.{key}"


@pytest.mark.parametrize(
    "text, message",
    [
        ("env: {players: 5}", "env.players=5"),
        ("env: {meter: medium}", "env.meter='medium'"),
        ("env: {reward: dense}", "env.reward"),
        ("env: {taucher: 1}", "env.taucher=1 must be of type bool"),
        ("ppo: {learning_rate: -1}", "ppo.learning_rate=-1 must be > 0"),
        ("ppo: {learnig_rate: 0.1}", "unknown key ppo.learnig_rate"),
        ("optimizer: {}", "unknown section 'optimizer'"),
        ("training: {n_envs: two}", "training.n_envs='two' must be of type int"),
        ("training: {vec_env: threads}", "training.vec_env"),
        ("curriculum: {stages: [{until: 10}]}", "stage 0"),
        ("policy: {net_arch: []}", "policy.net_arch"),
        ("ppo: {batch_size: 100000}", "batch_size"),
        ("pretrain: {teacher: oracle}", "pretrain.teacher"),
        ("pretrain: {dagger_rounds: -1}", "pretrain.dagger_rounds"),
        ("pretrain: {dagger_teacher: oracle}", "pretrain.dagger_teacher"),
        ("policy: {advice: search}", "policy.advice"),
        ("[1, 2]", "top level"),
        ("env: {players: [", "not valid YAML"),
    ],
)
def test_bad_config_is_rejected_naming_the_key(tmp_path, text, message):
    with pytest.raises(cfg.ConfigError, match=message.replace("(", r"\(").replace("[", r"\[")):
        cfg.load(write(tmp_path, text))


def test_missing_config_file():
    with pytest.raises(cfg.ConfigError, match="does not exist"):
        cfg.load("configs/nope.yaml")


def test_overrides_with_and_without_section():
    conf = cfg.load(CONFIG, ["total_timesteps=1234", "ppo.gamma=0.9", "meter=[1, 2]"])
    assert conf["training"]["total_timesteps"] == 1234
    assert conf["ppo"]["gamma"] == 0.9 and conf["env"]["meter"] == [1, 2]
    for bad in ("total_timesteps", "nonsense=1", "total_timesteps=-5"):
        with pytest.raises(cfg.ConfigError):
            cfg.load(CONFIG, [bad])


def training_args(*overrides: str, resume: Path | None = None) -> list[str]:
    """``train.train``'s command line: the shipped config, ``--set`` for each override."""
    args = ["--config", str(CONFIG), "--no-progress"]
    args += ["--resume", str(resume)] if resume else []
    for item in overrides:
        args += ["--set", item]
    return args


TINY_PPO = ("n_envs=2", "n_steps=256", "ppo.batch_size=256", "n_epochs=1")


@pytest.fixture(scope="module")
def smoke_run(tmp_path_factory):
    """A few thousand steps of real training, after a tiny behaviour cloning and a DAgger
    round labelled by the heuristic, with evaluation and a curriculum stage."""
    from train.train import main

    run_dir = tmp_path_factory.mktemp("runs")
    final = main(
        training_args(
            "total_timesteps=2048",
            *TINY_PPO,
            "eval.freq=1024",
            "eval.episodes=2",
            f"run_dir={run_dir}",
            "checkpoint_freq=1024",
            "stages=[{until: 1024, meter: leicht}]",
            "pretrain.games=6",
            "pretrain.epochs=1",
            "dagger_rounds=1",
            "dagger_games=1",
            "workers=1",
            "advice=heuristic",
            "dagger_teacher=heuristic",
        )
    )
    return final


def test_training_on_the_compiled_vector_env(tmp_path):
    """``training.vec_env: compiled``: MaskablePPO on the compiled batch, evaluated on it."""
    from train.train import main

    final = main(
        training_args(
            "total_timesteps=1024",
            *TINY_PPO,
            "vec_env=compiled",
            "eval.freq=512",
            "eval.episodes=2",
            f"run_dir={tmp_path}",
            "pretrain.games=0",
            "advice=none",
        )
    )
    assert (final / "weights.safetensors").is_file()


def test_the_compiled_vector_env_refuses_advice(tmp_path, capsys):
    from train.train import main

    with pytest.raises(SystemExit):
        main(training_args("vec_env=compiled", "advice=heuristic", f"run_dir={tmp_path}"))
    assert "vec_env=compiled plays the plain observation" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())  # refused before any run folder was made


def test_a_dagger_round_can_be_labelled_by_the_search_agent():
    """One student game on a one-card meter (a few decisions), labelled by the search."""
    import tempfile

    from inselflucht_env.learned import build_policy, save_checkpoint
    from train.pretrain import _student_games
    from train.train import network_spec

    spec = network_spec(cfg.defaults()["policy"])
    with tempfile.TemporaryDirectory() as scratch:
        save_checkpoint(build_policy(spec), scratch, spec, {})
        obs, masks, labels = _student_games(
            (scratch, {"meter": [5], "short_game": True}, "none", "search", 0, 1)
        )
    assert len(obs) == len(masks) == len(labels) >= 1
    assert all(masks[i][labels[i]] for i in range(len(labels)))


def test_smoke_training_writes_a_run_folder(smoke_run):
    run = smoke_run.parent
    assert (run / "config.yaml").is_file() and (run / "tb").is_dir()
    assert yaml.safe_load((run / "config.yaml").read_text())["training"]["total_timesteps"] == 2048
    assert (run / "best" / "weights.safetensors").is_file()
    assert list((run / "checkpoints").glob("step_*/optimizer.safetensors"))
    assert not list(run.rglob("*.zip")), "no pickle-based SB3 archive is written"
    meta = json.loads((smoke_run / "metadata.json").read_text())
    assert meta["timesteps"] >= 2048 and meta["signature"]["n_actions"] == 36
    assert meta["signature"]["advice"] == "heuristic"
    assert meta["signature"]["observation_size"] == 504 + 36
    assert 0 <= meta["behaviour_cloning"]["accuracy"] <= 1
    pretrained = json.loads((run / "pretrained" / "metadata.json").read_text())
    assert pretrained["timesteps"] == 0 and pretrained["signature"] == meta["signature"]


def assert_plays_only_legal_moves(policy, seed: int) -> None:
    """One game of ``policy`` in the plain env: every action is in the mask, never illegal."""
    env = InselfluchtEnv()
    _, info = env.reset(seed=seed)
    done = False
    while not done:
        action = policy.act(env.game_state)
        assert info["action_mask"][action]
        _, _, done, _, info = env.step(action)
    assert info["outcome"] != "illegal"


def test_smoke_checkpoint_loads_and_plays_only_legal_moves(smoke_run):
    policy = load_policy(smoke_run)
    for seed in range(3):
        assert_plays_only_legal_moves(policy, seed)


def test_policy_with_advice_names_the_observation_it_needs(smoke_run):
    policy = load_policy(smoke_run)
    obs, info = InselfluchtEnv().reset(seed=0)
    with pytest.raises(ValueError, match=r"\(540,\).*act\(state\)"):
        policy.predict_action(obs, info["action_mask"])


def test_curriculum_reaches_the_environments_under_their_wrappers():
    from stable_baselines3.common.env_util import make_vec_env

    from inselflucht_env.envs.advice import AdviceWrapper
    from inselflucht_env.games.inselflucht.rules.config import GameConfig
    from train.train import ENV_IDS, Curriculum

    venv = make_vec_env(ENV_IDS["inselflucht"], n_envs=2, wrapper_class=AdviceWrapper)
    curriculum = Curriculum([{"until": 100, "meter": "leicht"}], cfg.defaults()["env"])
    logger = type("Logger", (), {"record": lambda *args: None})()
    curriculum.init_callback(
        type("Model", (), {"get_env": lambda self: venv, "logger": logger, "num_timesteps": 0})()
    )
    for timesteps, meter in ((0, "leicht"), (100, "normal")):
        curriculum.num_timesteps = timesteps
        curriculum._on_step()
        assert all(
            env.unwrapped.config == GameConfig.make(players=2, meter=meter) for env in venv.envs
        )


def test_resume_trains_on_up_to_the_configs_total(smoke_run, tmp_path, capsys):
    from train.train import main

    saved = sorted((smoke_run.parent / "checkpoints").glob("step_*"))[-1]
    before = json.loads((saved / "metadata.json").read_text())["timesteps"]
    final = main(
        training_args(
            f"total_timesteps={before + 512}",
            *TINY_PPO,
            "eval.freq=0",
            f"run_dir={tmp_path}",
            "advice=heuristic",
            "pretrain.games=0",
            resume=saved,
        )
    )
    meta = json.loads((final / "metadata.json").read_text())
    # One rollout is 2 envs x 256 steps: the 512 steps left are one rollout, not 512 more.
    assert meta["timesteps"] == before + 512 and meta["resumed_from"] == str(saved)
    with pytest.raises(SystemExit) as exit_info:
        main(training_args(f"total_timesteps={before}", f"run_dir={tmp_path}", resume=saved))
    assert exit_info.value.code == 2
    assert "already trained" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(training_args("advice=none", f"run_dir={tmp_path}", resume=saved))
    assert exit_info.value.code == 2
    assert "holds another network" in capsys.readouterr().err


def test_policy_init_starts_ppo_from_a_trained_networks_weights(tmp_path, capsys):
    """``policy.init``: PPO from the best network, here the shipped expert-iteration one
    (its win-probability value head goes on as PPO's value with reward win, gamma 1)."""
    from inselflucht_env.learned.checkpoint import load_network
    from train.train import main

    best = CONFIG.parent.parent / "checkpoints" / "exit_2p_normal_dagger"
    network, _, _ = load_network(best)
    start = {k: v.clone() for k, v in network.state_dict().items()}
    centred = ("features=centred_cnn", "cnn_channels=16", "advice=none", "pretrain.games=0")
    common = (*TINY_PPO, "eval.freq=0", f"run_dir={tmp_path}", "reward=win", "gamma=1")
    final = main(
        training_args(
            "total_timesteps=512", *common, *centred, f"init={best}", "ppo.learning_rate=1e-9"
        )
    )
    trained, _, meta = load_network(final)
    assert meta["config"]["policy"]["init"] == str(best) and meta["timesteps"] == 512
    after = trained.state_dict()
    assert all(torch.allclose(after[k], start[k], atol=1e-5) for k in start), (
        "a step size of 1e-9 leaves the initial weights: they were the checkpoint's"
    )
    with pytest.raises(SystemExit) as exit_info:  # the config's network is another one
        main(training_args("total_timesteps=512", *common, "advice=none", f"init={best}"))
    assert exit_info.value.code == 2
    assert "policy.init" in (err := capsys.readouterr().err) and "holds another network" in err
    with pytest.raises(SystemExit) as exit_info:  # cloning a teacher would overwrite it
        main(training_args("total_timesteps=512", *common, *centred[:3], f"init={best}"))
    assert exit_info.value.code == 2
    assert "pretrain.games must be 0" in capsys.readouterr().err


def test_policy_builds_the_observation_it_was_trained_on(smoke_run):
    """``Policy.act`` sees exactly what the training environment (with advice) showed."""
    from inselflucht_env.envs.advice import AdviceWrapper

    policy = load_policy(smoke_run)
    env = AdviceWrapper(InselfluchtEnv())
    obs, _ = env.reset(seed=2)
    done = False
    while not done:
        state = env.unwrapped.game_state
        assert np.array_equal(policy.observe(state), obs)
        obs, _, done, _, _ = env.step(policy.act(state))


def test_enjoy_plays_and_prints_decisions_by_name(smoke_run, tmp_path):
    import io

    from inselflucht_env.cli.enjoy import play

    out = io.StringIO()
    outcome = play(str(smoke_run), seed=1, out=out)
    text = out.getvalue()
    assert text.startswith(f"loading {smoke_run} ...")
    assert f"Inselflucht: {smoke_run} plays all 2 figure(s); seed 1" in text
    assert "#1 turn 1, figure 0: " in text and f"outcome: {outcome} (" in text
    assert outcome in ("win", "L1", "L2", "L3", "L4", "L5", "L6")
    boards = text.count("INSELFLUCHT   turn")
    turns = int(text.rsplit(" turns", 1)[0].rsplit(", ", 1)[1])
    assert boards <= turns + 1 < text.count("\n#"), "the board once per turn, not per decision"


@pytest.mark.parametrize(
    "name",
    [
        "ppo_2p_normal",
        "ppo_2p_normal_noadvice",
        "exit_2p_normal",
        "exit_4p_normal",
        "exit_2p_schwer",
    ],
)
def test_shipped_checkpoint_loads_matches_the_env_and_plays_legal_moves(name):
    shipped = CONFIG.parent.parent / "checkpoints" / name
    policy = load_policy(shipped)
    meta = policy.metadata
    assert meta["evaluation"]["policy"]["episodes"] >= 1000
    assert (
        meta["evaluation"]["heuristic_same_seeds"]["episodes"]
        == meta["evaluation"]["policy"]["episodes"]
    )
    assert (shipped / "weights.safetensors").stat().st_size <= 5 * 1024 * 1024
    assert_plays_only_legal_moves(policy, 0)


def test_ship_selects_on_other_seeds_and_reports_beside_the_heuristic(smoke_run, tmp_path):
    from train.seeds import SELECTION_SEEDS
    from train.ship import main

    meta = main(
        [
            str(smoke_run.parent),
            "--name",
            "smoke",
            "--episodes",
            "3",
            "--select-episodes",
            "2",
            "--workers",
            "1",
            "--out",
            str(tmp_path),
        ]
    )
    evaluation = meta["evaluation"]
    newest = max(int(f.name[5:]) for f in (smoke_run.parent / "checkpoints").glob("step_*"))
    assert set(evaluation["selection"]) == {"final", "best", "pretrained", f"step_{newest}"}
    assert all(v["seed"] == SELECTION_SEEDS for v in evaluation["selection"].values())
    assert evaluation["policy"]["seed"] == evaluation["heuristic_same_seeds"]["seed"] == 0
    assert evaluation["policy"]["episodes"] == 3
    shipped = load_policy(tmp_path / "smoke")
    assert shipped.metadata["evaluation"] == json.loads(json.dumps(evaluation))
    assert not (tmp_path / "smoke" / "optimizer.safetensors").exists()
