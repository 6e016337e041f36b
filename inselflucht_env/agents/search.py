"""A planning agent: flat Monte Carlo over determinizations, the heuristic as rollout policy.

For a decision with several sensible choices the agent

1. samples determinizations of the state (``determinize.py``: hidden cards and undrawn
   flood cards resampled from public facts, R9), each with its own seed for the future
   reshuffles, and plays the heuristic's choice out to the end of the game in ``probe`` of
   them: if it wins in every one, there is nothing to improve and the agent follows the
   heuristic (most decisions end here);
2. otherwise plays every candidate (the heuristic's choice and up to ``max_candidates - 1``
   other legal actions) in the same worlds with the same seeds -- common random numbers,
   so the comparison between candidates is far less noisy than their win rates -- and
   halves the alternatives round by round (sequential halving), the heuristic's choice
   always staying in, until ``simulations`` rollouts are spent;
3. deviates from the heuristic only on clear evidence: the best alternative must win more
   of the shared worlds than the heuristic's choice by a paired sign test with
   ``z >= z_threshold``. Rollouts score 1 for a win and 0 for a loss.

Budget: ``simulations`` rollouts per decision at most and ``seconds`` of wall time per
decision at most (the clock is checked before every rollout, with a margin for the last
one; the comparison then uses the worlds that every surviving candidate has played).
Decisions with one obvious answer -- a single legal action, take-off, the cards of a give or
a short-suit lift -- go to the heuristic.

This class is the reference. ``make_agent("search")`` gives ``compiled.search.
CompiledSearch``, the same algorithm compiled whole; ``engine="compiled"`` here keeps this
loop and plays only the rollouts compiled (``compiled.play.play_out``), which is what the
subclasses that judge leaves with a network (``netflat``) use.
"""

from __future__ import annotations

import time

import numpy as np

from inselflucht_env.agents.base import check_engine
from inselflucht_env.games.inselflucht.determinize import determinize
from inselflucht_env.games.inselflucht.heuristic import HeuristicAgent
from inselflucht_env.games.inselflucht.rules import actions as A
from inselflucht_env.games.inselflucht.rules.engine import Give, Lift, State


def _priority(a: int) -> tuple[int, int]:
    if A.SHORE_HERE <= a < A.SALVAGE:
        return 0, a
    if a < A.SWIM:
        return 1, a
    if a < A.SHORE_HERE:
        return 2, a
    if A.SALVAGE <= a < A.GIVE:
        return 3, a
    return 4, a


ROLLOUT_MARGIN = 0.03  # seconds: a rollout started just before the deadline ends in time


class SearchAgent:
    """Determinized flat Monte Carlo with sequential halving (see module docstring)."""

    name = "search"

    def __init__(
        self,
        simulations: int = 200,
        seconds: float = 1.0,
        probe: int = 8,
        max_candidates: int = 6,
        z_threshold: float = 2.0,
        rollout: HeuristicAgent | None = None,
        engine: str = "reference",
    ):
        if simulations < 1 or probe < 1 or max_candidates < 1:
            raise ValueError("simulations, probe and max_candidates must be >= 1")
        self.simulations = simulations
        self.seconds = seconds
        self.probe = probe
        self.z_threshold = z_threshold
        self.max_candidates = max_candidates
        self.policy = rollout or HeuristicAgent()
        self.engine = check_engine(engine)
        if engine == "compiled" and rollout is not None:
            raise ValueError("engine='compiled' plays the default heuristic; pass no rollout")
        self.stats = {"decisions": 0, "searched": 0, "rollouts": 0, "deviated": 0}

    # ------------------------------------------------------------------ entry
    def act(self, state: State, rng: np.random.Generator) -> int:
        self.stats["decisions"] += 1
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if isinstance(state.pending, (Give, Lift)):
            return self.policy.act(state, rng)  # give / short-suit lift cards: obvious
        if A.TAKE_OFF in legal:
            return A.TAKE_OFF
        self._deadline = time.perf_counter() + self.seconds - ROLLOUT_MARGIN
        base = self.policy.act(state, rng)
        cands = self._candidates(state, legal, base)
        if len(cands) == 1:
            return base
        return self._search(state, cands, base, rng)

    def _candidates(self, state: State, legal: list[int], base: int) -> list[int]:
        """The heuristic's choice first, then other legal actions: shoring up (what guards
        kings and the helicopter), moves, swims, salvage, the rest; ``max_candidates``."""
        others = sorted((a for a in legal if a != base), key=_priority)
        return ([base] + others)[: self.max_candidates]

    # ------------------------------------------------------------------ search
    def _search(self, state: State, cands: list[int], base: int, rng: np.random.Generator) -> int:
        deadline = self._deadline
        clock = time.perf_counter
        n = len(cands)
        worlds: list[tuple[State, int]] = []
        results: list[list[float]] = [[] for _ in range(n)]  # per candidate, per world

        def world(w: int) -> tuple[State, int]:
            while len(worlds) <= w:
                worlds.append((self._determinize(state, rng), int(rng.integers(1 << 62))))
            return worlds[w]

        def play(i: int, upto: int) -> bool:
            """Roll out candidate i in worlds up to ``upto``; False once time is up."""
            while len(results[i]) < upto:
                if clock() > deadline:
                    return False
                wd, seed = world(len(results[i]))
                results[i].append(self._rollout(wd, cands[i], seed))
                self.stats["rollouts"] += 1
            return True

        # probe: does the heuristic's choice (candidate 0) win in every sampled world?
        play(0, self.probe)
        if sum(results[0]) >= len(results[0]):
            return base  # won in every probe (or no time even to probe)
        self.stats["searched"] += 1
        # sequential halving over the alternatives; the heuristic's choice always stays
        # in, and every candidate plays the same worlds (common random numbers)
        alive = list(range(1, n))
        rounds = max(1, int(np.ceil(np.log2(max(2, len(alive))))) + 1)
        depth = len(results[0])
        for rnd in range(rounds):
            spent = sum(len(r) for r in results)
            # the alternatives first catch up on the worlds the probe played
            left = self.simulations - spent - len(alive) * (depth - len(results[alive[0]]))
            if left <= 0 or not alive:
                break
            depth += max(1, left // ((len(alive) + 1) * (rounds - rnd)))
            out_of_time = False
            for w in range(len(results[0]), depth):
                for i in [0] + alive:
                    if not play(i, w + 1):
                        out_of_time = True
                        break
                if out_of_time:
                    break
            if out_of_time:
                break
            if rnd < rounds - 1 and len(alive) > 1:
                alive.sort(key=lambda i: (-self._advantage(results[0], results[i])[0], i))
                alive = alive[: (len(alive) + 1) // 2]
        # deviate from the heuristic only on clear evidence: a paired sign test over the
        # shared worlds
        best, best_gain = 0, 0.0
        for i in alive:
            gain, z = self._advantage(results[0], results[i])
            if z >= self.z_threshold and gain > best_gain:
                best, best_gain = i, gain
        if best:
            self.stats["deviated"] += 1
        return cands[best]

    @staticmethod
    def _determinize(state: State, rng: np.random.Generator) -> State:
        """One world: the hidden cards resampled from public facts (the game's own
        ``determinize``; a subclass for another game passes its own)."""
        return determinize(state, rng)

    @staticmethod
    def _advantage(base: list[float], other: list[float]) -> tuple[float, float]:
        """Wins gained over the heuristic's choice in the shared worlds, and its z-score."""
        m = min(len(base), len(other))
        diff = [other[k] - base[k] for k in range(m)]
        gain = sum(diff)
        sq = sum(d * d for d in diff)
        return gain, (gain / sq**0.5 if sq else 0.0)

    def _play_out(self, world: State, action: int, seed: int, decisions: int | None) -> State:
        """A copy of ``world`` after ``action`` and then the heuristic's decisions, until
        the game ends or ``decisions`` of them are played (``None``: no limit)."""
        if self.engine == "compiled":
            from inselflucht_env.compiled.play import play_out

            return play_out(world, action, seed, decisions)
        s = world.clone()
        rng = np.random.default_rng(seed)
        s.apply(action, rng)
        pol = self.policy
        left = -1 if decisions is None else decisions
        while s.outcome is None and left:
            s.apply(pol.act(s, rng), rng)
            left -= 1
        return s

    def _rollout(self, world: State, action: int, seed: int) -> float:
        """Score of ``action`` in one world: 1 if the heuristic then wins, else 0."""
        return 1.0 if self._play_out(world, action, seed, None).outcome == "win" else 0.0
