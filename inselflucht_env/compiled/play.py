"""The heuristic team playing on compiled rows: rollouts, and whole batches in parallel.

``play_out`` is a search rollout (an action, then the heuristic's decisions until the end or
a depth), for the compiled search and for the Python search loops of ``netflat`` and
``netsearch``, whose rollouts it plays without the interpreter. ``heuristic_steps`` and
``play_heuristic_games`` play a batch (the benchmark's heuristic decisions per second, the
engine included; outcomes of many deals at once): nothing returns to Python before the
batch is done.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from inselflucht_env.compiled import layout as L
from inselflucht_env.compiled.batch import Batch
from inselflucht_env.compiled.convert import from_row, to_row
from inselflucht_env.compiled.heuristic import act as heuristic_act
from inselflucht_env.compiled.kernels import reset_game
from inselflucht_env.compiled.rules import apply, jit, new_game, parallel_jit
from inselflucht_env.games.inselflucht.rules.engine import State


@jit
def play_out_row(s: np.ndarray, action: int, seed: np.uint64, decisions: int) -> None:
    """In place: ``action``, then up to ``decisions`` heuristic decisions (-1: to the end),
    the future drawn from a generator seeded with ``seed``."""
    g = np.empty(1, dtype=np.uint64)
    g[0] = seed
    apply(s, action, g)
    left = decisions
    while s[L.OUTCOME] == L.RUNNING and left != 0:
        apply(s, heuristic_act(s), g)
        left -= 1


def play_out(world: State, action: int, seed: int, decisions: int | None) -> State:
    """A copy of ``world`` after ``action`` and the heuristic's decisions, until the game
    ends or ``decisions`` of them are played (``None``: no limit): ``SearchAgent._play_out``
    on the compiled core (its future has another random stream)."""
    row = to_row(world)
    play_out_row(row, action, np.uint64(seed), -1 if decisions is None else decisions)
    return from_row(row, world.config)


@parallel_jit
def _heuristic_steps(
    states: np.ndarray,
    template: np.ndarray,
    layout: np.ndarray,
    rng: np.ndarray,
    decisions: int,
    played: np.ndarray,
) -> None:
    for i in nb.prange(states.shape[0]):
        s = states[i]
        g = rng[i : i + 1]
        count = 0
        for _ in range(decisions):
            if s[L.OUTCOME] != L.RUNNING:
                reset_game(s, template, layout, g)
            apply(s, heuristic_act(s), g)
            count += 1
        played[i] = count


def heuristic_steps(batch: Batch, decisions: int) -> int:
    """``decisions`` heuristic decisions in every game of ``batch`` (a finished game is
    dealt anew first); the number of decisions made."""
    played = np.zeros(batch.n, dtype=np.int64)
    _heuristic_steps(batch.states, batch.template, batch.layout, batch.rng, decisions, played)
    return int(played.sum())


@parallel_jit
def _play_games(
    states: np.ndarray, template: np.ndarray, layout: np.ndarray, rng: np.ndarray
) -> None:
    for i in nb.prange(states.shape[0]):
        s = states[i]
        g = rng[i : i + 1]
        s[:] = template
        new_game(s, layout, g)
        while s[L.OUTCOME] == L.RUNNING:
            apply(s, heuristic_act(s), g)


def play_heuristic_games(batch: Batch) -> np.ndarray:
    """One fresh game per row of ``batch``, played to the end by the heuristic; the outcome
    index of each (``engine.OUTCOMES``)."""
    _play_games(batch.states, batch.template, batch.layout, batch.rng)
    return batch.states[:, L.OUTCOME].copy()
