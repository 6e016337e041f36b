"""The game interface: what the shared layers (envs, evaluation, replays, training,
checkpoints) need of a game, and the registry that finds a game by name.

A game lives in its own sub-package ``inselflucht_env.games.<name>`` (rules engine,
observation encoding, heuristic, renderers) and exposes one object, ``GAME``, that satisfies
``Game``. As in OpenSpiel (a ``Game`` makes ``State`` objects) and PGX (a plain state plus a
``step``), the shared code never looks inside a state beyond ``GameState``; everything else
it needs goes through the ``Game`` object. ``docs/design/game_interface.md`` explains the
contract and how to add a game.
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol

import numpy as np

from inselflucht_env.errors import InputError


class GameState(Protocol):
    """The part of a game state the shared layers read: who decides, how it ended, and how
    to play an action (all randomness from the generator passed in, so a seed replays)."""

    @property
    def outcome(self) -> str | None: ...

    @property
    def turn(self) -> int: ...

    @property
    def decider(self) -> int: ...

    def apply(self, action: int, rng: np.random.Generator) -> None: ...

    def legal_actions(self) -> list[int]: ...


class Game(Protocol):
    """One game: its names, its configurations and how to deal a new state.

    ``losses``: the outcome codes of a lost game, in the order tables list them.
    ``variant_defaults``: the keyword arguments of ``make_config`` besides ``players``, with
    their defaults (what evaluation summaries and replays record).
    """

    name: str
    env_id: str
    losses: tuple[str, ...]
    variant_defaults: dict[str, Any]

    def make_config(self, players: int, **variant: Any) -> Any: ...

    def new_state(self, config: Any, rng: np.random.Generator) -> GameState: ...

    def treasures(self, state: Any) -> int:
        """How many treasures the team has secured so far (a progress measure for tables)."""
        ...

    def is_salvage(self, state: Any, action: int) -> bool:
        """Whether ``action`` in ``state`` salvages a card (0 for games without salvage)."""
        ...


GAMES = {
    "inselflucht": "inselflucht_env.games.inselflucht",
    "forbidden_island": "inselflucht_env.games.forbidden_island",
}


def game_names() -> tuple[str, ...]:
    """The names ``get_game`` knows."""
    return tuple(GAMES)


def get_game(name: str) -> Game:
    """The ``GAME`` object of the game called ``name``; ``InputError`` listing the known
    names otherwise. The game's package is imported only here, on first use."""
    module = GAMES.get(name)
    if module is None:
        raise InputError(f"unknown game {name!r}: expected one of {list(GAMES)}")
    return importlib.import_module(module).GAME
