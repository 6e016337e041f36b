"""The observation tensor: what the deciding player may see (R9), in named slices.

Written from the decider's seat (the figure making the next decision comes first), so one
shared policy plays every seat. Like an OpenSpiel observer it reads only public facts of
the state: hidden cards appear as "hidden", and the undrawn flood order never appears.

The tensor is flat (float32 in [0, 1]) so that every Stable-Baselines3 policy takes it and
``check_env`` raises no image warnings. Its first ``BOARD_SIZE`` entries are ``N_PLANES``
planes over the 5 x 5 grid (plane-major, row-major): reshape them to ``(N_PLANES, 5, 5)``
for a convolutional extractor. ``OBSERVATION_LAYOUT`` names every slice.
"""

from __future__ import annotations

import numpy as np

from .board import N_PLACES
from .cards import HELICOPTER, KING, N_LAND, SUIT_NAMES
from .engine import DRY, ESCAPE, FLOODED, GIVE, State

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
    *((f"figure_seat{k}", f"figure {k} seats after the decider (seat0 = decider)")
      for k in range(MAX_FIGURES)),
)
N_PLANES = len(_BOARD_PLANES)
BOARD_SIZE = N_PLANES * N_PLACES
_VECTOR = (
    ("salvage", MAX_FIGURES * 4, "salvage per seat and suit (clubs..spades) / 5"),
    ("actions_left", 5, "one-hot actions left 0-4 of the active figure"),
    ("pending", 4, "one-hot sub-decision: none, give, lift, escape"),
    ("give_receiver", 3, "one-hot receiver of a pending give, 1-3 seats after the decider"),
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
    ("seat_present", MAX_FIGURES, "a figure sits k seats after the decider"),
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
        if c < N_LAND:
            entries += (_AT["suit_clubs"] + (c // 5) * N_PLACES + p, _AT["land"] + p)
        elif c < HELICOPTER:
            entries += (_AT["suit_clubs"] + (c - KING) * N_PLACES + p, _AT["king"] + p)
        else:
            entries.append(_AT["helicopter"] + p)
    return tuple(entries)


# _PLACE[s][c + 1][p]: precomputed, since the encoder runs on every env step.
_PLACE = tuple(tuple(tuple(_place_entries(p, s, c) for p in range(N_PLACES))
                     for c in range(-1, HELICOPTER + 1)) for s in range(4))


def _threatened(col_hit: int, row_hit: int) -> tuple[int, ...]:
    return tuple(_AT["threatened"] + r * 5 + c for r in range(5) for c in range(5)
                 if not (col_hit >> c & 1 or row_hit >> r & 1))


_THREATENED = tuple(tuple(_threatened(ch, rh) for rh in range(32)) for ch in range(32))


def encode_observation(state: State) -> np.ndarray:
    """The observation of ``state.decider`` as a float32 vector of ``OBSERVATION_SIZE``."""
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    ones: list[int] = []
    st, card = state.status, state.card
    seen_land = [0, 0, 0, 0]
    king_unseen = [True] * 4
    for p in range(N_PLACES):
        s = st[p]
        c = card[p]
        ones += _PLACE[s][c + 1][p]
        if s == DRY or s == FLOODED:
            if c < N_LAND:
                seen_land[c // 5] += 1
            elif c < HELICOPTER:
                king_unseen[c - KING] = False
                if state.lifted[c - KING]:
                    ones.append(_AT["king_lifted"] + p)
    col_hit = row_hit = 0
    for c in state.col_discard:
        col_hit |= 1 << (c - 1)
    for r in state.row_discard:
        row_hit |= 1 << (r - 1)
    ones += _THREATENED[col_hit][row_hit]
    n_fig = len(state.pos)
    me = state.decider
    seats = [(me + k) % n_fig for k in range(n_fig)]
    values: list[tuple[int, float]] = []
    for k, f in enumerate(seats):
        ones.append(_AT["figure_seat0"] + k * N_PLACES + state.pos[f])
        ones.append(_AT["seat_present"] + k)
        counts = [0, 0, 0, 0]
        for c in state.salvage[f]:
            counts[c // 5] += 1
        for s in range(4):
            if counts[s]:
                seen_land[s] += counts[s]
                values.append((_AT["salvage"] + 4 * k + s, counts[s] / 5))
    ones.append(_AT["actions_left"] + max(state.actions_left, 0))
    pend = state.pending
    if pend is None:
        ones.append(_AT["pending"])
    elif pend[0] == GIVE:
        ones += (_AT["pending"] + 1, _AT["give_receiver"] + (pend[2] - me) % n_fig - 1)
        values.append((_AT["pending_cards"], pend[3] / 20))  # a hand holds at most 20 cards
    elif pend[0] == ESCAPE:
        ones.append(_AT["pending"] + 3)
    else:
        ones.append(_AT["pending"] + 2)
        values.append((_AT["pending_cards"], pend[3] / 20))
        values.append((_AT["lift_needed"], (state.config.cards_per_treasure + 1 - pend[3]) / 5))
    ones.append(_AT["water_level"] + state.meter[0] - 1)
    per_level = [0] * 5
    for level in state.meter:
        per_level[level - 1] += 1
    for i, count in enumerate(per_level):
        if count:
            values.append((_AT["meter"] + i, min(count / 3, 1.0)))
    values.append((_AT["meter_cards"], min(len(state.meter) / 10, 1.0)))
    values.append((_AT["floods_left_pass"], 1 - len(state.col_discard) / 5))
    values.append((_AT["floods_left_phase"], state.floods_left / 5 if state.in_flood else 0.0))
    ones += [_AT["columns_due"] + c for c in range(5) if not col_hit >> c & 1]
    ones += [_AT["rows_due"] + r for r in range(5) if not row_hit >> r & 1]
    # Unseen cards, deduced from public facts only (as public.unseen_cards).
    for pile in state.under_king:
        for c in pile:
            seen_land[c // 5] += 1
    for c in state.box + state.set_aside:
        if c < N_LAND:
            seen_land[c // 5] += 1
        elif c < HELICOPTER:
            king_unseen[c - KING] = False
    n = state.config.cards_per_treasure
    for s in range(4):
        if state.remaining[s] < n:  # short suit (R6.2, as State.is_short)
            ones.append(_AT["short"] + s)
        if state.lifted[s]:
            ones.append(_AT["lifted"] + s)
        if king_unseen[s]:
            ones.append(_AT["unseen_king"] + s)
        values.append((_AT["remaining"] + s, state.remaining[s] / 5))
        values.append((_AT["unseen_land"] + s, (5 - seen_land[s]) / 5))
    if state.config.taucher:
        ones.append(_AT["variant"])
    if state.config.short_game:
        ones.append(_AT["variant"] + 1)
    obs[np.array(ones, dtype=np.intp)] = 1.0
    where, what = zip(*values)
    obs[np.array(where, dtype=np.intp)] = what
    return obs
