"""The agent interface shared by every player of the harness.

An agent picks the next action for ``state.decider`` (the active figure, or the figure of a
pending sub-decision: ``card:*``, ``done``, ``escape:*``). It is handed the live engine
``State`` for speed, but may use only what every player may know (R9): see
``knowledge.py`` for the fields that are public and the one place that reads face-up cards.
It must not modify the state; a planner works on ``state.clone()`` or a determinization.

The heuristic and the searches have two engines (``ENGINES``): ``"compiled"``, the Numba
twin on flat rows (``inselflucht_env.compiled``, tens of times faster, the default of
``make_agent``), and ``"reference"``, the readable Python that ``docs/rules.md`` cites.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from inselflucht_env.errors import InputError
from inselflucht_env.games.inselflucht.rules.engine import State

ENGINES = ("compiled", "reference")


def check_engine(engine: str) -> str:
    """``engine`` if it is one of ``ENGINES``; ``InputError`` naming the choices otherwise."""
    if engine not in ENGINES:
        raise InputError(f"engine {engine!r}: expected one of {', '.join(ENGINES)}")
    return engine


@runtime_checkable
class Agent(Protocol):
    """Anything with a ``name`` and an ``act`` that returns a legal action index."""

    name: str

    def act(self, state: State, rng: np.random.Generator) -> int:
        """A legal action for ``state.decider`` (an index into ``actions.ACTION_NAMES``)."""
        ...
