"""Forbidden Island, the board game Inselflucht adapts (``docs/rules_forbidden_island.md``).

``rules`` is the engine (pure game logic, no framework); beside it sit the observation
encoding, the determinization, the heuristic team policy, the search and the renderers.
``GAME`` is this game behind the shared ``Game`` interface.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from inselflucht_env.games.forbidden_island.rules.config import GameConfig
from inselflucht_env.games.forbidden_island.rules.engine import State


@dataclass(frozen=True)
class ForbiddenIsland:
    """Forbidden Island behind ``inselflucht_env.game.Game``."""

    name: str = "forbidden_island"
    env_id: str = "ForbiddenIsland-v0"
    losses: tuple[str, ...] = ("L1", "L2", "L3", "L4")  # FR10
    variant_defaults: dict[str, Any] = field(
        default_factory=lambda: {"difficulty": "novice", "roles": None}
    )

    def make_config(
        self, players: int = 2, difficulty: str = "novice", roles: Sequence[str] | None = None
    ) -> GameConfig:
        return GameConfig.make(players=players, difficulty=difficulty, roles=roles)

    def new_state(self, config: GameConfig, rng: np.random.Generator) -> State:
        return State.new(config, rng)

    def treasures(self, state: State) -> int:
        return sum(state.captured)

    def is_salvage(self, state: State, action: int) -> bool:
        return False  # no salvage in this game


GAME = ForbiddenIsland()
