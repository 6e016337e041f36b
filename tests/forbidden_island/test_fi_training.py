"""``train.train`` on ``ForbiddenIsland-v0``: a tiny run after cloning the game's heuristic
(with a DAgger round) writes checkpoints that name their game and play legal actions; the
settings this game does not support yet are refused by name."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from inselflucht_env.envs.forbidden_island import ForbiddenIslandEnv
from inselflucht_env.learned.policy import load_policy
from train import config as cfg

CONFIG = Path(__file__).parents[2] / "configs" / "ppo_forbidden_island_2p_novice.yaml"


def _args(*overrides: str) -> list[str]:
    args = ["--config", str(CONFIG), "--no-progress"]
    for item in overrides:
        args += ["--set", item]
    return args


def test_a_cloned_forbidden_island_policy_trains_and_plays_legal_actions(tmp_path):
    from train.train import main

    final = main(
        _args(
            "total_timesteps=512",
            "n_envs=2",
            "n_steps=256",
            "ppo.batch_size=256",
            "n_epochs=1",
            "eval.freq=0",
            f"run_dir={tmp_path}",
            "pretrain.games=3",
            "pretrain.epochs=1",
            "dagger_rounds=1",
            "dagger_games=1",
            "workers=1",
        )
    )
    meta = json.loads((final / "metadata.json").read_text())
    assert meta["signature"]["game"] == "forbidden_island"
    cloned = meta["behaviour_cloning"]
    assert cloned["seconds"] > 0
    pretrained = json.loads((final.parent / "pretrained" / "metadata.json").read_text())
    assert pretrained["timesteps"] == 0 and pretrained["signature"]["game"] == "forbidden_island"
    policy = load_policy(final)
    env = ForbiddenIslandEnv()
    obs, info = env.reset(seed=3)
    for _ in range(30):
        action = policy.predict_action(obs, info["action_mask"].astype(bool))
        assert info["action_mask"][action]
        obs, _, done, _, info = env.step(action)
        if done:
            break
    assert np.isfinite(obs).all()


@pytest.mark.parametrize(
    ("override", "named"),
    [
        ("advice=heuristic", "policy.advice"),
        ("vec_env=compiled", "training.vec_env"),
        ("stages=[{until: 1000, difficulty: normal}]", "curriculum.stages"),
    ],
)
def test_settings_forbidden_island_lacks_are_refused_by_name(override, named):
    with pytest.raises(cfg.ConfigError, match=named):
        cfg.load(str(CONFIG), [override])
