"""The observation and the action mask of a compiled state row, written into caller arrays.

The same 504 entries as ``observation.encode_observation`` (bit for bit: every value is
computed in float64 and rounded to float32 once, as the reference's ``struct.pack`` does),
from the seat of the deciding figure; only public facts (R9) are read. Offsets come from
``OBSERVATION_LAYOUT``, so a change of the layout there changes them here.
"""

from __future__ import annotations

import numpy as np

from inselflucht_env.compiled import layout as L
from inselflucht_env.compiled.rules import decider, jit, legal_bits, suit_of
from inselflucht_env.games.inselflucht.observation import MAX_FIGURES, OBSERVATION_LAYOUT
from inselflucht_env.games.inselflucht.rules.actions import N_ACTIONS
from inselflucht_env.games.inselflucht.rules.cards import HELICOPTER, KING, N_LAND
from inselflucht_env.games.inselflucht.rules.engine import DRY, FLOODED

_AT = {name: start for name, (start, _, _) in OBSERVATION_LAYOUT.items()}
_HIDDEN_PLANE = _AT["hidden"]
_SUIT_PLANE = _AT["suit_clubs"]
_LAND_PLANE = _AT["land"]
_KING_PLANE = _AT["king"]
_HELICOPTER_PLANE = _AT["helicopter"]
_KING_LIFTED_PLANE = _AT["king_lifted"]
_THREATENED = _AT["threatened"]
_FIGURE_PLANE = _AT["figure_seat0"]
_SALVAGE = _AT["salvage"]
_ACTIONS_LEFT = _AT["actions_left"]
_PENDING = _AT["pending"]
_GIVE_RECEIVER = _AT["give_receiver"]
_PENDING_CARDS = _AT["pending_cards"]
_LIFT_NEEDED = _AT["lift_needed"]
_WATER_LEVEL = _AT["water_level"]
_METER = _AT["meter"]
_METER_CARDS = _AT["meter_cards"]
_FLOODS_LEFT_PASS = _AT["floods_left_pass"]
_FLOODS_LEFT_PHASE = _AT["floods_left_phase"]
_COLUMNS_DUE = _AT["columns_due"]
_ROWS_DUE = _AT["rows_due"]
_SHORT = _AT["short"]
_LIFTED = _AT["lifted"]
_REMAINING = _AT["remaining"]
_UNSEEN_KING = _AT["unseen_king"]
_UNSEEN_LAND = _AT["unseen_land"]
_SEAT_PRESENT = _AT["seat_present"]
_VARIANT = _AT["variant"]


@jit
def _count_seen(card: int, land: np.ndarray, kings: np.ndarray) -> None:
    if 0 <= card < N_LAND:
        land[card // 5] += 1
    elif KING <= card < HELICOPTER:
        kings[card - KING] = 1


@jit
def encode(s: np.ndarray, out: np.ndarray) -> None:
    """Write the decider's observation of game ``s`` into ``out`` (float32, 504 entries)."""
    out[:] = 0.0
    land = np.zeros(4, dtype=np.int64)  # land cards seen per suit
    kings = np.zeros(4, dtype=np.int64)  # kings seen
    for p in range(25):
        st = s[L.STATUS + p]
        c = s[L.CARD + p]
        out[_HIDDEN_PLANE + st * 25 + p] = 1.0
        if st == DRY or st == FLOODED:
            if c == HELICOPTER:
                out[_HELICOPTER_PLANE + p] = 1.0
            else:
                out[_SUIT_PLANE + suit_of(c) * 25 + p] = 1.0
                if c < N_LAND:
                    out[_LAND_PLANE + p] = 1.0
                else:
                    out[_KING_PLANE + p] = 1.0
                    if s[L.LIFTED + c - KING]:
                        out[_KING_LIFTED_PLANE + p] = 1.0
                _count_seen(c, land, kings)
    col_hit = 0
    row_hit = 0
    for k in range(s[L.COL_DISCARD_LEN]):
        col_hit |= 1 << (s[L.COL_DISCARD + k] - 1)
    for k in range(s[L.ROW_DISCARD_LEN]):
        row_hit |= 1 << (s[L.ROW_DISCARD + k] - 1)
    for r in range(5):
        if not row_hit >> r & 1:
            out[_ROWS_DUE + r] = 1.0
            for c in range(5):
                if not col_hit >> c & 1:
                    out[_THREATENED + r * 5 + c] = 1.0
    for c in range(5):
        if not col_hit >> c & 1:
            out[_COLUMNS_DUE + c] = 1.0
    n_fig = s[L.FIGURES]
    me = decider(s)
    for k in range(n_fig):
        f = (me + k) % n_fig
        out[_FIGURE_PLANE + k * 25 + s[L.POS + f]] = 1.0
        counts = np.zeros(4, dtype=np.int64)
        at = L.SALVAGE + f * L.MAX_SALVAGE
        for j in range(s[L.SALVAGE_LEN + f]):
            counts[s[at + j] // 5] += 1
        for suit in range(4):
            out[_SALVAGE + k * 4 + suit] = counts[suit] / 5
            land[suit] += counts[suit]
        out[_SEAT_PRESENT + k] = 1.0
    # the turn: actions left, the pending sub-decision, the meter and the floods
    out[_ACTIONS_LEFT + max(s[L.ACTIONS_LEFT], 0)] = 1.0
    kind = s[L.PENDING]
    out[_PENDING + kind] = 1.0
    if kind == L.PENDING_GIVE or kind == L.PENDING_LIFT:
        if kind == L.PENDING_GIVE:
            seat = (s[L.PENDING_ARG] - me) % n_fig
            if seat:  # 0: the observer is the receiver
                out[_GIVE_RECEIVER + seat - 1] = 1.0
        out[_PENDING_CARDS] = s[L.PENDING_COUNT] / 20
        if kind == L.PENDING_LIFT:
            out[_LIFT_NEEDED] = (s[L.PER_TREASURE] + 1 - s[L.PENDING_COUNT]) / 5
    out[_WATER_LEVEL + s[L.METER] - 1] = 1.0
    per_level = np.zeros(5, dtype=np.int64)
    for k in range(s[L.METER_LEN]):
        per_level[s[L.METER + k] - 1] += 1
    for level in range(5):
        if per_level[level]:
            out[_METER + level] = min(per_level[level] / 3, 1.0)
    out[_METER_CARDS] = min(s[L.METER_LEN] / 10, 1.0)
    out[_FLOODS_LEFT_PASS] = 1 - s[L.COL_DISCARD_LEN] / 5
    if s[L.IN_FLOOD]:
        out[_FLOODS_LEFT_PHASE] = s[L.FLOODS_LEFT] / 5
    # per suit; the other seen cards lie under the kings, set aside or in the box
    n = s[L.PER_TREASURE]
    for suit in range(4):
        remaining = s[L.REMAINING + suit]
        if remaining < n:
            out[_SHORT + suit] = 1.0
        if s[L.LIFTED + suit]:
            out[_LIFTED + suit] = 1.0
        out[_REMAINING + suit] = remaining / 5
        for k in range(s[L.UNDER_LEN + suit]):
            _count_seen(s[L.UNDER + suit * L.MAX_UNDER + k], land, kings)
    for k in range(s[L.BOX_LEN]):
        _count_seen(s[L.BOX + k], land, kings)
    for k in range(s[L.SET_ASIDE_LEN]):
        _count_seen(s[L.SET_ASIDE + k], land, kings)
    for suit in range(4):
        if not kings[suit]:
            out[_UNSEEN_KING + suit] = 1.0
        out[_UNSEEN_LAND + suit] = (5 - land[suit]) / 5
    if s[L.TAUCHER]:
        out[_VARIANT] = 1.0
    if s[L.SHORT_GAME]:
        out[_VARIANT + 1] = 1.0


@jit
def write_mask(s: np.ndarray, out: np.ndarray) -> None:
    """Write the legal actions of game ``s`` into ``out`` (36 entries, 1 = legal)."""
    bits = legal_bits(s)
    for a in range(N_ACTIONS):
        out[a] = bits >> a & 1


assert MAX_FIGURES == L.MAX_FIGURES
