"""The heuristic team policy on a compiled state row: a Numba twin of ``heuristic.py``.

The compiled search plays its rollouts with the heuristic, thousands of decisions per
search, and the Python ``HeuristicAgent`` costs tens of microseconds a decision; ``act``
makes the same decision on a ``layout`` row without the interpreter (``nopython``, no GIL,
cached). It is a line-by-line translation of ``games/inselflucht/heuristic.py`` with its
default weights (the ``Weights`` defaults and the module's ``ESCAPE_*``, ``PAY_*``,
``IN_PLACE_*``, ``ROUTE_*`` constants are read from that module at import): the same
scorers in the same order, the same tie-breaks (a target must beat the best so far; sorted
candidates in the same order) and the same float arithmetic in the same order, so that the
float64 scores and hence the choices are identical. The memoized searches of
``knowledge.py`` (``paths_sea``, ``reachable_from``, ``turns_left``) are recomputed.

Only public facts are read (R9, as ``knowledge.py`` reads them): the card of a face-up
place, the hands, the piles under the kings, the box and the set-aside kings, the meter
and the flood *discards*; never the card of a hidden place or the undrawn flood decks.

``tests/test_compiled_heuristic.py`` holds ``act`` to the Python reference: the recorded
games of ``test_heuristic_unchanged`` and ten thousand fresh states of every setting. The
weights are baked into the compiled code, and Numba's cache is keyed on this file only: if
``DEFAULT_WEIGHTS`` change, clear the cache (``*.nbi``/``*.nbc`` under ``compiled/``);
``baked_weights()`` reports what the cached code uses, and the tests compare it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from inselflucht_env.compiled import layout as L
from inselflucht_env.compiled.convert import to_row
from inselflucht_env.compiled.rules import jit, legal_bits, reachable
from inselflucht_env.games.inselflucht import heuristic as H
from inselflucht_env.games.inselflucht.rules import actions as A
from inselflucht_env.games.inselflucht.rules.board import (
    AROUND,
    BEYOND,
    CENTRE,
    NEIGHBOUR,
    SIZE,
    column_row,
)
from inselflucht_env.games.inselflucht.rules.cards import HELICOPTER, KING, N_LAND
from inselflucht_env.games.inselflucht.rules.config import ACTIONS_PER_TURN, FLOODS_PER_PASS
from inselflucht_env.games.inselflucht.rules.engine import DRY, FLOODED, HIDDEN, SEA

if TYPE_CHECKING:
    from inselflucht_env.games.inselflucht.rules.engine import State

# ---- the Python heuristic's weights and constants, read once (compiled in as constants)
_W = H.DEFAULT_WEIGHTS
W_ACTION_COST = float(_W["action_cost"])
W_LOSS = float(_W["loss"])
W_GUARD_BASE = float(_W["guard_base"])
W_FAR_GUARD = float(_W["far_guard"])
W_GUARD_TURNS = float(_W["guard_turns"])
W_SHORE_LAND = float(_W["shore_land"])
W_SHORE_WANTED = float(_W["shore_wanted"])
W_LIFT = float(_W["lift"])
W_SALVAGE = float(_W["salvage"])
W_SALVAGE_PAIR = float(_W["salvage_pair"])
W_SALVAGE_OTHER = float(_W["salvage_other"])
W_SALVAGE_SHORT = float(_W["salvage_short"])
W_SALVAGE_FLOODED = float(_W["salvage_flooded"])
W_SALVAGE_EDGE = float(_W["salvage_edge"])
W_SALVAGE_ROUTE = float(_W["salvage_route"])
W_EXPLORE = float(_W["explore"])
W_EXPLORE_KING = float(_W["explore_king"])
W_EXPLORE_LAND = float(_W["explore_land"])
W_EXPLORE_SPREAD = float(_W["explore_spread"])
W_GIVE = float(_W["give"])
W_MEET = float(_W["meet"])
W_HOME = float(_W["home"])
W_IDLE_HOME = float(_W["idle_home"])
W_DEADLINE = float(_W["deadline"])
W_HOME_SLACK = float(_W["home_slack"])
WEIGHT_NAMES = tuple(_W)  # the order of ``baked_weights()``

WAIT = int(H.WAIT)
IDLE_HOME_STEP = float(H.IDLE_HOME_STEP)
SALVAGE_ROUTE_CHECKS = int(H.SALVAGE_ROUTE_CHECKS)
ROUTE_KING = float(H.ROUTE_KING)
ROUTE_FIGURE = float(H.ROUTE_FIGURE)
ROUTE_HIDDEN = float(H.ROUTE_HIDDEN)
ESCAPE_DISTANCE_CAP = int(H.ESCAPE_DISTANCE_CAP)
ESCAPE_HELI = float(H.ESCAPE_HELI)
ESCAPE_HELI_HOME = float(H.ESCAPE_HELI_HOME)
ESCAPE_KING = float(H.ESCAPE_KING)
ESCAPE_FLOODED = float(H.ESCAPE_FLOODED)
ESCAPE_HIDDEN = float(H.ESCAPE_HIDDEN)
ESCAPE_NEIGHBOUR = float(H.ESCAPE_NEIGHBOUR)
PAY_SPENT = float(H.PAY_SPENT)
PAY_SHORT = float(H.PAY_SHORT)
PAY_SPARE = float(H.PAY_SPARE)
PAY_SPARE_PER_CARD = float(H.PAY_SPARE_PER_CARD)
IN_PLACE_CRITICAL = float(H.IN_PLACE_CRITICAL)
IN_PLACE_WANTED = float(H.IN_PLACE_WANTED)
IN_PLACE_LAND = float(H.IN_PLACE_LAND)
IN_PLACE_OTHER = float(H.IN_PLACE_OTHER)

INF = int(H.INF)
HELI = int(H.HELI)
UNKNOWN, NONE = -2, -1  # ``visible_cards`` of a hidden place, of sea
assert HELI == CENTRE and A.MOVE == 0 and A.SWIM == 4  # first steps are MOVE + d / SWIM + d

# ---- board tables (``ORTHOGONAL[q]`` is ``NEIGHBOUR[q]`` without the -1 entries)
_NEIGHBOUR = np.array(NEIGHBOUR, dtype=np.int64)
_BEYOND = np.array(BEYOND, dtype=np.int64)
_AROUND = np.array(AROUND, dtype=np.int64)
_COLUMN = np.array([column_row(p)[0] for p in range(25)], dtype=np.int64)
_ROW = np.array([column_row(p)[1] for p in range(25)], dtype=np.int64)
_BORDER = np.array(
    [c in (1, SIZE) or r in (1, SIZE) for c, r in map(column_row, range(25))], dtype=np.bool_
)
_ALL = (1 << 25) - 1
_BUCKETS = 64  # distances stay below 2 * 24 (a swim costs at most 2)
_NODES = 128  # bucket entries: one per improvement, at most 4 per place and the start
_MANY = 1 << 30  # "all phases" for ``_flood_phases``


# ---------------------------------------------------------------- public facts (knowledge)
@jit
def _land_suit(card: int) -> int:
    return card // 5


@jit
def paths_sea(sea: int, start: int, swim_cost: int, dist: np.ndarray, first: np.ndarray) -> None:
    """``knowledge.paths_sea`` into ``dist``/``first``: the same bucket queue (Dial's
    algorithm, each bucket in the order of its entries), so ties pick the same first step."""
    for q in range(25):
        dist[q] = INF
        first[q] = -1
    dist[start] = 0
    work = np.empty(2 * _BUCKETS + 2 * _NODES, dtype=np.int64)  # one allocation, four lists
    head = work[:_BUCKETS]
    tail = work[_BUCKETS : 2 * _BUCKETS]
    place = work[2 * _BUCKETS : 2 * _BUCKETS + _NODES]
    nxt = work[2 * _BUCKETS + _NODES :]
    head[:] = -1
    place[0] = start
    nxt[0] = -1
    head[0] = tail[0] = 0
    nodes = 1
    top = 1  # buckets in use
    d = 0
    while d < top:
        e = head[d]
        while e >= 0:
            p = place[e]
            e = nxt[e]
            if dist[p] != d:
                continue
            fp = first[p]
            for k in range(4):
                q = _NEIGHBOUR[p, k]
                if q < 0:
                    continue
                nd = -1
                to = -1
                if not (sea >> q) & 1:
                    if d + 1 < dist[q]:
                        nd, to = d + 1, q
                        first[q] = k if fp < 0 else fp
                else:
                    q2 = _BEYOND[p, k]
                    if q2 >= 0 and not (sea >> q2) & 1 and d + swim_cost < dist[q2]:
                        nd, to = d + swim_cost, q2
                        first[q2] = 4 + k if fp < 0 else fp
                if to >= 0:
                    dist[to] = nd
                    place[nodes] = to
                    nxt[nodes] = -1
                    if head[nd] < 0:
                        head[nd] = nodes
                    else:
                        nxt[tail[nd]] = nodes
                    tail[nd] = nodes
                    nodes += 1
                    if nd + 1 > top:
                        top = nd + 1
        d += 1


@jit
def _flood_phases(s: np.ndarray, phases: int) -> tuple[int, int]:
    """``knowledge._flood_phases`` cut after ``phases`` phases: (phases, floods) counted."""
    size = s[L.METER_LEN]
    i = 0
    in_pass = FLOODS_PER_PASS - s[L.COL_DISCARD_LEN]
    count = 0
    total = 0
    while count < phases:
        k = s[L.METER + i]
        count += 1
        total += k
        if count >= phases:
            break
        over = False
        while k > 0:
            step = min(k, in_pass)
            k -= step
            in_pass -= step
            if in_pass == 0:
                if i == size - 1:
                    over = True
                    break
                i += 1
                in_pass = FLOODS_PER_PASS
        if over:
            break
    return count, total


@jit
def _phase_floods(s: np.ndarray, phases: int) -> int:
    """``knowledge.phase_floods``: floods in the next ``phases`` flood phases."""
    return _flood_phases(s, phases)[1]


@jit
def _turns_left(s: np.ndarray) -> int:
    """``knowledge.turns_left``: action phases still to come before the L6 flood phase."""
    return _flood_phases(s, _MANY)[0]


@jit
def _hit_probability(s: np.ndarray, p: int, floods: int) -> float:
    """``knowledge.hit_probability`` from the public discard piles."""
    if floods <= 0:
        return 0.0
    drawn = s[L.COL_DISCARD_LEN]
    m = FLOODS_PER_PASS - drawn
    c = _COLUMN[p]
    r = _ROW[p]
    now = min(floods, m)
    miss = 1.0
    c_drawn = False
    for k in range(drawn):
        if s[L.COL_DISCARD + k] == c:
            c_drawn = True
    r_drawn = False
    for k in range(s[L.ROW_DISCARD_LEN]):
        if s[L.ROW_DISCARD + k] == r:
            r_drawn = True
    if not c_drawn and not r_drawn:
        miss = 1.0 - now / (m * m)
    rest = floods - now
    while rest > 0:
        k = min(rest, FLOODS_PER_PASS)
        miss *= 1.0 - k / 25.0
        rest -= k
    return 1.0 - miss


@jit
def _visible_cards(s: np.ndarray, vis: np.ndarray) -> None:
    """``knowledge.visible_cards``: the card of a face-up place, else UNKNOWN or NONE."""
    for p in range(25):
        st = s[L.STATUS + p]
        if st == DRY or st == FLOODED:
            vis[p] = s[L.CARD + p]
        elif st == HIDDEN:
            vis[p] = UNKNOWN
        else:
            vis[p] = NONE


@jit
def _king_places(vis: np.ndarray, kings: np.ndarray) -> None:
    """``knowledge.king_places``: per suit the face-up king's place, or -1."""
    for k in range(4):
        kings[k] = -1
    for p in range(25):
        c = vis[p]
        if KING <= c < HELICOPTER:
            kings[c - KING] = p


@jit
def _unseen(s: np.ndarray, vis: np.ndarray, unseen: np.ndarray) -> None:
    """``public.unseen_cards`` as a flag per island card (0-23): not face up, in a hand,
    under a king, in the box or set aside (R9)."""
    seen = np.zeros(25, dtype=np.bool_)
    for p in range(25):
        if vis[p] >= 0:
            seen[vis[p]] = True
    for g in range(s[L.FIGURES]):
        for k in range(s[L.SALVAGE_LEN + g]):
            seen[s[L.SALVAGE + g * L.MAX_SALVAGE + k]] = True
    for suit in range(4):
        for k in range(s[L.UNDER_LEN + suit]):
            seen[s[L.UNDER + suit * L.MAX_UNDER + k]] = True
    for k in range(s[L.BOX_LEN]):
        seen[s[L.BOX + k]] = True
    for k in range(s[L.SET_ASIDE_LEN]):
        seen[s[L.SET_ASIDE + k]] = True
    for c in range(24):
        unseen[c] = not seen[c]


@jit
def _sea_mask(s: np.ndarray) -> int:
    sea = 0
    for p in range(25):
        if s[L.STATUS + p] == SEA:
            sea |= 1 << p
    return sea


@jit
def _hand_counts(s: np.ndarray, f: int, out: np.ndarray) -> None:
    """``heuristic._hand_counts``: figure f's cards per suit."""
    for k in range(4):
        out[k] = 0
    at = L.SALVAGE + f * L.MAX_SALVAGE
    for k in range(s[L.SALVAGE_LEN + f]):
        out[_land_suit(s[at + k])] += 1


@jit
def _suit_cards(s: np.ndarray, f: int, suit: int) -> int:
    """Figure f's cards of ``suit`` (one count of ``heuristic._hand_counts``)."""
    at = L.SALVAGE + f * L.MAX_SALVAGE
    count = 0
    for k in range(s[L.SALVAGE_LEN + f]):
        if _land_suit(s[at + k]) == suit:
            count += 1
    return count


@jit
def _give_count(s: np.ndarray, giver: int, receiver: int, suit: int) -> int:
    """How many cards of ``suit`` ``heuristic.give_plan`` hands from giver to receiver."""
    n = s[L.PER_TREASURE]
    if s[L.LIFTED + suit] or s[L.REMAINING + suit] < n:
        return 0
    g = _suit_cards(s, giver, suit)
    r = _suit_cards(s, receiver, suit)
    if not g or not r or r >= n or g >= n:
        return 0
    return min(g, n - r)


@jit
def _give_plan(s: np.ndarray, giver: int, receiver: int, plan: np.ndarray) -> int:
    """``heuristic.give_plan`` into ``plan``: the suits (with repeats) the giver should hand
    over (R4.6); returns how many."""
    size = 0
    for suit in range(4):
        for _ in range(_give_count(s, giver, receiver, suit)):
            plan[size] = suit
            size += 1
    return size


@jit
def _plan_size(s: np.ndarray, giver: int, receiver: int) -> int:
    """The length of ``_give_plan`` (nothing written)."""
    size = 0
    for suit in range(4):
        size += _give_count(s, giver, receiver, suit)
    return size


# ---------------------------------------------------------------- a turn decision
@jit
def _consider(best: np.ndarray, choice: np.ndarray, bits: int, score: float, action: int) -> None:
    """``_Turn.consider``: keep ``action`` if it beats the best so far (ties: the earlier);
    a swim the actions left cannot pay for becomes WAIT."""
    if score > best[0]:
        if action >= 0 and (bits >> action) & 1:
            best[0] = score
            choice[0] = action
        elif A.SWIM <= action < A.SWIM + 4:
            best[0] = score
            choice[0] = WAIT


@jit
def _stand_cost(st: np.ndarray, dist: np.ndarray, q: int, allow_on: bool) -> tuple[int, int]:
    """``_Turn.stand_cost``: (cost, place) of the cheapest place to act on q from."""
    bd, bp = (dist[q], q) if allow_on else (INF, -1)
    for k in range(4):
        r = _NEIGHBOUR[q, k]
        if r >= 0 and st[r] != SEA and dist[r] < bd:
            bd, bp = dist[r], r
    return bd, bp


@jit
def _direction(p: int, q: int) -> int:
    """``NEIGHBOUR[p].index(q)``."""
    for k in range(4):
        if _NEIGHBOUR[p, k] == q:
            return k
    return -1


@jit
def _shore(p: int, q: int) -> int:
    """``_Turn.shore``: the shore-up action from p onto q (here or next door)."""
    return A.SHORE_HERE if q == p else A.SHORE + _direction(p, q)


@jit
def _other_dist(
    s: np.ndarray, g: int, sea: int, sc: int, odist: np.ndarray, done: np.ndarray
) -> np.ndarray:
    """``_Turn.other_dist``: figure g's action distances, computed once per decision."""
    if not done[g]:  # the last row of ``odist`` takes the first steps, not needed here
        paths_sea(sea, s[L.POS + g], sc, odist[g], odist[odist.shape[0] - 1])
        done[g] = True
    return odist[g]


@jit
def _turn(s: np.ndarray, bits: int) -> int:
    """``HeuristicAgent._turn``: take off, lift, else the best target of the scorers."""
    if (bits >> A.TAKE_OFF) & 1:
        return A.TAKE_OFF
    if (bits >> A.LIFT) & 1:
        return A.LIFT
    # ---- _Turn.__init__
    n = s[L.PER_TREASURE]
    sc = s[L.SWIM_COST]
    f = s[L.ACTIVE]
    n_fig = s[L.FIGURES]
    p = s[L.POS + f]
    left = s[L.ACTIONS_LEFT]
    st = s[L.STATUS : L.STATUS + 25]
    lifted = s[L.LIFTED : L.LIFTED + 4]
    vis = np.empty(25, dtype=np.int64)
    _visible_cards(s, vis)
    kings = np.empty(4, dtype=np.int64)
    _king_places(vis, kings)
    counts = np.zeros((L.MAX_FIGURES, 4), dtype=np.int64)
    for g in range(n_fig):
        _hand_counts(s, g, counts[g])
    mine = counts[f]
    team = np.zeros(4, dtype=np.int64)
    short = np.empty(4, dtype=np.bool_)
    for suit in range(4):
        for g in range(n_fig):
            team[suit] += counts[g, suit]
        short[suit] = s[L.REMAINING + suit] < n
    sea = _sea_mask(s)
    dist = np.empty(25, dtype=np.int64)
    first = np.empty(25, dtype=np.int64)
    paths_sea(sea, p, sc, dist, first)
    odist = np.empty((L.MAX_FIGURES + 1, 25), dtype=np.int64)  # + a scratch row
    done = np.zeros(L.MAX_FIGURES, dtype=np.bool_)
    my_turns = -(-_turns_left(s) // n_fig)
    home_turns = -(-(dist[HELI] + 1) // ACTIONS_PER_TURN) if p != HELI else 0
    deadline = my_turns - home_turns <= W_HOME_SLACK
    roam = 0.0 if deadline else 1.0
    best = np.zeros(1, dtype=np.float64)  # ending the turn scores 0
    choice = np.full(1, A.END_TURN, dtype=np.int64)

    _guard(
        s,
        bits,
        st,
        lifted,
        kings,
        dist,
        first,
        odist,
        done,
        sea,
        sc,
        f,
        n_fig,
        p,
        left,
        best,
        choice,
    )
    _shore_land(bits, st, vis, lifted, team, n, p, best, choice)
    _lift(bits, lifted, kings, mine, short, dist, first, n, p, best, choice)
    _salvage(
        s,
        bits,
        st,
        vis,
        lifted,
        kings,
        counts,
        mine,
        team,
        short,
        dist,
        first,
        sea,
        sc,
        n,
        f,
        n_fig,
        p,
        roam,
        best,
        choice,
    )
    _give(s, bits, dist, first, f, n_fig, p, best, choice)
    _explore(
        s,
        bits,
        st,
        vis,
        lifted,
        team,
        short,
        dist,
        first,
        odist,
        done,
        sea,
        sc,
        n,
        f,
        n_fig,
        roam,
        best,
        choice,
    )
    _head_home(bits, lifted, dist, first, p, deadline, best, choice)

    if choice[0] == WAIT:
        return _shore_in_place(s, bits, vis, team, n, p)
    return choice[0]


@jit
def _guard(
    s: np.ndarray,
    bits: int,
    st: np.ndarray,
    lifted: np.ndarray,
    kings: np.ndarray,
    dist: np.ndarray,
    first: np.ndarray,
    odist: np.ndarray,
    done: np.ndarray,
    sea: int,
    sc: int,
    f: int,
    n_fig: int,
    p: int,
    left: int,
    best: np.ndarray,
    choice: np.ndarray,
) -> None:
    """``heuristic._guard``: shore up a flooded unlifted king or the helicopter."""
    flooded = np.empty(5, dtype=np.int64)
    n_flooded = 0
    for suit in range(4):
        q = kings[suit]
        if q >= 0 and not lifted[suit] and st[q] == FLOODED:
            flooded[n_flooded] = q
            n_flooded += 1
    if st[HELI] == FLOODED:
        flooded[n_flooded] = HELI
        n_flooded += 1
    if n_flooded == 0:
        return
    alone = _phase_floods(s, max(1, int(n_fig * W_GUARD_TURNS)))
    for i in range(n_flooded):
        q = flooded[i]
        cost, stand = _stand_cost(st, dist, q, True)
        if cost >= INF:
            continue
        horizon = alone
        for k in range(1, n_fig):
            dg = _other_dist(s, (f + k) % n_fig, sea, sc, odist, done)
            reach = dg[q]
            for j in range(4):
                r = _NEIGHBOUR[q, j]
                if r >= 0 and st[r] != SEA and dg[r] < reach:
                    reach = dg[r]
            if reach + 1 <= ACTIONS_PER_TURN:
                horizon = _phase_floods(s, k)
                break
        risk = _hit_probability(s, q, horizon)
        value = W_GUARD_BASE + W_LOSS * risk * (1.0 if cost + 1 <= left else W_FAR_GUARD)
        action = _shore(p, q) if stand == p else first[stand]
        _consider(best, choice, bits, value - W_ACTION_COST * (cost + 1), action)


@jit
def _shore_land(
    bits: int,
    st: np.ndarray,
    vis: np.ndarray,
    lifted: np.ndarray,
    team: np.ndarray,
    n: int,
    p: int,
    best: np.ndarray,
    choice: np.ndarray,
) -> None:
    """``heuristic._shore_land``: a flooded land card here or next door."""
    for j in range(-1, 4):
        q = p if j < 0 else _NEIGHBOUR[p, j]
        if q < 0:
            continue
        if st[q] != FLOODED or not (0 <= vis[q] < N_LAND):
            continue
        suit = _land_suit(vis[q])
        value = W_SHORE_WANTED if (not lifted[suit] and team[suit] < n) else W_SHORE_LAND
        _consider(best, choice, bits, value - W_ACTION_COST, _shore(p, q))


@jit
def _lift(
    bits: int,
    lifted: np.ndarray,
    kings: np.ndarray,
    mine: np.ndarray,
    short: np.ndarray,
    dist: np.ndarray,
    first: np.ndarray,
    n: int,
    p: int,
    best: np.ndarray,
    choice: np.ndarray,
) -> None:
    """``heuristic._lift``: walk to a face-up king the figure can pay for."""
    held = mine[0] + mine[1] + mine[2] + mine[3]
    for suit in range(4):
        q = kings[suit]
        if q < 0 or lifted[suit]:
            continue
        can_pay = mine[suit] >= n or (short[suit] and held >= n + 1)
        if can_pay and dist[q] < INF:
            action = A.LIFT if q == p else first[q]
            _consider(best, choice, bits, W_LIFT - W_ACTION_COST * (dist[q] + 1), action)


@jit
def _short_suits_want_cards(
    lifted: np.ndarray, short: np.ndarray, team: np.ndarray, n: int
) -> bool:
    """``heuristic._short_suits_want_cards``."""
    need = 0
    spare = 0
    for suit in range(4):
        if lifted[suit]:
            spare += team[suit]
        elif short[suit]:
            need += n + 1
            spare += team[suit]
        else:
            spare += max(0, team[suit] - n)
    return need > spare


@jit
def _salvage(
    s: np.ndarray,
    bits: int,
    st: np.ndarray,
    vis: np.ndarray,
    lifted: np.ndarray,
    kings: np.ndarray,
    counts: np.ndarray,
    mine: np.ndarray,
    team: np.ndarray,
    short: np.ndarray,
    dist: np.ndarray,
    first: np.ndarray,
    sea: int,
    sc: int,
    n: int,
    f: int,
    n_fig: int,
    p: int,
    roam: float,
    best: np.ndarray,
    choice: np.ndarray,
) -> None:
    """``heuristic._salvage`` (with ``_salvage_candidates``, ``_must_stay_connected`` and
    ``_route_weights``): the best few candidates that cut nothing off (L4)."""
    # ---- _salvage_candidates
    short_wanted = _short_suits_want_cards(lifted, short, team, n)
    c_score = np.empty(25, dtype=np.float64)
    c_place = np.empty(25, dtype=np.int64)
    c_stand = np.empty(25, dtype=np.int64)
    n_c = 0
    for q in range(25):
        c = vis[q]
        if not (0 <= c < N_LAND) or dist[q] >= INF:
            continue
        occupied = False
        for g in range(n_fig):
            if s[L.POS + g] == q:
                occupied = True
        if occupied:
            continue
        suit = _land_suit(c)
        if not lifted[suit] and not short[suit] and team[suit] < n:
            value = W_SALVAGE
            if mine[suit] == n - 1:
                value += W_SALVAGE_PAIR
            for g in range(n_fig):
                if g != f and counts[g, suit] > mine[suit]:
                    value -= W_SALVAGE_OTHER
                    break
        elif short_wanted:
            value = W_SALVAGE_SHORT
        else:
            continue
        if st[q] == FLOODED:
            value += W_SALVAGE_FLOODED
        if _BORDER[q]:
            value += W_SALVAGE_EDGE
        cost, stand = _stand_cost(st, dist, q, False)
        if cost >= INF:
            continue
        score = roam * value - W_ACTION_COST * (cost + 1)
        if score > best[0]:
            c_score[n_c] = score
            c_place[n_c] = q
            c_stand[n_c] = stand
            n_c += 1
    if n_c == 0:
        return
    # ---- sort (score, place, stand) descending: insertion sort, stable like the tuples'
    order = np.empty(n_c, dtype=np.int64)
    for i in range(n_c):
        j = i
        while j > 0:
            o = order[j - 1]
            if c_score[o] > c_score[i] or (c_score[o] == c_score[i] and c_place[o] > c_place[i]):
                break
            order[j] = o
            j -= 1
        order[j] = i
    # ---- _must_stay_connected
    need = 1 << HELI
    unseen_king = False
    for suit in range(4):
        q = kings[suit]
        if q >= 0 and not lifted[suit]:
            need |= 1 << q
        if not lifted[suit] and q < 0:
            unseen_king = True
    for g in range(n_fig):
        need |= 1 << s[L.POS + g]
    if unseen_king:
        for q in range(25):
            if st[q] == HIDDEN:
                need |= 1 << q
    fields = _ALL & ~sea
    base_d = np.empty(25, dtype=np.int64)
    after_d = np.empty(25, dtype=np.int64)
    scratch = np.empty(25, dtype=np.int64)
    have_base = False
    checked = 0
    for i in range(n_c):
        o = order[i]
        score = c_score[o]
        q = c_place[o]
        stand = c_stand[o]
        if score <= best[0] or checked >= SALVAGE_ROUTE_CHECKS:
            break
        if reachable(fields & ~(1 << q), 1 << HELI) & need != need:
            continue
        checked += 1
        if not have_base:
            paths_sea(sea, HELI, sc, base_d, scratch)
            have_base = True
        paths_sea(sea | 1 << q, HELI, sc, after_d, scratch)
        # ---- the route: kings still due, the figures, the hidden places (in that order)
        detour = 0.0
        for suit in range(4):
            r = kings[suit]
            if r >= 0 and not lifted[suit] and r != q and after_d[r] < INF:
                detour = detour + ROUTE_KING * (after_d[r] - base_d[r])
        for g in range(n_fig):
            r = s[L.POS + g]
            if r != q and after_d[r] < INF:
                detour = detour + ROUTE_FIGURE * (after_d[r] - base_d[r])
        for r in range(25):
            if st[r] == HIDDEN and r != q and after_d[r] < INF:
                detour = detour + ROUTE_HIDDEN * (after_d[r] - base_d[r])
        action = A.SALVAGE + _direction(p, q) if stand == p else first[stand]
        _consider(best, choice, bits, score - W_ACTION_COST * W_SALVAGE_ROUTE * detour, action)


@jit
def _give(
    s: np.ndarray,
    bits: int,
    dist: np.ndarray,
    first: np.ndarray,
    f: int,
    n_fig: int,
    p: int,
    best: np.ndarray,
    choice: np.ndarray,
) -> None:
    """``heuristic._give``: hand a split pair over on a shared field, or walk to meet."""
    for k in range(1, n_fig):
        g = (f + k) % n_fig
        if _plan_size(s, f, g) == 0:
            continue
        q = s[L.POS + g]
        if q == p:
            _consider(best, choice, bits, W_GIVE - W_ACTION_COST, A.GIVE + k - 1)
        elif dist[q] < INF:
            _consider(best, choice, bits, W_MEET - W_ACTION_COST * (dist[q] + 1), first[q])


@jit
def _explore(
    s: np.ndarray,
    bits: int,
    st: np.ndarray,
    vis: np.ndarray,
    lifted: np.ndarray,
    team: np.ndarray,
    short: np.ndarray,
    dist: np.ndarray,
    first: np.ndarray,
    odist: np.ndarray,
    done: np.ndarray,
    sea: int,
    sc: int,
    n: int,
    f: int,
    n_fig: int,
    roam: float,
    best: np.ndarray,
    choice: np.ndarray,
) -> None:
    """``heuristic._explore`` (with ``_explore_value``): walk towards a hidden place."""
    n_hidden = 0
    for q in range(25):
        if st[q] == HIDDEN:
            n_hidden += 1
    if n_hidden == 0:
        return
    # ---- _explore_value
    unseen = np.empty(24, dtype=np.bool_)
    _unseen(s, vis, unseen)
    kings_unseen = 0
    for c in range(KING, HELICOPTER):
        if unseen[c] and not lifted[c - KING]:
            kings_unseen += 1
    king_frac = kings_unseen / n_hidden
    lacking = np.zeros(4, dtype=np.int64)
    visible = np.zeros(4, dtype=np.int64)
    for suit in range(4):
        if not lifted[suit] and not short[suit]:
            lacking[suit] = max(0, n - team[suit])
    for q in range(25):
        if 0 <= vis[q] < N_LAND:
            visible[_land_suit(vis[q])] += 1
    land_unseen = 0
    for c in range(N_LAND):
        if unseen[c] and lacking[_land_suit(c)] > visible[_land_suit(c)]:
            land_unseen += 1
    land_frac = land_unseen / n_hidden
    value = roam * (W_EXPLORE + W_EXPLORE_KING * king_frac + W_EXPLORE_LAND * land_frac)
    if value - W_ACTION_COST <= best[0]:
        return
    for k in range(n_fig):
        if k != f:
            _other_dist(s, k, sea, sc, odist, done)
    # the targets sorted best first (ties: the lower place) are considered in turn, and
    # each first step is a legal move or a swim (else WAIT): only the first one counts
    top = -np.inf
    top_q = -1
    for q in range(25):
        if st[q] != HIDDEN:
            continue
        d = dist[q]
        if d >= INF:
            continue
        v = value - W_ACTION_COST * d
        for g in range(n_fig):
            if g != f and odist[g, q] < d:
                v -= W_EXPLORE_SPREAD
                break
        if v > best[0] and v > top:
            top = v
            top_q = q
    if top_q >= 0:
        _consider(best, choice, bits, top, first[top_q])


@jit
def _head_home(
    bits: int,
    lifted: np.ndarray,
    dist: np.ndarray,
    first: np.ndarray,
    p: int,
    deadline: bool,
    best: np.ndarray,
    choice: np.ndarray,
) -> None:
    """``heuristic._head_home``: the helicopter once all is lifted, at the deadline, or idly."""
    d = dist[HELI]
    if p == HELI or d >= INF:
        return
    if lifted[0] and lifted[1] and lifted[2] and lifted[3]:
        _consider(best, choice, bits, W_HOME - W_ACTION_COST * d, first[HELI])
        return
    _consider(best, choice, bits, W_IDLE_HOME - W_ACTION_COST * IDLE_HOME_STEP * d, first[HELI])
    if deadline:
        _consider(best, choice, bits, W_DEADLINE - W_ACTION_COST * d, first[HELI])


@jit
def _shore_in_place(
    s: np.ndarray, bits: int, vis: np.ndarray, team: np.ndarray, n: int, p: int
) -> int:
    """``heuristic._shore_in_place``: shore up the most useful flooded place here or next
    door."""
    best = 0.0
    best_a = A.END_TURN
    for a in range(A.SHORE_HERE, A.SHORE + 4):
        if not (bits >> a) & 1:
            continue
        q = p if a == A.SHORE_HERE else _NEIGHBOUR[p, a - A.SHORE]
        c = vis[q]
        if KING <= c <= HELICOPTER:
            critical = c == HELICOPTER or not s[L.LIFTED + c - KING]
            v = IN_PLACE_CRITICAL if critical else IN_PLACE_OTHER
        elif 0 <= c < N_LAND:
            suit = _land_suit(c)
            v = IN_PLACE_WANTED if not s[L.LIFTED + suit] and team[suit] < n else IN_PLACE_LAND
        else:
            v = IN_PLACE_OTHER
        if v > best:
            best = v
            best_a = a
    return best_a


# ---------------------------------------------------------------- sub-decisions
@jit
def _lowest(bits: int) -> int:
    a = 0
    while not (bits >> a) & 1:
        a += 1
    return a


@jit
def _escape(s: np.ndarray, bits: int) -> int:
    """``HeuristicAgent._escape`` (R5.5): the neighbour nearest the helicopter and the kings
    still to lift, preferring dry, well-connected places."""
    p = s[L.PENDING_ARG]
    sc = s[L.SWIM_COST]
    sea = _sea_mask(s)
    vis = np.empty(25, dtype=np.int64)
    _visible_cards(s, vis)
    kings = np.empty(4, dtype=np.int64)
    _king_places(vis, kings)
    goals = np.empty(4, dtype=np.int64)
    n_goals = 0
    all_lifted = True
    for suit in range(4):
        if kings[suit] >= 0 and not s[L.LIFTED + suit]:
            goals[n_goals] = kings[suit]
            n_goals += 1
        if not s[L.LIFTED + suit]:
            all_lifted = False
    per_heli = ESCAPE_HELI_HOME if all_lifted else ESCAPE_HELI
    dist = np.empty(25, dtype=np.int64)
    scratch = np.empty(25, dtype=np.int64)
    best = -float(INF)
    best_a = _lowest(bits)
    for a in range(A.ESCAPE, A.ESCAPE + 8):
        if not (bits >> a) & 1:
            continue
        q = _AROUND[p, a - A.ESCAPE]
        paths_sea(sea, q, sc, dist, scratch)
        score = -per_heli * min(dist[HELI], ESCAPE_DISTANCE_CAP)
        if n_goals:
            near = dist[goals[0]]
            for i in range(1, n_goals):
                near = min(near, dist[goals[i]])
            score -= ESCAPE_KING * min(near, ESCAPE_DISTANCE_CAP)
        x = s[L.STATUS + q]
        if x == FLOODED:
            score -= ESCAPE_FLOODED
        elif x == HIDDEN:
            score += ESCAPE_HIDDEN
        ways = 0
        for k in range(4):
            r = _NEIGHBOUR[q, k]
            if r >= 0 and s[L.STATUS + r] != SEA:
                ways += 1
        score += ESCAPE_NEIGHBOUR * ways
        if score > best:
            best = score
            best_a = a
    return best_a


@jit
def _give_card(s: np.ndarray, bits: int) -> int:
    """``HeuristicAgent._give_card`` (R4.6): the cards of ``give_plan``, then done."""
    plan = np.empty(L.MAX_SALVAGE, dtype=np.int64)
    size = _give_plan(s, s[L.PENDING_FIG], s[L.PENDING_ARG], plan)
    for i in range(size):
        if (bits >> (A.CARD + plan[i])) & 1:
            return A.CARD + plan[i]
    if (bits >> A.DONE) & 1:
        return A.DONE
    return _lowest(bits)


@jit
def _lift_card(s: np.ndarray, bits: int) -> int:
    """``HeuristicAgent._lift_card`` (R4.7): pay a short-suit lift with the suits the team
    needs least."""
    n = s[L.PER_TREASURE]
    lifting = s[L.PENDING_ARG]
    team = np.zeros(4, dtype=np.int64)
    for g in range(s[L.FIGURES]):
        at = L.SALVAGE + g * L.MAX_SALVAGE
        for k in range(s[L.SALVAGE_LEN + g]):
            team[_land_suit(s[at + k])] += 1
    best = -float(INF)
    best_a = _lowest(bits)
    for a in range(A.CARD, A.CARD + 4):
        if not (bits >> a) & 1:
            continue
        suit = a - A.CARD
        remaining = s[L.REMAINING + suit]
        if s[L.LIFTED + suit] or suit == lifting:
            score = PAY_SPENT + team[suit]
        elif remaining < n:
            score = PAY_SHORT + team[suit]
        else:
            score = PAY_SPARE + PAY_SPARE_PER_CARD * (remaining - 1 - n) + (team[suit] - n)
        if score > best:
            best = score
            best_a = a
    return best_a


# ---------------------------------------------------------------- entry
@jit
def act(s: np.ndarray) -> int:
    """The action ``HeuristicAgent().act`` takes in the state of row ``s`` (the decider's:
    a turn action, an escape, a card to give or to lift with); -1 once the game is over."""
    bits = legal_bits(s)
    if bits == 0:
        return -1
    if bits & (bits - 1) == 0:
        return _lowest(bits)
    kind = s[L.PENDING]
    if kind == L.NO_PENDING:
        return _turn(s, bits)
    if kind == L.PENDING_ESCAPE:
        return _escape(s, bits)
    if kind == L.PENDING_GIVE:
        return _give_card(s, bits)
    return _lift_card(s, bits)


@jit
def baked_weights() -> tuple[float, ...]:
    """The weights the compiled (perhaps cached) code uses, in ``WEIGHT_NAMES`` order."""
    return (
        W_ACTION_COST,
        W_LOSS,
        W_GUARD_BASE,
        W_FAR_GUARD,
        W_GUARD_TURNS,
        W_SHORE_LAND,
        W_SHORE_WANTED,
        W_LIFT,
        W_SALVAGE,
        W_SALVAGE_PAIR,
        W_SALVAGE_OTHER,
        W_SALVAGE_SHORT,
        W_SALVAGE_FLOODED,
        W_SALVAGE_EDGE,
        W_SALVAGE_ROUTE,
        W_EXPLORE,
        W_EXPLORE_KING,
        W_EXPLORE_LAND,
        W_EXPLORE_SPREAD,
        W_GIVE,
        W_MEET,
        W_HOME,
        W_IDLE_HOME,
        W_DEADLINE,
        W_HOME_SLACK,
    )


def heuristic_action(state: State) -> int:
    """``act`` on a reference ``State`` (converted with ``convert.to_row``)."""
    return int(act(to_row(state)))


class CompiledHeuristicAgent(H.HeuristicAgent):
    """``HeuristicAgent(epsilon)`` with its default weights, choosing with ``act``: the same
    choices, the same draws from ``rng`` (a novice's slip), several times faster."""

    def __init__(self, epsilon: float = 0.0) -> None:
        super().__init__(epsilon)

    def _choose(self, state: State, legal: list[int]) -> int:
        return heuristic_action(state)
