"""A hand-written team policy, played as an expert would (the rulebook's "Tipps" and more).

A turn decision of the active figure first takes off (R4.8) or lifts (R4.7) whenever that
is legal. Otherwise the scorers of ``TURN_SCORERS`` each offer *targets*, and the figure
takes the first step towards the best one (or does its action, when already in place):

* ``_guard``: shore up a flooded unlifted king or the helicopter, weighted by the chance
  that the columns and rows still due in this pass (and the next passes) hit it before a
  figure can come back (R5.2, R5.3) -- a second hit is a loss (L1, L2);
* ``_shore_land``: shore up a flooded land card here or next door, above all one of a suit
  the team still needs;
* ``_lift``: walk to a face-up king whose suit the figure can pay for;
* ``_salvage`` (R4.5): matching suits the team still lacks, preferring the card that
  completes the figure's pair, flooded cards (they would sink) and the edge of the island,
  and never a card whose removal cuts a king, the helicopter or an unexplored place off (L4);
* ``_give`` (R4.6): merge a pair split between two figures on one field, or walk to meet;
* ``_explore``: towards unseen kings (spread out: a place a partner is nearer to counts less);
* ``_head_home``: once every treasure is lifted, or when the figure's own turns left (R5.4)
  barely cover the way back; an idle figure drifts towards the helicopter.

Each target scores ``value - action_cost * actions`` where ``actions`` counts the moves,
the swims at their price and the action itself; ending the turn scores 0. The values are
the fields of ``Weights`` (``DEFAULT_WEIGHTS``), tuned on seeds 100000+ (not the harness's
default seeds 0+), and can be overridden one by one: ``HeuristicAgent(lift=70.0)``. When
the way to the best target needs a swim that the actions left cannot pay for, the figure
stays and shores up next to it (``_shore_in_place``).

The sub-decisions score the legal actions directly: an escape (R5.5) swims to the
neighbour nearest the helicopter and the kings still due (``_escape``), a give hands over
the cards that merge split pairs (``give_plan``), and a short-suit lift pays with the suits
the team needs least (``_lift_card``). Their numbers are the module's ``ESCAPE_*``,
``PAY_*`` and ``IN_PLACE_*`` constants.

Only public facts are read (``knowledge``). Deterministic: the ``rng`` is not used, except
by a *novice* (``epsilon > 0``), who plays a uniformly random legal action with that
probability at every decision -- a stand-in for a beginner team in the difficulty report.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

import numpy as np

from inselflucht_env.games.inselflucht import knowledge as K
from inselflucht_env.games.inselflucht.knowledge import FLOODED, HELI, HIDDEN, INF, SEA
from inselflucht_env.games.inselflucht.rules import actions as A
from inselflucht_env.games.inselflucht.rules.board import (
    ALL,
    AROUND,
    DIRECTIONS,
    N_PLACES,
    NEIGHBOUR,
    ORTHOGONAL,
    SIZE,
    column_row,
)
from inselflucht_env.games.inselflucht.rules.cards import HELICOPTER, KING, N_LAND, SUITS, suit_of
from inselflucht_env.games.inselflucht.rules.config import ACTIONS_PER_TURN
from inselflucht_env.games.inselflucht.rules.engine import ESCAPE, GIVE, State

if TYPE_CHECKING:
    from inselflucht_env.games.inselflucht.rules.engine import Give, Lift


@dataclass(frozen=True, slots=True)
class Weights:
    """The values of a turn's targets (see the module docstring), in points; a target
    pays ``action_cost`` per action it takes, and ending the turn scores 0."""

    action_cost: float = 4.0
    """Price of one action. A target worth no more than one action never beats ending
    the turn: at the defaults neither ``shore_land`` nor ``shore_wanted`` decides anything
    (a flooded land card is shored up only in place, ``_shore_in_place``)."""
    loss: float = 200.0
    """Not losing the game now: scaled by the chance that a guarded place sinks."""
    guard_base: float = 25.0
    """Keeping a flooded king or the helicopter dry, beyond the risk at hand."""
    far_guard: float = 0.5
    """Share of the risk counted for a guard that is out of reach this turn."""
    guard_turns: float = 2.0
    """Risk horizon of a guard no partner can take over: this many rounds of turns."""
    shore_land: float = 1.5
    """Shoring a flooded land card here or next door."""
    shore_wanted: float = 4.0
    """... instead, for a card of a suit the team still needs."""
    lift: float = 60.0
    """Walking to a king the figure can pay for and lifting it."""
    salvage: float = 20.0
    """Salvaging a card of a suit the team still lacks."""
    salvage_pair: float = 10.0
    """Bonus: the card completes the figure's pair."""
    salvage_other: float = 18.0
    """Penalty: another figure holds more of this suit (it collects it)."""
    salvage_short: float = 12.0
    """Salvaging any card while the short suits still need more cards than the team can
    spare (R6.2, R4.7); rare, it decides almost no game."""
    salvage_flooded: float = 3.0
    """Bonus: the card would sink otherwise."""
    salvage_edge: float = 1.0
    """Bonus: the card lies on the border of the island, where the sea it leaves cuts
    fewer ways."""
    salvage_route: float = 1.0
    """Penalty per extra action the team's ways from the helicopter need afterwards."""
    explore: float = 6.0
    """Uncovering a hidden place at all."""
    explore_king: float = 40.0
    """... plus this times the chance that it holds an unseen king still to lift."""
    explore_land: float = 10.0
    """... plus this times the chance that it holds a land card the team lacks."""
    explore_spread: float = 4.0
    """Penalty: a partner is nearer to that place."""
    give: float = 25.0
    """Handing a split pair over on the same field (R4.6)."""
    meet: float = 30.0
    """Walking to the partner the figure should give cards to."""
    home: float = 100.0
    """Walking to the helicopter once every treasure is lifted."""
    idle_home: float = 2.0
    """Drifting towards the helicopter when nothing else is worth doing (pays only
    ``IDLE_HOME_STEP`` of the action cost per action)."""
    deadline: float = 40.0
    """Heading home when the figure's turns left barely cover the way back (R5.4)."""
    home_slack: float = 0.0
    """Spare turns of the figure before the deadline applies."""


DEFAULT_WEIGHTS: dict[str, float] = asdict(Weights())

# ---- turn constants, not tunable: the shape of the scorers rather than their values
WAIT = -100  # internal action: stay and spend the actions left in place
IDLE_HOME_STEP = 0.1  # share of the action cost an idle drift home pays per action
SALVAGE_ROUTE_CHECKS = 4  # best salvage candidates given the (costly) route check
ROUTE_KING = 2.0  # route check: weight of the way to a face-up king still due
ROUTE_FIGURE = 1.0  # ... to a figure
ROUTE_HIDDEN = 0.3  # ... to a hidden place

# ---- escape (R5.5): points per action of distance, capped, and per place
ESCAPE_DISTANCE_CAP = 30  # so that an unreachable helicopter or king (INF) stays comparable
ESCAPE_HELI = 1.0  # penalty per action of the way to the helicopter ...
ESCAPE_HELI_HOME = 3.0  # ... once every treasure is lifted
ESCAPE_KING = 0.5  # ... and to the nearest king still to lift
ESCAPE_FLOODED = 3.0  # penalty: the place is flooded
ESCAPE_HIDDEN = 0.5  # bonus: the place is unexplored (it may be what the team needs)
ESCAPE_NEIGHBOUR = 0.3  # bonus per orthogonal neighbour that is not sea (ways on)

# ---- short-suit lift (R4.7): which card to pay with; the highest goes first
PAY_SPENT = 100.0  # a suit already lifted, or the one being lifted
PAY_SHORT = 50.0  # a suit too short to be lifted by its own cards
PAY_SPARE = 10.0  # any other suit ...
PAY_SPARE_PER_CARD = 3.0  # ... plus this per card of it that stays beyond a lift's worth

# ---- spending the actions left in place (``WAIT``): value of shoring up a place
IN_PLACE_CRITICAL = 3.0  # the helicopter or a king still to lift
IN_PLACE_WANTED = 2.0  # a land card of a suit the team still needs
IN_PLACE_LAND = 1.0  # any other land card
IN_PLACE_OTHER = 0.5  # anything else (a lifted king)

N_SUITS = len(SUITS)
_SWIMS = range(A.SWIM, A.SWIM + len(DIRECTIONS))
_LAND_SUIT = tuple(suit_of(c) for c in range(N_LAND))  # suit of each land card (a fast suit_of)
_BORDER = tuple(c in (1, SIZE) or r in (1, SIZE) for c, r in map(column_row, range(N_PLACES)))


def _hand_counts(hand: list[int]) -> list[int]:
    """Cards per suit in a salvage hand (land cards only)."""
    out = [0] * N_SUITS
    for c in hand:
        out[_LAND_SUIT[c]] += 1
    return out


def give_plan(state: State, giver: int, receiver: int) -> list[int]:
    """Suits (with repeats) the giver should hand over: merge split pairs (R4.6)."""
    n = state.config.cards_per_treasure
    g = _hand_counts(state.salvage[giver])
    r = _hand_counts(state.salvage[receiver])
    plan = []
    for s in range(N_SUITS):
        if state.lifted[s] or not g[s] or not r[s] or r[s] >= n:
            continue
        if state.remaining[s] < n:
            continue
        if g[s] >= n:
            continue  # the giver can lift it itself
        plan += [s] * min(g[s], n - r[s])
    return plan


# ---------------------------------------------------------------- a turn decision
class _Turn:
    """One turn decision: the public facts the scorers share, and the best target so far.

    ``dist``/``first`` are the active figure's action distances and first steps (swims at
    their price) over the current island, ``counts`` every figure's cards per suit.
    """

    __slots__ = (
        "state",
        "legal",
        "w",
        "trace",
        "scorer",
        "best_score",
        "best_action",
        "n",
        "sc",
        "f",
        "pos",
        "n_fig",
        "p",
        "left",
        "st",
        "lifted",
        "vis",
        "kings",
        "counts",
        "mine",
        "team",
        "short",
        "sea",
        "dist",
        "first",
        "others",
        "deadline",
        "roam",
        "_other_dist",
    )

    def __init__(self, state: State, legal: list[int], w: Weights, trace: list | None) -> None:
        self.state, self.legal, self.w, self.trace = state, legal, w, trace
        self.scorer = ""
        self.best_score = 0.0  # ending the turn
        self.best_action = A.END_TURN
        cfg = state.config
        self.n = n = cfg.cards_per_treasure
        self.sc = cfg.swim_cost
        self.f = f = state.active
        self.pos = pos = state.pos
        self.n_fig = n_fig = len(pos)
        self.p = p = pos[f]
        self.left = state.actions_left
        self.st = st = state.status
        self.lifted = state.lifted
        self.vis = vis = K.visible_cards(state)
        self.kings = K.king_places(vis)
        self.counts = counts = [_hand_counts(h) for h in state.salvage]
        self.mine = counts[f]
        self.team = [sum(c[s] for c in counts) for s in range(N_SUITS)]
        self.short = [state.remaining[s] < n for s in range(N_SUITS)]
        self.sea = sea = K.sea_mask(st)
        self.dist, self.first = K.paths_sea(sea, p, self.sc)
        dist = self.dist
        self.others = [g for g in range(n_fig) if g != f]
        # R5.4: my own turns before the water wins, against the turns I need to get home
        # (the way plus the take-off)
        my_turns = -(-K.turns_left(state) // n_fig)
        home_turns = -(-(dist[HELI] + 1) // ACTIONS_PER_TURN) if p != HELI else 0
        self.deadline = my_turns - home_turns <= w.home_slack
        self.roam = 0.0 if self.deadline else 1.0  # value factor for exploring and salvaging
        self._other_dist: dict[int, tuple[int, ...]] = {}

    def consider(self, score: float, action: int) -> None:
        """Keep ``action`` if its target beats the best so far (ties: the earlier)."""
        if self.trace is not None:
            self.trace.append(
                (round(score, 2), A.ACTION_NAMES[action] if action >= 0 else action, self.scorer)
            )
        if score > self.best_score:
            if action in self.legal:
                self.best_score, self.best_action = score, action
            elif action in _SWIMS:
                # the way leads across the water but the actions left do not pay for
                # the swim: wait here rather than walk off elsewhere
                self.best_score, self.best_action = score, WAIT

    def other_dist(self, g: int) -> tuple[int, ...]:
        """Figure g's action distances (computed once per decision)."""
        d = self._other_dist.get(g)
        if d is None:
            d = self._other_dist[g] = K.paths_sea(self.sea, self.pos[g], self.sc)[0]
        return d

    def stand_cost(self, q: int, allow_on: bool) -> tuple[int, int]:
        """Cheapest place to act on q from (q itself if allowed, or an orthogonal
        neighbour field); returns (cost to get there, that place)."""
        dist, st = self.dist, self.st
        bd, bp = (dist[q], q) if allow_on else (INF, -1)
        for r in ORTHOGONAL[q]:
            if st[r] != SEA and dist[r] < bd:
                bd, bp = dist[r], r
        return bd, bp

    def toward(self, stand: int, act_there: int) -> int:
        """``act_there`` when standing on ``stand`` already, else the first step to it."""
        return act_there if stand == self.p else self.first[stand]

    def shore(self, q: int) -> int:
        """The shore-up action from the active figure's place onto q (here or next door)."""
        p = self.p
        return A.SHORE_HERE if q == p else A.SHORE + NEIGHBOUR[p].index(q)


def _guard(t: _Turn) -> None:
    """Flooded kings still to lift and the helicopter: a second hit sinks them and loses
    the game (L1, L2), so their value is the loss times the chance of that hit before
    someone can shore them up."""
    st, w = t.st, t.w
    critical = [q for s, q in enumerate(t.kings) if q >= 0 and not t.lifted[s]]
    critical.append(HELI)
    flooded = [q for q in critical if st[q] == FLOODED]
    if not flooded:
        return
    state, n_fig, f = t.state, t.n_fig, t.f
    # no partner can take over: the floods of guard_turns rounds of turns
    alone = K.phase_floods(state, max(1, int(n_fig * w.guard_turns)))
    for q in flooded:
        cost, stand = t.stand_cost(q, True)
        if cost >= INF:
            continue
        horizon = alone
        # a partner whose turn comes before my next one and who can reach q (or a field
        # next to it) and shore it up within that turn: only the floods until then count
        for k in range(1, n_fig):
            dg = t.other_dist((f + k) % n_fig)
            reach = min([dg[q]] + [dg[r] for r in ORTHOGONAL[q] if st[r] != SEA])
            if reach + 1 <= ACTIONS_PER_TURN:
                horizon = K.phase_floods(state, k)
                break
        risk = K.hit_probability(state, q, horizon)
        value = w.guard_base + w.loss * risk * (1.0 if cost + 1 <= t.left else w.far_guard)
        action = t.shore(q) if stand == t.p else t.first[stand]
        t.consider(value - w.action_cost * (cost + 1), action)


def _shore_land(t: _Turn) -> None:
    """Flooded land cards here or next door: one sinks at its next hit (R5.2, R5.5), and
    with it a field and perhaps a card the team needs."""
    st, vis, lifted, team, w = t.st, t.vis, t.lifted, t.team, t.w
    for q in (t.p, *ORTHOGONAL[t.p]):
        if st[q] != FLOODED or not (0 <= vis[q] < N_LAND):
            continue
        s = _LAND_SUIT[vis[q]]
        value = w.shore_wanted if (not lifted[s] and team[s] < t.n) else w.shore_land
        t.consider(value - w.action_cost, t.shore(q))


def _lift(t: _Turn) -> None:
    """Face-up kings the figure can pay for (its own pair, or n + 1 cards for a short
    suit, R4.7): lifting is what wins."""
    n, mine, dist, w = t.n, t.mine, t.dist, t.w
    for s in range(N_SUITS):
        q = t.kings[s]
        if q < 0 or t.lifted[s]:
            continue
        can_pay = mine[s] >= n or (t.short[s] and sum(mine) >= n + 1)
        if can_pay and dist[q] < INF:
            t.consider(w.lift - w.action_cost * (dist[q] + 1), t.toward(q, A.LIFT))


def _short_suits_want_cards(t: _Turn) -> bool:
    """Do the short suits (R6.2: fewer than n cards remain; R4.7: lifted with n + 1
    cards of any suits) need more cards than the team holds spare?"""
    n, team = t.n, t.team
    need = spare = 0
    for s in range(N_SUITS):
        if t.lifted[s]:
            spare += team[s]
        elif t.short[s]:
            need += n + 1
            spare += team[s]
        else:
            spare += max(0, team[s] - n)
    return need > spare


def _salvage_candidates(t: _Turn) -> list[tuple[float, int, int]]:
    """(score before the route check, place, where to stand) of every face-up land card
    worth salvaging (R4.5) that could beat the best target so far."""
    n, mine, counts, lifted, short, team, w = t.n, t.mine, t.counts, t.lifted, t.short, t.team, t.w
    vis, dist, st = t.vis, t.dist, t.st
    short_wanted = _short_suits_want_cards(t)
    occupied = set(t.pos)
    out = []
    for q in range(N_PLACES):
        c = vis[q]
        if not (0 <= c < N_LAND) or q in occupied or dist[q] >= INF:
            continue
        s = _LAND_SUIT[c]
        if not lifted[s] and not short[s] and team[s] < n:
            value = w.salvage
            if mine[s] == n - 1:
                value += w.salvage_pair
            if any(counts[g][s] > mine[s] for g in t.others):
                value -= w.salvage_other
        elif short_wanted:
            value = w.salvage_short
        else:
            continue
        if st[q] == FLOODED:
            value += w.salvage_flooded
        if _BORDER[q]:
            value += w.salvage_edge
        cost, stand = t.stand_cost(q, False)
        if cost >= INF:
            continue
        score = t.roam * value - w.action_cost * (cost + 1)
        if score > t.best_score:
            out.append((score, q, stand))
    return out


def _must_stay_connected(t: _Turn) -> int:
    """Places a salvage must not cut off from the helicopter (L4): the kings still to
    lift, the figures, and the hidden places while a king is unseen."""
    need = 1 << HELI
    for s, q in enumerate(t.kings):
        if q >= 0 and not t.lifted[s]:
            need |= 1 << q
    for q in t.pos:
        need |= 1 << q
    if any(not t.lifted[s] and t.kings[s] < 0 for s in range(N_SUITS)):
        for q in range(N_PLACES):
            if t.st[q] == HIDDEN:
                need |= 1 << q
    return need


def _route_weights(t: _Turn) -> list[tuple[int, float]]:
    """Places the team must still travel to and from the helicopter, with weights."""
    out = [(q, ROUTE_KING) for s, q in enumerate(t.kings) if q >= 0 and not t.lifted[s]]
    out += [(q, ROUTE_FIGURE) for q in t.pos]
    out += [(q, ROUTE_HIDDEN) for q in range(N_PLACES) if t.st[q] == HIDDEN]
    return out


def _salvage(t: _Turn) -> None:
    """Salvage (R4.5) the best few candidates that cut nothing off (L4), each paying for
    the extra actions its new sea adds to the team's ways from the helicopter."""
    cands = _salvage_candidates(t)
    if not cands:
        return
    cands.sort(reverse=True)  # best first; ties: the higher place
    need = _must_stay_connected(t)
    fields = ALL & ~t.sea
    base_d: tuple[int, ...] | None = None
    route: list[tuple[int, float]] = []
    checked = 0
    for score, q, stand in cands:
        if score <= t.best_score or checked >= SALVAGE_ROUTE_CHECKS:
            break
        if K.reachable_from(fields & ~(1 << q), HELI) & need != need:
            continue  # L4: salvaging here would cut something off
        checked += 1
        if base_d is None:
            base_d = K.paths_sea(t.sea, HELI, t.sc)[0]
            route = _route_weights(t)
        after_d = K.paths_sea(t.sea | 1 << q, HELI, t.sc)[0]
        detour = sum(
            (wt * (after_d[r] - base_d[r]) for r, wt in route if r != q and after_d[r] < INF),
            0.0,
        )
        salvage = A.SALVAGE + NEIGHBOUR[t.p].index(q) if stand == t.p else t.first[stand]
        t.consider(score - t.w.action_cost * t.w.salvage_route * detour, salvage)


def _give(t: _Turn) -> None:
    """A pair split between me and a partner (``give_plan``): hand it over on a shared
    field (R4.6), or walk to meet."""
    w, pos, p = t.w, t.pos, t.p
    for k in range(1, t.n_fig):
        g = (t.f + k) % t.n_fig
        if not give_plan(t.state, t.f, g):
            continue
        if pos[g] == p:
            t.consider(w.give - w.action_cost, A.GIVE + k - 1)
        elif t.dist[pos[g]] < INF:
            t.consider(w.meet - w.action_cost * (t.dist[pos[g]] + 1), t.first[pos[g]])


def _explore_value(t: _Turn, hidden: list[int]) -> float:
    """Value of uncovering one of the ``hidden`` places: the chances that it holds an
    unseen king still to lift, or a land card the team lacks and cannot see."""
    n, lifted, team, w = t.n, t.lifted, t.team, t.w
    unseen = K.unseen_cards(t.state)
    king_frac = sum(1 for c in unseen if KING <= c < HELICOPTER and not lifted[c - KING]) / len(
        hidden
    )
    lacking = [
        max(0, n - team[s]) if not lifted[s] and not t.short[s] else 0 for s in range(N_SUITS)
    ]
    visible = [0] * N_SUITS
    for c in t.vis:
        if 0 <= c < N_LAND:
            visible[_LAND_SUIT[c]] += 1
    land_frac = sum(
        1 for c in unseen if 0 <= c < N_LAND and lacking[_LAND_SUIT[c]] > visible[_LAND_SUIT[c]]
    ) / len(hidden)
    return t.roam * (w.explore + w.explore_king * king_frac + w.explore_land * land_frac)


def _explore(t: _Turn) -> None:
    """Walk towards a hidden place (R4.2: stepping onto it reveals it); a place a partner
    is nearer to counts less, so the figures spread out."""
    hidden = [q for q in range(N_PLACES) if t.st[q] == HIDDEN]
    if not hidden:
        return
    value = _explore_value(t, hidden)
    cost_w = t.w.action_cost
    if value - cost_w <= t.best_score:
        return
    ods = [t.other_dist(g) for g in t.others]
    dist = t.dist
    scored = []
    for q in hidden:
        d = dist[q]
        if d >= INF:
            continue
        v = value - cost_w * d
        if any(od[q] < d for od in ods):
            v -= t.w.explore_spread
        if v > t.best_score:
            scored.append((v, -q))
    scored.sort(reverse=True)  # ties: the lower place first
    for v, mq in scored:
        if v <= t.best_score:
            break
        t.consider(v, t.first[-mq])


def _head_home(t: _Turn) -> None:
    """The helicopter: the goal once every treasure is lifted (R4.8), a must when my
    turns left barely cover the way (R5.4), else a slow drift for an idle figure."""
    dist, w = t.dist, t.w
    if t.p == HELI or dist[HELI] >= INF:
        return
    if all(t.lifted):
        t.consider(w.home - w.action_cost * dist[HELI], t.first[HELI])
        return
    t.consider(w.idle_home - w.action_cost * IDLE_HOME_STEP * dist[HELI], t.first[HELI])
    if t.deadline:
        t.consider(w.deadline - w.action_cost * dist[HELI], t.first[HELI])


# The scorers of a turn decision, in this order: a tie goes to the earlier target, and the
# later scorers skip what cannot beat the best so far.
TURN_SCORERS: tuple[Callable[[_Turn], None], ...] = (
    _guard,
    _shore_land,
    _lift,
    _salvage,
    _give,
    _explore,
    _head_home,
)


def _shore_in_place(state: State, legal: list[int], vis: list[int], team: list[int], n: int) -> int:
    """Spend the actions left in place: shore up the most useful flooded place here or
    next to me (kings and the helicopter first, then suits the team needs)."""
    best, best_a = 0.0, A.END_TURN
    p = state.pos[state.active]
    for a in legal:
        if a == A.SHORE_HERE:
            q = p
        elif A.SHORE <= a < A.SHORE + len(DIRECTIONS):
            q = NEIGHBOUR[p][a - A.SHORE]
        else:
            continue
        c = vis[q]
        if KING <= c <= HELICOPTER:
            critical = c == HELICOPTER or not state.lifted[c - KING]
            v = IN_PLACE_CRITICAL if critical else IN_PLACE_OTHER
        elif 0 <= c < N_LAND:
            s = _LAND_SUIT[c]
            v = IN_PLACE_WANTED if not state.lifted[s] and team[s] < n else IN_PLACE_LAND
        else:
            v = IN_PLACE_OTHER
        if v > best:
            best, best_a = v, a
    return best_a


class HeuristicAgent:
    """The expert team policy described in the module docstring.

    ``epsilon``: the novice's chance of a random legal action; ``weights``: fields of
    ``Weights`` to override (an unknown name is a ``ValueError``).
    """

    name = "heuristic"

    def __init__(self, epsilon: float = 0.0, **weights: float) -> None:
        unknown = set(weights) - set(DEFAULT_WEIGHTS)
        if unknown:
            raise ValueError(
                f"unknown heuristic weights {sorted(unknown)}; known: {sorted(DEFAULT_WEIGHTS)}"
            )
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon={epsilon!r} must be within [0, 1]")
        self.epsilon = epsilon
        if epsilon:
            self.name = f"novice(epsilon={epsilon:g})"
        self.w = Weights(**weights)
        # debugging: set to a list to collect (score, action, scorer) of every target
        self.trace: list | None = None

    # ------------------------------------------------------------------ entry
    def act(self, state: State, rng: np.random.Generator | None = None) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if self.epsilon and rng is not None and rng.random() < self.epsilon:
            return legal[int(rng.integers(len(legal)))]  # a novice's slip
        return self._choose(state, legal)

    def _choose(self, state: State, legal: list[int]) -> int:
        """The expert's choice among several legal actions (no slip)."""
        pend = state.pending
        if pend is None:
            return self._turn(state, legal)
        if pend.kind == ESCAPE:
            return self._escape(state, legal, pend.place)
        if pend.kind == GIVE:
            return self._give_card(state, legal, pend)
        return self._lift_card(state, legal, pend)

    # ------------------------------------------------------------------ a turn action
    def _turn(self, state: State, legal: list[int]) -> int:
        if A.TAKE_OFF in legal:
            return A.TAKE_OFF
        if A.LIFT in legal:
            return A.LIFT
        t = _Turn(state, legal, self.w, self.trace)
        for scorer in TURN_SCORERS:
            t.scorer = scorer.__name__
            scorer(t)
        if t.best_action == WAIT:
            return _shore_in_place(state, legal, t.vis, t.team, t.n)
        return t.best_action

    # ------------------------------------------------------------------ sub-decisions
    def _escape(self, state: State, legal: list[int], p: int) -> int:
        """R5.5: swim to the neighbour from which the helicopter and the kings still to
        lift are nearest, preferring dry, well-connected places."""
        st = state.status
        sea = K.sea_mask(st)
        kings = K.king_places(K.visible_cards(state))
        goals = [q for s, q in enumerate(kings) if q >= 0 and not state.lifted[s]]
        per_heli = ESCAPE_HELI_HOME if all(state.lifted) else ESCAPE_HELI
        cap = ESCAPE_DISTANCE_CAP
        best, best_a = -float(INF), legal[0]
        for a in legal:
            q = AROUND[p][a - A.ESCAPE]
            dist = K.paths_sea(sea, q, state.config.swim_cost)[0]
            score = -per_heli * min(dist[HELI], cap)
            if goals:
                score -= ESCAPE_KING * min(min(dist[g] for g in goals), cap)
            if st[q] == FLOODED:
                score -= ESCAPE_FLOODED
            elif st[q] == HIDDEN:
                score += ESCAPE_HIDDEN
            score += ESCAPE_NEIGHBOUR * sum(1 for r in ORTHOGONAL[q] if st[r] != SEA)
            if score > best:
                best, best_a = score, a
        return best_a

    def _give_card(self, state: State, legal: list[int], pend: Give) -> int:
        """R4.6: hand over the cards of ``give_plan``, then stop."""
        for s in give_plan(state, pend.figure, pend.receiver):
            if A.CARD + s in legal:
                return A.CARD + s
        if A.DONE in legal:
            return A.DONE
        return legal[0]

    def _lift_card(self, state: State, legal: list[int], pend: Lift) -> int:
        """Short-suit lift (R4.7): pay with the suits the team needs least -- spent suits,
        then short ones, then the one with the most cards to spare (left on the island
        and in the team's hands)."""
        n = state.config.cards_per_treasure
        lifting = pend.suit
        team = [0] * N_SUITS
        for hand in state.salvage:
            for c in hand:
                team[_LAND_SUIT[c]] += 1
        best: float = -INF
        best_a = legal[0]
        for a in legal:
            s = a - A.CARD
            if state.lifted[s] or s == lifting:
                score = PAY_SPENT + team[s]
            elif state.remaining[s] < n:
                score = PAY_SHORT + team[s]
            else:
                score = (
                    PAY_SPARE + PAY_SPARE_PER_CARD * (state.remaining[s] - 1 - n) + (team[s] - n)
                )
            if score > best:
                best, best_a = score, a
        return best_a
