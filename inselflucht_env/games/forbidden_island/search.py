"""Determinized flat Monte Carlo for Forbidden Island: Inselflucht's search algorithm
(``agents.search``: a probe, sequential halving, deviations only on a paired sign test)
over this game's worlds, candidates and rollouts.

* Worlds: ``determinize.py`` reshuffles the two decks' hidden orders from public facts
  (FR2.4), each world with its own seed for the reshuffles to come.
* Candidates: the heuristic's choice, then shore-ups (what keeps tiles standing, FR10),
  moves, gives, the special cards and the role powers, ``done`` last.
* Rollouts: from the candidate on, the one-option-at-a-time heuristic (``planner=False``,
  about six times faster than the acting heuristic's turn planner) plays every seat to the
  end of the game; a win scores 1, a loss 0.

Obvious decisions go straight to the heuristic: a single legal action, a capture (FR4.5) and
the escape (FR9.1). The budget is ``simulations`` rollouts a decision; ``seconds`` (no limit
by default) caps its wall time, so results compare by rollouts, not by machine.
"""

from __future__ import annotations

import math
import time

import numpy as np

from inselflucht_env.agents.search import ROLLOUT_MARGIN
from inselflucht_env.agents.search import SearchAgent as _Halving
from inselflucht_env.games.forbidden_island.determinize import determinize
from inselflucht_env.games.forbidden_island.heuristic import HeuristicAgent
from inselflucht_env.games.forbidden_island.rules import actions as A
from inselflucht_env.games.forbidden_island.rules.engine import State


def _priority(a: int) -> tuple[int, int]:
    """Candidate order after the heuristic's choice."""
    if A.SHORE <= a < A.GIVE:
        return 0, a
    if a < A.SHORE:
        return 1, a
    if a == A.DONE:
        return 3, a
    return 2, a


class SearchAgent(_Halving):
    """The determinized search of the module docstring, for ``state.decider``."""

    name = "search"

    def __init__(
        self,
        simulations: int = 48,
        seconds: float = math.inf,
        probe: int = 8,
        max_candidates: int = 4,
        z_threshold: float = 1.5,
    ):
        if not seconds > 0:
            raise ValueError(f"seconds={seconds!r} must be positive")
        super().__init__(simulations, seconds, probe, max_candidates, z_threshold)
        self.acting = HeuristicAgent()
        self.policy = HeuristicAgent(planner=False)  # type: ignore[assignment]

    def act(self, state: State, rng: np.random.Generator) -> int:  # type: ignore[override]
        """A legal action for ``state.decider``: the heuristic's, unless the search finds
        a candidate that wins clearly more of the same sampled worlds."""
        self.stats["decisions"] += 1
        legal = state.legal_actions()
        if not legal:
            raise ValueError("the game is over; no action is legal")
        base = self.acting.act(state, rng)
        if len(legal) == 1 or base in (A.CAPTURE, A.ESCAPE):
            return base
        self._deadline = time.perf_counter() + self.seconds - ROLLOUT_MARGIN
        cands = self._candidates(state, legal, base)
        if len(cands) == 1:
            return base
        return int(self._search(state, cands, base, rng))  # type: ignore[arg-type]

    def _candidates(self, state: State, legal: list[int], base: int) -> list[int]:  # type: ignore[override]
        others = sorted((a for a in legal if a != base), key=_priority)
        return ([base] + others)[: self.max_candidates]

    @staticmethod
    def _determinize(state: State, rng: np.random.Generator) -> State:  # type: ignore[override]
        return determinize(state, rng)
