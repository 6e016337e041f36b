"""The observation tensor: what one seat may see (R9), in named slices.

Like an OpenSpiel observer, ``encode_observation(state, seat)`` writes the view of one
figure, the *observer*, and reads only public facts of the state: hidden cards appear as
"hidden", and the undrawn flood order never appears. Seats are counted from the observer
(seat 0 = the observer, seat k = the figure k places after it in turn order), so one
shared policy plays every seat. The observer defaults to ``state.decider``, the figure
making the next decision: the Gymnasium env and every trained policy use that view. The
PettingZoo env gives each agent the view from its own seat.

From a seat that is not the decider the same slices hold the same public facts, seen from
that seat: ``actions_left`` is still the active figure's, and ``pending``,
``pending_cards`` and ``lift_needed`` still describe the decider's sub-decision.
``give_receiver`` is the receiver's seat after the observer, all zero when the observer
itself receives. Which seat decides is not in the vector (the PettingZoo action mask says).

The tensor is flat (float32 in [0, 1]) so that every Stable-Baselines3 policy takes it and
``check_env`` raises no image warnings. Its first ``BOARD_SIZE`` entries are ``N_PLANES``
planes over the 5 x 5 grid (plane-major, row-major): reshape them to ``(N_PLANES, 5, 5)``
for a convolutional extractor. ``OBSERVATION_LAYOUT`` names every slice and
``describe_observation()`` lists them.
"""

from __future__ import annotations

import struct
from array import array
from typing import NamedTuple

import numpy as np

from inselflucht_env.games.inselflucht.rules.board import N_PLACES, SIZE, place
from inselflucht_env.games.inselflucht.rules.cards import (
    HELICOPTER,
    KING,
    N_LAND,
    SUIT_NAMES,
    SUIT_OF,
    suit_of,
)
from inselflucht_env.games.inselflucht.rules.engine import DRY, FLOODED, Give, Lift, State

MAX_FIGURES = 4
# (name, number of entries, description): board planes first, then the vector.
_BOARD_PLANES = (
    ("hidden", "place is face down (unexplored land, R3.1)"),
    ("dry", "place is face up and dry"),
    ("flooded", "place is face up and flooded"),
    ("sea", "place is sea (sunk, salvaged, or a set-aside king)"),
    *((f"suit_{s}", f"face-up card of suit {s}") for s in SUIT_NAMES),
    ("land", "face-up land card (6-10)"),
    ("king", "face-up king (a treasure site)"),
    ("helicopter", "the helicopter (joker)"),
    ("king_lifted", "king whose treasure is lifted"),
    ("threatened", "column and row both still due in this pass: the place can be hit"),
    *(
        (f"figure_seat{k}", f"figure {k} seats after the observer (seat0 = observer)")
        for k in range(MAX_FIGURES)
    ),
)
N_PLANES = len(_BOARD_PLANES)
BOARD_SIZE = N_PLANES * N_PLACES
_VECTOR = (
    ("salvage", MAX_FIGURES * 4, "salvage per seat and suit (clubs..spades) / 5"),
    ("actions_left", 5, "one-hot actions left 0-4 of the active figure"),
    ("pending", 4, "one-hot sub-decision of the decider: none, give, lift, escape"),
    (
        "give_receiver",
        3,
        "one-hot receiver of a pending give, 1-3 seats after the observer "
        "(all 0: the observer receives)",
    ),
    ("pending_cards", 1, "cards already given / chosen in the pending sub-decision / 20"),
    ("lift_needed", 1, "cards still to choose for a pending short-suit lift / 5"),
    ("water_level", 5, "one-hot water level 1-5"),
    ("meter", 5, "cards on the meter per level 1-5 (top included) / 3"),
    ("meter_cards", 1, "cards on the meter / 10"),
    ("floods_left_pass", 1, "floods left in this pass of the decks / 5"),
    ("floods_left_phase", 1, "floods still to come in the running flood phase / 5"),
    ("columns_due", 5, "columns 1-5 not yet hit in this pass"),
    ("rows_due", 5, "rows 1-5 not yet hit in this pass"),
    ("short", 4, "suit is short (R6.2)"),
    ("lifted", 4, "treasure of suit lifted"),
    ("remaining", 4, "land cards of suit left on the island and in salvage / 5"),
    ("unseen_king", 4, "king of suit not yet seen"),
    ("unseen_land", 4, "land cards of suit never seen / 5"),
    ("seat_present", MAX_FIGURES, "a figure sits k seats after the observer"),
    ("variant", 2, "taucher, short game"),
)


def _layout() -> dict[str, tuple[int, int, str]]:
    table, offset = {}, 0
    for name, text in _BOARD_PLANES:
        table[name] = (offset, offset + N_PLACES, text)
        offset += N_PLACES
    for name, size, text in _VECTOR:
        table[name] = (offset, offset + size, text)
        offset += size
    return table


OBSERVATION_LAYOUT = _layout()
OBSERVATION_SIZE = max(stop for _, stop, _ in OBSERVATION_LAYOUT.values())
_AT = {name: start for name, (start, _, _) in OBSERVATION_LAYOUT.items()}
_PLANE = {name: k for k, (name, _) in enumerate(_BOARD_PLANES)}
_STATE_PLANE = (_AT["hidden"], _AT["dry"], _AT["flooded"], _AT["sea"])


def describe_observation() -> list[dict[str, object]]:
    """Slice table: name, start, stop and meaning of every part of the observation."""
    return [
        {"name": n, "start": a, "stop": b, "description": t}
        for n, (a, b, t) in OBSERVATION_LAYOUT.items()
    ]


def _place_entries(p: int, s: int, c: int) -> tuple[int, ...]:
    """Observation entries set to 1 by place p in state s holding card c (public part)."""
    entries = [_STATE_PLANE[s] + p]
    if s == DRY or s == FLOODED:
        if c == HELICOPTER:
            entries.append(_AT["helicopter"] + p)
        else:
            kind = _AT["land"] if c < N_LAND else _AT["king"]
            entries += (_AT["suit_clubs"] + suit_of(c) * N_PLACES + p, kind + p)
    return tuple(entries)


# _PLACE[s][c + 1][p]: precomputed, since the encoder runs on every env step.
_PLACE = tuple(
    tuple(
        tuple(_place_entries(p, s, c) for p in range(N_PLACES)) for c in range(-1, HELICOPTER + 1)
    )
    for s in range(4)
)


# ---------------------------------------------------------------- assembly from blocks
# The encoder joins the observation from blocks of float32 bytes, in layout order: each
# block is a pure function of a few public facts and memoized on them (or kept in the
# state's ``BoardView``), so a step mostly looks blocks up instead of writing 504 entries.
_F32 = 4  # bytes per entry
_FLOAT32 = np.dtype(np.float32)
_ONE = struct.pack("f", 1.0)


def _pack(values: list[float]) -> bytes:
    """``values`` as float32 bytes: the same rounding as numpy's float64 -> float32 cast."""
    return struct.pack(f"{len(values)}f", *values)


def _block(name: str, stop: str | None = None) -> tuple[int, int]:
    """(start, stop) of the slices ``name`` .. ``stop`` (inclusive), which must be adjacent."""
    return OBSERVATION_LAYOUT[name][0], OBSERVATION_LAYOUT[stop or name][1]


_PLACES_BLOCK = (0, _AT["threatened"])  # hidden .. king_lifted
_THREAT_BLOCK = _block("threatened")
_FIGURE_BLOCK = _block("figure_seat0", f"figure_seat{MAX_FIGURES - 1}")
_SALVAGE_BLOCK = _block("salvage")
_TURN_BLOCK = _block("actions_left", "floods_left_phase")
_DUE_BLOCK = _block("columns_due", "rows_due")
_TREASURE_BLOCK = _block("short", "remaining")
_UNSEEN_KING_BLOCK = _block("unseen_king")
_UNSEEN_LAND_BLOCK = _block("unseen_land")
_SEAT_BLOCK = _block("seat_present", "variant")
_BLOCKS = (
    _PLACES_BLOCK,
    _THREAT_BLOCK,
    _FIGURE_BLOCK,
    _SALVAGE_BLOCK,
    _TURN_BLOCK,
    _DUE_BLOCK,
    _TREASURE_BLOCK,
    _UNSEEN_KING_BLOCK,
    _UNSEEN_LAND_BLOCK,
    _SEAT_BLOCK,
)
assert (
    all(a[1] == b[0] for a, b in zip(_BLOCKS, _BLOCKS[1:])) and _BLOCKS[-1][1] == OBSERVATION_SIZE
), "the blocks must tile the layout in order"


def _entries_block(
    block: tuple[int, int],
    ones: tuple[int, ...] | list[int] = (),
    values: tuple[tuple[int, float], ...] | list[tuple[int, float]] = (),
) -> bytes:
    """The bytes of ``block`` with the given entries (absolute indices) set to 1 / to a value."""
    start, stop = block
    out = [0.0] * (stop - start)
    for e in ones:
        out[e - start] = 1.0
    for e, value in values:
        out[e - start] = value
    return _pack(out)


def _due_entries(col_hit: int, row_hit: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Entries set by the columns and rows still due in this pass (bit sets of those hit):
    the ``threatened`` places where both are due, and ``columns_due``, ``rows_due``."""
    cols = [c for c in range(1, SIZE + 1) if not col_hit >> c - 1 & 1]
    rows = [r for r in range(1, SIZE + 1) if not row_hit >> r - 1 & 1]
    return (
        tuple(_AT["threatened"] + place(c, r) for r in rows for c in cols),
        (*(_AT["columns_due"] + c - 1 for c in cols), *(_AT["rows_due"] + r - 1 for r in rows)),
    )


# _THREAT[col_hit][row_hit], _DUE[col_hit][row_hit]: for every pair of hit sets.
_THREAT = tuple(
    tuple(_entries_block(_THREAT_BLOCK, _due_entries(ch, rh)[0]) for rh in range(32))
    for ch in range(32)
)
_DUE = tuple(
    tuple(_entries_block(_DUE_BLOCK, _due_entries(ch, rh)[1]) for rh in range(32))
    for ch in range(32)
)
# _FIGURE_PLANE[p]: one figure plane with the figure on place p; _NO_FIGURES[k]: k empty planes.
_FIGURE_PLANE = tuple(_entries_block((0, N_PLACES), (p,)) for p in range(N_PLACES))
_NO_FIGURES = tuple(bytes(_F32 * N_PLACES * k) for k in range(MAX_FIGURES + 1))
# Suit counts are packed into one int, 5 bits per suit: _SUIT_UNIT[card] adds one card.
_SUIT_UNIT = tuple(1 << 5 * SUIT_OF[c] for c in range(N_LAND))
_SUIT_MASK = (1 << 5) - 1
# _HAND[packed counts]: the 4 salvage entries of one seat (count / 5).
_HAND: dict[int, bytes] = {}
_NO_HAND = bytes(_F32 * 4)
_MEMO_LIMIT = 100_000  # entries per memo before it starts afresh


def _hand_block(counts: int) -> bytes:
    block = _pack([(counts >> 5 * s & _SUIT_MASK) / 5 for s in range(4)])
    if len(_HAND) > _MEMO_LIMIT:
        _HAND.clear()
    _HAND[counts] = block
    return block


def _meter_values(meter: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    """(entry, value) of ``meter`` and ``meter_cards``."""
    per_level = [0] * 5
    for level in meter:
        per_level[level - 1] += 1
    hit = tuple(
        (_AT["meter"] + i, min(count / 3, 1.0)) for i, count in enumerate(per_level) if count
    )
    return hit + ((_AT["meter_cards"], min(len(meter) / 10, 1.0)),)


# _TURN[(actions left, pending, meter, flood cards drawn, floods left in the phase)]
_TURN: dict[tuple, bytes] = {}


def _turn_block(key: tuple) -> bytes:
    """``actions_left`` .. ``floods_left_phase`` from ``_TURN``'s key; ``pending`` is
    (kind 0-3, receiver seat, cards given / chosen, cards still needed)."""
    actions_left, (kind, receiver_seat, cards, needed), meter, drawn, phase = key
    ones = [
        _AT["actions_left"] + max(actions_left, 0),
        _AT["pending"] + kind,
        _AT["water_level"] + meter[0] - 1,
    ]
    values = list(_meter_values(meter))
    if kind == 1 or kind == 2:  # give, lift
        if receiver_seat:  # 0: the observer is the receiver
            ones.append(_AT["give_receiver"] + receiver_seat - 1)
        values.append((_AT["pending_cards"], cards / 20))  # a hand holds at most 20 cards
        if kind == 2:
            values.append((_AT["lift_needed"], needed / 5))
    values.append((_AT["floods_left_pass"], 1 - drawn / 5))
    values.append((_AT["floods_left_phase"], phase / 5 if phase >= 0 else 0.0))
    block = _entries_block(_TURN_BLOCK, ones, values)
    if len(_TURN) > _MEMO_LIMIT:
        _TURN.clear()
    _TURN[key] = block
    return block


# _TREASURES[(remaining, lifted, cards per treasure)]: ``short``, ``lifted``, ``remaining``.
_TREASURES: dict[tuple, bytes] = {}


def _treasure_block(key: tuple) -> bytes:
    remaining, lifted, n = key
    ones = [_AT["short"] + s for s in range(4) if remaining[s] < n]  # R6.2
    ones += [_AT["lifted"] + s for s in range(4) if lifted[s]]
    block = _entries_block(
        _TREASURE_BLOCK, ones, [(_AT["remaining"] + s, remaining[s] / 5) for s in range(4)]
    )
    if len(_TREASURES) > _MEMO_LIMIT:
        _TREASURES.clear()
    _TREASURES[key] = block
    return block


# _UNSEEN_KING[kings seen (bits)]; _UNSEEN_LAND[land seen (packed)]: ``unseen_land``.
_UNSEEN_KING = tuple(
    _entries_block(
        _UNSEEN_KING_BLOCK, [_AT["unseen_king"] + s for s in range(4) if not kings >> s & 1]
    )
    for kings in range(16)
)
_UNSEEN_LAND: dict[int, bytes] = {}


def _unseen_land_block(land: int) -> bytes:
    block = _entries_block(
        _UNSEEN_LAND_BLOCK,
        (),
        [(_AT["unseen_land"] + s, (5 - (land >> 5 * s & _SUIT_MASK)) / 5) for s in range(4)],
    )
    if len(_UNSEEN_LAND) > _MEMO_LIMIT:
        _UNSEEN_LAND.clear()
    _UNSEEN_LAND[land] = block
    return block


# _SEATS[(figures, taucher, short game)]
_SEATS = {
    (n, taucher, short): _entries_block(
        _SEAT_BLOCK,
        [_AT["seat_present"] + k for k in range(n)]
        + [_AT["variant"]] * taucher
        + [_AT["variant"] + 1] * short,
    )
    for n in range(1, MAX_FIGURES + 1)
    for taucher in (False, True)
    for short in (False, True)
}


# ---------------------------------------------------------------- the places, kept in the state
class BoardView(NamedTuple):
    """What the encoder derives from the places alone, kept in ``State._view``.

    ``status``, ``card`` and ``lifted`` are copies of the state's lists it was derived from:
    the encoder reuses the view only while the state's lists still equal them, so nothing
    that edits a state (the engine, a test, a planner) has to invalidate it, and a clone
    may share it (a view is never changed, only replaced). ``base``: the place planes
    ``hidden`` .. ``king_lifted`` as a read-only float32 array, ``board`` the same as bytes.
    ``land``: the face-up land cards per suit, packed 5 bits a suit; ``kings``: bit s set
    if the king of suit s is face up.
    """

    status: list[int]
    card: list[int]
    lifted: list[bool]
    base: np.ndarray
    board: bytes
    land: int
    kings: int


def _cell(p: int, s: int, c: int) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
    """Place p in state s with card c: its place-plane entries set to 1 (treasure not lifted,
    lifted), and the face-up land (``_SUIT_UNIT``) and king bit it adds to a ``BoardView``."""
    ones = _PLACE[s][c + 1][p]
    if s == DRY or s == FLOODED:
        if 0 <= c < N_LAND:
            return ones, ones, _SUIT_UNIT[c], 0
        if KING <= c < HELICOPTER:
            return ones, ones + (_AT["king_lifted"] + p,), 0, 1 << c - KING
    return ones, ones, 0, 0


# _CELL[s][c + 1][p]
_CELL = tuple(
    tuple(tuple(_cell(p, s, c) for p in range(N_PLACES)) for c in range(-1, HELICOPTER + 1))
    for s in range(4)
)


def _index_array(entries: list[int]) -> np.ndarray:
    """``entries`` as an index array (through ``array``: a third of ``np.array``'s time)."""
    return np.frombuffer(array("q", entries), dtype=np.int64).astype(np.intp, copy=False)


def _board_view(status: list[int], card: list[int], lifted: list[bool]) -> BoardView:
    """The view of these places, derived from scratch."""
    ones: list[int] = []
    land = kings = 0
    for p in range(N_PLACES):
        c = card[p]
        unlifted, if_lifted, more_land, king = _CELL[status[p]][c + 1][p]
        ones += if_lifted if king and lifted[c - KING] else unlifted
        land += more_land
        kings |= king
    base = np.zeros(_PLACES_BLOCK[1], dtype=np.float32)
    base[_index_array(ones)] = 1.0
    return _view(status[:], card[:], lifted[:], base, land, kings)


def _view(
    status: list[int], card: list[int], lifted: list[bool], base: np.ndarray, land: int, kings: int
) -> BoardView:
    base.flags.writeable = False
    return BoardView(status, card, lifted, base, base.tobytes(), land, kings)


def _current_view(state: State) -> BoardView:
    """The state's view if it still describes its places; else that view updated at the
    places that changed since (a step changes one or two), or one derived afresh."""
    view = state._view
    status, card, lifted = state.status, state.card, state.lifted
    if view is None or view.lifted != lifted:
        view = _board_view(status, card, lifted)
    elif view.status != status or view.card != card:
        # the places the engine noted as changed since (``State._touched``), checked
        new_status, new_card = view.status[:], view.card[:]
        changed = []
        touched = state._touched
        while touched:
            bit = touched & -touched
            touched ^= bit
            p = bit.bit_length() - 1
            if status[p] != new_status[p] or card[p] != new_card[p]:
                changed.append(p)
                new_status[p] = status[p]
                new_card[p] = card[p]
        if new_status != status or new_card != card:  # changed behind the engine's back
            changed = [
                p for p in range(N_PLACES) if status[p] != view.status[p] or card[p] != view.card[p]
            ]
            new_status, new_card = status[:], card[:]
        if len(changed) > _MAX_UPDATES:
            view = _board_view(status, card, lifted)
        else:
            base = view.base.copy()
            land, kings = view.land, view.kings
            for p in changed:
                c = view.card[p]
                unlifted, if_lifted, less_land, king = _CELL[view.status[p]][c + 1][p]
                for e in if_lifted if king and lifted[c - KING] else unlifted:
                    base[e] = 0.0
                land -= less_land
                kings &= ~king
                c = card[p]
                unlifted, if_lifted, more_land, king = _CELL[status[p]][c + 1][p]
                for e in if_lifted if king and lifted[c - KING] else unlifted:
                    base[e] = 1.0
                land += more_land
                kings |= king
            view = _view(new_status, new_card, view.lifted, base, land, kings)
    state._view = view
    state._touched = 0
    return view


def board_view(state: State) -> BoardView:
    """The state's ``BoardView``, brought up to date (and kept in the state for next time)."""
    view = state._view
    if (
        view is None
        or view.status != state.status
        or view.card != state.card
        or view.lifted != state.lifted
    ):
        view = _current_view(state)
    return view


def kings_seen(state: State) -> int:
    """Bit s set if the king of suit s was seen (``public.seen_cards``): face up, set aside
    or in the box."""
    kings = board_view(state).kings
    for c in (*state.set_aside, *state.box):
        if KING <= c < HELICOPTER:
            kings |= 1 << c - KING
    return kings


_MAX_UPDATES = 10  # more changed places than this: deriving afresh is quicker
_PENDING_NONE = (0, 0, 0, 0)
_PENDING_ESCAPE = (3, 0, 0, 0)


def encode_observation(state: State, seat: int | None = None) -> np.ndarray:
    """What figure ``seat`` (default: ``state.decider``) sees, float32 of ``OBSERVATION_SIZE``.

    Only public facts (R9) are read; the module docstring says what each slice means when
    the observer is not the decider. The observation is joined from memoized blocks (see
    "assembly from blocks" above); the place planes come from the state's ``BoardView``.
    """
    pos = state.pos
    n_fig = len(pos)
    pend = state.pending
    if seat is None:
        me = pend.figure if pend is not None else state.active
    elif isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < n_fig:
        raise ValueError(f"seat={seat!r} must be a figure 0-{n_fig - 1}")
    else:
        me = int(seat)
    st, card, lifted = state.status, state.card, state.lifted
    view = state._view
    if view is None or view.status != st or view.card != card or view.lifted != lifted:
        view = _current_view(state)
    col_discard = state.col_discard
    col_hit = row_hit = 0
    for c in col_discard:
        col_hit |= 1 << (c - 1)
    for r in state.row_discard:
        row_hit |= 1 << (r - 1)
    # seats, counted from the observer: figure planes and salvage (seen cards too, R9)
    figures = []
    hands = []
    land = view.land
    salvage = state.salvage
    for k in range(n_fig):
        f = (me + k) % n_fig
        figures.append(_FIGURE_PLANE[pos[f]])
        counts = 0
        for c in salvage[f]:
            counts += _SUIT_UNIT[c]  # a salvage holds land cards only (R4.5)
        land += counts
        hands.append(_HAND.get(counts) or _hand_block(counts))
    figures.append(_NO_FIGURES[MAX_FIGURES - n_fig])
    hands.append(_NO_HAND * (MAX_FIGURES - n_fig))
    # the turn: actions left, the pending sub-decision, the meter and the floods
    config = state.config
    if pend is None:
        pending = _PENDING_NONE
    elif isinstance(pend, Give):
        pending = (1, (pend.receiver - me) % n_fig, pend.given, 0)
    elif isinstance(pend, Lift):
        pending = (2, 0, pend.chosen, config.cards_per_treasure + 1 - pend.chosen)
    else:
        pending = _PENDING_ESCAPE
    key = (
        state.actions_left,
        pending,
        tuple(state.meter),
        len(col_discard),
        state.floods_left if state.in_flood else -1,
    )
    turn = _TURN.get(key) or _turn_block(key)
    # per suit; the other seen cards lie under the kings, set aside or in the box
    kings = view.kings
    under = state.under_king
    for pile in (under[0], under[1], under[2], under[3], state.box, state.set_aside):
        for c in pile:
            if 0 <= c < N_LAND:
                land += _SUIT_UNIT[c]
            elif KING <= c < HELICOPTER:
                kings |= 1 << c - KING
    treasures = (tuple(state.remaining), tuple(lifted), config.cards_per_treasure)
    # one copy into a fresh, writeable buffer that the returned array owns through its base
    return np.frombuffer(
        bytearray().join(
            (
                view.board,
                _THREAT[col_hit][row_hit],
                *figures,
                *hands,
                turn,
                _DUE[col_hit][row_hit],
                _TREASURES.get(treasures) or _treasure_block(treasures),
                _UNSEEN_KING[kings],
                _UNSEEN_LAND.get(land) or _unseen_land_block(land),
                _SEATS[n_fig, config.taucher, config.short_game],
            )
        ),
        dtype=_FLOAT32,
    )
