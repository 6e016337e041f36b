"""The replay file format: its constants and the validation of a parsed file.

A file is one JSON object: ``format`` (always ``"inselflucht-replay"``),
``format_version`` (1), ``version`` (the package that wrote it), ``env`` (the env's keyword
arguments, ``ENV_KEYS``), ``seed`` and ``options`` (the ``reset`` arguments), ``actions``
(action names), ``outcome`` and ``meta`` (free JSON data). ``check_record`` turns parsed
JSON into ``Replay`` fields or raises ``ValueError`` naming the bad field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .actions import ACTION_NAMES
from .config import GameConfig
from .engine import OUTCOMES
from .env import ILLEGAL_ACTION_MODES, REWARD_SCHEMES
from .scenario import OPTION_KEYS, parse_options

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
