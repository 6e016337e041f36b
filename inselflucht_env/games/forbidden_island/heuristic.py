"""A hand-written team policy for Forbidden Island, played as an expert table would.

Every decision is made for ``state.decider`` from public facts only (FR2.4): the tiles,
the hands, both discard piles, the deck *sizes* and the *set* of tiles in the flood deck's
known top group (``rules.public.known_flood_top``); never the order of a deck. From them
``_View`` works out, per flooded tile, the chance that the coming flood cards sink it
(``risk``; in the actions phase this folds in the chance of a Waters Rise! in the treasure
draw, FR5.2) and how much its sinking would cost (``importance``: Fools' Landing and the
last tile of an uncaptured treasure lose the game, FR10.1/FR10.2).

The active player's turn (FR4) is planned whole (``_plan_turn``, the default): every
sequence of the actions left (walks, a Pilot's flight to the few tiles worth it, shore-ups,
gives, a capture) is scored by where it ends (``_evaluate``: treasure-card concentration,
captures, the flooded tiles weighted by importance and risk, the way to a capture tile, to
a partner or to Fools' Landing, and the tiles nobody could still reach), and its first
action is taken. ``planner=False`` instead scores one *option* at a time (``_turn``, about
six times faster and weaker, the search's rollout policy): every option gets a utility (its
value minus ``ACTION_COST`` per action, discounted per extra turn it needs) and the first
step of the best one is taken; ending the turn scores 0. The options:

* capture (FR4.5) at once; walk (or fly, or lift) to a tile of a treasure held 4 times;
* give (FR4.4) treasure cards toward one collector per treasure: a give must raise the
  team's *concentration* ``sum over players of GAIN[cards of a treasure]`` (convex), so
  cards flow to whoever holds most, and it pays for the discard it forces (FR5.3);
* walk to a partner to trade with;
* shore up (FR4.3) a flooded tile, worth ``importance * danger``;
* once every treasure is captured, gather on Fools' Landing (FR9.1), lifting groups
  there while the team has a Helicopter Lift to spare;
* the role powers: the Pilot's flight (FR3.6) and the Diver's and Explorer's moves enter
  the distances, the Navigator guides a partner toward its goal (FR3.5), the Engineer
  takes the second shore-up (FR3.2), the Messenger's gives are legal anywhere (FR3.7).

Sub-decisions score their choices directly: Sandbags in the window (FR6.3) on the tile
whose sinking now would cost most, Helicopter Lifts kept for the escape unless the team
holds a spare or a lift lets a capture happen that otherwise may not, discards (FR5.3) of
the card worth least to the team (captured treasures' cards first, then the treasure the
team holds fewest of), swims (FR7) to the safest tile nearest the pawn's goal.

Deterministic given the state: ``rng`` is used only by a *novice* (``epsilon > 0``), who
plays a uniformly random legal action with that probability at every decision.
"""

from __future__ import annotations

import numpy as np

from inselflucht_env.games.forbidden_island.rules import actions as A
from inselflucht_env.games.forbidden_island.rules.board import (
    DIAGONAL,
    FOOLS_LANDING,
    N_SLOTS,
    ORTHOGONAL,
    tile_treasure,
    treasure_tiles,
)
from inselflucht_env.games.forbidden_island.rules.cards import (
    CAPTURE_CARDS,
    HAND_KINDS,
    HAND_LIMIT,
    HELICOPTER,
    SANDBAG,
    WATERS_RISE,
)
from inselflucht_env.games.forbidden_island.rules.config import (
    DIVER,
    ENGINEER,
    EXPLORER,
    FLOODS_AT_LEVEL,
    MESSENGER,
    NAVIGATOR,
    PILOT,
    SKULL,
)
from inselflucht_env.games.forbidden_island.rules.engine import (
    ACTIONS,
    FLOODED,
    SUNK,
    WINDOW,
    Discard,
    Engineer,
    Guide,
    Lift,
    Sandbag,
    State,
    Swim,
    Window,
)
from inselflucht_env.games.forbidden_island.rules.public import known_flood_top

INF = 99

# ---- values, in points; one action costs ACTION_COST
ACTION_COST = 0.25
DISCOUNT = 0.7  # per further turn a far option needs
LOSS = 100.0  # importance of a tile whose sinking loses the game (FR10)
TREASURE_TILE = 12.0  # a tile of an uncaptured treasure whose twin stands
TWIN_FLOODED = 25.0  # ... whose twin is flooded
PLAIN_TILE = 2.0
NEAR_LANDING = 3.0  # bonus, once every treasure is captured, for Fools' Landing's neighbours
PAWN_ON = 1.0  # bonus per pawn standing on the tile (it would have to swim)
BASE_DANGER = 0.1  # a flooded tile sinks when its card comes round again
KNOWN_DANGER = 0.5  # ... soon, when its card lies in the known top group (FR5.2)
CAPTURE = 40.0
GIVE = 6.0  # per point of concentration gained
HOME = 30.0  # walking to Fools' Landing once all treasures are captured
GUIDE_STEP = 3.0  # per action a Navigator's guide saves a partner (FR3.5)
GUARD = 3.0  # moving back in reach of an unguarded critical tile
STAY = 1.0  # per point of concentration a partner here would give us next
SANDBAG_AT = 2.0  # a window Sandbag needs importance * risk of at least this
HOLDING = 0.5  # card value: weight of the best single holding beside the team's total
GAIN = (0.0, 1.0, 3.0, 6.0, 12.0)  # concentration of k cards of one treasure (k <= 4)
HELI_LAST = 3.0  # card value of the team's only Helicopter Lift (the escape, FR9.1)
HELI_PER_CAPTURE = 2.0  # ... more so as the escape nears
HELI_SPARE = 2.5
SANDBAG_CARD = 2.5


# ---------------------------------------------------------------------- movement
def _walk_from(role: int, here: int, status: list[int] | tuple[int, ...]) -> list[int]:
    """``State.walk_targets`` for a pawn of ``role`` on any slot (FR4.1, FR3.3, FR3.4)."""
    near = {s for s in ORTHOGONAL[here] if status[s] != SUNK}
    if role == EXPLORER:
        near.update(s for s in DIAGONAL[here] if status[s] != SUNK)
    elif role == DIVER:
        seen, frontier = {here}, [here]
        while frontier:
            nxt = []
            for s in frontier:
                for t in ORTHOGONAL[s]:
                    if t in seen:
                        continue
                    seen.add(t)
                    if status[t] != SUNK:
                        near.add(t)
                    if status[t] != 0:
                        nxt.append(t)
            frontier = nxt
    near.discard(here)
    return sorted(near)


_ADJ: dict[tuple[int, tuple[int, ...]], list[list[int]]] = {}


def _adjacency(role: int, status: tuple[int, ...]) -> list[list[int]]:
    """One-action walking moves per slot for ``role`` (the Pilot walks like anyone)."""
    kind = role if role in (DIVER, EXPLORER) else -1
    key = (kind, status)
    adj = _ADJ.get(key)
    if adj is None:
        if len(_ADJ) > 20000:
            _ADJ.clear()
        adj = [_walk_from(kind, s, status) if status[s] != SUNK else [] for s in range(N_SLOTS)]
        _ADJ[key] = adj
    return adj


def _bfs(adj: list[list[int]], sources: list[int] | tuple[int, ...]) -> list[int]:
    """Walking actions from the nearest source to every slot (moves are symmetric)."""
    dist = [INF] * N_SLOTS
    frontier = list(sources)
    for s in frontier:
        dist[s] = 0
    d = 0
    while frontier:
        d += 1
        nxt = []
        for s in frontier:
            for t in adj[s]:
                if dist[t] == INF:
                    dist[t] = d
                    nxt.append(t)
        frontier = nxt
    return dist


def _g(k: int) -> float:
    return GAIN[k if k < CAPTURE_CARDS else CAPTURE_CARDS]


# ---------------------------------------------------------------------- public analysis
class _View:
    """What one decision needs, worked out once from public facts."""

    def __init__(self, state: State):
        s = self.s = state
        self.n = s.config.players
        self.status = tuple(s.status)
        self.captured = s.captured
        self.all_captured = all(s.captured)
        self.landing = s.slot_of[FOOLS_LANDING]
        self.team_heli = sum(h[HELICOPTER] for h in s.hands)
        self.totals = [sum(h[t] for h in s.hands) for t in range(4)]
        self.known = set(known_flood_top(s))
        self._dist: dict[int, list[int]] = {}
        self._imp: dict[int, float] = {}
        self.risk = self._risk()

    # -- flood risk
    def _risk(self) -> list[float]:
        """Per slot: the chance the coming flood cards sink it (0 for a dry tile)."""
        s = self.s
        risk = [0.0] * N_SLOTS
        flooded = [x for x in range(N_SLOTS) if self.status[x] == FLOODED]
        if not flooded:
            return risk
        deck_n, known_n = len(s.flood_deck), s.flood_known
        discard = set(s.flood_discard)
        level = min(s.level, SKULL - 1)
        p_rise = 0.0
        if s.phase == ACTIONS:
            n = FLOODS_AT_LEVEL[level]
            d = len(s.treasure_deck)
            w = 3 - s.treasure_discard.count(WATERS_RISE)  # FR2.1: never in a hand
            if d >= 2:
                p_rise = 1.0 - (d - w) * (d - w - 1) / (d * (d - 1))
            elif d == 1:
                p_rise = float(w)
        elif s.phase == WINDOW:
            n = FLOODS_AT_LEVEL[level]
        else:
            n = s.floods_left
        n_rise = FLOODS_AT_LEVEL[min(level + 1, SKULL - 1)]
        for x in flooded:
            t = s.tile[x]
            p = self._drawn(t, n, deck_n, known_n, discard)
            if p_rise > 0.0:  # FR5.2: the discard goes on top, the rest below it
                k = len(discard)
                p2 = min(n_rise, k) / k if t in discard else 0.0
                p = (1.0 - p_rise) * p + p_rise * p2
            risk[x] = p
        return risk

    def _drawn(self, t: int, n: int, deck_n: int, known_n: int, discard: set[int]) -> float:
        """Chance that flood card ``t`` is among the next ``n`` drawn (FR8)."""
        if t in self.known:
            return min(n, known_n) / known_n
        if t in discard:  # only after the deck runs out (FR8.3)
            return min(1.0, (n - deck_n) / len(discard)) if n > deck_n else 0.0
        unknown = deck_n - known_n
        if n <= known_n or unknown <= 0:
            return 0.0
        return min(1.0, (n - known_n) / unknown)

    # -- tiles
    def importance(self, x: int) -> float:
        """What losing the tile on slot ``x`` would cost."""
        v = self._imp.get(x)
        if v is not None:
            return v
        s = self.s
        t = s.tile[x]
        if t == FOOLS_LANDING:
            v = LOSS  # FR10.2
        else:
            tr = tile_treasure(t)
            if tr >= 0 and not s.captured[tr]:
                a, b = treasure_tiles(tr)
                twin = self.status[s.slot_of[b if t == a else a]]
                v = LOSS if twin == SUNK else TWIN_FLOODED if twin == FLOODED else TREASURE_TILE
            else:
                v = PLAIN_TILE
                if self.all_captured and x in ORTHOGONAL[self.landing]:
                    v += NEAR_LANDING
        for q in range(self.n):
            if s.pos[q] == x:
                v += PAWN_ON if self._can_swim(q) else LOSS  # FR10.3
        self._imp[x] = v
        return v

    def _can_swim(self, q: int) -> bool:
        here, role = self.s.pos[q], self.s.roles[q]
        if role in (PILOT, DIVER):
            return any(self.status[x] != SUNK for x in range(N_SLOTS) if x != here)
        around = ORTHOGONAL[here] + (DIAGONAL[here] if role == EXPLORER else ())
        return any(self.status[x] != SUNK for x in around)

    def danger(self, x: int) -> float:
        """How much a shore-up of slot ``x`` now is worth, per point of importance."""
        r = self.risk[x]
        soon = KNOWN_DANGER * (1.0 - r) if self.s.tile[x] in self.known else 0.0
        return r + BASE_DANGER + soon

    def shore_value(self, x: int) -> float:
        return self.importance(x) * self.danger(x)

    def shore_spots(self, role: int, x: int) -> list[int]:
        """Slots from which a pawn of ``role`` can shore up ``x`` (FR4.3, FR3.3)."""
        around = ORTHOGONAL[x] + (DIAGONAL[x] if role == EXPLORER else ())
        return [y for y in (x, *around) if self.status[y] != SUNK]

    # -- pawns
    def dist(self, q: int) -> list[int]:
        """Walking actions from ``q``'s pawn to every slot."""
        d = self._dist.get(q)
        if d is None:
            d = _bfs(_adjacency(self.s.roles[q], self.status), (self.s.pos[q],))
            self._dist[q] = d
        return d

    def reach(self, q: int, targets: list[int], flight: bool) -> int:
        """Actions for ``q`` to stand on one of ``targets``; a Pilot flies (FR3.6)."""
        d = self.dist(q)
        best = min((d[y] for y in targets), default=INF)
        if best > 1 and flight and targets:
            return 1
        return best

    def capture_goal(self, q: int) -> tuple[int, list[int]]:
        """The treasure ``q`` can capture once on its tile (FR4.5), and those tiles."""
        s = self.s
        for t in range(4):
            if not s.captured[t] and s.hands[q][t] >= CAPTURE_CARDS:
                tiles = [s.slot_of[x] for x in treasure_tiles(t)]
                tiles = [y for y in tiles if self.status[y] != SUNK]
                if tiles:
                    return t, tiles
        return -1, []

    def goals(self, q: int) -> list[int]:
        """Where ``q`` wants to be: a capture tile, else Fools' Landing at the end."""
        if self.all_captured:
            return [self.landing]
        return self.capture_goal(q)[1]

    def critical(self) -> list[int]:
        """Standing tiles whose sinking loses the game: Fools' Landing and the last tile
        of an uncaptured treasure (FR10.1, FR10.2)."""
        s = self.s
        out = [self.landing]
        for t in range(4):
            if not s.captured[t] and self.endangered(t):
                out.extend(
                    s.slot_of[x] for x in treasure_tiles(t) if self.status[s.slot_of[x]] != SUNK
                )
        return out

    def covered(self, x: int) -> bool:
        """Whether some pawn could shore up slot ``x`` within one turn of its own."""
        s = self.s
        for q in range(self.n):
            if s.roles[q] == PILOT:
                return True
            d = self.dist(q)
            if min(d[y] for y in self.shore_spots(s.roles[q], x)) <= 2:
                return True
        return False

    def endangered(self, t: int) -> bool:
        """A treasure with one tile sunk: its other tile's sinking loses (FR10.1)."""
        return any(self.status[self.s.slot_of[x]] == SUNK for x in treasure_tiles(t))

    # -- cards
    def card_value(self, q: int, k: int, hand: list[int] | None = None) -> float:
        """What one card of kind ``k`` in ``q``'s hand is worth to the team."""
        h = self.s.hands[q] if hand is None else hand
        if k < 4:
            if self.captured[k]:
                return 0.0
            own = h[k]
            total = self.totals[k] - self.s.hands[q][k] + own
            rest = max((self.s.hands[r][k] for r in range(self.n) if r != q), default=0)
            best = _g(max(own, rest)) - _g(max(own - 1, rest))  # the best holding shrinks
            team = _g(total) - _g(total - 1)  # the team's cards of it shrink
            v = team + HOLDING * best
            return v * 1.5 if self.endangered(k) else v
        if k == HELICOPTER:
            if self.team_heli > 1:
                return HELI_SPARE
            return HELI_LAST + HELI_PER_CAPTURE * sum(self.captured)
        return SANDBAG_CARD

    def cheapest(self, q: int, hand: list[int] | None = None) -> tuple[float, int]:
        """The card ``q`` would discard: least value, then the treasure held fewest."""
        h = self.s.hands[q] if hand is None else hand
        best: tuple[float, int, int] | None = None
        for k in range(HAND_KINDS):
            if h[k]:
                key = (self.card_value(q, k, h), self.totals[k] if k < 4 else 9, k)
                if best is None or key < best:
                    best = key
        assert best is not None
        return best[0], best[2]

    def give_gain(self, p: int, q: int, t: int) -> float:
        """What ``p`` handing ``q`` its cards of ``t`` (FR4.4), up to the 4 a capture needs,
        gains in concentration, less the cards ``q`` would then discard (FR5.3). Counted
        for the whole transfer, so a split 2 + 2 is worth merging although its first give
        alone gains little. Cards flow to the larger holding (ties: either way)."""
        hands = self.s.hands
        hp, hq = hands[p][t], hands[q][t]
        if self.captured[t] or hp == 0 or hp > hq or hq >= CAPTURE_CARDS:
            return 0.0
        m = min(hp, CAPTURE_CARDS - hq)
        gain = _g(hq + m) - _g(hq) - (_g(hp) - _g(hp - m))
        if gain <= 0.0:
            return 0.0
        if self.endangered(t):
            gain *= 1.5
        over = self.s.hand_size(q) + m - HAND_LIMIT
        if over > 0:
            losses = sorted(
                self.discard_loss(q, k)
                for k in range(HAND_KINDS)
                if k != t
                for _ in range(hands[q][k])
            )
            gain -= sum(losses[:over]) if len(losses) >= over else INF
        return gain

    def discard_loss(self, q: int, k: int) -> float:
        """What ``q`` loses by giving up one card of kind ``k`` over the hand limit: a
        Sandbags card is played instead (FR5.3), so it dries a tile rather than vanish."""
        if k == SANDBAG:
            return 0.5
        return self.card_value(q, k)

    def trade_gain(self, p: int, q: int) -> float:
        """Concentration ``p`` can give ``q``, over all treasures."""
        return sum(self.give_gain(p, q, t) for t in range(4))


# ---------------------------------------------------------------------- the agent
class HeuristicAgent:
    """The rule-based team policy of the module docstring."""

    name = "heuristic"

    def __init__(self, epsilon: float = 0.0, planner: bool = True):
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon={epsilon!r} must lie in [0, 1]")
        self.epsilon = epsilon
        self.planner = bool(planner)

    def act(self, state: State, rng: np.random.Generator) -> int:
        """A legal action for ``state.decider``, from public facts only."""
        legal = state.legal_actions()
        if not legal:
            raise ValueError("the game is over; no action is legal")
        if self.epsilon > 0.0 and rng.random() < self.epsilon:
            return int(legal[int(rng.integers(len(legal)))])
        if len(legal) == 1:
            return legal[0]
        return choose(state, legal, self.planner)


def choose(state: State, legal: list[int], planner: bool = True) -> int:
    """The heuristic's choice among ``legal`` (the decider's legal actions); ``planner``
    plans the active player's actions as sequences (``_plan_turn``), else one option at a
    time (``_turn``: weaker, about six times faster, the search's rollout policy)."""
    if A.ESCAPE in legal:
        return A.ESCAPE  # FR9.1
    v = _View(state)
    top = state.pending[-1] if state.pending else None
    if top is None:
        if planner:
            return _plan_turn(v, state.active, legal)
        return _turn(v, state.active, legal)
    if isinstance(top, Swim):
        return _best_spot(v, top.player, legal)
    if isinstance(top, Guide):
        return _best_spot(v, top.target, legal, guided=True)
    if isinstance(top, Lift):
        return _lift_choice(v, top, legal)
    if isinstance(top, (Sandbag, Engineer)):
        return _shore_choice(v, legal)
    if isinstance(top, Discard):
        return _discard(v, top.player, legal)
    if isinstance(top, Window):
        return _window(v, top.player, legal)
    return legal[0]


# ---------------------------------------------------------------------- sub-decisions
def _shore_choice(v: _View, legal: list[int]) -> int:
    """Sandbags' tile (FR6.2) or the Engineer's second tile (FR3.2): the most valuable."""
    best, choice = -1.0, A.DONE
    for a in legal:
        if A.SHORE <= a < A.GIVE:
            x = a - A.SHORE
            val = v.importance(x) * (v.risk[x] * 2.0 + v.danger(x))
            if val > best:
                best, choice = val, a
    return choice


def _spot_score(v: _View, q: int, x: int, goals: list[int]) -> float:
    """How good slot ``x`` is for ``q``'s pawn: near its goal, or its partners, safe."""
    status = v.status
    adj = _adjacency(v.s.roles[q], status)
    score = -3.0 * v.risk[x] - (0.5 if status[x] == FLOODED else 0.0)
    score += 0.1 * len(adj[x])  # room to move and to swim from
    if goals:
        d = _bfs(adj, goals)[x]
        score -= 1.0 * min(d, 12)
    else:
        others = [v.s.pos[r] for r in range(v.n) if r != q]
        d = _bfs(adj, others)[x] if others else 0
        score -= 0.2 * min(d, 12)
    return score


def _best_spot(v: _View, q: int, legal: list[int], guided: bool = False) -> int:
    """A swim (FR7) or a guided step (FR3.5): the best-scored destination."""
    goals = v.goals(q)
    if guided and not goals:
        nav = v.s.active
        if v.trade_gain(nav, q) + v.trade_gain(q, nav) > 0.0:
            goals = [v.s.pos[nav]]
    moves = [a for a in legal if a < A.SHORE]
    if not moves:
        return legal[0]
    return max(moves, key=lambda a: (_spot_score(v, q, a - A.MOVE, goals), -a))


def _lift_target(v: _View, q: int) -> tuple[float, int]:
    """Why fly ``q``: (value, slot) of lifting its pawn, or (0, -1) for no reason."""
    if v.all_captured:
        if v.s.pos[q] != v.landing and v.team_heli >= 2:
            return HOME, v.landing
        return 0.0, -1
    t, tiles = v.capture_goal(q)
    if t < 0:
        return 0.0, -1
    d = v.reach(q, tiles, v.s.roles[q] == PILOT)
    if d <= 2:  # captures on its own next turn (3 actions)
        return 0.0, -1
    urgent = v.endangered(t) or any(v.status[y] == FLOODED for y in tiles) or d >= INF
    if v.team_heli >= 2 or urgent or sum(v.captured) == 3:
        tile = min(tiles, key=lambda y: (v.risk[y], v.status[y], y))
        return CAPTURE, tile
    return 0.0, -1


def _lift_choice(v: _View, top: Lift, legal: list[int]) -> int:
    """The group and destination of a Helicopter Lift being played (FR6.1)."""
    s = v.s
    members = [q for q in range(v.n) if top.group >> q & 1]
    if v.all_captured:
        adds = [a for a in legal if A.LIFT <= a < A.ESCAPE]
        if adds:
            return adds[0]  # everyone on the tile goes home together
        if A.MOVE + v.landing in legal:
            return A.MOVE + v.landing
    for q in members:
        t, tiles = v.capture_goal(q)
        if t >= 0:
            tile = min(tiles, key=lambda y: (v.risk[y], v.status[y], y))
            if A.MOVE + tile in legal:
                return A.MOVE + tile
    moves = [a for a in legal if a < A.SHORE]
    q = members[0]
    others = [s.pos[r] for r in range(v.n) if r != q]
    goals = v.goals(q) or others
    return max(moves, key=lambda a: (_spot_score(v, q, a - A.MOVE, goals), -a))


def _lift_play(v: _View, holder: int, legal: list[int]) -> int:
    """A Helicopter Lift worth playing now for ``holder``'s card, or -1."""
    best, choice = 0.0, -1
    for a in legal:
        if A.LIFT <= a < A.ESCAPE:
            q = v.s.seat(holder, a - A.LIFT)
            val, _ = _lift_target(v, q)
            if v.all_captured and val > 0.0:
                val += v.dist(q)[v.landing] * 0.1 + sum(
                    1 for r in range(v.n) if v.s.pos[r] == v.s.pos[q]
                )
            if val > best:
                best, choice = val, a
    return choice


def _sandbag_worth(v: _View) -> float:
    return max(
        (v.importance(x) * v.risk[x] for x in range(N_SLOTS) if v.status[x] == FLOODED),
        default=0.0,
    )


def _window(v: _View, q: int, legal: list[int]) -> int:
    """FR6.3: Sandbags on a tile that could sink now and matters; lifts with a reason."""
    if A.SANDBAG in legal and _sandbag_worth(v) >= SANDBAG_AT:
        return A.SANDBAG
    lift = _lift_play(v, q, legal)
    if lift >= 0:
        return lift
    return A.DONE


def _discard(v: _View, q: int, legal: list[int]) -> int:
    """FR5.3: drop the card worth least; play a special card rather than drop it."""
    if A.SANDBAG in legal and _sandbag_worth(v) >= SANDBAG_AT:
        return A.SANDBAG
    lift = _lift_play(v, q, legal)
    if lift >= 0:
        return lift
    worth, k = v.cheapest(q)
    if A.SANDBAG in legal and worth > SANDBAG_CARD - _best_shore(v):
        return A.SANDBAG  # a Sandbag played dries a tile; the card it saves is worth more
    return A.DISCARD + k


def _best_shore(v: _View) -> float:
    return max((v.shore_value(x) for x in range(N_SLOTS) if v.status[x] == FLOODED), default=0.0)


# ---------------------------------------------------------------------- the turn
def _step(v: _View, p: int, targets: list[int], legal: set[int]) -> int:
    """The first move of ``p``'s shortest way onto one of ``targets``."""
    s = v.s
    here = s.pos[p]
    rev = _bfs(_adjacency(s.roles[p], v.status), targets)
    flight = s.roles[p] == PILOT and not s.flew
    if rev[here] > 1 and flight:
        tile = min(targets, key=lambda y: (v.risk[y], v.status[y], y))
        if A.MOVE + tile in legal:
            return A.MOVE + tile  # FR3.6
    best, choice = (INF, 0.0, 0), -1
    for u in _walk_from(s.roles[p], here, v.status):
        if A.MOVE + u not in legal:
            continue
        key = (rev[u], v.risk[u] + (0.1 if v.status[u] == FLOODED else 0.0), u)
        if key < best:
            best, choice = key, A.MOVE + u
    return choice if choice >= 0 and best[0] < rev[here] else -1


def _option(
    v: _View, p: int, value: float, cost: int, left: int, later: float | None = None
) -> float:
    """Utility of an option worth ``value`` that takes ``cost`` actions; one that does not
    fit the actions left is worth ``later`` (default ``value``), discounted per turn."""
    if cost >= INF:
        return -INF
    if cost <= left:
        return value - ACTION_COST * cost
    turns = (cost - left + 2) // 3
    worth = value if later is None else later
    return worth * DISCOUNT**turns - ACTION_COST * cost


def _turn(v: _View, p: int, legal_list: list[int]) -> int:
    """One action of the active player ``p`` (FR4): the first step of the best option."""
    s = v.s
    legal = set(legal_list)
    if A.CAPTURE in legal:
        return A.CAPTURE  # FR4.5
    left = s.actions_left
    role = s.roles[p]
    flight = role == PILOT and not s.flew
    best_u, best_a = 0.0, A.DONE

    # leaving a partner who would give us cards on its turn forfeits that trade
    stay = 0.0
    if not v.all_captured:
        for k in range(1, v.n):
            q = s.seat(p, k)
            if s.pos[q] == s.pos[p]:
                if s.roles[q] != MESSENGER:
                    stay += STAY * v.trade_gain(q, p)

    def offer(u: float, a: int) -> None:
        nonlocal best_u, best_a
        if a < 0 or a not in legal:
            return
        if a < A.SHORE or A.LIFT <= a < A.ESCAPE:
            u -= stay
        if u > best_u:
            best_u, best_a = u, a

    # capture: walk (or fly) to the tile; lift there when walking takes too long
    t, tiles = v.capture_goal(p)
    if t >= 0:
        d = v.reach(p, tiles, flight)
        # a capture also ends every risk to the treasure's tiles
        worth = CAPTURE + sum(v.shore_value(y) for y in tiles if v.status[y] == FLOODED)
        if d + 1 > left and A.LIFT in legal:
            val, _ = _lift_target(v, p)
            if val > 0.0:
                offer(worth, A.LIFT)
        offer(_option(v, p, worth, d + 1, left), _step(v, p, tiles, legal))
    # the end: everyone to Fools' Landing (FR9.1)
    if v.all_captured:
        lift = _lift_play(v, p, legal_list)
        if lift >= 0:
            offer(HOME + 1.0, lift)
        if s.pos[p] != v.landing:
            d = v.reach(p, [v.landing], flight)
            offer(_option(v, p, HOME, d, left), _step(v, p, [v.landing], legal))
    # gives on this tile (or anywhere, for the Messenger)
    for a in legal_list:
        if A.GIVE <= a < A.CAPTURE:
            tr, k = divmod(a - A.GIVE, 3)
            g = v.give_gain(p, s.seat(p, k + 1), tr)
            if g > 0.0:
                offer(GIVE * g - ACTION_COST, a)
    # meeting a partner to trade
    if not v.all_captured:
        for k in range(1, v.n):
            q = s.seat(p, k)
            if s.pos[q] == s.pos[p]:
                continue
            gain = v.trade_gain(p, q) if role != MESSENGER else 0.0
            gain += 0.5 * v.trade_gain(q, p)
            worth = GIVE * gain
            if worth > 0.0:
                d = v.reach(p, [s.pos[q]], flight)
                offer(_option(v, p, worth, d + (gain > 0.0), left), _step(v, p, [s.pos[q]], legal))
    # shoring up (FR4.3)
    here_spots = set(s.shore_targets(p))
    for x in range(N_SLOTS):
        if v.status[x] != FLOODED:
            continue
        val = v.shore_value(x)
        if role == ENGINEER:
            val *= 1.1
        if x in here_spots:
            offer(val - ACTION_COST, A.SHORE + x)
            continue
        spots = v.shore_spots(role, x)
        d = v.reach(p, spots, flight)
        later = v.importance(x) * (v.danger(x) - v.risk[x]) * (1.0 - v.risk[x])
        offer(_option(v, p, val, d + 1, left, later), _step(v, p, spots, legal))
    # stay in reach of the tiles whose sinking loses: someone must be able to shore
    # them up on the turn after they flood (FR10.1, FR10.2)
    if GUARD > 0.0:
        for x in v.critical():
            if not v.covered(x):
                spots = v.shore_spots(role, x)
                d = v.reach(p, spots, flight)
                val = GUARD * v.importance(x) / LOSS
                offer(_option(v, p, val, d - 2, left), _step(v, p, spots, legal))
    # the Navigator moves a partner toward its goal (FR3.5)
    if role == NAVIGATOR:
        for k in range(1, v.n):
            if A.GUIDE + k - 1 in legal:
                offer(_guide_value(v, p, s.seat(p, k)) - ACTION_COST, A.GUIDE + k - 1)
    return best_a


def _guide_value(v: _View, p: int, q: int) -> float:
    """What guiding ``q`` (FR3.5) is worth: the actions it saves toward its goal."""
    s = v.s
    goals = v.goals(q)
    weight = GUIDE_STEP
    if not goals:
        gain = v.trade_gain(p, q) + v.trade_gain(q, p)
        if gain <= 0.0:
            return 0.0
        goals, weight = [s.pos[p]], min(GUIDE_STEP, GIVE * gain / 2)
    adj = _adjacency(s.roles[q], v.status)
    rev = _bfs(adj, goals)
    now = rev[s.pos[q]]
    if s.roles[q] == PILOT:
        now = min(now, 1)
    if now == 0:
        return 0.0
    best = min((rev[x] for x in s.guide_targets(q)), default=INF)
    return weight * (now - best) if best < now else 0.0


# ---------------------------------------------------------------------- the turn planner
P_CAPTURE = 40.0  # a new capture
P_RISK = 0.5  # per point of importance times the chance the tile sinks at this turn's end
P_CAPD = 3.0  # per step between a capture-ready pawn and its tile
P_HOME = 3.0  # per step between a pawn and Fools' Landing once all are captured
P_TRADE = 0.3  # per step between partners, per point of concentration they could trade
P_GUARD = 3.0  # a critical tile nobody can shore up within a turn
P_OVER = 2.0  # per card a receiver must discard
P_SWIM = 2.0  # a pawn on a tile that may sink now


def _plan_turn(v: _View, p: int, legal_list: list[int]) -> int:
    """FR4: the first action of the best sequence of the actions left, by ``_evaluate``
    of where the sequence ends (moves, flights, shore-ups, gives, a capture, a lift)."""
    s = v.s
    legal = set(legal_list)
    if A.CAPTURE in legal:
        return A.CAPTURE  # FR4.5
    role = s.roles[p]
    root = (tuple(s.pos), v.status, tuple(tuple(h) for h in s.hands), tuple(s.captured), s.flew)
    flights = _flight_targets(v, p) if role == PILOT else []
    best_val = _evaluate(v, p, root)
    best_first = A.DONE
    seen = {root}
    frontier: list[tuple[tuple, int]] = [(root, -1)]
    for _ in range(s.actions_left):
        nxt: list[tuple[tuple, int]] = []
        for node, first in frontier:
            for a, child in _expand(v, p, node, flights):
                if child in seen:
                    continue
                seen.add(child)
                f = a if first < 0 else first
                val = _evaluate(v, p, child)
                if val > best_val + 1e-9:
                    best_val, best_first = val, f
                nxt.append((child, f))
        frontier = nxt
    if best_first not in legal:  # cannot happen; stay safe
        return A.DONE
    return best_first


def _flight_targets(v: _View, p: int) -> list[int]:
    """Where a Pilot's flight is worth considering (FR3.6)."""
    s = v.s
    out = {v.landing}
    out.update(s.pos[q] for q in range(v.n) if q != p)
    out.update(v.capture_goal(p)[1])
    flooded = sorted(
        (x for x in range(N_SLOTS) if v.status[x] == FLOODED), key=lambda x: -v.shore_value(x)
    )
    for x in flooded[:4]:
        out.add(x)
    out.discard(s.pos[p])
    return sorted(out)


def _expand(v: _View, p: int, node: tuple, flights: list[int]) -> list[tuple[int, tuple]]:
    """(action, child node) for the actions ``p`` may take in ``node``."""
    s = v.s
    pos, status, hands, captured, flew = node
    role = s.roles[p]
    here = pos[p]
    out: list[tuple[int, tuple]] = []
    walk = _adjacency(role, status)[here]
    for u in walk:
        out.append((A.MOVE + u, (pos[:p] + (u,) + pos[p + 1 :], status, hands, captured, flew)))
    if role == PILOT and not flew:
        for u in flights:
            if u != here and status[u] != SUNK and u not in walk:
                out.append(
                    (
                        A.MOVE + u,
                        (pos[:p] + (u,) + pos[p + 1 :], status, hands, captured, True),
                    )
                )
    around = ORTHOGONAL[here] + (DIAGONAL[here] if role == EXPLORER else ())
    spots = [x for x in (here, *around) if status[x] == FLOODED]
    for x in spots:
        st = list(status)
        st[x] = 0
        if role == ENGINEER:  # FR3.2: the second tile, as _shore_choice picks it
            rest = [y for y in spots if y != x]
            if rest:
                y = max(rest, key=lambda y: (v.importance(y) * (v.risk[y] * 2.0 + v.danger(y)), -y))
                st[y] = 0
        out.append((A.SHORE + x, (pos, tuple(st), hands, captured, flew)))
    hp = hands[p]
    for k in range(1, v.n):
        q = (p + k) % v.n
        if role != MESSENGER and pos[q] != here:
            continue
        for t in range(4):
            if hp[t] and not captured[t] and hands[q][t] >= hp[t] - 1:
                nh = list(hands)
                a_ = list(hp)
                a_[t] -= 1
                b_ = list(hands[q])
                b_[t] += 1
                nh[p], nh[q] = tuple(a_), tuple(b_)
                out.append((A.GIVE + 3 * t + k - 1, (pos, status, tuple(nh), captured, flew)))
    tr = tile_treasure(s.tile[here])
    if tr >= 0 and not captured[tr] and hp[tr] >= CAPTURE_CARDS:
        a_ = list(hp)
        a_[tr] -= CAPTURE_CARDS
        nh = list(hands)
        nh[p] = tuple(a_)
        cap = list(captured)
        cap[tr] = True
        out.append((A.CAPTURE, (pos, status, tuple(nh), tuple(cap), flew)))
    return out


def _evaluate(v: _View, p: int, node: tuple) -> float:
    """How good the end of the active player's actions in ``node`` is (see the weights)."""
    s = v.s
    pos, status, hands, captured, flew = node
    val = 0.0
    for t in range(4):
        if captured[t]:
            if not v.captured[t]:
                val += P_CAPTURE
            continue
        for q in range(v.n):
            h = hands[q][t]
            val += GAIN[h if h < CAPTURE_CARDS else CAPTURE_CARDS]
    for q in range(v.n):
        over = sum(hands[q]) - HAND_LIMIT
        if over > 0:
            val -= P_OVER * over
    # the tiles still flooded
    all_cap = all(captured)
    for x in range(N_SLOTS):
        if status[x] != FLOODED:
            continue
        t = s.tile[x]
        tr = tile_treasure(t)
        imp = PLAIN_TILE if tr >= 0 and captured[tr] else v.importance(x)
        val -= imp * (P_RISK * v.risk[x] + BASE_DANGER + (KNOWN_DANGER if t in v.known else 0.0))
        for q in range(v.n):
            if pos[q] == x:
                val -= P_SWIM * v.risk[x]
    # the active pawn's position
    role = s.roles[p]
    d = _bfs_from(role, status, pos[p])
    pilot = role == PILOT
    for t in range(4):
        if not captured[t] and hands[p][t] >= CAPTURE_CARDS:
            tiles = [s.slot_of[x] for x in treasure_tiles(t) if status[s.slot_of[x]] != SUNK]
            dd = min((d[y] for y in tiles), default=INF)
            val -= P_CAPD * (min(dd, 1) if pilot else min(dd, 12))
    if all_cap:
        dd = d[v.landing]
        val -= P_HOME * (min(dd, 1) if pilot else min(dd, 12))
    else:
        for k in range(1, v.n):
            q = (p + k) % v.n
            g = _pair_gain(hands, captured, p, q, s.roles)
            if g > 0.0:
                dd = d[pos[q]]
                val -= P_TRADE * g * (min(dd, 1) if pilot else min(dd, 12))
    # someone must be able to reach the critical tiles
    if P_GUARD:
        for x in v.critical():
            if status[x] == SUNK:
                continue
            around = ORTHOGONAL[x]
            if any(s.roles[q] == PILOT for q in range(v.n)):
                break
            ok = False
            for q in range(v.n):
                dq = d if q == p else v.dist(q)
                if dq[x] <= 2 or any(dq[y] <= 2 for y in around if status[y] != SUNK):
                    ok = True
                    break
            if not ok:
                val -= P_GUARD * v.importance(x) / LOSS
    return val


def _pair_gain(hands: tuple, captured: tuple, p: int, q: int, roles: list[int]) -> float:
    """Concentration p and q could still trade, either way (split holdings of a treasure)."""
    g = 0.0
    for t in range(4):
        if captured[t]:
            continue
        a, b = hands[p][t], hands[q][t]
        if a and b and a + b <= CAPTURE_CARDS + 1:
            lo, hi = min(a, b), max(a, b)
            m = min(lo, CAPTURE_CARDS - hi) if hi < CAPTURE_CARDS else 0
            if m > 0:
                g += _g(hi + m) - _g(hi) - (_g(lo) - _g(lo - m))
    return g


_BFS: dict[tuple[int, tuple[int, ...], int], list[int]] = {}


def _bfs_from(role: int, status: tuple[int, ...], start: int) -> list[int]:
    """Walking actions from ``start`` for ``role`` (cached: boards repeat within a turn)."""
    kind = role if role in (DIVER, EXPLORER) else -1
    key = (kind, status, start)
    d = _BFS.get(key)
    if d is None:
        if len(_BFS) > 50000:
            _BFS.clear()
        d = _bfs(_adjacency(role, status), (start,))
        _BFS[key] = d
    return d
