"""The rules on a compiled state row (``layout``): legal actions and applying one.

A line-by-line twin of ``rules/engine.py`` (the readable reference that ``docs/rules.md``
cites), compiled with Numba in ``nopython`` mode. Each function takes the row ``s`` of one
game; the functions that may shuffle a pass of flood decks (R5.3) also take ``rng``, that
game's one-element ``uint64`` generator state (SplitMix64). Nothing here allocates, so a
batch of games runs in parallel without the interpreter (``kernels``). The differential
tests hold this file to the reference after every action of many thousand games.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from inselflucht_env.compiled import layout as L
from inselflucht_env.games.inselflucht.rules import actions as A
from inselflucht_env.games.inselflucht.rules.board import AROUND, BEYOND, CENTRE, NEIGHBOUR
from inselflucht_env.games.inselflucht.rules.cards import HELICOPTER, KING, N_LAND, NO_CARD
from inselflucht_env.games.inselflucht.rules.config import ACTIONS_PER_TURN
from inselflucht_env.games.inselflucht.rules.engine import DRY, FLOODED, HIDDEN, SEA

jit = nb.njit(cache=True, nogil=True)  # every compiled function: cached, no GIL held
parallel_jit = nb.njit(cache=True, nogil=True, parallel=True)  # batch kernels (prange)
_NEIGHBOUR = np.array(NEIGHBOUR, dtype=np.int64)
_BEYOND = np.array(BEYOND, dtype=np.int64)
_AROUND = np.array(AROUND, dtype=np.int64)
_ALL = (1 << 25) - 1
_NOT_FIRST_COLUMN = sum(1 << p for p in range(25) if p % 5 != 0)
_NOT_LAST_COLUMN = sum(1 << p for p in range(25) if p % 5 != 4)
_L1, _L2, _L3, _L4, _L5, _L6 = 1, 2, 3, 4, 5, 6  # indices in engine.OUTCOMES


# ---------------------------------------------------------------------------- randomness
@jit
def next_random(rng: np.ndarray) -> np.uint64:
    """SplitMix64: the next 64 random bits of the generator state ``rng[0]``."""
    rng[0] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@jit
def below(rng: np.ndarray, n: int) -> int:
    """A uniform integer in 0..n-1 (53 random bits scaled: bias below 2^-40 for n <= 25)."""
    return int((next_random(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0) * n)


@jit
def shuffle(values: np.ndarray, n: int, rng: np.ndarray) -> None:
    """Fisher-Yates on ``values[:n]``."""
    for i in range(n - 1, 0, -1):
        j = below(rng, i + 1)
        values[i], values[j] = values[j], values[i]


# ---------------------------------------------------------------------------- reach (L4)
@jit
def _grow(frontier: int, fields: int, sea: int) -> int:
    """``board._grow``: every field one move or one swim away from ``frontier``."""
    up = frontier >> 5
    down = (frontier << 5) & _ALL
    left = (frontier & _NOT_FIRST_COLUMN) >> 1
    right = (frontier & _NOT_LAST_COLUMN) << 1
    return (
        up
        | down
        | left
        | right
        | (up & sea) >> 5
        | ((down & sea) << 5) & _ALL
        | (left & sea & _NOT_FIRST_COLUMN) >> 1
        | (right & sea & _NOT_LAST_COLUMN) << 1
    ) & fields


@jit
def reachable(fields: int, starts: int) -> int:
    """``board.reachable``: the places reachable from ``starts`` by moves and swims."""
    sea = _ALL & ~fields
    seen = frontier = starts & fields
    while frontier:
        frontier = _grow(frontier, fields, sea) & ~seen
        seen |= frontier
    return seen


@jit
def fields_mask(s: np.ndarray) -> int:
    """Bit set of the non-sea places (R3.2)."""
    fields = 0
    for p in range(25):
        if s[L.STATUS + p] != SEA:
            fields |= 1 << p
    return fields


# ---------------------------------------------------------------------------- queries
@jit
def suit_of(card: int) -> int:
    return card // 5 if card < N_LAND else card - KING


@jit
def decider(s: np.ndarray) -> int:
    """The figure whose player makes the next decision."""
    return s[L.PENDING_FIG] if s[L.PENDING] != L.NO_PENDING else s[L.ACTIVE]


@jit
def _held_suits(s: np.ndarray, f: int) -> int:
    """Bit set of the suits in figure f's salvage."""
    held = 0
    at = L.SALVAGE + f * L.MAX_SALVAGE
    for k in range(s[L.SALVAGE_LEN + f]):
        held |= 1 << suit_of(s[at + k])
    return held


@jit
def _can_lift(s: np.ndarray, f: int, suit: int) -> bool:
    """R4.7: *n* cards of the king's suit, or *n* + 1 of any suits if it is short."""
    n = s[L.PER_TREASURE]
    size = s[L.SALVAGE_LEN + f]
    if s[L.REMAINING + suit] < n:
        return size >= n + 1
    same = 0
    at = L.SALVAGE + f * L.MAX_SALVAGE
    for k in range(size):
        if suit_of(s[at + k]) == suit:
            same += 1
    return size >= n and same >= n


@jit
def legal_bits(s: np.ndarray) -> int:
    """Bit a set for every legal action a (``State.legal_actions``); 0 once the game is over."""
    if s[L.OUTCOME] != L.RUNNING:
        return 0
    kind = s[L.PENDING]
    if kind == L.PENDING_ESCAPE:  # R5.5: a neighbouring field, diagonals allowed
        bits = 0
        p = s[L.PENDING_ARG]
        for e in range(8):
            q = _AROUND[p, e]
            if q >= 0 and s[L.STATUS + q] != SEA:
                bits |= 1 << (A.ESCAPE + e)
        return bits
    if kind != L.NO_PENDING:
        f = s[L.PENDING_FIG]
        held = _held_suits(s, f)
        bits = 0
        for suit in range(4):
            if held >> suit & 1:
                bits |= 1 << (A.CARD + suit)
        if kind == L.PENDING_GIVE:  # R4.6
            if s[L.PENDING_COUNT]:
                bits |= 1 << A.DONE
        elif s[L.SALVAGE_LEN + f] == s[L.PER_TREASURE] + 1 - s[L.PENDING_COUNT]:
            bits &= -bits  # the whole hand must go: one set, whatever the order (R4.7)
        return bits
    f = s[L.ACTIVE]
    n_fig = s[L.FIGURES]
    p = s[L.POS + f]
    swim = s[L.ACTIONS_LEFT] >= s[L.SWIM_COST]
    bits = 1 << A.END_TURN  # R4.1
    for d in range(4):
        q = _NEIGHBOUR[p, d]
        if q < 0:
            continue
        x = s[L.STATUS + q]
        if x == SEA:
            far = _BEYOND[p, d]
            if swim and far >= 0 and s[L.STATUS + far] != SEA:  # R4.3
                bits |= 1 << (A.SWIM + d)
        else:
            bits |= 1 << (A.MOVE + d)  # R4.2
            if x == FLOODED:  # R4.4
                bits |= 1 << (A.SHORE + d)
            if x != HIDDEN and s[L.CARD + q] < N_LAND:  # R4.5: not under a figure
                free = True
                for g in range(n_fig):
                    if s[L.POS + g] == q:
                        free = False
                if free:
                    bits |= 1 << (A.SALVAGE + d)
    if s[L.STATUS + p] == FLOODED:
        bits |= 1 << A.SHORE_HERE
    if s[L.SALVAGE_LEN + f]:  # R4.6
        for k in range(1, n_fig):
            if s[L.POS + (f + k) % n_fig] == p:
                bits |= 1 << (A.GIVE + k - 1)
    c = s[L.CARD + p]
    if KING <= c < HELICOPTER:
        if not s[L.LIFTED + c - KING] and _can_lift(s, f, c - KING):
            bits |= 1 << A.LIFT  # R4.7
    elif c == HELICOPTER:
        everyone = True
        for g in range(n_fig):
            if s[L.POS + g] != p:
                everyone = False
        if everyone and s[L.LIFTED] and s[L.LIFTED + 1] and s[L.LIFTED + 2] and s[L.LIFTED + 3]:
            bits |= 1 << A.TAKE_OFF  # R4.8
    return bits


# ---------------------------------------------------------------------------- applying
@jit
def _enter(s: np.ndarray, f: int, q: int) -> None:
    """Put figure f on place q, revealing it if hidden (R4.2, R4.3, R5.5)."""
    s[L.POS + f] = q
    if s[L.STATUS + q] == HIDDEN:
        s[L.STATUS + q] = DRY


@jit
def _take(s: np.ndarray, f: int, suit: int) -> int:
    """Remove and return figure f's first salvaged card of ``suit``."""
    at = L.SALVAGE + f * L.MAX_SALVAGE
    size = s[L.SALVAGE_LEN + f]
    k = 0
    while suit_of(s[at + k]) != suit:
        k += 1
    card = s[at + k]
    for j in range(k, size - 1):
        s[at + j] = s[at + j + 1]
    s[L.SALVAGE_LEN + f] = size - 1
    return card


@jit
def _append_salvage(s: np.ndarray, f: int, card: int) -> None:
    size = s[L.SALVAGE_LEN + f]
    s[L.SALVAGE + f * L.MAX_SALVAGE + size] = card
    s[L.SALVAGE_LEN + f] = size + 1


@jit
def _discard_under_king(s: np.ndarray, f: int, king_suit: int, card_suit: int) -> None:
    card = _take(s, f, card_suit)
    size = s[L.UNDER_LEN + king_suit]
    s[L.UNDER + king_suit * L.MAX_UNDER + size] = card
    s[L.UNDER_LEN + king_suit] = size + 1
    s[L.REMAINING + card_suit] -= 1


@jit
def _check_too_few(s: np.ndarray) -> None:
    """L5: the remaining land cards cannot pay for the unlifted treasures."""
    n = s[L.PER_TREASURE]
    need = 0
    total = 0
    for suit in range(4):
        r = s[L.REMAINING + suit]
        total += r
        if not s[L.LIFTED + suit]:
            need += n + (1 if r < n else 0)
    if total < need:
        s[L.OUTCOME] = _L5


@jit
def _finish_lift(s: np.ndarray, suit: int) -> None:
    s[L.LIFTED + suit] = 1
    _check_too_few(s)


@jit
def _is_goal(s: np.ndarray, c: int) -> bool:
    """The helicopter, or a king whose treasure is still to lift (what L4 watches)."""
    return c == HELICOPTER or (KING <= c < HELICOPTER and not s[L.LIFTED + c - KING])


@jit
def _check_cut_off(s: np.ndarray) -> None:
    """L4: some unlifted king, or the helicopter, is out of every figure's reach."""
    fields = fields_mask(s)
    starts = 0
    for g in range(s[L.FIGURES]):
        starts |= 1 << s[L.POS + g]
    reach = reachable(fields, starts)
    lost = False
    for p in range(25):
        if not reach >> p & 1 and _is_goal(s, s[L.CARD + p]):
            lost = True
            if s[L.STATUS + p] == HIDDEN:
                s[L.STATUS + p] = DRY  # ruling: the cut-off king is revealed at the end
    if lost:
        s[L.OUTCOME] = _L4


@jit
def _turn_action(s: np.ndarray, a: int) -> None:
    f = s[L.ACTIVE]
    p = s[L.POS + f]
    cost = 1
    if a < A.SWIM:  # R4.2
        _enter(s, f, _NEIGHBOUR[p, a - A.MOVE])
    elif a < A.SHORE_HERE:  # R4.3
        _enter(s, f, _BEYOND[p, a - A.SWIM])
        cost = s[L.SWIM_COST]
    elif a == A.SHORE_HERE:  # R4.4
        s[L.STATUS + p] = DRY
    elif a < A.SALVAGE:
        s[L.STATUS + _NEIGHBOUR[p, a - A.SHORE]] = DRY
    elif a < A.GIVE:  # R4.5
        q = _NEIGHBOUR[p, a - A.SALVAGE]
        _append_salvage(s, f, s[L.CARD + q])
        s[L.CARD + q] = NO_CARD
        s[L.STATUS + q] = SEA
        _check_cut_off(s)
    elif a < A.LIFT:  # R4.6
        s[L.PENDING] = L.PENDING_GIVE
        s[L.PENDING_FIG] = f
        s[L.PENDING_ARG] = (f + a - A.GIVE + 1) % s[L.FIGURES]
        s[L.PENDING_COUNT] = 0
    elif a == A.LIFT:  # R4.7
        suit = suit_of(s[L.CARD + p])
        if s[L.REMAINING + suit] < s[L.PER_TREASURE]:
            s[L.PENDING] = L.PENDING_LIFT
            s[L.PENDING_FIG] = f
            s[L.PENDING_ARG] = suit
            s[L.PENDING_COUNT] = 0
        else:
            for _ in range(s[L.PER_TREASURE]):
                _discard_under_king(s, f, suit, suit)
            _finish_lift(s, suit)
    elif a == A.TAKE_OFF:  # R4.8, R6.1
        s[L.OUTCOME] = L.WIN
    else:  # R4.1 end_turn
        cost = s[L.ACTIONS_LEFT]
    s[L.ACTIONS_LEFT] -= cost


@jit
def _next_escape(s: np.ndarray) -> None:
    size = s[L.ESC_LEN]
    if size:
        s[L.PENDING] = L.PENDING_ESCAPE
        s[L.PENDING_FIG] = s[L.ESC_FIG]
        s[L.PENDING_ARG] = s[L.ESC_AT]
        s[L.PENDING_COUNT] = 0
        for k in range(size - 1):
            s[L.ESC_FIG + k] = s[L.ESC_FIG + k + 1]
            s[L.ESC_AT + k] = s[L.ESC_AT + k + 1]
        s[L.ESC_LEN] = size - 1


@jit
def _clear_pending(s: np.ndarray) -> None:
    s[L.PENDING] = L.NO_PENDING
    s[L.PENDING_FIG] = 0
    s[L.PENDING_ARG] = 0
    s[L.PENDING_COUNT] = 0


@jit
def _sub_decision(s: np.ndarray, a: int) -> None:
    kind = s[L.PENDING]
    f = s[L.PENDING_FIG]
    if kind == L.PENDING_ESCAPE:  # R5.5
        _enter(s, f, _AROUND[s[L.PENDING_ARG], a - A.ESCAPE])
        _clear_pending(s)
        _next_escape(s)
    elif kind == L.PENDING_GIVE:  # R4.6
        if a == A.DONE:
            _clear_pending(s)
        else:
            _append_salvage(s, s[L.PENDING_ARG], _take(s, f, a - A.CARD))
            s[L.PENDING_COUNT] += 1
    else:  # R4.7 a short suit: n + 1 cards of any suits
        suit = s[L.PENDING_ARG]
        _discard_under_king(s, f, suit, a - A.CARD)
        s[L.PENDING_COUNT] += 1
        if s[L.PENDING_COUNT] == s[L.PER_TREASURE] + 1:
            _clear_pending(s)
            _finish_lift(s, suit)


@jit
def _sink(s: np.ndarray, p: int) -> None:
    """R5.5: the place becomes sea; figures on it must escape or drown."""
    c = s[L.CARD + p]
    s[L.STATUS + p] = SEA
    s[L.CARD + p] = NO_CARD
    if c < N_LAND or c == HELICOPTER or not s[L.LIFTED + c - KING]:
        s[L.BOX + s[L.BOX_LEN]] = c
        s[L.BOX_LEN] += 1
        if c < N_LAND:
            s[L.REMAINING + c // 5] -= 1
        else:
            s[L.OUTCOME] = _L2 if c == HELICOPTER else _L1
            return
    else:
        s[L.SET_ASIDE + s[L.SET_ASIDE_LEN]] = c  # safe with its cards
        s[L.SET_ASIDE_LEN] += 1
    n_fig = s[L.FIGURES]
    count = 0
    for k in range(n_fig):
        g = (s[L.ACTIVE] + k) % n_fig
        if s[L.POS + g] == p:
            s[L.ESC_FIG + count] = g
            s[L.ESC_AT + count] = p
            count += 1
    s[L.ESC_LEN] = count
    if count:
        dry_neighbour = False
        for e in range(8):
            q = _AROUND[p, e]
            if q >= 0 and s[L.STATUS + q] != SEA:
                dry_neighbour = True
        if not dry_neighbour:
            s[L.OUTCOME] = _L3
            return
    _next_escape(s)


@jit
def _flood(s: np.ndarray) -> None:
    """One flood (R5.2): the next column and row card name a place."""
    s[L.FLOODS_LEFT] -= 1
    s[L.COL_DECK_LEN] -= 1
    s[L.ROW_DECK_LEN] -= 1
    col = s[L.COL_DECK + s[L.COL_DECK_LEN]]
    row = s[L.ROW_DECK + s[L.ROW_DECK_LEN]]
    s[L.COL_DISCARD + s[L.COL_DISCARD_LEN]] = col
    s[L.COL_DISCARD_LEN] += 1
    s[L.ROW_DISCARD + s[L.ROW_DISCARD_LEN]] = row
    s[L.ROW_DISCARD_LEN] += 1
    s[L.FLOOD_OPEN] = 1
    p = (row - 1) * 5 + (col - 1)
    st = s[L.STATUS + p]
    if st == HIDDEN or st == DRY:
        s[L.STATUS + p] = FLOODED
    elif st == FLOODED:
        s[L.FLOOD_SANK] = 1
        _sink(s, p)


@jit
def _next_deck(s: np.ndarray, deck: int, script: int, script_len: int, rng: np.ndarray) -> None:
    """A fresh column or row deck: the next scripted one, else shuffled (R5.3)."""
    count = s[script_len]
    if count:
        for k in range(L.PASS):
            s[deck + k] = s[script + k]
        for k in range(L.PASS, count * L.PASS):
            s[script + k - L.PASS] = s[script + k]
        s[script_len] = count - 1
    else:
        for k in range(L.PASS):
            s[deck + k] = k + 1
        shuffle(s[deck : deck + L.PASS], L.PASS, rng)


@jit
def next_decks(s: np.ndarray, rng: np.ndarray) -> None:
    """Both decks of a new pass, the column deck first (as the reference draws them)."""
    _next_deck(s, L.COL_DECK, L.SCRIPT_COL, L.SCRIPT_COL_LEN, rng)
    s[L.COL_DECK_LEN] = L.PASS
    _next_deck(s, L.ROW_DECK, L.SCRIPT_ROW, L.SCRIPT_ROW_LEN, rng)
    s[L.ROW_DECK_LEN] = L.PASS


@jit
def _close_flood(s: np.ndarray, rng: np.ndarray) -> None:
    """After a flood and its escapes: L4, L5, then the end of a pass (R5.3, R6.3)."""
    s[L.FLOOD_OPEN] = 0
    if s[L.FLOOD_SANK]:
        s[L.FLOOD_SANK] = 0
        _check_cut_off(s)
        if s[L.OUTCOME] == L.RUNNING:
            _check_too_few(s)
    if s[L.OUTCOME] == L.RUNNING and s[L.COL_DECK_LEN] == 0:
        size = s[L.METER_LEN]
        if size == 1:  # R5.4
            s[L.OUTCOME] = _L6
            return
        for k in range(size - 1):
            s[L.METER + k] = s[L.METER + k + 1]
        s[L.METER_LEN] = size - 1
        s[L.COL_DISCARD_LEN] = 0
        s[L.ROW_DISCARD_LEN] = 0
        next_decks(s, rng)


@jit
def _lowest_bit(bits: int) -> int:
    a = 0
    while not bits >> a & 1:
        a += 1
    return a


@jit
def _advance(s: np.ndarray, rng: np.ndarray) -> None:
    """Everything that needs no decision: one-choice sub-steps, floods, turn ends."""
    while s[L.OUTCOME] == L.RUNNING:
        if s[L.PENDING] != L.NO_PENDING:
            bits = legal_bits(s)
            if bits & (bits - 1):  # more than one choice: a decision
                return
            _sub_decision(s, _lowest_bit(bits))
        elif s[L.FLOOD_OPEN]:
            _close_flood(s, rng)
        elif s[L.IN_FLOOD]:
            if s[L.FLOODS_LEFT]:
                _flood(s)
            else:
                s[L.IN_FLOOD] = 0
                s[L.ACTIVE] = (s[L.ACTIVE] + 1) % s[L.FIGURES]
                s[L.ACTIONS_LEFT] = ACTIONS_PER_TURN
                s[L.TURN] += 1
                return
        elif s[L.ACTIONS_LEFT] <= 0:
            s[L.IN_FLOOD] = 1  # R5.1
            s[L.FLOODS_LEFT] = s[L.METER]
        else:
            return


@jit
def apply(s: np.ndarray, a: int, rng: np.ndarray) -> bool:
    """Apply the decider's action and all that follows it without a decision (``State.apply``).

    An action that is not legal ends the game as ``illegal`` and changes nothing else;
    returns whether the action was legal.
    """
    if not 0 <= a < A.N_ACTIONS or not legal_bits(s) >> a & 1:
        if s[L.OUTCOME] == L.RUNNING:
            s[L.OUTCOME] = L.ILLEGAL
        return False
    if s[L.PENDING] == L.NO_PENDING:
        _turn_action(s, a)
    else:
        _sub_decision(s, a)
    _advance(s, rng)
    return True


@jit
def new_game(s: np.ndarray, layout: np.ndarray, rng: np.ndarray) -> None:
    """Set up a game (R2) in a row whose config, meter and scripts are already written.

    ``layout``: 25 card ids with -1 for the places dealt at random from the cards not named
    (the centre is always the helicopter).
    """
    used = np.zeros(25, dtype=np.bool_)
    free = np.empty(24, dtype=np.int32)
    open_places = np.empty(25, dtype=np.int32)
    for p in range(25):
        c = HELICOPTER if p == CENTRE else layout[p]
        s[L.CARD + p] = c
        if c >= 0:
            used[c] = True
    n_free = 0
    for c in range(24):
        if not used[c]:
            free[n_free] = c
            n_free += 1
    n_open = 0
    for p in range(25):
        if s[L.CARD + p] < 0:
            open_places[n_open] = p
            n_open += 1
    shuffle(free, n_free, rng)
    for k in range(n_open):
        s[L.CARD + open_places[k]] = free[k]
    for p in range(25):
        s[L.STATUS + p] = HIDDEN
    s[L.STATUS + CENTRE] = DRY  # R2.1
    for f in range(L.MAX_FIGURES):
        s[L.POS + f] = CENTRE if f < s[L.FIGURES] else 0
        s[L.SALVAGE_LEN + f] = 0
    for suit in range(4):
        s[L.UNDER_LEN + suit] = 0
        s[L.LIFTED + suit] = 0
        s[L.REMAINING + suit] = 5
    s[L.SET_ASIDE_LEN] = 0
    s[L.BOX_LEN] = 0
    s[L.COL_DISCARD_LEN] = 0
    s[L.ROW_DISCARD_LEN] = 0
    next_decks(s, rng)
    s[L.ACTIVE] = 0
    s[L.ACTIONS_LEFT] = ACTIONS_PER_TURN
    s[L.TURN] = 1
    s[L.FLOODS_LEFT] = 0
    s[L.IN_FLOOD] = 0
    s[L.FLOOD_OPEN] = 0
    s[L.FLOOD_SANK] = 0
    s[L.ESC_LEN] = 0
    _clear_pending(s)
    s[L.OUTCOME] = L.RUNNING
