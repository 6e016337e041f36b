"""RLlib glue: the masked RLModule is our network, the smoke run never plays an illegal
action, its export plays in ``train.evaluate``, and bad configs are one clear line."""

from __future__ import annotations

import json

import gymnasium as gym
import numpy as np
import pytest
import torch
from conftest import cli

from inselflucht_env.envs.dict_observation import dict_space
from inselflucht_env.games.inselflucht.observation import OBSERVATION_SIZE
from inselflucht_env.learned.checkpoint import load_network
from inselflucht_env.learned.network import NetworkSpec
from inselflucht_env.learned.policy import load_policy
from train import rllib_config as cfg
from train.config import ConfigError

pytest.importorskip("ray.rllib")
from ray.rllib.core.columns import Columns  # noqa: E402
from ray.rllib.core.distribution.torch.torch_distribution import TorchCategorical  # noqa: E402

from inselflucht_env.learned.rllib import InselfluchtRLModule, export, make_env, shared_policy  # noqa: E402

SPACE = dict_space(gym.spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32))


def _batch(n: int = 64, seed: int = 0) -> dict[str, np.ndarray]:
    """Observations and masks of the deciding figure along a random legal game."""
    env = make_env({"players": 3})
    obs, _ = env.reset(seed=seed)
    rows = []
    rng = np.random.default_rng(seed)
    while len(rows) < n:
        ((agent, o),) = obs.items()
        rows.append(o)
        action = int(rng.choice(np.flatnonzero(o["action_mask"])))
        obs, _, done, _, _ = env.step({agent: action})
        if done["__all__"]:
            obs, _ = env.reset(seed=seed + len(rows))
    return {k: np.stack([r[k] for r in rows]) for k in ("observations", "action_mask")}


def test_rllib_env_has_rllib_keys_and_one_shared_policy():
    env = make_env({"players": 4})
    obs, _ = env.reset(seed=1)
    ((agent, o),) = obs.items()
    assert set(o) == {"observations", "action_mask"} and env.observation_spaces[agent] == SPACE
    assert {shared_policy(a) for a in env.possible_agents} == {"shared"}


@pytest.mark.parametrize("features", ["board_cnn", "mlp"])
def test_module_masks_illegal_actions_and_exports_the_same_network(tmp_path, features):
    spec = NetworkSpec(
        OBSERVATION_SIZE, features=features, net_arch=(32, 32), features_dim=64, cnn_channels=8
    )
    module = InselfluchtRLModule(
        observation_space=SPACE,
        action_space=gym.spaces.Discrete(36),
        model_config={"network": spec.to_json()},
    )
    data = _batch()
    batch = {Columns.OBS: {k: torch.as_tensor(v) for k, v in data.items()}}
    logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS]
    actions = TorchCategorical(logits=logits).sample(sample_shape=(50,))  # 50 per observation
    legal = torch.as_tensor(data["action_mask"]).bool()
    assert legal.gather(1, actions.T).all(), "the module sampled an illegal action"
    values = module.compute_values(batch)
    assert values.shape == (len(legal),)

    folder = export(module, tmp_path / "exported", {"trainer": "test"})
    network, loaded_spec, _ = load_network(folder)
    assert loaded_spec == spec
    probs, exported_values = load_policy(str(folder)).evaluate(
        data["observations"], data["action_mask"]
    )
    np.testing.assert_allclose(probs, torch.softmax(logits, -1).detach().numpy(), atol=1e-5)
    np.testing.assert_allclose(exported_values, values.detach().numpy(), atol=1e-5)


def test_smoke_training_respects_masks_and_exports(ray_local, tmp_path):
    from train.rllib import main

    final = main(["--config", "configs/rllib_smoke.yaml", "--set", f"output.run_dir={tmp_path}"])
    run_dir = final.parent
    lines = [json.loads(x) for x in (run_dir / "metrics.jsonl").read_text().splitlines()]
    assert len(lines) == 2
    for line in lines:
        runners = line["result"]["env_runners"]
        assert runners["num_episodes"] > 0 and runners["inselflucht/illegal"] == 0
    assert (run_dir / "rllib" / "iter_000002" / "rllib_checkpoint.json").is_file()
    meta = json.loads((final / "metadata.json").read_text())
    assert meta["illegal_actions"] == 0 and meta["iterations"] == 2
    assert sorted(p.name for p in final.iterdir()) == ["metadata.json", "weights.safetensors"]
    done = cli(
        "train.evaluate",
        "--agent",
        str(final),
        "--episodes",
        "3",
        "--workers",
        "1",
        "--json",
        "--no-progress",
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["episodes"] == 3

    saved = run_dir / "checkpoints" / "iter_000002"  # the safe copy; RLlib's is never read
    assert sorted(p.name for p in saved.iterdir()) == ["metadata.json", "weights.safetensors"]
    again = main(
        [
            "--config",
            "configs/rllib_smoke.yaml",
            "--set",
            f"output.run_dir={tmp_path}",
            "--set",
            "iterations=1",
            "--resume",
            str(saved),
        ]
    )
    resumed = json.loads(
        (again.parent / "checkpoints" / "iter_000001" / "metadata.json").read_text()
    )
    assert resumed["resumed_from"] == str(saved)


@pytest.mark.parametrize("path", ["configs/rllib_smoke.yaml", "configs/rllib_ppo_4p_normal.yaml"])
def test_shipped_configs_validate(path):
    conf = cfg.load(path)
    assert conf["ppo"]["minibatch_size"] <= conf["ppo"]["train_batch_size_per_learner"]


@pytest.mark.parametrize(
    "path, overrides, message",
    [
        ("configs/experiments/ppo_4p_normal.yaml", [], "pretrain is not a train.rllib setting"),
        ("configs/rllib_smoke.yaml", ["ppo.minibatch_size=5000"], "must not exceed"),
        ("configs/rllib_smoke.yaml", ["policy.advice=heuristic"], "no advice wrapper"),
        ("configs/rllib_smoke.yaml", ["ppo.lr=fast"], "ppo.lr='fast' must be of type"),
        ("configs/rllib_smoke.yaml", ["num_env_runner=2"], "unknown key 'num_env_runner'"),
        ("configs/rllib_smoke.yaml", ["lr=1e-4"], None),
    ],
)
def test_config_errors_name_the_key(path, overrides, message):
    if message is None:
        assert cfg.load(path, overrides)["ppo"]["lr"] == 1e-4
        return
    with pytest.raises(ConfigError, match=message):
        cfg.load(path, overrides)


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--config", "configs/ppo_quick.yaml"], "is not a train.rllib setting"),
        (
            ["--config", "configs/rllib_smoke.yaml", "--resume", "runs/none"],
            "--resume: checkpoint 'runs/none' does not exist",
        ),
        (
            ["--config", "configs/rllib_smoke.yaml", "--address", "127.0.0.1:1"],
            "cannot reach a Ray cluster",
        ),
    ],
)
def test_cli_errors_are_one_line(flags, message):
    done = cli("train.rllib", *flags, timeout=120)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], lines


def test_too_many_env_runners_for_the_cluster_is_one_line(ray_local, tmp_path):
    address = ray_local.get_runtime_context().gcs_address
    done = cli(
        "train.rllib",
        "--config",
        "configs/rllib_smoke.yaml",
        "--address",
        address,
        "--set",
        "num_env_runners=64",
        "--set",
        f"output.run_dir={tmp_path}",
        timeout=120,
    )
    assert done.returncode == 2
    assert (
        done.stderr.strip()
        .splitlines()[-1]
        .startswith("error: env_runners.num_env_runners=64 needs 64 CPUs, the Ray cluster at")
    ), done.stderr
