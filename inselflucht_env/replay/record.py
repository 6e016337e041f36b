"""The replay record: ``Replay`` (one episode as data) and its JSON file.

A file is one JSON object: ``format`` (always ``"inselflucht-replay"``),
``format_version`` (1), ``version`` (the package that wrote it), ``game`` (the game's name;
absent for Inselflucht, so files written before a second game existed read unchanged),
``env`` (the env's keyword arguments, ``ENV_KEYS`` for Inselflucht), ``seed`` and
``options`` (the ``reset`` arguments), ``actions`` (action names), ``outcome`` and ``meta``
(free JSON data). ``REPLAY_GAMES`` holds what each game's records need. ``check_record``
turns parsed JSON into ``Replay`` fields or raises ``ValueError`` naming the bad field.
Files are written readably: objects indented, short lists on one line, the actions ten a
line.
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
from inselflucht_env.envs import forbidden_island as fi_env
from inselflucht_env.envs.inselflucht import ILLEGAL_ACTION_MODES, REWARD_SCHEMES, InselfluchtEnv
from inselflucht_env.games.forbidden_island.rules import actions as fi_actions
from inselflucht_env.games.forbidden_island.rules import engine as fi_engine
from inselflucht_env.games.forbidden_island.rules.config import ROLE_NAMES
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
    "game",
    "env",
    "seed",
    "options",
    "actions",
    "outcome",
    "meta",
)


@dataclass(frozen=True)
class ReplayGame:
    """What the records of one game need: its Gymnasium env, the env keyword arguments a
    record stores, its action names and outcomes, and its ``reset`` options."""

    env_class: type
    env_keys: tuple[str, ...]
    action_names: tuple[str, ...]
    outcomes: tuple[str, ...]
    option_keys: tuple[str, ...]


REPLAY_GAMES = {
    "inselflucht": ReplayGame(InselfluchtEnv, ENV_KEYS, ACTION_NAMES, OUTCOMES, OPTION_KEYS),
    "forbidden_island": ReplayGame(
        fi_env.ForbiddenIslandEnv,
        ("players", "difficulty", "roles", "reward", "illegal_action"),
        fi_actions.ACTION_NAMES,
        fi_engine.OUTCOMES,
        fi_env.SCENARIO_OPTIONS,
    ),
}


def replay_game(name: str) -> ReplayGame:
    """The ``ReplayGame`` of ``name``; ``ValueError`` listing the known games otherwise."""
    if name not in REPLAY_GAMES:
        raise ValueError(f"game {name!r}: expected one of {list(REPLAY_GAMES)}")
    return REPLAY_GAMES[name]


def _check_other_game(game: str, data: Mapping[str, Any], bad: Any) -> dict[str, Any]:
    """``check_record`` for a game other than Inselflucht: its env built from the record
    (which validates every argument and option) and its action names and outcomes."""
    spec = REPLAY_GAMES[game]
    env_kwargs = data["env"]
    if not isinstance(env_kwargs, Mapping):
        raise bad(f"'env' must be an object of env arguments, got {env_kwargs!r}")
    extra = sorted(set(env_kwargs) - set(spec.env_keys))
    if extra:
        raise bad(f"'env' has unknown argument(s) {extra}; allowed: {list(spec.env_keys)}")
    options = data.get("options")
    try:
        spec.env_class(**env_kwargs).reset(seed=0, options=options)
    except (TypeError, ValueError) as err:
        raise bad(f"'env' or 'options': {err}") from None
    for i, name in enumerate(data["actions"]):
        if not isinstance(name, str) or name not in spec.action_names:
            raise bad(f"'actions'[{i}] = {name!r} is not a {game} action name")
    outcome = data.get("outcome")
    if outcome is not None and outcome not in spec.outcomes:
        raise bad(f"'outcome' must be null or one of {list(spec.outcomes)}, got {outcome!r}")
    return {"env_kwargs": dict(env_kwargs), "options": options, "outcome": outcome}


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
    game = data.get("game", "inselflucht")
    if game not in REPLAY_GAMES:
        raise bad(f"'game' must be one of {list(REPLAY_GAMES)}, got {game!r}")
    if game != "inselflucht":
        return {**_common_fields(data, bad), **_check_other_game(game, data, bad), "game": game}
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
    common = _common_fields(data, bad)
    options = data.get("options")
    try:
        parse_options(options)
    except ValueError as err:
        raise bad(f"'options': {err}") from None
    for i, name in enumerate(common["actions"]):
        if not isinstance(name, str) or name not in ACTION_NAMES:
            raise bad(f"'actions'[{i}] = {name!r} is not an action name")
    outcome = data.get("outcome")
    if outcome is not None and outcome not in OUTCOMES:
        raise bad(f"'outcome' must be null or one of {list(OUTCOMES)}, got {outcome!r}")
    return {
        **common,
        "env_kwargs": env_kwargs,
        "options": None if options is None else dict(options),
        "outcome": outcome,
    }


def _common_fields(data: Mapping[str, Any], bad: Any) -> dict[str, Any]:
    """The fields every game's record checks alike: seed, actions (a list), version, meta."""
    seed = data["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise bad(f"'seed' must be an integer 0 <= seed < 2**63, got {seed!r}")
    actions = data["actions"]
    if not isinstance(actions, list):
        raise bad(f"'actions' must be a list of action names, got {type(actions).__name__}")
    version = data.get("version", "unknown")
    if not isinstance(version, str):
        raise bad(f"'version' must be a string, got {version!r}")
    meta = data.get("meta") or {}
    if not isinstance(meta, Mapping):
        raise bad(f"'meta' must be an object, got {meta!r}")
    return {"seed": seed, "actions": list(actions), "version": version, "meta": dict(meta)}


def normalise_options(
    options: Mapping[str, Any] | None, game: str = "inselflucht"
) -> dict[str, Any] | None:
    """Reset options as plain JSON data (validated; numpy ints and tuples become ints and lists)."""
    if options is None:
        return None
    if game != "inselflucht":  # Forbidden Island's options are lists of integers
        keys = replay_game(game).option_keys
        unknown = sorted(set(options) - set(keys))
        if unknown:
            raise ValueError(f"unknown reset option(s) {unknown}: expected any of {list(keys)}")
        return {k: None if v is None else [int(x) for x in v] for k, v in options.items()}
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
    ``meta``: free JSON data (who played, where it came from). ``game``: the game
    (``REPLAY_GAMES``); another game's ``env_kwargs`` are its env's arguments.
    """

    env_kwargs: dict[str, Any]
    seed: int
    options: dict[str, Any] | None = None
    actions: list[str] = field(default_factory=list)
    outcome: str | None = None
    version: str = __version__
    meta: dict[str, Any] = field(default_factory=dict)
    game: str = "inselflucht"

    # -- JSON
    def to_dict(self) -> dict[str, Any]:
        game = {} if self.game == "inselflucht" else {"game": self.game}
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "version": self.version,
            **game,
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

    def make_env(self, render_mode: str | None = None) -> Any:
        """A fresh env built as the recorded one was (the game's Gymnasium env)."""
        return replay_game(self.game).env_class(**self.env_kwargs, render_mode=render_mode)


def game_of_env(env: Any) -> str:
    """The ``REPLAY_GAMES`` name of an env (``ValueError`` for an env of none of them)."""
    for name, spec in REPLAY_GAMES.items():
        if isinstance(env, spec.env_class):
            return name
    raise ValueError(
        f"replays record {', '.join(s.env_class.__name__ for s in REPLAY_GAMES.values())}, "
        f"not {type(env).__name__}"
    )


def env_kwargs_of(env: Any) -> dict[str, Any]:
    """The keyword arguments that rebuild ``env`` (Inselflucht's meter as its levels)."""
    cfg = env.config
    if isinstance(env, fi_env.ForbiddenIslandEnv):
        roles = None if cfg.roles is None else [ROLE_NAMES[r] for r in cfg.roles]
        return {
            "players": cfg.players,
            "difficulty": cfg.difficulty,
            "roles": roles,
            "reward": env.reward_scheme,
            "illegal_action": env.illegal_action,
        }
    return {
        "players": cfg.players,
        "taucher": cfg.taucher,
        "short_game": cfg.short_game,
        "meter": list(cfg.meter),
        "reward": env.reward_scheme,
        "illegal_action": env.illegal_action,
    }
