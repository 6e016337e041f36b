"""The configuration of expert iteration (``train.expert_iteration``), validated up front.

Same rules as ``train.config`` (PPO) and built from its parts (``Key``, the checks, the
YAML 1.2 float reading, ``ConfigError``): every key is known and typed, an unknown key or
a bad value is an error naming it before anything runs, and ``--set section.key=value``
overrides parse as YAML (the section may be left out where only one section has the key).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from train.config import (
    ConfigError,
    Key,
    _choice,
    _folder_name,
    _fraction,
    _meter,
    _net_arch,
    _non_negative,
    _positive,
    _positive_finite,
    _seed,
    _whole,
    _yaml,
)

SCHEMA: dict[str, dict[str, Key]] = {
    "env": {
        "players": Key((int,), 4, "players 1-4 (1 = solo with two figures)", _choice(1, 2, 3, 4)),
        "taucher": Key((bool,), False, "variant Taucher: swimming costs 1 action (R7.1)"),
        "short_game": Key((bool,), False, "variant Kurzes Spiel (R7.2)"),
        "meter": Key((str, list), "normal", "meter preset or list of levels (R7.3)", _meter),
    },
    "network": {
        "features": Key(
            (str,),
            "centred_cnn",
            "centred_cnn (conv over the grid centred on "
            "the deciding figure), board_cnn (over the 5x5 grid) or mlp",
            _choice("centred_cnn", "board_cnn", "mlp"),
        ),
        "cnn_channels": Key((int,), 32, "channels of the board convolutions", _positive),
        "features_dim": Key((int,), 128, "size of the extracted features", _positive),
        "net_arch": Key((list,), [128, 128], "hidden layers of policy and value heads", _net_arch),
    },
    "search": {
        "simulations": Key((int,), 100, "simulations per self-play decision", _positive),
        "c_puct": Key((float, int), 1.0, "PUCT exploration constant", _positive_finite),
        "batch": Key((int,), 8, "simulations per batched forward pass (virtual visits)", _positive),
        "dirichlet_alpha": Key(
            (float, int), 0.3, "root Dirichlet noise in self-play (0 = off)", _non_negative
        ),
        "noise_fraction": Key(
            (float, int), 0.25, "share of the noise in the root prior", _fraction
        ),
        "sample_decisions": Key(
            (int,),
            30,
            "decisions per game (counted from the start) "
            "played by sampling the visit counts; later ones take the most "
            "visited action",
            _non_negative,
        ),
        "heuristic_prior": Key(
            (float, int),
            0.0,
            "share of the heuristic's choice in every node's prior (netsearch)",
            _fraction,
        ),
        "rollout_depth": Key(
            (int,),
            0,
            "heuristic decisions played on from a leaf before the "
            "value head judges it (0: the value head at the leaf; 300: a "
            "rollout to the end of the game, the outcome judges it)",
            _non_negative,
        ),
    },
    "self_play": {
        "games": Key((int,), 200, "self-play games per iteration", _positive),
        "workers": Key((int,), 2, "processes playing games (one torch thread each)", _positive),
        "network_moves": Key(
            (float, int),
            0.0,
            "share of decisions where the raw network's "
            "choice is played instead of the search's (still labelled by the "
            "search, as in DAgger: the network learns on its own states)",
            _fraction,
        ),
    },
    "warm_start": {
        "games": Key(
            (int,), 2000, "teacher games cloned before the first iteration (0 = off)", _non_negative
        ),
        "teacher": Key(
            (str,), "heuristic", "agent whose choices are cloned", _choice("heuristic", "search")
        ),
        "epochs": Key((int,), 4, "passes over the teacher data", _positive),
    },
    "train": {
        "iterations": Key(
            (int,),
            20,
            "last iteration to run (0 = the warm start only; a resumed run continues up to it)",
            _non_negative,
        ),
        "steps": Key((int,), 500, "gradient steps per iteration", _positive),
        "batch_size": Key((int,), 256, "minibatch size", _positive),
        "learning_rate": Key((float, int), 1e-3, "Adam step size", _positive_finite),
        "weight_decay": Key((float, int), 1e-4, "AdamW weight decay", _non_negative),
        "value_coef": Key((float, int), 1.0, "weight of the value loss", _non_negative),
        "value_mix": Key(
            (float, int),
            0.25,
            "value target: (1 - mix) * outcome + mix * the search's root value",
            _fraction,
        ),
        "max_grad_norm": Key((float, int), 1.0, "gradient clipping", _positive_finite),
        "replay_samples": Key(
            (int,), 200_000, "replay window: the newest decisions kept", _positive
        ),
        "seed": Key((int,), 0, "seed of network, training batches and search", _seed),
        "torch_threads": Key(
            (int,),
            1,
            "torch threads of the training process (more are "
            "slower on a shared 2-core machine: 327 vs 19 ms a step)",
            _positive,
        ),
    },
    "eval": {
        "network_games": Key(
            (int,),
            200,
            "games of the raw network per iteration (fixed evaluation seeds)",
            _non_negative,
        ),
        "search_games": Key((int,), 40, "games of the guided search per iteration", _non_negative),
        "search_simulations": Key(
            (int,), 100, "simulations per decision of that search", _positive
        ),
    },
    "output": {
        "run_dir": Key((str,), "runs", "folder that receives one sub-folder per run"),
        "name": Key((str,), "exit_4p_normal", "run name prefix: a plain folder name", _folder_name),
    },
}


def defaults() -> dict[str, dict[str, Any]]:
    return {
        section: {k: copy.deepcopy(key.default) for k, key in keys.items()}
        for section, keys in SCHEMA.items()
    }


def _check_value(section: str, name: str, value: Any, source: str) -> Any:
    key = SCHEMA[section][name]
    where = f"{source}: {section}.{name}={value!r}"
    allowed = getattr(key.check, "allowed", None)
    if key.types == (int,):
        if isinstance(value, float) and not value.is_integer():
            raise ConfigError(f"{where} must be a whole number")
        value = _whole(value)
    elif key.check in (_meter, _net_arch) and isinstance(value, list):
        value = [_whole(x) for x in value]
    if isinstance(value, bool) and bool not in key.types or not isinstance(value, key.types):
        raise ConfigError(
            f"{where} must be of type "
            f"{' or '.join(t.__name__ for t in key.types)}"
            f"{f' (allowed: {allowed})' if allowed else ''}"
        )
    problem = key.check(value) if key.check else None
    if problem:
        raise ConfigError(f"{where} {problem}")
    return value


def validate(raw: Any, source: str = "config") -> dict[str, dict[str, Any]]:
    """A complete config (defaults filled in) or ``ConfigError`` naming the bad key."""
    if not isinstance(raw, dict):
        raise ConfigError(
            f"{source}: the top level must be a mapping of sections "
            f"{list(SCHEMA)}, not {type(raw).__name__}"
        )
    out = defaults()
    for section, values in raw.items():
        if section not in SCHEMA:
            raise ConfigError(f"{source}: unknown section {section!r}; known: {list(SCHEMA)}")
        if not isinstance(values, dict):
            raise ConfigError(
                f"{source}: section {section!r} must be a mapping of its keys "
                f"{sorted(SCHEMA[section])}"
            )
        for name, value in values.items():
            if name not in SCHEMA[section]:
                raise ConfigError(
                    f"{source}: unknown key {section}.{name}; known keys in "
                    f"{section!r}: {sorted(SCHEMA[section])}"
                )
            out[section][name] = _check_value(section, name, value, source)
    return out


def apply_overrides(raw: dict, overrides: list[str]) -> dict:
    """``key=value`` / ``section.key=value`` overrides (values parsed as YAML) on ``raw``."""
    raw = copy.deepcopy(raw) if raw else {}
    for item in overrides:
        path, sep, text = item.partition("=")
        if not sep:
            raise ConfigError(f"--set {item}: expected key=value or section.key=value")
        path = path.strip()
        if "." in path:
            section, name = path.split(".", 1)
            if name not in SCHEMA.get(section, {}):
                raise ConfigError(f"--set {item}: unknown key {path}")
        else:
            sections = [s for s, keys in SCHEMA.items() if path in keys]
            if len(sections) != 1:
                raise ConfigError(
                    f"--set {item}: "
                    + (
                        f"unknown key {path!r}"
                        if not sections
                        else f"{path!r} is ambiguous: use one of "
                        f"{[f'{s}.{path}' for s in sections]}"
                    )
                )
            section, name = sections[0], path
        try:
            value = _yaml(text)
        except yaml.YAMLError as err:
            raise ConfigError(f"--set {item}: cannot parse the value as YAML: {err}") from None
        raw.setdefault(section, {})[name] = _check_value(section, name, value, f"--set {item}")
    return raw


def load(path: str | Path, overrides: Sequence[str] = ()) -> dict[str, dict[str, Any]]:
    """Read, override and validate a YAML config file."""
    path = Path(path)
    try:
        raw = _yaml(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"config file {str(path)!r} does not exist") from None
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as err:
        raise ConfigError(f"config file {str(path)!r} cannot be read: {err}") from None
    if raw is None:
        raw = {}
    validate(raw, str(path))  # errors in the file itself name the file
    return validate(apply_overrides(raw, list(overrides)), str(path))
