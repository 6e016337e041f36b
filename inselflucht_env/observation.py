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

from array import array
from typing import NamedTuple

import numpy as np

from .board import N_PLACES, SIZE, place
from .cards import HELICOPTER, KING, N_LAND, SUIT_NAMES, SUIT_OF, suit_of
from .engine import DRY, FLOODED, Give, Lift, State

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
    *((f"figure_seat{k}", f"figure {k} seats after the observer (seat0 = observer)")
      for k in range(MAX_FIGURES)),
)
N_PLANES = len(_BOARD_PLANES)
BOARD_SIZE = N_PLANES * N_PLACES
_VECTOR = (
    ("salvage", MAX_FIGURES * 4, "salvage per seat and suit (clubs..spades) / 5"),
    ("actions_left", 5, "one-hot actions left 0-4 of the active figure"),
    ("pending", 4, "one-hot sub-decision of the decider: none, give, lift, escape"),
    ("give_receiver", 3, "one-hot receiver of a pending give, 1-3 seats after the observer "
                         "(all 0: the observer receives)"),
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
    return [{"name": n, "start": a, "stop": b, "description": t}
            for n, (a, b, t) in OBSERVATION_LAYOUT.items()]


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
_PLACE = tuple(tuple(tuple(_place_entries(p, s, c) for p in range(N_PLACES))
                     for c in range(-1, HELICOPTER + 1)) for s in range(4))


def _due_entries(col_hit: int, row_hit: int) -> tuple[int, ...]:
    """Entries set by the columns and rows still due in this pass (bit sets of those hit):
    ``columns_due``, ``rows_due`` and the ``threatened`` places where both are due."""
    cols = [c for c in range(1, SIZE + 1) if not col_hit >> c - 1 & 1]
    rows = [r for r in range(1, SIZE + 1) if not row_hit >> r - 1 & 1]
    return (*(_AT["threatened"] + place(c, r) for r in rows for c in cols),
            *(_AT["columns_due"] + c - 1 for c in cols), *(_AT["rows_due"] + r - 1 for r in rows))


def _index_array(entries: list[int] | tuple[int, ...]) -> np.ndarray:
    """``entries`` as an index array (through ``array``: a third of ``np.array``'s time)."""
    return np.frombuffer(array("q", entries), dtype=np.int64).astype(np.intp, copy=False)


# _DUE[col_hit][row_hit]: index arrays precomputed for every pair of hit sets.
_DUE = tuple(tuple(_index_array(_due_entries(ch, rh)) for rh in range(32)) for ch in range(32))
_METER_VALUES: dict[tuple[int, ...], tuple[tuple[int, float], ...]] = {}


def _meter_values(meter: list[int]) -> tuple[tuple[int, float], ...]:
    """(entry, value) of ``meter`` and ``meter_cards``, memoized: a game sees few meters."""
    key = tuple(meter)
    hit = _METER_VALUES.get(key)
    if hit is None:
        per_level = [0] * 5
        for level in meter:
            per_level[level - 1] += 1
        hit = tuple((_AT["meter"] + i, min(count / 3, 1.0))
                    for i, count in enumerate(per_level) if count)
        hit += ((_AT["meter_cards"], min(len(meter) / 10, 1.0)),)
        if len(_METER_VALUES) > 10_000:
            _METER_VALUES.clear()
        _METER_VALUES[key] = hit
    return hit


class BoardView(NamedTuple):
    """What the encoder derives from the places alone, kept in ``State._view``.

    ``status``, ``card`` and ``lifted`` are copies of the state's lists it was derived from:
    the encoder reuses the view only while the state's lists still equal them, so nothing
    that edits a state (the engine, a test, a planner) has to invalidate it, and a clone
    may share it. ``base`` is an observation with the place planes (``hidden`` ..
    ``king_lifted``) written and zeros elsewhere (read-only; the encoder copies it).
    ``land`` / ``king``: per suit, the face-up land cards and whether the king is face up.
    """

    status: list[int]
    card: list[int]
    lifted: list[bool]
    base: np.ndarray
    land: tuple[int, ...]
    king: tuple[bool, ...]


def _place_ones(p: int, s: int, c: int, lifted: list[bool]) -> tuple[int, ...]:
    """The place-plane entries set to 1 by place p in state s with card c."""
    ones = _PLACE[s][c + 1][p]
    if KING <= c < HELICOPTER and (s == DRY or s == FLOODED) and lifted[c - KING]:
        ones += (_KING_LIFTED + p,)
    return ones


def _board_view(status: list[int], card: list[int], lifted: list[bool]) -> BoardView:
    """The view of these places, derived from scratch."""
    ones: list[int] = []
    land = [0, 0, 0, 0]
    king = [False] * 4
    for p in range(N_PLACES):
        s = status[p]
        c = card[p]
        ones += _PLACE[s][c + 1][p]
        if s == DRY or s == FLOODED:
            if 0 <= c < N_LAND:
                land[SUIT_OF[c]] += 1
            elif KING <= c < HELICOPTER:
                king[c - KING] = True
                if lifted[c - KING]:
                    ones.append(_KING_LIFTED + p)
    base = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    base[_index_array(ones)] = 1.0
    base.flags.writeable = False
    return BoardView(status[:], card[:], lifted[:], base, tuple(land), tuple(king))


def _current_view(view: BoardView | None, status: list[int], card: list[int],
                  lifted: list[bool]) -> BoardView:
    """``view`` if it still describes these places; else ``view`` updated at the places that
    changed since (a step changes one or two), or derived afresh."""
    if view is None or view.lifted != lifted:
        return _board_view(status, card, lifted)
    old_status, old_card = view.status, view.card
    if old_status == status and old_card == card:
        return view
    changed = [p for p in range(N_PLACES) if status[p] != old_status[p] or card[p] != old_card[p]]
    if len(changed) > _MAX_UPDATES:
        return _board_view(status, card, lifted)
    base = view.base.copy()
    land, king = list(view.land), list(view.king)
    for p in changed:
        for s, c, value in ((old_status[p], old_card[p], 0.0), (status[p], card[p], 1.0)):
            for e in _place_ones(p, s, c, lifted):
                base[e] = value
            if s == DRY or s == FLOODED:
                if 0 <= c < N_LAND:
                    land[SUIT_OF[c]] += 1 if value else -1
                elif KING <= c < HELICOPTER:
                    king[c - KING] = bool(value)
    base.flags.writeable = False
    return BoardView(status[:], card[:], lifted[:], base, tuple(land), tuple(king))


def board_view(state: State) -> BoardView:
    """The state's ``BoardView``, brought up to date (and kept in the state for next time)."""
    view = state._view = _current_view(state._view, state.status, state.card, state.lifted)
    return view


_KING_LIFTED = _AT["king_lifted"]
_MAX_UPDATES = 10  # more changed places than this: deriving afresh is quicker
_THREATENED = _AT["threatened"]
_FIGURE, _SEAT, _SALVAGE = _AT["figure_seat0"], _AT["seat_present"], _AT["salvage"]
_ACTIONS_LEFT, _PENDING, _RECEIVER = _AT["actions_left"], _AT["pending"], _AT["give_receiver"]
_PENDING_CARDS, _LIFT_NEEDED, _WATER = _AT["pending_cards"], _AT["lift_needed"], _AT["water_level"]
_PASS, _PHASE = _AT["floods_left_pass"], _AT["floods_left_phase"]
_SHORT, _LIFTED, _REMAINING = _AT["short"], _AT["lifted"], _AT["remaining"]
_UNSEEN_KING, _UNSEEN_LAND, _VARIANT = _AT["unseen_king"], _AT["unseen_land"], _AT["variant"]


def encode_observation(state: State, seat: int | None = None) -> np.ndarray:
    """What figure ``seat`` (default: ``state.decider``) sees, float32 of ``OBSERVATION_SIZE``.

    Only public facts (R9) are read; the module docstring says what each slice means when
    the observer is not the decider. The place planes come from the state's ``BoardView``,
    derived again only when the places changed; the rest is written entry by entry.
    """
    pos = state.pos
    n_fig = len(pos)
    if seat is None:
        pend = state.pending
        me = pend.figure if pend is not None else state.active
    elif isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) \
            or not 0 <= seat < n_fig:
        raise ValueError(f"seat={seat!r} must be a figure 0-{n_fig - 1}")
    else:
        me = int(seat)
    st, card, lifted = state.status, state.card, state.lifted
    view = state._view = _current_view(state._view, st, card, lifted)
    obs = view.base.copy()
    col_hit = row_hit = 0
    for c in state.col_discard:
        col_hit |= 1 << (c - 1)
    for r in state.row_discard:
        row_hit |= 1 << (r - 1)
    obs[_DUE[col_hit][row_hit]] = 1.0
    # seats: figures, presence and salvage; salvage is seen too (unseen_land below, R9)
    seen = list(view.land)
    salvage = state.salvage
    for k in range(n_fig):
        f = (me + k) % n_fig
        obs[_FIGURE + k * N_PLACES + pos[f]] = 1.0
        obs[_SEAT + k] = 1.0
        hand = salvage[f]
        if hand:
            counts = [0, 0, 0, 0]
            for c in hand:
                counts[SUIT_OF[c]] += 1
            at = _SALVAGE + 4 * k
            for s in range(4):
                n = counts[s]
                if n:
                    obs[at + s] = n / 5
                    seen[s] += n  # a salvage holds land cards only (R4.5)
    obs[_ACTIONS_LEFT + max(state.actions_left, 0)] = 1.0
    pend = state.pending
    if pend is None:
        obs[_PENDING] = 1.0
    elif isinstance(pend, Give):
        obs[_PENDING + 1] = 1.0
        receiver_seat = (pend.receiver - me) % n_fig
        if receiver_seat:  # 0: the observer is the receiver
            obs[_RECEIVER + receiver_seat - 1] = 1.0
        obs[_PENDING_CARDS] = pend.given / 20  # a hand holds at most 20 cards
    elif isinstance(pend, Lift):
        obs[_PENDING + 2] = 1.0
        obs[_PENDING_CARDS] = pend.chosen / 20
        obs[_LIFT_NEEDED] = (state.config.cards_per_treasure + 1 - pend.chosen) / 5
    else:
        obs[_PENDING + 3] = 1.0
    meter = state.meter
    obs[_WATER + meter[0] - 1] = 1.0
    for at, value in _meter_values(meter):
        obs[at] = value
    obs[_PASS] = 1 - len(state.col_discard) / 5
    obs[_PHASE] = state.floods_left / 5 if state.in_flood else 0.0
    # the other seen cards (``public.seen_cards``): under the kings, set aside, in the box
    king = view.king
    if state.under_king[0] or state.under_king[1] or state.under_king[2] \
            or state.under_king[3] or state.box or state.set_aside:
        king = list(king)
        for pile in (*state.under_king, state.box, state.set_aside):
            for c in pile:
                if 0 <= c < N_LAND:
                    seen[SUIT_OF[c]] += 1
                elif KING <= c < HELICOPTER:
                    king[c - KING] = True
    config = state.config
    n = config.cards_per_treasure
    remaining = state.remaining
    for s in range(4):
        left = remaining[s]
        if left < n:  # short (R6.2)
            obs[_SHORT + s] = 1.0
        if lifted[s]:
            obs[_LIFTED + s] = 1.0
        if not king[s]:
            obs[_UNSEEN_KING + s] = 1.0
        obs[_REMAINING + s] = left / 5
        obs[_UNSEEN_LAND + s] = (5 - seen[s]) / 5
    if config.taucher:
        obs[_VARIANT] = 1.0
    if config.short_game:
        obs[_VARIANT + 1] = 1.0
    return obs
