"""The ``train.rllib`` configuration: a YAML file validated up front, like ``train.config``.

Sections ``env``, ``policy`` and ``output`` take ``train.config``'s keys and checks (same
names, same meaning; ``policy.advice`` excepted); ``ppo`` and ``env_runners`` use RLlib's
own names (``PPOConfig.training`` and ``.env_runners``), so RLlib's documentation applies;
``training`` says how long and with which seed. Every key is known and typed, so a typo or
a bad value is one ``ConfigError`` naming it before Ray starts. A ``train.train`` config
(sections ``pretrain``, ``curriculum``, ``eval``...) is refused with a line saying why.

The files are read with ``train.config``'s YAML loader (floats as YAML 1.2: ``1e-4`` is a
number); ``--set section.key=value`` (or ``key=value`` where the name is unambiguous)
overrides a key.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from train import config as base
from train.config import ConfigError, Key

_positive = base._positive
_fraction = base._fraction
_positive_finite = base._positive_finite
_non_negative = base._non_negative

SCHEMA: dict[str, dict[str, Key]] = {
    "env": dict(base.SCHEMA["env"]),
    "policy": {k: v for k, v in base.SCHEMA["policy"].items() if k != "advice"},
    "ppo": {
        "lr": Key((float, int), 3e-4, "Adam step size", _positive_finite),
        "gamma": Key((float, int), 0.995, "discount", _fraction),
        "lambda": Key((float, int), 0.95, "GAE lambda (PPOConfig's lambda_)", _fraction),
        "clip_param": Key((float, int), 0.2, "PPO clip", _positive_finite),
        "entropy_coeff": Key((float, int), 0.01, "entropy bonus", _fraction),
        "vf_loss_coeff": Key((float, int), 0.5, "value loss weight", _positive_finite),
        "vf_clip_param": Key((float, int), 10.0, "value clip (in reward units)", _positive_finite),
        "grad_clip": Key((float, int), 0.5, "gradient clipping (global norm)", _positive_finite),
        "train_batch_size_per_learner": Key((int,), 4000, "env steps per iteration", _positive),
        "minibatch_size": Key((int,), 512, "SGD minibatch size", _positive),
        "num_epochs": Key((int,), 4, "passes over each iteration's batch", _positive),
    },
    "env_runners": {
        "num_env_runners": Key(
            (int,),
            2,
            "sampling actors, 1 CPU each (0 = sample in the driver); spread over the Ray cluster",
            _non_negative,
        ),
        "num_envs_per_env_runner": Key(
            (int,), 1, "environments stepped together by each actor", _positive
        ),
    },
    "training": {
        "iterations": Key((int,), 100, "RLlib training iterations (algo.train() calls)", _positive),
        "seed": Key((int,), 0, "seed of environments, network and sampling", base._seed),
        "checkpoint_every": Key(
            (int,),
            10,
            "save an RLlib checkpoint every this many iterations (and after the last)",
            _positive,
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


def defaults() -> dict[str, dict[str, Any]]:
    return {
        s: {k: copy.deepcopy(key.default) for k, key in keys.items()} for s, keys in SCHEMA.items()
    }


def _hint(where: str, name: str) -> str | None:
    reason = NOT_HERE.get(name)
    return f"{where}: {name} is not a train.rllib setting: {reason}" if reason else None


def _check_value(section: str, name: str, value: Any, source: str) -> Any:
    key = SCHEMA[section][name]
    where = f"{source}: {section}.{name}={value!r}"
    if key.types == (int,):
        if isinstance(value, float) and not value.is_integer():
            raise ConfigError(f"{where} must be a whole number")
        value = base._whole(value)
    if isinstance(value, list):
        value = [base._whole(x) for x in value]
    if isinstance(value, bool) and bool not in key.types or not isinstance(value, key.types):
        allowed = getattr(key.check, "allowed", None)
        raise ConfigError(
            f"{where} must be of type {' or '.join(t.__name__ for t in key.types)}"
            f"{f' (allowed: {allowed})' if allowed else ''}"
        )
    problem = key.check(value) if key.check else None
    if problem:
        raise ConfigError(f"{where} {problem}")
    return value


def _check_sections(raw: Any, source: str) -> dict[str, dict[str, Any]]:
    if not isinstance(raw, dict):
        raise ConfigError(f"{source}: the config must be a mapping of sections {list(SCHEMA)}")
    out: dict[str, dict[str, Any]] = {}
    for section, values in raw.items():
        if section not in SCHEMA:
            raise ConfigError(
                _hint(source, section)
                or f"{source}: unknown section {section!r}; known: {list(SCHEMA)}"
            )
        if not isinstance(values, dict):
            raise ConfigError(
                f"{source}: section {section!r} must be a mapping of its keys "
                f"{sorted(SCHEMA[section])}"
            )
        out[section] = {}
        for name, value in values.items():
            if name not in SCHEMA[section]:
                raise ConfigError(
                    _hint(source, f"{section}.{name}")
                    or f"{source}: unknown key {section}.{name}; known keys in "
                    f"{section!r}: {sorted(SCHEMA[section])}"
                )
            out[section][name] = _check_value(section, name, value, source)
    return out


def validate(raw: Any, source: str = "config") -> dict[str, dict[str, Any]]:
    """A complete config (defaults filled in) or ``ConfigError`` naming the bad key."""
    out = defaults()
    for section, values in _check_sections(raw, source).items():
        out[section].update(values)
    batch, mini = out["ppo"]["train_batch_size_per_learner"], out["ppo"]["minibatch_size"]
    if mini > batch:
        raise ConfigError(
            f"{source}: ppo.minibatch_size={mini} must not exceed "
            f"ppo.train_batch_size_per_learner={batch}"
        )
    return out


def _all_keys() -> list[str]:
    return sorted(f"{s}.{k}" for s, keys in SCHEMA.items() for k in keys)


def _override_key(path: str, item: str) -> tuple[str, str]:
    if "." in path:
        section, name = path.split(".", 1)
        if section in SCHEMA and name in SCHEMA[section]:
            return section, name
        raise ConfigError(
            _hint(f"--set {item}", path)
            or f"--set {item}: unknown key {path!r}; known: {_all_keys()}"
        )
    sections = [s for s, keys in SCHEMA.items() if path in keys]
    if len(sections) != 1:
        raise ConfigError(
            f"--set {item}: {'ambiguous' if sections else 'unknown'} key "
            f"{path!r}; write it as section.key, one of {_all_keys()}"
        )
    return sections[0], path


def load(path: str | Path, overrides: Sequence[str] = ()) -> dict[str, dict[str, Any]]:
    """Read, override (``--set``) and validate a YAML config file."""
    path = Path(path)
    try:
        raw = base._yaml(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"config file {str(path)!r} does not exist") from None
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as err:
        raise ConfigError(
            f"config file {str(path)!r} cannot be read: {str(err).splitlines()[0]}"
        ) from None
    raw = _check_sections(raw, str(path))
    for item in overrides:
        if "=" not in item:
            raise ConfigError(
                f"--set {item}: expected key=value or section.key=value, e.g. "
                "iterations=2 or ppo.lr=1e-4"
            )
        key_path, text = item.split("=", 1)
        section, name = _override_key(key_path.strip(), item)
        try:
            value = base._yaml(text)
        except yaml.YAMLError as err:
            raise ConfigError(f"--set {item}: not a YAML value: {err}") from None
        raw.setdefault(section, {})[name] = _check_value(section, name, value, f"--set {item}")
    return validate(raw, f"{path} with the --set overrides" if overrides else str(path))
