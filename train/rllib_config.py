"""The ``train.rllib`` configuration: a YAML file validated up front, like ``train.config``.

Sections ``env``, ``policy`` and ``output`` take ``train.config``'s keys and checks (same
names, same meaning; ``policy.advice`` excepted); ``ppo`` and ``env_runners`` use RLlib's
own names (``PPOConfig.training`` and ``.env_runners``), so RLlib's documentation applies;
``training`` says how long and with which seed. Every key is known and typed, so a typo or
a bad value is one ``ConfigError`` naming it before Ray starts. A ``train.train`` config
(sections ``pretrain``, ``curriculum``, ``eval``...) is refused with a line saying why.

The files are read and checked by ``train.config.Schema`` (floats as YAML 1.2: ``1e-4`` is
a number); ``--set section.key=value`` (or ``key=value`` where the name is unambiguous)
overrides a key.
"""

from __future__ import annotations

from train import config as base
from train.config import (
    Config,
    ConfigError,
    Key,
    Schema,
    fraction,
    non_negative,
    positive,
    positive_finite,
    seed_range,
)

__all__ = [
    "NOT_HERE",
    "SCHEMA",
    "ConfigError",
    "Key",
    "apply_overrides",
    "defaults",
    "load",
    "validate",
]

SCHEMA: dict[str, dict[str, Key]] = {
    "env": dict(base.ENV_SECTION),
    "policy": {k: v for k, v in base.SCHEMA["policy"].items() if k != "advice"},
    "ppo": {
        "lr": Key((float, int), 3e-4, "Adam step size", positive_finite),
        "gamma": Key((float, int), 0.995, "discount", fraction),
        "lambda": Key((float, int), 0.95, "GAE lambda (PPOConfig's lambda_)", fraction),
        "clip_param": Key((float, int), 0.2, "PPO clip", positive_finite),
        "entropy_coeff": Key((float, int), 0.01, "entropy bonus", fraction),
        "vf_loss_coeff": Key((float, int), 0.5, "value loss weight", positive_finite),
        "vf_clip_param": Key((float, int), 10.0, "value clip (in reward units)", positive_finite),
        "grad_clip": Key((float, int), 0.5, "gradient clipping (global norm)", positive_finite),
        "train_batch_size_per_learner": Key((int,), 4000, "env steps per iteration", positive),
        "minibatch_size": Key((int,), 512, "SGD minibatch size", positive),
        "num_epochs": Key((int,), 4, "passes over each iteration's batch", positive),
    },
    "env_runners": {
        "num_env_runners": Key(
            (int,),
            2,
            "sampling actors, 1 CPU each (0 = sample in the driver); spread over the Ray cluster",
            non_negative,
        ),
        "num_envs_per_env_runner": Key(
            (int,), 1, "environments stepped together by each actor", positive
        ),
    },
    "training": {
        "iterations": Key((int,), 100, "RLlib training iterations (algo.train() calls)", positive),
        "seed": Key((int,), 0, "seed of environments, network and sampling", seed_range),
        "checkpoint_every": Key(
            (int,),
            10,
            "save an RLlib checkpoint every this many iterations (and after the last)",
            positive,
        ),
    },
    "output": {k: base.SCHEMA["output"][k] for k in ("run_dir", "name")},
}

# What a train.train config has that this trainer cannot run, and what to do instead.
NOT_HERE = {
    "pretrain": "behaviour cloning is train.train's (MaskablePPO); train.rllib trains from "
    "random weights",
    "curriculum": "train.rllib plays one game (the env section); use train.train for a curriculum",
    "eval": "train.rllib logs win rates of its own games (inselflucht/win_rate); evaluate "
    "the exported policy with train.evaluate",
    "policy.advice": "the RLlib env has no advice wrapper; use train.train for advice",
    "training.total_timesteps": "train.rllib counts iterations: training.iterations times "
    "ppo.train_batch_size_per_learner steps",
    "training.n_envs": "use env_runners.num_env_runners and num_envs_per_env_runner",
}


def _not_here(name: str) -> str | None:
    """Why ``name`` (a section or ``section.key`` of ``train.train``) is not a setting here."""
    reason = NOT_HERE.get(name)
    return f"{name} is not a train.rllib setting: {reason}" if reason else None


def _minibatch_fits(conf: Config) -> str | None:
    """An SGD minibatch must fit in one iteration's batch."""
    batch, mini = conf["ppo"]["train_batch_size_per_learner"], conf["ppo"]["minibatch_size"]
    if mini > batch:
        return f"ppo.minibatch_size={mini} must not exceed ppo.train_batch_size_per_learner={batch}"
    return None


_SCHEMA = Schema(
    SCHEMA,
    file_example="training: {iterations: 100}",
    set_example="iterations=2 or ppo.lr=1e-4",
    cross_check=_minibatch_fits,
    hint=_not_here,
)
defaults = _SCHEMA.defaults
validate = _SCHEMA.validate
apply_overrides = _SCHEMA.apply_overrides
load = _SCHEMA.load
