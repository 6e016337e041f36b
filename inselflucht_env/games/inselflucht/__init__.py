"""Inselflucht, the card-game adaptation of Forbidden Island (``../shared/RULES.md``).

``rules`` is the engine (pure game logic, no framework); beside it sit the observation
encoding, the public-knowledge and determinization helpers the agents use, the heuristic
team policy and the renderers. ``GAME`` is this game behind the shared ``Game`` interface.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from inselflucht_env.games.inselflucht.rules import actions as A
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from inselflucht_env.games.inselflucht.rules.engine import State


@dataclass(frozen=True)
class Inselflucht:
    """Inselflucht behind ``inselflucht_env.game.Game``."""

    name: str = "inselflucht"
    env_id: str = "Inselflucht-v0"
    losses: tuple[str, ...] = ("L1", "L2", "L3", "L4", "L5", "L6")  # R6.3
    variant_defaults: dict[str, Any] = field(
        default_factory=lambda: {"meter": "normal", "taucher": False, "short_game": False}
    )

    def make_config(
        self,
        players: int = 2,
        meter: str = "normal",
        taucher: bool = False,
        short_game: bool = False,
    ) -> GameConfig:
        return GameConfig.make(players=players, taucher=taucher, short_game=short_game, meter=meter)

    def new_state(self, config: GameConfig, rng: np.random.Generator) -> State:
        return State.new(config, rng)

    def treasures(self, state: State) -> int:
        return sum(state.lifted)

    def is_salvage(self, state: State, action: int) -> bool:
        return state.pending is None and A.SALVAGE <= action < A.SALVAGE + 4  # R4.5


GAME = Inselflucht()
