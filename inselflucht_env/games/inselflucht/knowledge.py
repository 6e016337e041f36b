"""What a player may know (R9), as fast queries on a live engine ``State``.

Agents get the true engine state for speed, so the no-leak rule is a discipline: **this
module is the only agent code that reads ``State.card``**, and it reads it only on face-up
places (dry or flooded, R3.3). No agent code reads ``col_deck``, ``row_deck``,
``script_col`` or ``script_row`` (the undrawn flood order) at all, and none writes the
state: ``determinize.py`` asks ``State.with_hidden`` for a copy with those replaced.
``tests/test_agents.py`` greps the agent sources to keep it that way, and checks that
agents act identically on states that differ only in hidden facts. The public deductions
shared with the observation and the renderers (``unseen_cards``, ``floods_to_go``) live in
``public.py`` and are re-exported here.

Public fields the agents may read directly: ``status``, ``pos``, ``salvage``,
``under_king``, ``lifted``, ``remaining``, ``meter``, ``col_discard``, ``row_discard``,
``box``, ``set_aside``, ``active``, ``actions_left``, ``pending``, ``config``, ``turn``,
``outcome`` and ``legal_actions()`` (legality never depends on a hidden card).
"""

from __future__ import annotations

import itertools

from inselflucht_env.games.inselflucht.rules import actions as A
from inselflucht_env.games.inselflucht.rules.board import (
    BEYOND,
    CENTRE,
    N_PLACES,
    NEIGHBOUR,
    column_row,
    reachable,
)
from inselflucht_env.games.inselflucht.rules.cards import HELICOPTER, KING, suit_of
from inselflucht_env.games.inselflucht.rules.config import FLOODS_PER_PASS
from inselflucht_env.games.inselflucht.rules.engine import (
    DRY,
    FLOODED,
    HIDDEN,
    SEA,
    State,
    sea_mask,
)
from inselflucht_env.games.inselflucht.rules.public import floods_to_go, unseen_cards

assert A.MOVE == 0 and A.SWIM == 4  # paths_sea() writes first actions as MOVE + d / SWIM + d

INF = 10**6
UNKNOWN = -2  # visible_cards() for a hidden place
NONE = -1  # visible_cards() for sea
HELI = CENTRE  # the helicopter never moves (R2.1)


def visible_cards(state: State) -> list[int]:
    """Per place: the card if face up, ``UNKNOWN`` if hidden, ``NONE`` on sea."""
    st = state.status
    card = state.card
    return [
        card[p] if st[p] == DRY or st[p] == FLOODED else (UNKNOWN if st[p] == HIDDEN else NONE)
        for p in range(N_PLACES)
    ]


def king_places(vis: list[int]) -> list[int]:
    """Per suit: the place of the face-up king, or -1 (hidden, or gone)."""
    out = [-1, -1, -1, -1]
    for p in range(N_PLACES):
        c = vis[p]
        if KING <= c < HELICOPTER:  # is_king, inlined: 25 places on every decision
            out[suit_of(c)] = p
    return out


def pass_left(state: State) -> tuple[list[int], list[int]]:
    """Columns and rows (1-5) not yet drawn in the current pass (public discard piles)."""
    cd, rd = state.col_discard, state.row_discard
    return [c for c in range(1, 6) if c not in cd], [r for r in range(1, 6) if r not in rd]


def hit_probability(state: State, p: int, floods: int) -> float:
    """P(place p is hit by at least one of the next ``floods`` floods), from public facts.

    In a pass the undrawn columns and rows pair up as a uniform random bijection, so with m
    draws left a place in an undrawn column and row is hit by a given draw with prob. 1/m²;
    a fresh pass hits each place once with prob. 1/5 (R5.2, R5.3).
    """
    if floods <= 0:
        return 0.0
    m = FLOODS_PER_PASS - len(state.col_discard)
    c, r = column_row(p)
    now = min(floods, m)
    miss = 1.0
    if c not in state.col_discard and r not in state.row_discard:
        miss = 1.0 - now / (m * m)
    rest = floods - now
    while rest > 0:
        k = min(rest, FLOODS_PER_PASS)
        miss *= 1.0 - k / 25.0
        rest -= k
    return 1.0 - miss


def _flood_phases(meter: list[int], drawn: int):
    """Floods of each flood phase still to come (fixed by the level at its start, R5.1),
    up to and including the phase whose rise past the last meter card is L6 (R5.4)."""
    i, in_pass = 0, FLOODS_PER_PASS - drawn
    while True:
        k = meter[i]
        yield k
        while k > 0:
            step = min(k, in_pass)
            k -= step
            in_pass -= step
            if in_pass == 0:
                if i == len(meter) - 1:
                    return
                i += 1
                in_pass = FLOODS_PER_PASS


def phase_floods(state: State, phases: int) -> int:
    """Floods in the next ``phases`` flood phases (each fixed by the level at its start)."""
    return sum(itertools.islice(_flood_phases(state.meter, len(state.col_discard)), phases))


_TURNS_CACHE: dict[tuple[tuple[int, ...], int], int] = {}


def turns_left(state: State) -> int:
    """Action phases still to come, the current one included, before the L6 flood phase."""
    key = (tuple(state.meter), len(state.col_discard))
    hit = _TURNS_CACHE.get(key)
    if hit is None:
        hit = _TURNS_CACHE[key] = sum(1 for _ in _flood_phases(state.meter, key[1]))
    return hit


# Per place: (direction k, neighbour, swim destination or -1), only neighbours on the grid.
_STEPS = tuple(
    tuple((k, NEIGHBOUR[p][k], BEYOND[p][k]) for k in range(4) if NEIGHBOUR[p][k] >= 0)
    for p in range(N_PLACES)
)
_PATH_CACHE: dict[tuple[int, int, int], tuple[tuple[int, ...], tuple[int, ...]]] = {}


def paths_sea(sea: int, start: int, swim_cost: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Action costs from ``start`` to every field by moves and swims, and the first action.

    ``sea`` is the bit set of sea places (``sea_mask(state.status)``), the only public fact
    used (R4.2, R4.3). ``first[q]`` is the move or swim action index (``actions.MOVE + d``
    / ``SWIM + d``) that starts a cheapest path to q, -1 for the start itself or
    unreachable places. Memoized on the set of sea places.
    """
    key = (sea, start, swim_cost)
    hit = _PATH_CACHE.get(key)
    if hit is not None:
        return hit
    dist = [INF] * N_PLACES
    first = [-1] * N_PLACES
    dist[start] = 0
    buckets: list[list[int]] = [[start], [], []]
    d = 0
    while d < len(buckets):
        for p in buckets[d]:
            if dist[p] != d:
                continue
            fp = first[p]
            for k, q, q2 in _STEPS[p]:
                if not sea >> q & 1:
                    if d + 1 < dist[q]:
                        dist[q] = d + 1
                        first[q] = k if fp < 0 else fp  # MOVE + k, MOVE == 0
                        while len(buckets) <= d + 1:
                            buckets.append([])
                        buckets[d + 1].append(q)
                elif q2 >= 0 and not sea >> q2 & 1:
                    nd = d + swim_cost
                    if nd < dist[q2]:
                        dist[q2] = nd
                        first[q2] = 4 + k if fp < 0 else fp  # SWIM + k, SWIM == 4
                        while len(buckets) <= nd:
                            buckets.append([])
                        buckets[nd].append(q2)
        d += 1
    if len(_PATH_CACHE) > 200_000:
        _PATH_CACHE.clear()
    out = (tuple(dist), tuple(first))
    _PATH_CACHE[key] = out
    return out


_REACH_CACHE: dict[tuple[int, int], int] = {}


def reachable_from(fields: int, start: int) -> int:
    """``board.reachable`` from one place, memoized."""
    key = (fields, start)
    hit = _REACH_CACHE.get(key)
    if hit is None:
        if len(_REACH_CACHE) > 200_000:
            _REACH_CACHE.clear()
        hit = _REACH_CACHE[key] = reachable(fields, 1 << start)
    return hit


__all__ = [
    "DRY",
    "FLOODED",
    "HIDDEN",
    "SEA",
    "HELI",
    "INF",
    "UNKNOWN",
    "NONE",
    "visible_cards",
    "unseen_cards",
    "king_places",
    "pass_left",
    "hit_probability",
    "floods_to_go",
    "phase_floods",
    "turns_left",
    "paths_sea",
    "sea_mask",
    "reachable_from",
]
