"""The public view of a state (R9): what every player may know, as plain data.

``describe`` is the JSON form used by tests, replays and users; ``unseen_cards`` is the
public deduction of which island cards are still face down somewhere.
"""

from __future__ import annotations

from typing import Any

from .board import N_PLACES, SIZE, column_row
from .cards import KING, N_LAND, SUITS, code
from .engine import ESCAPE, GIVE, HIDDEN, PLACE_STATES, SEA, State


def describe(state: State) -> dict[str, Any]:
    """A JSON-serialisable dict of the public state; hidden cards show as ``None``."""
    places = []
    for r in range(SIZE):
        row = []
        for c in range(SIZE):
            p = r * SIZE + c
            st = state.status[p]
            shown = st != HIDDEN and st != SEA
            row.append({"state": PLACE_STATES[st], "card": code(state.card[p]) if shown else None})
        places.append(row)
    return {
        "turn": state.turn,
        "active_figure": state.active,
        "actions_left": state.actions_left,
        "water_level": state.water_level,
        "meter": list(state.meter),
        "places": places,
        "figures": [list(column_row(p)) for p in state.pos],
        "salvage": [[code(c) for c in hand] for hand in state.salvage],
        "lifted": {s: state.lifted[i] for i, s in enumerate(SUITS)},
        "flood_discards": {"columns": list(state.col_discard), "rows": list(state.row_discard)},
        "outcome": state.outcome,
        "pending": describe_pending(state),
    }


def piles(state: State) -> dict[str, Any]:
    """The public piles that ``describe`` leaves out: cards under each king and the box.

    ``describe`` keeps exactly its documented keys; R9 makes these public too.
    """
    return {
        "under_kings": {s: [code(c) for c in state.under_king[i]] for i, s in enumerate(SUITS)},
        "box": [code(c) for c in state.box],
        "set_aside": [code(c) for c in state.set_aside],
    }


def describe_pending(state: State) -> dict[str, Any] | None:
    pend = state.pending
    if pend is None:
        return None
    kind = pend[0]
    if kind == ESCAPE:
        return {"kind": "escape", "figure": pend[1], "from": list(column_row(pend[2]))}
    if kind == GIVE:
        return {"kind": "give", "figure": pend[1], "receiver": pend[2], "given": pend[3]}
    return {"kind": "lift", "figure": pend[1], "suit": SUITS[pend[2]], "chosen": pend[3],
            "needed": state.config.cards_per_treasure + 1}


def unseen_cards(state: State) -> tuple[list[int], list[bool]]:
    """Per suit: land cards never seen, and whether the king is still unseen.

    Deduced only from public facts (face-up places, salvage, cards under kings, the box),
    never from the identity of a hidden card.
    """
    land = [5, 5, 5, 5]
    king = [True] * 4
    seen = [state.card[p] for p in range(N_PLACES) if state.status[p] != HIDDEN
            and state.status[p] != SEA]
    seen += [c for hand in state.salvage for c in hand]
    seen += [c for pile in state.under_king for c in pile]
    seen += state.box + state.set_aside
    for c in seen:
        if c < N_LAND:
            land[c // 5] -= 1
        elif c < KING + 4:
            king[c - KING] = False
    return land, king
