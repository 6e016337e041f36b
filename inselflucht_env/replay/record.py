"""The replay record: ``Replay`` (one episode as data) and its JSON file.

A file is one JSON object: ``format`` (always ``"inselflucht-replay"``),
``format_version`` (1), ``version`` (the package that wrote it), ``env`` (the env's keyword
arguments, ``ENV_KEYS``), ``seed`` and ``options`` (the ``reset`` arguments), ``actions``
(action names), ``outcome`` and ``meta`` (free JSON data). ``check_record`` turns parsed
JSON into ``Replay`` fields or raises ``ValueError`` naming the bad field. Files are written
readably: objects indented, short lists on one line, the actions ten a line.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inselflucht_env import __version__
from inselflucht_env.envs.inselflucht import ILLEGAL_ACTION_MODES, REWARD_SCHEMES, InselfluchtEnv
from inselflucht_env.games.inselflucht.rules.actions import ACTION_NAMES, action_name
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from inselflucht_env.games.inselflucht.rules.engine import OUTCOMES
from inselflucht_env.games.inselflucht.rules.scenario import OPTION_KEYS, parse_options

FORMAT = "inselflucht-replay"
FORMAT_VERSION = 1
ENV_KEYS = ("players", "taucher", "short_game", "meter", "reward", "illegal_action")
SEED_LIMIT = 2**63
FIELDS = (
    "format",
    "format_version",
    "version",
    "env",
    "seed",
    "options",
    "actions",
    "outcome",
    "meta",
)


def check_record(data: Any, source: str = "replay") -> dict[str, Any]:
    """The ``Replay`` keyword arguments of a parsed file; ``ValueError`` naming the bad field.

    ``source`` names the file in the messages.
    """

    def bad(msg: str) -> ValueError:
        return ValueError(f"{source}: {msg}")

    if not isinstance(data, Mapping):
        raise bad(f"expected a JSON object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise bad(
            f"not an Inselflucht replay (field 'format' must be {FORMAT!r}, "
            f"got {data.get('format')!r})"
        )
    fv = data.get("format_version")
    if fv != FORMAT_VERSION:
        raise bad(f"unsupported format_version {fv!r} (this version reads {FORMAT_VERSION})")
    for key in ("env", "seed", "actions"):
        if key not in data:
            raise bad(f"missing field {key!r}")
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise bad(f"unknown field(s) {unknown}")
    env_kwargs = data["env"]
    if not isinstance(env_kwargs, Mapping):
        raise bad(f"'env' must be an object of env arguments, got {env_kwargs!r}")
    extra = sorted(set(env_kwargs) - set(ENV_KEYS))
    if extra:
        raise bad(f"'env' has unknown argument(s) {extra}; allowed: {list(ENV_KEYS)}")
    env_kwargs = dict(env_kwargs)
    try:
        GameConfig.make(
            **{
                k: env_kwargs[k]
                for k in ("players", "taucher", "short_game", "meter")
                if k in env_kwargs
            }
        )
    except (TypeError, ValueError) as err:
        raise bad(f"'env': {err}") from None
    if env_kwargs.get("reward", "win") not in REWARD_SCHEMES:
        raise bad(f"'env'.reward must be one of {list(REWARD_SCHEMES)}")
    if env_kwargs.get("illegal_action", "terminate") not in ILLEGAL_ACTION_MODES:
        raise bad(f"'env'.illegal_action must be one of {list(ILLEGAL_ACTION_MODES)}")
    seed = data["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise bad(f"'seed' must be an integer 0 <= seed < 2**63, got {seed!r}")
    options = data.get("options")
    try:
        parse_options(options)
    except ValueError as err:
        raise bad(f"'options': {err}") from None
    actions = data["actions"]
    if not isinstance(actions, list):
        raise bad(f"'actions' must be a list of action names, got {type(actions).__name__}")
    for i, name in enumerate(actions):
        if not isinstance(name, str) or name not in ACTION_NAMES:
            raise bad(f"'actions'[{i}] = {name!r} is not an action name")
    outcome = data.get("outcome")
    if outcome is not None and outcome not in OUTCOMES:
        raise bad(f"'outcome' must be null or one of {list(OUTCOMES)}, got {outcome!r}")
    version = data.get("version", "unknown")
    if not isinstance(version, str):
        raise bad(f"'version' must be a string, got {version!r}")
    meta = data.get("meta") or {}
    if not isinstance(meta, Mapping):
        raise bad(f"'meta' must be an object, got {meta!r}")
    return {
        "env_kwargs": env_kwargs,
        "seed": seed,
        "options": None if options is None else dict(options),
        "actions": list(actions),
        "outcome": outcome,
        "version": version,
        "meta": dict(meta),
    }


def normalise_options(options: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """Reset options as plain JSON data (validated; numpy ints and tuples become ints and lists)."""
    if options is None:
        return None
    parse_options(options)
    out: dict[str, Any] = {}
    for key in OPTION_KEYS:
        if key not in options:
            continue
        value = options[key]
        if value is None:
            out[key] = None
        elif key == "layout":
            out[key] = [str(line) for line in value]
        else:
            out[key] = [int(v) for v in value]
    return out


PER_LINE = 10


def dumps(obj: Any, level: int = 0) -> str:
    """``obj`` as JSON text in that layout (``level``: the indentation depth to start at)."""
    pad = "  " * (level + 1)
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        items = [f"{pad}{json.dumps(str(k))}: {dumps(v, level + 1)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * level + "}"
    if isinstance(obj, list) and obj:
        if any(isinstance(v, (dict, list)) for v in obj):
            return (
                "[\n"
                + ",\n".join(pad + dumps(v, level + 1) for v in obj)
                + "\n"
                + "  " * level
                + "]"
            )
        if len(obj) <= PER_LINE:
            return "[" + ", ".join(json.dumps(v, ensure_ascii=False) for v in obj) + "]"
        lines = [
            ", ".join(json.dumps(v, ensure_ascii=False) for v in obj[k : k + PER_LINE])
            for k in range(0, len(obj), PER_LINE)
        ]
        return "[\n" + pad + (",\n" + pad).join(lines) + "\n" + "  " * level + "]"
    return json.dumps(obj, ensure_ascii=False)


@dataclass
class Replay:
    """One episode: how to build the env, how it was reset, and what was played.

    ``env_kwargs``: ``InselfluchtEnv`` keyword arguments (``players``, ``taucher``,
    ``short_game``, ``meter`` as the resolved list of levels, ``reward``,
    ``illegal_action``). ``seed`` and ``options``: the ``reset`` arguments. ``actions``:
    action names, one per step. ``outcome``: ``"win"``, ``"L1"``-``"L6"``, ``"illegal"``,
    or ``None`` for an unfinished episode. ``version``: the package version that wrote it.
    ``meta``: free JSON data (who played, where it came from).
    """

    env_kwargs: dict[str, Any]
    seed: int
    options: dict[str, Any] | None = None
    actions: list[str] = field(default_factory=list)
    outcome: str | None = None
    version: str = __version__
    meta: dict[str, Any] = field(default_factory=dict)

    # -- JSON
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "version": self.version,
            "env": copy.deepcopy(self.env_kwargs),
            "seed": self.seed,
            "options": copy.deepcopy(self.options),
            "actions": list(self.actions),
            "outcome": self.outcome,
            "meta": copy.deepcopy(self.meta),
        }

    def to_json(self) -> str:
        """Readable JSON: objects indented, short lists on one line, actions ten a line."""
        return dumps(self.to_dict()) + "\n"

    @classmethod
    def from_dict(cls, data: Any, source: str = "replay") -> Replay:
        """Validated record from parsed JSON; ``ValueError`` naming the bad field."""
        return cls(**check_record(data, source))

    @classmethod
    def from_json(cls, text: str, source: str = "replay") -> Replay:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise ValueError(
                f"{source}: not valid JSON ({err.msg} at line {err.lineno} column {err.colno})"
            ) from None
        return cls.from_dict(data, source)

    def save(self, path: str | os.PathLike) -> Path:
        """Write the record as JSON (UTF-8); returns the path."""
        path = Path(path)
        path.write_text(self.to_json(), encoding="utf-8")
        return path

    @classmethod
    def load(cls, path: str | os.PathLike) -> Replay:
        """Read a record; ``ValueError`` for a corrupt or malformed file, ``OSError`` if it
        cannot be read."""
        path = Path(path)
        raw = path.read_bytes()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            raise ValueError(
                f"replay file {str(path)!r}: not UTF-8 text (byte {err.start})"
            ) from None
        return cls.from_json(text, f"replay file {str(path)!r}")

    @classmethod
    def from_engine_game(
        cls,
        config: GameConfig,
        seed: int,
        actions: Iterable[int | str],
        outcome: str | None = None,
        options: Mapping[str, Any] | None = None,
        reward: str = "win",
        meta: Mapping[str, Any] | None = None,
    ) -> Replay:
        """The record of a game played on the engine directly (as an evaluation harness does).

        Valid when the game was set up as ``State.new(config, np.random.default_rng(seed),
        **parse_options(options))`` and every action applied with that same generator: that
        is exactly what ``InselfluchtEnv.reset(seed=seed, options=options)`` and ``step`` do.
        """
        names = [a if isinstance(a, str) else action_name(int(a)) for a in actions]
        env_kwargs = {
            "players": config.players,
            "taucher": config.taucher,
            "short_game": config.short_game,
            "meter": list(config.meter),
            "reward": reward,
            "illegal_action": "terminate",
        }
        return cls(
            env_kwargs=env_kwargs,
            seed=int(seed),
            options=normalise_options(options),
            actions=names,
            outcome=outcome,
            meta=dict(meta or {}),
        )

    def make_env(self, render_mode: str | None = None) -> InselfluchtEnv:
        """A fresh env built as the recorded one was."""
        return InselfluchtEnv(**self.env_kwargs, render_mode=render_mode)


def env_kwargs_of(env: InselfluchtEnv) -> dict[str, Any]:
    """The keyword arguments that rebuild ``env`` (meter as its resolved levels)."""
    cfg = env.config
    return {
        "players": cfg.players,
        "taucher": cfg.taucher,
        "short_game": cfg.short_game,
        "meter": list(cfg.meter),
        "reward": env.reward_scheme,
        "illegal_action": env.illegal_action,
    }
