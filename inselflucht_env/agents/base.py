"""The agent interface shared by every player of the harness.

An agent picks the next action for ``state.decider`` (the active figure, or the figure of a
pending sub-decision: ``card:*``, ``done``, ``escape:*``). It is handed the live engine
``State`` for speed, but may use only what every player may know (R9): see
``knowledge.py`` for the fields that are public and the one place that reads face-up cards.
It must not modify the state; a planner works on ``state.clone()`` or a determinization.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from inselflucht_env.games.inselflucht.rules.engine import State


@runtime_checkable
class Agent(Protocol):
    """Anything with a ``name`` and an ``act`` that returns a legal action index."""

    name: str

    def act(self, state: State, rng: np.random.Generator) -> int:
        """A legal action for ``state.decider`` (an index into ``actions.ACTION_NAMES``)."""
        ...
