"""Determinization: a full engine state sampled from what the players know (R9).

A planner cannot look at the face-down cards or the undrawn flood order, so it plays out
its plans on *determinizations*: copies of the state in which

* the cards on hidden places are replaced by a random arrangement of the cards that are
  publicly known to be unseen (``knowledge.unseen_cards``; nothing public tells two hidden
  places apart, so every arrangement is equally likely),
* the column and row cards still due in this pass (1-5 minus the public discards) are
  shuffled afresh, each deck on its own (R2.3), and
* scripted decks for later passes (a scenario's ``column_deck`` / ``row_deck``) are dropped,
  so later passes are shuffled by the planner's own generator when it calls ``apply``.

The result depends on the true state only through public facts, and on ``rng``: two states
that differ only in hidden cards or flood order give identical determinizations. The copy
comes from ``State.with_hidden``, which checks that the sample fits the state.
"""

from __future__ import annotations

import numpy as np

from inselflucht_env.games.inselflucht import knowledge as K
from inselflucht_env.games.inselflucht.rules.board import N_PLACES
from inselflucht_env.games.inselflucht.rules.engine import HIDDEN, State


def determinize(state: State, rng: np.random.Generator) -> State:
    """A copy with hidden cards and undrawn flood cards resampled from public facts (R9)."""
    n_hidden = sum(1 for p in range(N_PLACES) if state.status[p] == HIDDEN)
    unseen = K.unseen_cards(state)
    if len(unseen) != n_hidden:  # cannot happen for states the engine produced
        raise ValueError(f"{n_hidden} hidden places but {len(unseen)} unseen cards")
    cards = [unseen[int(i)] for i in rng.permutation(len(unseen))] if n_hidden else []
    cols, rows = K.pass_left(state)
    # Reversed, so that a generator gives the same worlds as when this module wrote the
    # engine's draw lists (next card last) itself.
    col_order = [cols[int(i)] for i in rng.permutation(len(cols))][::-1]
    row_order = [rows[int(i)] for i in rng.permutation(len(rows))][::-1]
    return state.with_hidden(cards, col_order, row_order)
