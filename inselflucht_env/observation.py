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

import numpy as np

from .board import N_PLACES, SIZE, place
from .cards import HELICOPTER, N_LAND, SUIT_NAMES, SUIT_OF, is_king, suit_of
from .engine import DRY, FLOODED, Give, Lift, State
from .public import unseen_by_suit

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
# _KING_SUIT[c + 1]: the suit of king c, -1 for any other card or NO_CARD (no call per place).
_KING_SUIT = tuple(suit_of(c) if is_king(c) else -1 for c in range(-1, HELICOPTER + 1))


def _due_entries(col_hit: int, row_hit: int) -> tuple[int, ...]:
    """Entries set by the columns and rows still due in this pass (bit sets of those hit):
    ``columns_due``, ``rows_due`` and the ``threatened`` places where both are due."""
    cols = [c for c in range(1, SIZE + 1) if not col_hit >> c - 1 & 1]
    rows = [r for r in range(1, SIZE + 1) if not row_hit >> r - 1 & 1]
    return (*(_AT["threatened"] + place(c, r) for r in rows for c in cols),
            *(_AT["columns_due"] + c - 1 for c in cols), *(_AT["rows_due"] + r - 1 for r in rows))


# _DUE[col_hit][row_hit]: precomputed for every pair of hit sets.
_DUE = tuple(tuple(_due_entries(ch, rh) for rh in range(32)) for ch in range(32))
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


def encode_observation(state: State, seat: int | None = None) -> np.ndarray:
    """What figure ``seat`` (default: ``state.decider``) sees, float32 of ``OBSERVATION_SIZE``.

    Only public facts (R9) are read; the module docstring says what each slice means when
    the observer is not the decider.
    """
    n_fig = len(state.pos)
    if seat is None:
        me = state.decider
    elif isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) \
            or not 0 <= seat < n_fig:
        raise ValueError(f"seat={seat!r} must be a figure 0-{n_fig - 1}")
    else:
        me = int(seat)
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    ones: list[int] = []
    st, card, lifted = state.status, state.card, state.lifted
    for p in range(N_PLACES):
        s = st[p]
        c = card[p]
        ones += _PLACE[s][c + 1][p]
        king = _KING_SUIT[c + 1]
        if king >= 0 and (s == DRY or s == FLOODED) and lifted[king]:
            ones.append(_AT["king_lifted"] + p)
    col_hit = row_hit = 0
    for c in state.col_discard:
        col_hit |= 1 << (c - 1)
    for r in state.row_discard:
        row_hit |= 1 << (r - 1)
    ones += _DUE[col_hit][row_hit]
    values: list[tuple[int, float]] = []
    for k in range(n_fig):
        f = (me + k) % n_fig
        ones.append(_AT["figure_seat0"] + k * N_PLACES + state.pos[f])
        ones.append(_AT["seat_present"] + k)
        counts = [0, 0, 0, 0]
        for c in state.salvage[f]:
            counts[SUIT_OF[c]] += 1
        for s in range(4):
            if counts[s]:
                values.append((_AT["salvage"] + 4 * k + s, counts[s] / 5))
    ones.append(_AT["actions_left"] + max(state.actions_left, 0))
    pend = state.pending
    if pend is None:
        ones.append(_AT["pending"])
    elif isinstance(pend, Give):
        ones.append(_AT["pending"] + 1)
        receiver_seat = (pend.receiver - me) % n_fig
        if receiver_seat:  # 0: the observer is the receiver
            ones.append(_AT["give_receiver"] + receiver_seat - 1)
        values.append((_AT["pending_cards"], pend.given / 20))  # a hand holds at most 20 cards
    elif isinstance(pend, Lift):
        ones.append(_AT["pending"] + 2)
        values.append((_AT["pending_cards"], pend.chosen / 20))
        values.append((_AT["lift_needed"], (state.config.cards_per_treasure + 1 - pend.chosen) / 5))
    else:
        ones.append(_AT["pending"] + 3)
    ones.append(_AT["water_level"] + state.meter[0] - 1)
    values += _meter_values(state.meter)
    values.append((_AT["floods_left_pass"], 1 - len(state.col_discard) / 5))
    values.append((_AT["floods_left_phase"], state.floods_left / 5 if state.in_flood else 0.0))
    unseen_land, king_unseen = unseen_by_suit(state)
    for s in range(4):
        if state.is_short(s):  # R6.2
            ones.append(_AT["short"] + s)
        if state.lifted[s]:
            ones.append(_AT["lifted"] + s)
        if king_unseen[s]:
            ones.append(_AT["unseen_king"] + s)
        values.append((_AT["remaining"] + s, state.remaining[s] / 5))
        values.append((_AT["unseen_land"] + s, unseen_land[s] / 5))
    if state.config.taucher:
        ones.append(_AT["variant"])
    if state.config.short_game:
        ones.append(_AT["variant"] + 1)
    obs[np.array(ones, dtype=np.intp)] = 1.0
    where, what = zip(*values)
    obs[np.array(where, dtype=np.intp)] = what
    return obs
