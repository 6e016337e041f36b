"""Training configuration: a YAML file in the RL Baselines3 Zoo style, validated up front.

Every key is known and typed here, so an unknown key or a bad value is an error naming it
before any environment or network is built. ``--set a.b=value`` overrides parse as YAML.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from inselflucht_env.advice import ADVISORS
from inselflucht_env.config import METER_PRESETS
from inselflucht_env.env import REWARD_SCHEMES


class ConfigError(ValueError):
    """A configuration file or override that cannot be used; the message names the key."""


@dataclass(frozen=True)
class Key:
    """One configuration key: its type(s), default, optional check and meaning."""

    types: tuple[type, ...]
    default: Any
    help: str
    check: Any = None  # callable(value) -> error text or None


def _positive(v):
    return None if v > 0 else "must be > 0"


def _fraction(v):
    return None if 0 <= v <= 1 else "must be within [0, 1]"


def _choice(*allowed):
    return lambda v: None if v in allowed else f"must be one of {list(allowed)}"


def _meter(v):
    if isinstance(v, str):
        return None if v in METER_PRESETS else f"must be one of {sorted(METER_PRESETS)} or a list"
    ok = isinstance(v, list) and v and all(isinstance(x, int) and 1 <= x <= 5 for x in v)
    return None if ok else "must be a non-empty list of levels 1-5"


def _net_arch(v):
    ok = isinstance(v, list) and v and all(isinstance(x, int) and x > 0 for x in v)
    return None if ok else "must be a non-empty list of positive layer sizes"


def _stages(v):
    if not isinstance(v, list):
        return "must be a list of {until: timesteps, meter: preset-or-list}"
    for i, stage in enumerate(v):
        if not isinstance(stage, dict) or set(stage) != {"until", "meter"}:
            return f"stage {i} must have exactly the keys 'until' and 'meter'"
        if not isinstance(stage["until"], int) or stage["until"] <= 0:
            return f"stage {i}: 'until' must be a positive number of timesteps"
        if _meter(stage["meter"]):
            return f"stage {i}: 'meter' {_meter(stage['meter'])}"
    return None


SCHEMA: dict[str, dict[str, Key]] = {
    "env": {
        "players": Key((int,), 2, "players 1-4 (1 = solo with two figures)", _choice(1, 2, 3, 4)),
        "taucher": Key((bool,), False, "variant Taucher: swimming costs 1 action (R7.1)"),
        "short_game": Key((bool,), False, "variant Kurzes Spiel (R7.2)"),
        "meter": Key((str, list), "normal", "meter preset or list of levels (R7.3)", _meter),
        "reward": Key((str,), "shaped", "reward scheme used for learning",
                      _choice(*REWARD_SCHEMES)),
    },
    "curriculum": {
        "stages": Key((list,), [], "meters to train on before the env's own meter, in order: "
                      "[{until: timesteps, meter: ...}]", _stages),
    },
    "pretrain": {
        "games": Key((int,), 0, "teacher games for behaviour cloning before PPO (0 = off)",
                     lambda v: None if v >= 0 else "must be >= 0"),
        "teacher": Key((str,), "heuristic", "agent to imitate (inselflucht_env.agents)",
                       _choice("heuristic", "search", "random")),
        "dagger_teacher": Key((str,), "same", "agent that labels the DAgger states ('same' = "
                              "teacher); e.g. the slower, stronger search agent",
                              _choice("same", "heuristic", "search")),
        "epochs": Key((int,), 5, "passes over the teacher data", _positive),
        "batch_size": Key((int,), 1024, "minibatch size of behaviour cloning", _positive),
        "learning_rate": Key((float, int), 1e-3, "Adam step size of behaviour cloning", _positive),
        "workers": Key((int,), 2, "processes playing teacher games", _positive),
        "dagger_rounds": Key((int,), 0, "DAgger rounds after cloning: play the student, label "
                             "its states with the teacher, refit", lambda v: None if v >= 0
                             else "must be >= 0"),
        "dagger_games": Key((int,), 1000, "student games per DAgger round", _positive),
    },
    "training": {
        "total_timesteps": Key((int,), 1_000_000, "environment steps to train", _positive),
        "n_envs": Key((int,), 8, "parallel environments", _positive),
        "vec_env": Key((str,), "dummy", "dummy (one process) or subproc",
                       _choice("dummy", "subproc")),
        "seed": Key((int,), 0, "seed of environments, network and sampling"),
        "device": Key((str,), "cpu", "torch device", _choice("cpu", "cuda", "auto")),
        "torch_threads": Key((int,), 1, "torch CPU threads (1 is fastest for small nets "
                             "beside busy environment processes)", _positive),
    },
    "ppo": {
        "learning_rate": Key((float, int), 3e-4, "Adam step size", _positive),
        "n_steps": Key((int,), 256, "steps per environment per update", _positive),
        "batch_size": Key((int,), 512, "minibatch size", _positive),
        "n_epochs": Key((int,), 4, "passes over each rollout", _positive),
        "gamma": Key((float, int), 0.995, "discount", _fraction),
        "gae_lambda": Key((float, int), 0.95, "GAE lambda", _fraction),
        "clip_range": Key((float, int), 0.2, "PPO clip", _positive),
        "ent_coef": Key((float, int), 0.01, "entropy bonus", _fraction),
        "vf_coef": Key((float, int), 0.5, "value loss weight", _positive),
        "max_grad_norm": Key((float, int), 0.5, "gradient clipping", _positive),
    },
    "policy": {
        "features": Key((str,), "board_cnn", "board_cnn (conv over the 5x5 planes) or mlp",
                        _choice("board_cnn", "mlp")),
        "cnn_channels": Key((int,), 32, "channels of the board convolutions", _positive),
        "features_dim": Key((int,), 256, "size of the extracted features", _positive),
        "net_arch": Key((list,), [256, 256], "hidden layers of policy and value heads", _net_arch),
        "advice": Key((str,), "none", "append an agent's choice to the observation "
                      "(inselflucht_env.advice): none or heuristic", _choice(*ADVISORS)),
    },
    "eval": {
        "freq": Key((int,), 50_000, "evaluate every this many timesteps (0 = never)",
                    lambda v: None if v >= 0 else "must be >= 0"),
        "episodes": Key((int,), 100, "episodes per evaluation (plain game, win reward)", _positive),
    },
    "output": {
        "run_dir": Key((str,), "runs", "folder that receives one sub-folder per run"),
        "name": Key((str,), "ppo_2p_normal", "run name prefix"),
        "checkpoint_freq": Key((int,), 100_000, "save a resumable model every this many steps",
                               _positive),
    },
}


def defaults() -> dict[str, dict[str, Any]]:
    return {section: {k: copy.deepcopy(key.default) for k, key in keys.items()}
            for section, keys in SCHEMA.items()}


def validate(raw: Any, source: str = "config") -> dict[str, dict[str, Any]]:
    """A complete config (defaults filled in) or ``ConfigError`` naming the bad key."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ConfigError(f"{source}: the top level must be a mapping of sections {list(SCHEMA)}")
    out = defaults()
    for section, values in raw.items():
        if section not in SCHEMA:
            raise ConfigError(f"{source}: unknown section {section!r}; known: {list(SCHEMA)}")
        if not isinstance(values, dict):
            raise ConfigError(f"{source}: section {section!r} must be a mapping")
        for name, value in values.items():
            key = SCHEMA[section].get(name)
            if key is None:
                raise ConfigError(f"{source}: unknown key {section}.{name}; known keys in "
                                  f"{section!r}: {sorted(SCHEMA[section])}")
            if isinstance(value, bool) and bool not in key.types or \
                    not isinstance(value, key.types):
                raise ConfigError(f"{source}: {section}.{name}={value!r} must be of type "
                                  f"{' or '.join(t.__name__ for t in key.types)}")
            problem = key.check(value) if key.check else None
            if problem:
                raise ConfigError(f"{source}: {section}.{name}={value!r} {problem}")
            out[section][name] = value
    if out["ppo"]["batch_size"] > out["ppo"]["n_steps"] * out["training"]["n_envs"]:
        raise ConfigError(f"{source}: ppo.batch_size must not exceed ppo.n_steps * training.n_envs")
    return out


def apply_overrides(raw: dict, overrides: list[str]) -> dict:
    """Apply ``key=value`` or ``section.key=value`` overrides (values parsed as YAML).

    Key names are unique across sections, so the section may be left out.
    """
    raw = copy.deepcopy(raw) if raw else {}
    for item in overrides:
        if "=" not in item:
            raise ConfigError(f"override {item!r} must look like key=value, "
                              "e.g. total_timesteps=200000 or ppo.learning_rate=1e-4")
        path, text = item.split("=", 1)
        if "." in path:
            section, name = path.split(".", 1)
        else:
            sections = [sec for sec, keys in SCHEMA.items() if path in keys]
            if not sections:
                raise ConfigError(f"override {item!r}: unknown key {path!r}")
            section, name = sections[0], path
        try:
            value = yaml.safe_load(text)
        except yaml.YAMLError as err:
            raise ConfigError(f"override {item!r}: cannot parse the value: {err}") from None
        raw.setdefault(section, {})
        if not isinstance(raw[section], dict):
            raise ConfigError(f"override {item!r}: section {section!r} is not a mapping")
        raw[section][name] = value
    return raw


def load(path: str | Path, overrides: list[str] = ()) -> dict[str, dict[str, Any]]:
    """Read, override and validate a YAML config file."""
    path = Path(path)
    try:
        raw = yaml.safe_load(path.read_text())
    except FileNotFoundError:
        raise ConfigError(f"config file {str(path)!r} does not exist") from None
    except yaml.YAMLError as err:
        raise ConfigError(f"{path}: not valid YAML: {err}") from None
    if raw is not None and not isinstance(raw, dict):
        raise ConfigError(f"{path}: the top level must be a mapping of sections {list(SCHEMA)}")
    return validate(apply_overrides(raw or {}, list(overrides)), str(path))
