"""The determinized search on compiled rows: ``agents/search.py``'s algorithm, compiled whole.

A decision is one compiled call: sample the worlds (determinizations: the cards on hidden
places and the column and row cards still due in this pass reshuffled, later scripted
passes dropped, R9), play the heuristic's choice out in ``probe`` of them, and if it loses
in any, play every candidate in the same worlds with the same random future (common random
numbers), halving the alternatives round by round (sequential halving) until
``simulations`` rollouts are spent; deviate from the heuristic only when the paired sign
test over the shared worlds gives ``z >= z_threshold``. Candidates, budget, halving and test
are those of the Python ``SearchAgent``; the random streams differ (SplitMix64 here), so
the two agree in distribution, not decision by decision. There is no wall-clock limit in
the compiled loop: the budget is the number of rollouts. ``decide_many`` labels a batch of
states in parallel (``prange``), one generator each.

``CompiledSearch.improve`` (compiled only) takes another action to beat instead of the
heuristic's, e.g. a network's choice: the answer is that action unless a candidate beats it
on the same test, so it improves that player's policy rather than replacing it with the
heuristic's (the rollouts after every candidate are still the heuristic's).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numba as nb
import numpy as np

from inselflucht_env.compiled import layout as L
from inselflucht_env.compiled.convert import to_row
from inselflucht_env.compiled.heuristic import act as heuristic_act
from inselflucht_env.compiled.play import play_out_row
from inselflucht_env.compiled.rules import (
    jit,
    legal_bits,
    next_random,
    parallel_jit,
    shuffle,
)
from inselflucht_env.games.inselflucht.rules import actions as A
from inselflucht_env.games.inselflucht.rules.engine import HIDDEN, State

STATS = ("decisions", "searched", "rollouts", "deviated")
# Candidate order after the heuristic's choice (``search._priority``): shoring up, moves,
# swims, salvage, the rest; within a group by action index.
_PRIORITY = np.array(
    sorted(
        range(A.N_ACTIONS),
        key=lambda a: (
            0
            if A.SHORE_HERE <= a < A.SALVAGE
            else 1
            if a < A.SWIM
            else 2
            if a < A.SHORE_HERE
            else 3
            if A.SALVAGE <= a < A.GIVE
            else 4,
            a,
        ),
    ),
    dtype=np.int64,
)


@jit
def determinize(world: np.ndarray, s: np.ndarray, rng: np.ndarray) -> None:
    """``world`` := a copy of ``s`` with its hidden facts resampled from public ones."""
    world[:] = s
    cards = np.empty(25, dtype=np.int32)
    places = np.empty(25, dtype=np.int64)
    n = 0
    for p in range(25):
        if s[L.STATUS + p] == HIDDEN:  # as a set, the unseen cards are public (R9)
            cards[n] = s[L.CARD + p]
            places[n] = p
            n += 1
    # sorted first, so that the sample depends on the sets (public), not on their order
    cards[:n].sort()
    shuffle(cards, n, rng)
    for k in range(n):
        world[L.CARD + places[k]] = cards[k]
    for deck, size in ((L.COL_DECK, L.COL_DECK_LEN), (L.ROW_DECK, L.ROW_DECK_LEN)):
        world[deck : deck + world[size]].sort()
        shuffle(world[deck : deck + L.PASS], world[size], rng)
    world[L.SCRIPT_COL_LEN] = 0
    world[L.SCRIPT_ROW_LEN] = 0


@jit
def rollout(world: np.ndarray, action: int, seed: np.uint64, scratch: np.ndarray) -> int:
    """1 if the heuristic wins after ``action`` in ``world`` (with the future ``seed``)."""
    scratch[:] = world
    play_out_row(scratch, action, seed, -1)
    return 1 if scratch[L.OUTCOME] == L.WIN else 0


@jit
def _advantage(results: np.ndarray, counts: np.ndarray, i: int) -> tuple[float, float]:
    """Wins gained by candidate i over candidate 0 (the action to beat) in the shared
    worlds, and z."""
    m = min(counts[0], counts[i])
    gain = 0.0
    sq = 0.0
    for w in range(m):
        d = float(results[i, w] - results[0, w])
        gain += d
        sq += d * d
    return gain, (gain / math.sqrt(sq) if sq else 0.0)


@jit
def _play(
    i: int,
    upto: int,
    s: np.ndarray,
    cands: np.ndarray,
    worlds: np.ndarray,
    seeds: np.ndarray,
    made: np.ndarray,
    results: np.ndarray,
    counts: np.ndarray,
    rng: np.ndarray,
    scratch: np.ndarray,
) -> int:
    """Roll out candidate i in the worlds up to ``upto`` (making worlds as needed); the
    number of rollouts played."""
    played = 0
    while counts[i] < upto:
        w = counts[i]
        while made[0] <= w:
            determinize(worlds[made[0]], s, rng)
            seeds[made[0]] = next_random(rng)
            made[0] += 1
        results[i, w] = rollout(worlds[w], cands[i], seeds[w], scratch)
        counts[i] += 1
        played += 1
    return played


@jit
def _candidates(bits: int, base: int, max_candidates: int, out: np.ndarray) -> int:
    out[0] = base
    n = 1
    for k in range(A.N_ACTIONS):
        a = _PRIORITY[k]
        if n < max_candidates and a != base and bits >> a & 1:
            out[n] = a
            n += 1
    return n


@jit
def decide(
    s: np.ndarray,
    simulations: int,
    probe: int,
    max_candidates: int,
    z_threshold: float,
    rng: np.ndarray,
    stats: np.ndarray,
    anchor: int = -1,
) -> int:
    """The search's action for the decider of game ``s`` (``SearchAgent.act``): the action
    to beat is ``anchor``, or the heuristic's choice when ``anchor`` is -1."""
    stats[0] += 1
    bits = legal_bits(s)
    if bits & (bits - 1) == 0:  # one legal action
        a = 0
        while not bits >> a & 1:
            a += 1
        return a
    base = heuristic_act(s) if anchor < 0 else anchor
    if s[L.PENDING] == L.PENDING_GIVE or s[L.PENDING] == L.PENDING_LIFT:
        return base  # the cards of a give or a short-suit lift: not searched
    if bits >> A.TAKE_OFF & 1:
        return A.TAKE_OFF
    cands = np.empty(A.N_ACTIONS, dtype=np.int64)
    n = _candidates(bits, base, max_candidates, cands)
    if n == 1:
        return base
    room = simulations + probe + 1
    worlds = np.empty((room, s.shape[0]), dtype=s.dtype)
    seeds = np.empty(room, dtype=np.uint64)
    made = np.zeros(1, dtype=np.int64)
    results = np.zeros((n, room), dtype=np.int8)
    counts = np.zeros(n, dtype=np.int64)
    scratch = np.empty_like(s)
    # probe: does the action to beat win in every sampled world?
    stats[2] += _play(0, probe, s, cands, worlds, seeds, made, results, counts, rng, scratch)
    if results[0, : counts[0]].sum() >= counts[0]:
        return base
    stats[1] += 1
    alive = np.arange(1, n)
    n_alive = n - 1
    rounds = max(1, int(math.ceil(math.log2(max(2, n_alive)))) + 1)
    depth = counts[0]
    for rnd in range(rounds):
        spent = counts.sum()
        left = simulations - spent - n_alive * (depth - counts[alive[0]])
        if left <= 0 or n_alive == 0:
            break
        depth += max(1, left // ((n_alive + 1) * (rounds - rnd)))
        depth = min(depth, room - 1)
        for w in range(counts[0], depth):
            stats[2] += _play(
                0, w + 1, s, cands, worlds, seeds, made, results, counts, rng, scratch
            )
            for k in range(n_alive):
                stats[2] += _play(
                    alive[k], w + 1, s, cands, worlds, seeds, made, results, counts, rng, scratch
                )
        if rnd < rounds - 1 and n_alive > 1:
            keys = np.empty(n_alive)
            for k in range(n_alive):
                keys[k] = -_advantage(results, counts, alive[k])[0] * 64 + alive[k]
            order = np.argsort(keys, kind="mergesort")
            kept = alive[order][: (n_alive + 1) // 2].copy()
            n_alive = kept.shape[0]
            alive[:n_alive] = kept
    best = 0
    best_gain = 0.0
    for k in range(n_alive):
        gain, z = _advantage(results, counts, alive[k])
        if z >= z_threshold and gain > best_gain:
            best = alive[k]
            best_gain = gain
    if best:
        stats[3] += 1
    return cands[best]


@parallel_jit
def decide_many(
    states: np.ndarray,
    simulations: int,
    probe: int,
    max_candidates: int,
    z_threshold: float,
    rng: np.ndarray,
    stats: np.ndarray,
    out: np.ndarray,
) -> None:
    """``decide`` for every row of ``states``, in parallel; ``stats`` per row."""
    for i in nb.prange(states.shape[0]):
        out[i] = decide(
            states[i], simulations, probe, max_candidates, z_threshold, rng[i : i + 1], stats[i]
        )


class CompiledSearch:
    """The ``search`` agent on the compiled core: same arguments and algorithm as
    ``agents.search.SearchAgent`` (whose ``seconds`` limit it does not have)."""

    name = "search"

    def __init__(
        self,
        simulations: int = 200,
        probe: int = 8,
        max_candidates: int = 6,
        z_threshold: float = 2.0,
        seconds: float | None = None,
    ):
        if simulations < 1 or probe < 1 or max_candidates < 1:
            raise ValueError("simulations, probe and max_candidates must be >= 1")
        self.simulations = simulations
        self.probe = probe
        self.max_candidates = max_candidates
        self.z_threshold = z_threshold
        self._stats = np.zeros(len(STATS), dtype=np.int64)

    @property
    def stats(self) -> dict[str, int]:
        return {k: int(v) for k, v in zip(STATS, self._stats, strict=True)}

    def act(self, state: State, rng: np.random.Generator) -> int:
        return self._decide(state, rng, -1)

    def improve(self, state: State, rng: np.random.Generator, anchor: int) -> int:
        """``anchor`` (a legal action of ``state``, e.g. a network's choice) unless a
        candidate beats it on the search's paired test: then that candidate."""
        if not 0 <= anchor < A.N_ACTIONS or not state.legal_mask()[anchor]:
            raise ValueError(f"anchor {anchor!r} is not a legal action of this state")
        return self._decide(state, rng, anchor)

    def _decide(self, state: State, rng: np.random.Generator, anchor: int) -> int:
        generator = np.array([rng.integers(1 << 63)], dtype=np.uint64)
        return int(
            decide(
                to_row(state),
                self.simulations,
                self.probe,
                self.max_candidates,
                self.z_threshold,
                generator,
                self._stats,
                anchor,
            )
        )

    def act_many(self, states: Sequence[State], rng: np.random.Generator) -> list[int]:
        """Decisions for many states at once (labelling), spread over the cores."""
        rows = np.zeros((len(states), L.STATE_SIZE), dtype=np.int32)
        for i, state in enumerate(states):
            rows[i] = to_row(state)
        generators = rng.integers(1 << 63, size=len(states)).astype(np.uint64)
        stats = np.zeros((len(states), len(STATS)), dtype=np.int64)
        out = np.zeros(len(states), dtype=np.int64)
        decide_many(
            rows,
            self.simulations,
            self.probe,
            self.max_candidates,
            self.z_threshold,
            generators,
            stats,
            out,
        )
        self._stats += stats.sum(axis=0)
        return [int(a) for a in out]
