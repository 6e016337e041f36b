"""The baseline of baselines: a uniformly random legal action."""

from __future__ import annotations

import numpy as np

from inselflucht_env.games.inselflucht.rules.engine import State


class RandomAgent:
    """Uniform over ``state.legal_actions()`` (sub-decisions included)."""

    name = "random"

    def act(self, state: State, rng: np.random.Generator) -> int:
        legal = state.legal_actions()
        return legal[int(rng.integers(len(legal)))]
