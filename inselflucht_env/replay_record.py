"""``Replay``: one episode as data (how to build the env, how it was reset, what was played),
and its JSON file form."""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import __version__
from .actions import action_name
from .config import GameConfig
from .env import InselfluchtEnv
from .replay_format import FORMAT, FORMAT_VERSION, check_record, normalise_options
from .replay_json import dumps


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
