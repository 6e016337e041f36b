"""Training configuration: a YAML file in the RL Baselines3 Zoo style, validated up front.

Every key is known and typed here, so an unknown key or a bad value is an error naming it
and what it allows, before any environment or network is built. ``--set section.key=value``
overrides parse as YAML; the section may be left out when no other section has that key.

Files and override values are read by PyYAML (YAML 1.1) with one change: floats follow
YAML 1.2, so ``1e-4``, ``3e-5`` and ``1e5`` are numbers, not strings. An integer key takes
a float only when it is whole (``total_timesteps: 1e5`` is 100000).
"""

from __future__ import annotations

import argparse
import copy
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from inselflucht_env.envs.advice import ADVISORS
from inselflucht_env.envs.inselflucht import REWARD_SCHEMES
from inselflucht_env.errors import InputError
from inselflucht_env.games.forbidden_island.rules.config import DIFFICULTIES, ROLE_NAMES
from inselflucht_env.games.forbidden_island.rules.config import GameConfig as FIGameConfig
from inselflucht_env.games.inselflucht.rules.config import METER_PRESETS


class ConfigError(InputError):
    """A configuration file or override that cannot be used; the message names the key."""


class _Loader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that also resolves YAML 1.2 floats such as ``1e-4`` and ``1e5``."""


# The YAML 1.2 core schema float. Integers match it too, but SafeLoader's int resolver is
# tried first (resolvers are tried in the order they were added), so they stay ints.
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$"),
    list("-+.0123456789"),
)


def _yaml(text: str) -> Any:
    return yaml.load(text, Loader=_Loader)


@dataclass(frozen=True)
class Key:
    """One configuration key: its type(s), default, optional check and meaning."""

    types: tuple[type, ...]
    default: Any
    help: str
    check: Any = None  # callable(value) -> error text or None; ``.allowed`` describes it


def _is_int(v: Any) -> bool:
    """An int proper: ``bool`` is an ``int`` subclass in Python, but ``true`` is no number."""
    return isinstance(v, int) and not isinstance(v, bool)


def _whole(v: Any) -> Any:
    """An integral float (``1e5`` as YAML reads it) as an int; anything else unchanged."""
    return int(v) if isinstance(v, float) and v.is_integer() else v


def _rule(allowed: str, ok) -> Any:
    """A check: ``ok(value)`` true or the text "must be <allowed>"."""

    def check(v):
        return None if ok(v) else f"must be {allowed}"

    setattr(check, "allowed", allowed)  # noqa: B010 (what error messages list as allowed)
    return check


# Checks for ``Key.check``, public because every trainer's config module builds on them.
positive = _rule("> 0", lambda v: v > 0)
positive_finite = _rule("> 0 and finite", lambda v: 0 < v < math.inf)
non_negative = _rule(">= 0", lambda v: v >= 0)
fraction = _rule("within [0, 1]", lambda v: 0 <= v <= 1)
seed_range = _rule("within [0, 2**32 - 1]", lambda v: 0 <= v < 2**32)


def choice(*allowed: Any) -> Any:
    """A check: the value is one of ``allowed``."""
    return _rule(f"one of {list(allowed)}", lambda v: v in allowed)


_METER_ALLOWED = f"one of {sorted(METER_PRESETS)} or a non-empty list of integer levels 1-5"
meter = _rule(
    _METER_ALLOWED,
    lambda v: (
        v in METER_PRESETS
        if isinstance(v, str)
        else (isinstance(v, list) and bool(v) and all(_is_int(x) and 1 <= x <= 5 for x in v))
    ),
)
net_arch = _rule(
    "a non-empty list of positive integer layer sizes",
    lambda v: isinstance(v, list) and bool(v) and all(_is_int(x) and x > 0 for x in v),
)
folder_name = _rule(
    "a plain folder name (not empty, not '.' or '..', without '/', '\\', ':'), e.g. ppo_2p_normal",
    lambda v: bool(v.strip()) and v not in (".", "..") and not any(c in v for c in "/\\:\0"),
)

_STAGE_GAME_KEYS = ("players", "taucher", "short_game", "meter")
_STAGE = (
    "{until: timesteps, and any of players, taucher, short_game, meter; a missing one "
    "is the env section's}"
)


def _stage_problem(i: int, stage: Any, previous: int) -> str | None:
    """What is wrong with stage ``i`` (``previous``: the last stage's ``until``), or None.

    Each game key is checked as the ``env`` section's key of that name (``SCHEMA["env"]``).
    """
    if not isinstance(stage, dict):
        return (
            f"has a bad stage {i} ({type(stage).__name__}): each stage must be a mapping {_STAGE}"
        )
    unknown = sorted(map(str, set(stage) - {"until", *_STAGE_GAME_KEYS}))
    if unknown:
        return (
            f"has a bad stage {i}: unknown key(s) {unknown}; a stage takes 'until' and "
            f"any of {list(_STAGE_GAME_KEYS)}"
        )
    if "until" not in stage:
        return f"has a bad stage {i}: 'until' is missing, {_STAGE}"
    if not set(stage) & set(_STAGE_GAME_KEYS):
        return (
            f"has a bad stage {i}: it changes nothing; name at least one of "
            f"{list(_STAGE_GAME_KEYS)}"
        )
    until = stage["until"]
    if not _is_int(until) or until <= 0:
        return (
            f"has a bad stage {i}: 'until'={until!r} must be a positive whole number of timesteps"
        )
    if until <= previous:
        return (
            f"has a bad stage {i}: 'until'={until} must be greater than the previous "
            f"stage's {previous} (stages run in order)"
        )
    for name in _STAGE_GAME_KEYS:
        if name not in stage:
            continue
        key, value = SCHEMA["env"][name], stage[name]
        allowed = getattr(key.check, "allowed", None)
        if isinstance(value, bool) and bool not in key.types or not isinstance(value, key.types):
            return (
                f"has a bad stage {i}: {name!r}={value!r} must be of type "
                f"{' or '.join(t.__name__ for t in key.types)}"
                f"{f' (allowed: {allowed})' if allowed else ''}"
            )
        problem = key.check(value) if key.check else None
        if problem:
            return f"has a bad stage {i}: {name!r}={value!r} {problem}"
    return None


def ordered_entries(
    what: str, shape: str, order_key: str, problem: Callable[[int, Any, int], str | None]
) -> Any:
    """A check for a list of ``what`` (each of the form ``shape``), entry ``i`` checked by
    ``problem(i, entry, previous)``: ``previous`` is the last entry's ``order_key`` (0 before
    the first), so that the entries must come in increasing order of it."""

    def check(v):
        if not isinstance(v, list):
            return f"must be a list of {what} {shape}"
        previous = 0
        for i, entry in enumerate(v):
            found = problem(i, entry, previous)
            if found:
                return found
            previous = entry[order_key]
        return None

    setattr(check, "allowed", f"a list of {what} {shape} with increasing {order_key!r}")  # noqa: B010
    return check


_stages = ordered_entries("stages", _STAGE, "until", _stage_problem)


# Inselflucht's env keys (what the RLlib trainer takes too); the PPO trainer adds a game.
ENV_SECTION: dict[str, Key] = {
    "players": Key((int,), 2, "players 1-4 (1 = solo with two figures)", choice(1, 2, 3, 4)),
    "taucher": Key((bool,), False, "variant Taucher: swimming costs 1 action (R7.1)"),
    "short_game": Key((bool,), False, "variant Kurzes Spiel (R7.2)"),
    "meter": Key((str, list), "normal", "meter preset or list of levels (R7.3)", meter),
    "reward": Key((str,), "shaped", "reward scheme used for learning", choice(*REWARD_SCHEMES)),
}
GAMES = ("inselflucht", "forbidden_island")
OTHER_GAME_KEYS = {  # the env keys of one game that the other does not take
    "inselflucht": ("difficulty", "roles"),
    "forbidden_island": ("taucher", "short_game", "meter"),
}
role_list = _rule(
    f"null or a list of distinct role names from {list(ROLE_NAMES)}",
    lambda v: (
        v is None
        or (
            isinstance(v, list)
            and all(isinstance(r, str) and r in ROLE_NAMES for r in v)
            and len(set(v)) == len(v)
        )
    ),
)

SCHEMA: dict[str, dict[str, Key]] = {
    "env": {
        "game": Key(
            (str,), "inselflucht", "the game: inselflucht or forbidden_island", choice(*GAMES)
        ),
        **ENV_SECTION,
        "difficulty": Key(
            (str,),
            "novice",
            "forbidden_island: the water level's start (FR2.3)",
            choice(*DIFFICULTIES),
        ),
        "roles": Key(
            (list, type(None)),
            None,
            "forbidden_island: one role per seat, or null for random roles",
            role_list,
        ),
    },
    "curriculum": {
        "stages": Key(
            (list,),
            [],
            "games to train on before the env section's, in order: "
            "[{until: timesteps, players: 2, taucher: true, short_game: true, "
            "meter: leicht}, ...]; each game key is optional (missing: the env "
            "section's)",
            _stages,
        ),
    },
    "pretrain": {
        "games": Key(
            (int,), 0, "teacher games for behaviour cloning before PPO (0 = off)", non_negative
        ),
        "teacher": Key(
            (str,),
            "heuristic",
            "agent to imitate (inselflucht_env.agents)",
            choice("heuristic", "search", "random"),
        ),
        "dagger_teacher": Key(
            (str,),
            "same",
            "agent that labels the DAgger states ('same' = "
            "teacher); e.g. the slower, stronger search agent",
            choice("same", "heuristic", "search"),
        ),
        "epochs": Key((int,), 5, "passes over the teacher data", positive),
        "batch_size": Key((int,), 1024, "minibatch size of behaviour cloning", positive),
        "learning_rate": Key(
            (float, int), 1e-3, "Adam step size of behaviour cloning", positive_finite
        ),
        "workers": Key((int,), 2, "processes playing teacher games", positive),
        "dagger_rounds": Key(
            (int,),
            0,
            "DAgger rounds after cloning: play the student, label "
            "its states with the teacher, refit",
            non_negative,
        ),
        "dagger_games": Key((int,), 1000, "student games per DAgger round", positive),
    },
    "training": {
        "total_timesteps": Key((int,), 1_000_000, "environment steps to train", positive),
        "n_envs": Key((int,), 8, "parallel environments", positive),
        "vec_env": Key(
            (str,),
            "dummy",
            "dummy (one process), subproc, or compiled (the compiled batch, one process)",
            choice("dummy", "subproc", "compiled"),
        ),
        "seed": Key((int,), 0, "seed of environments, network and sampling", seed_range),
        "device": Key((str,), "cpu", "torch device", choice("cpu", "cuda", "auto")),
        "torch_threads": Key(
            (int,),
            1,
            "torch CPU threads (1 is fastest for small nets beside busy environment processes)",
            positive,
        ),
    },
    "ppo": {
        "learning_rate": Key((float, int), 3e-4, "Adam step size", positive_finite),
        "n_steps": Key((int,), 256, "steps per environment per update", positive),
        "batch_size": Key((int,), 512, "minibatch size", positive),
        "n_epochs": Key((int,), 4, "passes over each rollout", positive),
        "gamma": Key((float, int), 0.995, "discount", fraction),
        "gae_lambda": Key((float, int), 0.95, "GAE lambda", fraction),
        "clip_range": Key((float, int), 0.2, "PPO clip", positive_finite),
        "ent_coef": Key((float, int), 0.01, "entropy bonus", fraction),
        "vf_coef": Key((float, int), 0.5, "value loss weight", positive_finite),
        "max_grad_norm": Key((float, int), 0.5, "gradient clipping", positive_finite),
    },
    "policy": {
        "features": Key(
            (str,),
            "board_cnn",
            "board_cnn (conv over the 5x5 planes), centred_cnn (the same, centred on the "
            "deciding figure, as expert iteration's networks) or mlp",
            choice("board_cnn", "centred_cnn", "mlp"),
        ),
        "cnn_channels": Key((int,), 32, "channels of the board convolutions", positive),
        "features_dim": Key((int,), 256, "size of the extracted features", positive),
        "net_arch": Key((list,), [256, 256], "hidden layers of policy and value heads", net_arch),
        "advice": Key(
            (str,),
            "none",
            "append an agent's choice to the observation "
            "(inselflucht_env.envs.advice): none or heuristic",
            choice(*ADVISORS),
        ),
        "init": Key(
            (str, type(None)),
            None,
            "checkpoint folder whose weights start PPO (PPO from the best network, e.g. "
            "checkpoints/exit_2p_normal_dagger), or null for random weights; its network "
            "must be the one this section describes. An expert-iteration value head predicts "
            "the win probability: train it on with env.reward win and ppo.gamma 1",
        ),
    },
    "eval": {
        "freq": Key((int,), 50_000, "evaluate every this many timesteps (0 = never)", non_negative),
        "episodes": Key((int,), 100, "episodes per evaluation (plain game, win reward)", positive),
    },
    "output": {
        "run_dir": Key((str,), "runs", "folder that receives one sub-folder per run"),
        "name": Key(
            (str,),
            "ppo_2p_normal",
            "run name prefix: a plain folder name inside run_dir",
            folder_name,
        ),
        "checkpoint_freq": Key(
            (int,), 100_000, "save a resumable model every this many steps", positive
        ),
    },
}


def _convert(key: Key, value: Any) -> Any:
    """Whole floats (``1e5``) as ints wherever the key wants integers; else ``value``."""
    if key.types == (int,):
        return _whole(value)
    if key.check is meter or key.check is net_arch:
        return [_whole(x) for x in value] if isinstance(value, list) else value
    if key.check is _stages and isinstance(value, list):
        return [_convert_stage(stage) for stage in value]
    return value


def _convert_stage(stage: Any) -> Any:
    if not isinstance(stage, dict):
        return stage
    stage = dict(stage)
    for name in ("until", "players"):
        if name in stage:
            stage[name] = _whole(stage[name])
    if isinstance(stage.get("meter"), list):
        stage["meter"] = [_whole(x) for x in stage["meter"]]
    return stage


def with_overrides(source: str | Path, overrides: Sequence[str]) -> str:
    """How errors name a config: its file, and whether ``--set`` overrides changed it."""
    return f"{source} with the --set overrides" if overrides else str(source)


# A config as the trainers read it: section -> key -> value.
Config = dict[str, dict[str, Any]]


@dataclass(frozen=True)
class Schema:
    """One trainer's sections of ``Key``s and how a config of them is read and checked.

    Shared by ``train.config``, ``train.exit_config`` and ``train.rllib_config`` so that
    their files, ``--set`` overrides and error messages follow the same rules.
    ``file_example`` (a line of YAML) and ``set_example`` (two overrides) are what the
    errors for a file that is no mapping and for a malformed ``--set`` show;
    ``cross_check(config)`` says what is wrong between keys of a complete config (or None);
    ``hint(name)`` explains why an unknown section or ``section.key`` name is not here (or
    None for the plain "unknown" error).
    """

    sections: dict[str, dict[str, Key]]
    file_example: str
    set_example: str
    cross_check: Callable[[Config], str | None] | None = None
    hint: Callable[[str], str | None] | None = None

    def defaults(self) -> Config:
        """Every key at its default (copies, so a caller may change them)."""
        return {
            section: {k: copy.deepcopy(key.default) for k, key in keys.items()}
            for section, keys in self.sections.items()
        }

    def _unknown(self, where: str, section: str, name: str | None = None) -> ConfigError:
        """The error for an unknown ``section`` (``name`` None) or ``section.name``."""
        path = section if name is None else f"{section}.{name}"
        hint = self.hint(path) if self.hint else None
        if hint:
            return ConfigError(f"{where}: {hint}")
        if name is None:
            return ConfigError(
                f"{where}: unknown section {section!r}; known: {list(self.sections)}"
            )
        return ConfigError(
            f"{where}: unknown key {path}; known keys in {section!r}: "
            f"{sorted(self.sections[section])}"
        )

    def check_value(self, section: str, name: str, value: Any, source: str) -> Any:
        """``value`` for ``section.name`` (converted by ``_convert``) or ``ConfigError``."""
        key = self.sections[section][name]
        where = f"{source}: {section}.{name}={value!r}"
        allowed = getattr(key.check, "allowed", None)
        if key.types == (int,) and isinstance(value, float) and not value.is_integer():
            raise ConfigError(
                f"{where} must be a whole number (of type int"
                f"{f', {allowed}' if allowed else ''}); a float such as 1e5 is "
                "taken only when it is whole"
            )
        value = _convert(key, value)
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

    def _check_sections(self, raw: Any, source: str) -> Config:
        """The sections and keys of ``raw`` checked one by one (no defaults, no cross-checks)."""
        sections = f"a mapping of sections {list(self.sections)}, e.g. {self.file_example!r}"
        if raw is None:
            raise ConfigError(
                f"{source}: the config is empty (or only comments or null); it must be {sections}"
            )
        if not isinstance(raw, dict):
            raise ConfigError(
                f"{source}: the top level must be {sections}, not {type(raw).__name__}"
            )
        out: Config = {}
        for section, values in raw.items():
            if section not in self.sections:
                raise self._unknown(source, section)
            if not isinstance(values, dict):
                raise ConfigError(
                    f"{source}: section {section!r} must be a mapping of its keys "
                    f"{sorted(self.sections[section])}, not {values!r}"
                )
            out[section] = {}
            for name, value in values.items():
                if name not in self.sections[section]:
                    raise self._unknown(source, section, name)
                out[section][name] = self.check_value(section, name, value, source)
        return out

    def validate(self, raw: Any, source: str = "config") -> Config:
        """A complete config (defaults filled in) or ``ConfigError`` naming the bad key."""
        out = self.defaults()
        for section, values in self._check_sections(raw, source).items():
            out[section].update(values)
        problem = self.cross_check(out) if self.cross_check else None
        if problem:
            raise ConfigError(f"{source}: {problem}")
        return out

    def _override_key(self, path: str, item: str) -> tuple[str, str]:
        """The (section, key) that an override's ``path`` names, or ``ConfigError``."""
        where = f"--set {item}"
        if "." in path:
            section, name = path.split(".", 1)
            if section not in self.sections:
                raise self._unknown(where, section)
            if name not in self.sections[section]:
                raise self._unknown(where, section, name)
            return section, name
        sections = sorted(sec for sec, keys in self.sections.items() if path in keys)
        if not sections:
            known = sorted({name for keys in self.sections.values() for name in keys})
            raise ConfigError(
                f"{where}: unknown key {path!r}; known keys (as key or section.key): {known}"
            )
        if len(sections) > 1:
            choices = [f"{sec}.{path}" for sec in sections]
            raise ConfigError(
                f"--set {path} is ambiguous: use {', '.join(choices[:-1])} or {choices[-1]}"
            )
        return sections[0], path

    def apply_overrides(self, raw: dict, overrides: Sequence[str]) -> dict:
        """Apply ``key=value`` or ``section.key=value`` overrides (values parsed as YAML).

        The section may be left out only where the key name is in one section; names in
        several (``batch_size`` is in both ``pretrain`` and ``ppo`` of ``train.config``)
        need it. Each override is checked here, so that an error names its ``--set``.
        """
        raw = copy.deepcopy(raw) if raw else {}
        for item in overrides:
            if "=" not in item:
                raise ConfigError(
                    f"--set {item}: an override must look like key=value or "
                    f"section.key=value, e.g. {self.set_example}"
                )
            path, text = item.split("=", 1)
            section, name = self._override_key(path.strip(), item)
            try:
                value = _yaml(text)
            except yaml.YAMLError as err:
                raise ConfigError(
                    f"--set {item}: cannot parse the value of {section}.{name} as YAML: {err}"
                ) from None
            value = self.check_value(section, name, value, f"--set {item}")
            raw.setdefault(section, {})
            if not isinstance(raw[section], dict):
                raise ConfigError(
                    f"--set {item}: section {section!r} of the config must be a "
                    f"mapping of its keys {sorted(self.sections[section])}, not "
                    f"{raw[section]!r}"
                )
            raw[section][name] = value
        return raw

    def load(self, path: str | Path, overrides: Sequence[str] = ()) -> Config:
        """Read, override and validate a YAML config file; errors in the file name it."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ConfigError(f"config file {str(path)!r} does not exist") from None
        except (OSError, UnicodeDecodeError) as err:
            raise ConfigError(
                f"config file {str(path)!r} cannot be read as UTF-8 text: {err}"
            ) from None
        try:
            raw = _yaml(text)
        except yaml.YAMLError as err:
            raise ConfigError(f"{path}: not valid YAML: {err}") from None
        raw = self._check_sections(raw, str(path))
        overrides = list(overrides)
        return self.validate(self.apply_overrides(raw, overrides), with_overrides(path, overrides))


def _game_fits(conf: Config) -> str | None:
    """The env section's keys belong to its game; Forbidden Island trains a plain MLP on
    Gymnasium envs (no compiled core, advice or curriculum for it yet; cloning a teacher
    and DAgger work as for Inselflucht)."""
    env = conf["env"]
    game = env["game"]
    defaults = {k: key.default for k, key in SCHEMA["env"].items()}
    foreign = [k for k in OTHER_GAME_KEYS[game] if env[k] != defaults[k]]
    if foreign:
        return f"env.game={game} takes none of {['env.' + k for k in foreign]}"
    if game == "inselflucht":
        return None
    try:
        FIGameConfig.make(env["players"], env["difficulty"], env["roles"])
    except ValueError as err:
        return f"env: {err}"
    needs: dict[str, tuple[Any, tuple[Any, ...]]] = {
        "training.vec_env": (conf["training"]["vec_env"], ("dummy", "subproc")),
        "policy.features": (conf["policy"]["features"], ("mlp",)),
        "policy.advice": (conf["policy"]["advice"], ("none",)),
        "curriculum.stages": (conf["curriculum"]["stages"], ([],)),
    }
    for name, (value, allowed) in needs.items():
        if value not in allowed:
            return f"env.game=forbidden_island needs {name} in {list(allowed)}, not {value!r}"
    return None


def _cross_check(conf: Config) -> str | None:
    return _game_fits(conf) or _rollout_fits(conf)


def _rollout_fits(conf: Config) -> str | None:
    """PPO's minibatch must fit in one rollout of all environments."""
    batch, n_steps, n_envs = (
        conf["ppo"]["batch_size"],
        conf["ppo"]["n_steps"],
        conf["training"]["n_envs"],
    )
    if batch > n_steps * n_envs:
        return (
            f"ppo.batch_size={batch} must not exceed the rollout size "
            f"ppo.n_steps * training.n_envs = {n_steps} * {n_envs} = {n_steps * n_envs}"
        )
    return None


_SCHEMA = Schema(
    SCHEMA,
    file_example="training: {n_envs: 8}",
    set_example="total_timesteps=200000 or ppo.learning_rate=1e-4",
    cross_check=_cross_check,
)
defaults = _SCHEMA.defaults
validate = _SCHEMA.validate
apply_overrides = _SCHEMA.apply_overrides
load = _SCHEMA.load


def add_config_arguments(
    parser: argparse.ArgumentParser, default: str | None, example: str, keys: str
) -> None:
    """``--config FILE`` (required when ``default`` is None) and repeatable ``--set
    KEY=VALUE`` (into ``args.overrides``): the same two flags for every trainer."""
    parser.add_argument(
        "--config", default=default, required=default is None, help=f"YAML file (keys: {keys})"
    )
    parser.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=f"override a key, e.g. {example}",
    )
