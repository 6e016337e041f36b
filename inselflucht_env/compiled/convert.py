"""Between the reference ``State`` and a compiled state row, both ways, field for field.

For the differential tests (the same deal in both engines), for tools that read a compiled
game with the reference's renderers and agents, and for scenario set-ups. A game whose
meter or scripted decks exceed the row's room (``MAX_METER``) is a ``ValueError``.
"""

from __future__ import annotations

import numpy as np

from inselflucht_env.compiled import layout as L
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from inselflucht_env.games.inselflucht.rules.engine import (
    ESCAPE,
    GIVE,
    LIFT,
    OUTCOMES,
    Escape,
    Give,
    Lift,
    State,
)


def check_fits(config: GameConfig, passes: int = 0) -> None:
    """``ValueError`` unless a compiled row holds ``config``'s meter and ``passes`` scripts."""
    if len(config.meter) > L.MAX_METER or passes > L.MAX_METER:
        raise ValueError(
            f"the compiled engine holds meters and scripted decks of at most {L.MAX_METER} "
            f"cards; this game has {max(len(config.meter), passes)}"
        )


def write_config(row: np.ndarray, config: GameConfig) -> None:
    """The static part of a row: figures and variants."""
    row[L.FIGURES] = config.figures
    row[L.SWIM_COST] = config.swim_cost
    row[L.PER_TREASURE] = config.cards_per_treasure
    row[L.TAUCHER] = config.taucher
    row[L.SHORT_GAME] = config.short_game


def _put(row: np.ndarray, at: int, values: list[int], length_at: int | None = None) -> None:
    row[at : at + len(values)] = values
    if length_at is not None:
        row[length_at] = len(values)


def to_row(state: State) -> np.ndarray:
    """The compiled row of a reference state (hidden parts included)."""
    config = state.config
    check_fits(config, max(len(state.script_col), len(state.script_row)))
    row = np.zeros(L.STATE_SIZE, dtype=np.int32)
    write_config(row, config)
    _put(row, L.STATUS, state.status)
    _put(row, L.CARD, state.card)
    _put(row, L.POS, state.pos)
    for f, hand in enumerate(state.salvage):
        _put(row, L.SALVAGE + f * L.MAX_SALVAGE, hand, L.SALVAGE_LEN + f)
    for s, pile in enumerate(state.under_king):
        _put(row, L.UNDER + s * L.MAX_UNDER, pile, L.UNDER_LEN + s)
    _put(row, L.LIFTED, [int(x) for x in state.lifted])
    _put(row, L.SET_ASIDE, state.set_aside, L.SET_ASIDE_LEN)
    _put(row, L.BOX, state.box, L.BOX_LEN)
    _put(row, L.METER, state.meter, L.METER_LEN)
    _put(row, L.COL_DECK, state.col_deck, L.COL_DECK_LEN)
    _put(row, L.ROW_DECK, state.row_deck, L.ROW_DECK_LEN)
    _put(row, L.COL_DISCARD, state.col_discard, L.COL_DISCARD_LEN)
    _put(row, L.ROW_DISCARD, state.row_discard, L.ROW_DISCARD_LEN)
    for k, block in enumerate(state.script_col):
        _put(row, L.SCRIPT_COL + k * L.PASS, block)
    row[L.SCRIPT_COL_LEN] = len(state.script_col)
    for k, block in enumerate(state.script_row):
        _put(row, L.SCRIPT_ROW + k * L.PASS, block)
    row[L.SCRIPT_ROW_LEN] = len(state.script_row)
    row[L.ACTIVE] = state.active
    row[L.ACTIONS_LEFT] = state.actions_left
    row[L.TURN] = state.turn
    row[L.FLOODS_LEFT] = state.floods_left
    row[L.IN_FLOOD] = state.in_flood
    row[L.FLOOD_OPEN] = state.flood_open
    row[L.FLOOD_SANK] = state.flood_sank
    _put(row, L.ESC_FIG, [f for f, _ in state.escapes], L.ESC_LEN)
    _put(row, L.ESC_AT, [p for _, p in state.escapes])
    pend = state.pending
    if isinstance(pend, Give):
        row[L.PENDING : L.PENDING + 4] = (L.PENDING_GIVE, pend.figure, pend.receiver, pend.given)
    elif isinstance(pend, Lift):
        row[L.PENDING : L.PENDING + 4] = (L.PENDING_LIFT, pend.figure, pend.suit, pend.chosen)
    elif isinstance(pend, Escape):
        row[L.PENDING : L.PENDING + 4] = (L.PENDING_ESCAPE, pend.figure, pend.place, 0)
    row[L.OUTCOME] = L.RUNNING if state.outcome is None else OUTCOMES.index(state.outcome)
    _put(row, L.REMAINING, state.remaining)
    return row


def _take(row: np.ndarray, at: int, length_at: int) -> list[int]:
    return [int(v) for v in row[at : at + row[length_at]]]


def from_row(row: np.ndarray, config: GameConfig) -> State:
    """The reference state of a compiled row (``config`` must be the row's game)."""
    s = State.__new__(State)
    s.config = config
    n_fig = int(row[L.FIGURES])
    s.status = [int(v) for v in row[L.STATUS : L.STATUS + 25]]
    s.card = [int(v) for v in row[L.CARD : L.CARD + 25]]
    s.pos = [int(v) for v in row[L.POS : L.POS + n_fig]]
    s.salvage = [_take(row, L.SALVAGE + f * L.MAX_SALVAGE, L.SALVAGE_LEN + f) for f in range(n_fig)]
    s.under_king = [_take(row, L.UNDER + k * L.MAX_UNDER, L.UNDER_LEN + k) for k in range(4)]
    s.lifted = [bool(v) for v in row[L.LIFTED : L.LIFTED + 4]]
    s.set_aside = _take(row, L.SET_ASIDE, L.SET_ASIDE_LEN)
    s.box = _take(row, L.BOX, L.BOX_LEN)
    s.meter = _take(row, L.METER, L.METER_LEN)
    s.col_deck = _take(row, L.COL_DECK, L.COL_DECK_LEN)
    s.row_deck = _take(row, L.ROW_DECK, L.ROW_DECK_LEN)
    s.col_discard = _take(row, L.COL_DISCARD, L.COL_DISCARD_LEN)
    s.row_discard = _take(row, L.ROW_DISCARD, L.ROW_DISCARD_LEN)
    s.script_col = [
        [int(v) for v in row[L.SCRIPT_COL + k * L.PASS : L.SCRIPT_COL + (k + 1) * L.PASS]]
        for k in range(int(row[L.SCRIPT_COL_LEN]))
    ]
    s.script_row = [
        [int(v) for v in row[L.SCRIPT_ROW + k * L.PASS : L.SCRIPT_ROW + (k + 1) * L.PASS]]
        for k in range(int(row[L.SCRIPT_ROW_LEN]))
    ]
    s.active = int(row[L.ACTIVE])
    s.actions_left = int(row[L.ACTIONS_LEFT])
    s.turn = int(row[L.TURN])
    s.floods_left = int(row[L.FLOODS_LEFT])
    s.in_flood = bool(row[L.IN_FLOOD])
    s.flood_open = bool(row[L.FLOOD_OPEN])
    s.flood_sank = bool(row[L.FLOOD_SANK])
    s.escapes = [
        (int(row[L.ESC_FIG + k]), int(row[L.ESC_AT + k])) for k in range(int(row[L.ESC_LEN]))
    ]
    kind, figure, arg, count = (int(v) for v in row[L.PENDING : L.PENDING + 4])
    s.pending = (
        Give(GIVE, figure, arg, count)
        if kind == L.PENDING_GIVE
        else Lift(LIFT, figure, arg, count)
        if kind == L.PENDING_LIFT
        else Escape(ESCAPE, figure, arg)
        if kind == L.PENDING_ESCAPE
        else None
    )
    outcome = int(row[L.OUTCOME])
    s.outcome = None if outcome == L.RUNNING else OUTCOMES[outcome]
    s.remaining = [int(v) for v in row[L.REMAINING : L.REMAINING + 4]]
    s._legal = None
    s._view = None
    s._touched = 0
    return s
