"""The public view of a state (R9): what every player may know, as plain data.

``describe`` is the JSON form used by tests, replays and users. The public deductions live
here once, for the observation, the renderers and the agents alike: ``seen_cards`` and its
views ``unseen_cards`` (which island cards are still face down somewhere) and
``unseen_by_suit`` (the same per suit), and ``floods_to_go`` (how long the island lasts).
"""

from __future__ import annotations

from typing import Any

from inselflucht_env.games.inselflucht.rules.board import SIZE, column_row, place
from inselflucht_env.games.inselflucht.rules.cards import (
    ISLAND_CARDS,
    SUITS,
    code,
    is_king,
    is_land,
    suit_of,
)
from inselflucht_env.games.inselflucht.rules.config import FLOODS_PER_PASS
from inselflucht_env.games.inselflucht.rules.engine import (
    DRY,
    FLOODED,
    HIDDEN,
    PLACE_STATES,
    SEA,
    Escape,
    Give,
    State,
)


def describe(state: State) -> dict[str, Any]:
    """A JSON-serialisable dict of the public state; hidden cards show as ``None``."""
    places = []
    for r in range(1, SIZE + 1):
        row = []
        for c in range(1, SIZE + 1):
            p = place(c, r)
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
    """The pending sub-decision (R4.6 give, R4.7 short-suit lift, R5.5 escape) as JSON data."""
    pend = state.pending
    if pend is None:
        return None
    if isinstance(pend, Escape):
        return {"kind": "escape", "figure": pend.figure, "from": list(column_row(pend.place))}
    if isinstance(pend, Give):
        return {
            "kind": "give",
            "figure": pend.figure,
            "receiver": pend.receiver,
            "given": pend.given,
        }
    return {
        "kind": "lift",
        "figure": pend.figure,
        "suit": SUITS[pend.suit],
        "chosen": pend.chosen,
        "needed": state.config.cards_per_treasure + 1,
    }


def seen_cards(state: State) -> set[int]:
    """Every card the players have seen (R9): face up on the island, in a salvage, under a
    king, set aside or in the box. The one deduction behind ``unseen_cards`` and
    ``unseen_by_suit``; it never reads a hidden card."""
    st = state.status
    seen = {c for c, x in zip(state.card, st) if x == DRY or x == FLOODED}
    seen.update(*state.salvage, *state.under_king, state.box, state.set_aside)
    return seen


def unseen_cards(state: State) -> list[int]:
    """The island cards lying face down somewhere, ascending: one per hidden place (R9).

    Every island card is face up, in a salvage, under a king, set aside or in the box
    (``seen_cards``), or else on a hidden place.
    """
    seen = seen_cards(state)
    return [c for c in ISLAND_CARDS if c not in seen]


# Per suit: its land cards, and its king (for ``unseen_by_suit``, run on every env step).
_LAND_OF_SUIT = tuple(
    frozenset(c for c in ISLAND_CARDS if is_land(c) and suit_of(c) == s) for s in range(4)
)
_KING_OF_SUIT = tuple(
    next(c for c in ISLAND_CARDS if is_king(c) and suit_of(c) == s) for s in range(4)
)


def unseen_by_suit(state: State) -> tuple[list[int], list[bool]]:
    """Per suit: how many land cards are unseen, and whether the king is (``seen_cards``)."""
    seen = seen_cards(state)
    return (
        [len(land) - len(seen & land) for land in _LAND_OF_SUIT],
        [king not in seen for king in _KING_OF_SUIT],
    )


def floods_to_go(state: State) -> int:
    """Floods the island still takes; the last of them is the L6 loss (R5.4)."""
    return FLOODS_PER_PASS - len(state.col_discard) + FLOODS_PER_PASS * (len(state.meter) - 1)
