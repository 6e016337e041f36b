"""A hand-written team policy, played as an expert would (the rulebook's "Tipps" and more).

Every decision of the active figure scores a handful of *targets* and takes the first step
towards the best one (or its action, when already in place):

* take off (R4.8) and lift (R4.7) whenever legal;
* guard: shore up a flooded unlifted king or the helicopter, weighted by the chance that
  the columns and rows still due in this pass (and the next passes) hit it before a figure
  can come back (R5.2, R5.3) -- a second hit is a loss (L1, L2);
* lift: walk to a face-up king whose suit the figure can pay for;
* salvage (R4.5): matching suits the team still lacks, preferring the card that completes
  the figure's pair, flooded cards (they would sink) and the edge of the island, and never
  a card whose removal cuts a king, the helicopter or an unexplored place off (L4);
* give (R4.6): merge a pair split between two figures on one field, or walk to meet;
* explore towards unseen kings (spread out: a place the partner is nearer to counts less);
* head home once every treasure is lifted, or when the figure's own turns left (R5.4)
  barely cover the way back; an idle figure waits at the helicopter and shores it up;
* an escape (R5.5) swims to the neighbour nearest the helicopter and the kings still due.

Each target's score is ``value - cost * action_cost`` where cost counts actions (moves,
swims at their price, the action itself); ``DEFAULT_WEIGHTS`` holds the values, tuned on
seeds 100000+ (not the harness's default seeds 0+). When the way to the best target needs a
swim that the actions left cannot pay for, the figure stays and shores up next to it.
Only public facts are read (``knowledge``). Deterministic: the ``rng`` is not used, except
by a *novice* (``epsilon > 0``), who plays a uniformly random legal action with that
probability at every decision -- a stand-in for a beginner team in the difficulty report.
"""

from __future__ import annotations

import numpy as np

from .. import actions as A
from ..board import AROUND, NEIGHBOUR, N_PLACES
from ..cards import HELICOPTER, KING
from ..engine import ESCAPE, GIVE, State
from . import knowledge as K
from .knowledge import FLOODED, HELI, HIDDEN, INF, SEA

WAIT = -100  # internal: stay and spend the actions left in place

DEFAULT_WEIGHTS: dict[str, float] = {
    "action_cost": 4.0,     # value of one action
    "loss": 200.0,          # value of not losing the game now
    "guard_base": 25.0,     # keeping a flooded king / the helicopter dry, beyond this turn
    "far_guard": 0.5,
    "guard_turns": 2.0,     # risk horizon: this many rounds of turns       # share of the risk counted for a guard that is out of reach
    "shore_land": 1.5,      # shoring a flooded land card next to me
    "shore_wanted": 4.0,    # ... of a suit the team still needs
    "lift": 60.0,
    "salvage": 20.0,        # a card of a suit the team still lacks
    "salvage_pair": 10.0,   # ... that completes my pair
    "salvage_other": 18.0,  # penalty: another figure collects this suit
    "salvage_short": 12.0,  # any card while a short suit still needs cards
    "salvage_flooded": 3.0,  # the card would sink otherwise
    "salvage_edge": 1.0,    # on the border of the island
    "salvage_route": 1.0,   # times the extra actions the routes from the helicopter need
    "explore": 6.0,
    "explore_king": 40.0,   # times the chance that a hidden place holds an unseen king
    "explore_land": 10.0,   # times the chance it holds a land card the team lacks
    "explore_spread": 4.0,  # penalty: another figure is nearer
    "give": 25.0,
    "meet": 30.0,
    "home": 100.0,
    "idle_home": 2.0,
    "deadline": 40.0,       # head home: my turns left barely cover the way back
    "home_slack": 0.0,      # spare turns before the deadline applies
}


def _hand_counts(hand: list[int]) -> list[int]:
    out = [0, 0, 0, 0]
    for c in hand:
        out[c // 5] += 1
    return out


def give_plan(state: State, giver: int, receiver: int) -> list[int]:
    """Suits (with repeats) the giver should hand over: merge split pairs (R4.6)."""
    n = state.config.cards_per_treasure
    g = _hand_counts(state.salvage[giver])
    r = _hand_counts(state.salvage[receiver])
    plan = []
    for s in range(4):
        if state.lifted[s] or not g[s] or not r[s] or r[s] >= n:
            continue
        if state.remaining[s] < n:
            continue
        if g[s] >= n:
            continue  # the giver can lift it itself
        plan += [s] * min(g[s], n - r[s])
    return plan


class HeuristicAgent:
    """The expert team policy described in the module docstring."""

    name = "heuristic"

    def __init__(self, epsilon: float = 0.0, **weights: float):
        unknown = set(weights) - set(DEFAULT_WEIGHTS)
        if unknown:
            raise ValueError(f"unknown heuristic weights {sorted(unknown)}; "
                             f"known: {sorted(DEFAULT_WEIGHTS)}")
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon={epsilon!r} must be within [0, 1]")
        self.epsilon = epsilon
        if epsilon:
            self.name = f"novice(epsilon={epsilon:g})"
        self.w = {**DEFAULT_WEIGHTS, **weights}
        self.trace: list | None = None  # debugging: (score, action, line) of every target

    # ------------------------------------------------------------------ entry
    def act(self, state: State, rng: np.random.Generator | None = None) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if self.epsilon and rng is not None and rng.random() < self.epsilon:
            return legal[int(rng.integers(len(legal)))]  # a novice's slip
        pend = state.pending
        if pend is None:
            return self._turn(state, legal)
        if pend[0] == ESCAPE:
            return self._escape(state, legal, pend[2])
        if pend[0] == GIVE:
            return self._give_card(state, legal, pend)
        return self._lift_card(state, legal, pend)

    # ------------------------------------------------------------------ sub-decisions
    def _escape(self, state: State, legal: list[int], p: int) -> int:
        """R5.5: swim to the neighbour from which the helicopter and the kings still to
        lift are nearest, preferring dry, well-connected places."""
        st = state.status
        sc = state.config.swim_cost
        sea = K.sea_mask(st)
        vis = K.visible_cards(state)
        kings = K.king_places(vis)
        goals = [q for s, q in enumerate(kings) if q >= 0 and not state.lifted[s]]
        all_lifted = all(state.lifted)
        best, best_a = -float(INF), legal[0]
        for a in legal:
            q = AROUND[p][a - A.ESCAPE]
            dist = K.paths_sea(sea, q, sc)[0]
            score = -3.0 * min(dist[HELI], 30) if all_lifted else -1.0 * min(dist[HELI], 30)
            if goals:
                score -= 0.5 * min(min(dist[g] for g in goals), 30)
            if st[q] == FLOODED:
                score -= 3.0
            elif st[q] == HIDDEN:
                score += 0.5
            score += 0.3 * sum(1 for r in NEIGHBOUR[q] if r >= 0 and st[r] != SEA)
            if score > best:
                best, best_a = score, a
        return best_a

    def _give_card(self, state: State, legal: list[int], pend: tuple) -> int:
        plan = give_plan(state, pend[1], pend[2])
        for s in plan:
            if A.CARD + s in legal:
                return A.CARD + s
        if A.DONE in legal:
            return A.DONE
        return legal[0]

    def _lift_card(self, state: State, legal: list[int], pend: tuple) -> int:
        """Short-suit lift (R4.7): pay with the suits the team needs least."""
        n = state.config.cards_per_treasure
        lifting = pend[2]
        team = [0, 0, 0, 0]
        for hand in state.salvage:
            for c in hand:
                team[c // 5] += 1
        best, best_a = -INF, legal[0]
        for a in legal:
            t = a - A.CARD
            if state.lifted[t] or t == lifting:
                score = 100.0 + team[t]
            elif state.remaining[t] < n:
                score = 50.0 + team[t]
            else:
                score = 10.0 + 3.0 * (state.remaining[t] - 1 - n) + (team[t] - n)
            if score > best:
                best, best_a = score, a
        return best_a

    @staticmethod
    def _route_weights(state: State, kings: list[int], n_fig: int) -> list[tuple[int, float]]:
        """Places the team must still travel to and from the helicopter, with weights."""
        out = [(q, 2.0) for s, q in enumerate(kings) if q >= 0 and not state.lifted[s]]
        out += [(q, 1.0) for q in state.pos]
        st = state.status
        out += [(q, 0.3) for q in range(N_PLACES) if st[q] == HIDDEN]
        return out

    # ------------------------------------------------------------------ a turn action
    def _turn(self, state: State, legal: list[int]) -> int:
        if A.TAKE_OFF in legal:
            return A.TAKE_OFF
        if A.LIFT in legal:
            return A.LIFT
        w = self.w
        cost_w = w["action_cost"]
        cfg = state.config
        n = cfg.cards_per_treasure
        sc = cfg.swim_cost
        f = state.active
        pos = state.pos
        n_fig = len(pos)
        p = pos[f]
        left = state.actions_left
        st = state.status
        lifted = state.lifted
        remaining = state.remaining
        vis = K.visible_cards(state)
        kings = K.king_places(vis)
        counts = [_hand_counts(h) for h in state.salvage]
        mine = counts[f]
        team = [sum(c[s] for c in counts) for s in range(4)]
        short = [remaining[s] < n for s in range(4)]
        sea = K.sea_mask(st)
        dist, first = K.paths_sea(sea, p, sc)
        others = [g for g in range(n_fig) if g != f]
        # R5.4: my turns before the water wins, against the turns I need to get home
        my_turns = -(-K.turns_left(state) // n_fig)
        home_turns = -(-(dist[HELI] + 1) // 4) if p != HELI else 0
        deadline = my_turns - home_turns <= w["home_slack"]
        roam = 0.0 if deadline else 1.0  # value factor for exploring and salvaging
        other_dist: dict[int, list[int]] = {}

        def odist(g: int) -> list[int]:
            d = other_dist.get(g)
            if d is None:
                d = other_dist[g] = K.paths_sea(sea, pos[g], sc)[0]
            return d

        best_score = 0.0  # end_turn scores 0
        best_action = A.END_TURN

        trace = self.trace

        def consider(score: float, action: int) -> None:
            nonlocal best_score, best_action
            if trace is not None:
                import inspect
                trace.append((round(score, 2), A.ACTION_NAMES[action] if action >= 0 else action,
                              inspect.currentframe().f_back.f_lineno))
            if score > best_score:
                if action in legal:
                    best_score, best_action = score, action
                elif A.SWIM <= action < A.SWIM + 4:
                    # the way leads across the water but the actions left do not pay for
                    # the swim: wait here rather than walk off elsewhere
                    best_score, best_action = score, WAIT

        def stand_cost(q: int, allow_on: bool) -> tuple[int, int]:
            """Cheapest place to act on q from (q itself if allowed, or an orthogonal
            neighbour field); returns (cost to get there, that place)."""
            bd, bp = (dist[q], q) if allow_on else (INF, -1)
            for r in NEIGHBOUR[q]:
                if r >= 0 and st[r] != SEA and dist[r] < bd:
                    bd, bp = dist[r], r
            return bd, bp

        def step_or_act(stand: int, act_here: int) -> int:
            return act_here if stand == p else first[stand]

        def direction_action(base: int, frm: int, to: int) -> int:
            if to == frm:
                return A.SHORE_HERE
            return base + NEIGHBOUR[frm].index(to)

        # ---- guard: flooded unlifted kings and the helicopter (L1, L2)
        floods_mine = K.phase_floods(state, max(1, int(n_fig * w["guard_turns"])))
        critical = [q for s, q in enumerate(kings) if q >= 0 and not lifted[s]]
        critical.append(HELI)
        for q in critical:
            if st[q] != FLOODED:
                continue
            cost, stand = stand_cost(q, True)
            if cost >= INF:
                continue
            horizon = floods_mine
            # a figure moving before me that can reach it in its turn may shore it
            for k in range(1, n_fig):
                g = (f + k) % n_fig
                dg = odist(g)
                reach_g = min([dg[q]] + [dg[r] for r in NEIGHBOUR[q] if r >= 0 and st[r] != SEA])
                if reach_g + 1 <= 4:
                    horizon = K.phase_floods(state, k)
                    break
            risk = K.hit_probability(state, q, horizon)
            value = w["guard_base"] + w["loss"] * risk * (1.0 if cost + 1 <= left else w["far_guard"])
            if stand == p:
                act = A.SHORE_HERE if q == p else direction_action(A.SHORE, p, q)
            else:
                act = first[stand]
            consider(value - cost_w * (cost + 1), act)

        # ---- shore land next to me
        for q in (p, *NEIGHBOUR[p]):
            if q < 0 or st[q] != FLOODED:
                continue
            c = vis[q]
            if not K.is_land(c):
                continue
            s = c // 5
            value = w["shore_wanted"] if (not lifted[s] and team[s] < n) else w["shore_land"]
            consider(value - cost_w, A.SHORE_HERE if q == p else direction_action(A.SHORE, p, q))

        # ---- lift
        for s in range(4):
            q = kings[s]
            if q < 0 or lifted[s]:
                continue
            if mine[s] >= n or (short[s] and sum(mine) >= n + 1):
                if dist[q] < INF:
                    consider(w["lift"] - cost_w * (dist[q] + 1), step_or_act(q, A.LIFT))

        # ---- salvage
        short_need = 0
        surplus = 0
        for s in range(4):
            if lifted[s]:
                surplus += team[s]
            elif short[s]:
                short_need += n + 1
                surplus += team[s]
            else:
                surplus += max(0, team[s] - n)
        short_wanted = short_need > surplus
        cands = []
        occupied = set(pos)
        for q in range(N_PLACES):
            c = vis[q]
            if not (0 <= c < 20) or q in occupied or dist[q] >= INF:
                continue
            s = c // 5
            if not lifted[s] and not short[s] and team[s] < n:
                value = w["salvage"]
                if mine[s] == n - 1:
                    value += w["salvage_pair"]
                if any(counts[g][s] > mine[s] for g in others):
                    value -= w["salvage_other"]
            elif short_wanted:
                value = w["salvage_short"]
            else:
                continue
            if st[q] == FLOODED:
                value += w["salvage_flooded"]
            qc, qr = q % 5, q // 5
            if qc in (0, 4) or qr in (0, 4):
                value += w["salvage_edge"]
            cost, stand = stand_cost(q, False)
            if cost >= INF:
                continue
            score = roam * value - cost_w * (cost + 1)
            if score > best_score:
                cands.append((score, q, stand))
        if cands:
            cands.sort(reverse=True)
            unseen_king = any(not lifted[s] and kings[s] < 0 for s in range(4))
            fields = ((1 << N_PLACES) - 1) & ~sea
            need = 1 << HELI
            for s in range(4):
                if kings[s] >= 0 and not lifted[s]:
                    need |= 1 << kings[s]
            for g in range(n_fig):
                need |= 1 << pos[g]
            if unseen_king:
                for q in range(N_PLACES):
                    if st[q] == HIDDEN:
                        need |= 1 << q
            base_d = None
            weights = None
            checked = 0
            for score, q, stand in cands:
                if score <= best_score or checked >= 4:
                    break
                after = fields & ~(1 << q)
                if K.reachable_from(after, HELI) & need != need:
                    continue  # L4: salvaging here would cut something off
                checked += 1
                if base_d is None:
                    base_d = K.paths_sea(sea, HELI, sc)[0]
                    weights = self._route_weights(state, kings, n_fig)
                after_d = K.paths_sea(sea | 1 << q, HELI, sc)[0]
                detour = sum(wt * (after_d[r] - base_d[r]) for r, wt in weights
                             if r != q and after_d[r] < INF)
                consider(score - cost_w * w["salvage_route"] * detour,
                         A.SALVAGE + NEIGHBOUR[p].index(q) if stand == p else first[stand])

        # ---- give / meet
        for k in range(1, n_fig):
            g = (f + k) % n_fig
            plan = give_plan(state, f, g)
            if not plan:
                continue
            if pos[g] == p:
                consider(w["give"] - cost_w, A.GIVE + k - 1)
            elif dist[pos[g]] < INF:
                # walk over to merge the pair
                consider(w["meet"] - cost_w * (dist[pos[g]] + 1), first[pos[g]])

        # ---- explore
        hidden = [q for q in range(N_PLACES) if st[q] == HIDDEN]
        if hidden:
            unseen = K.unseen_cards(state)
            n_hidden = len(hidden)
            king_frac = sum(1 for c in unseen if KING <= c < HELICOPTER
                            and not lifted[c - KING]) / n_hidden
            lacking = [max(0, n - team[s]) if not lifted[s] and not short[s] else 0
                       for s in range(4)]
            visible_wanted = [0, 0, 0, 0]
            for q in range(N_PLACES):
                c = vis[q]
                if 0 <= c < 20:
                    visible_wanted[c // 5] += 1
            land_frac = sum(1 for c in unseen if c < 20
                            and lacking[c // 5] > visible_wanted[c // 5]) / n_hidden
            value = roam * (w["explore"] + w["explore_king"] * king_frac
                            + w["explore_land"] * land_frac)
            if value - cost_w > best_score:
                ods = [odist(g) for g in others]
                spread = w["explore_spread"]
                scored = []
                for q in hidden:
                    d = dist[q]
                    if d >= INF:
                        continue
                    v = value - cost_w * d
                    for od in ods:
                        if od[q] < d:
                            v -= spread
                            break
                    if v > best_score:
                        scored.append((v, -q))
                scored.sort(reverse=True)
                for v, mq in scored:
                    if v <= best_score:
                        break
                    consider(v, first[-mq])

        # ---- home
        if all(lifted):
            if p != HELI and dist[HELI] < INF:
                consider(w["home"] - cost_w * dist[HELI], first[HELI])
        elif p != HELI and dist[HELI] < INF:
            consider(w["idle_home"] - cost_w * 0.1 * dist[HELI], first[HELI])
            if deadline:
                consider(w["deadline"] - cost_w * dist[HELI], first[HELI])

        if best_action == WAIT:
            return self._local(state, legal, vis, team, n)
        return best_action

    @staticmethod
    def _local(state: State, legal: list[int], vis: list[int], team: list[int], n: int) -> int:
        """Spend the actions left in place: shore up the most useful flooded place here or
        next to me (kings and the helicopter first, then suits the team needs)."""
        best, best_a = 0.0, A.END_TURN
        p = state.pos[state.active]
        for a in legal:
            if a == A.SHORE_HERE:
                q = p
            elif A.SHORE <= a < A.SHORE + 4:
                q = NEIGHBOUR[p][a - A.SHORE]
            else:
                continue
            c = vis[q]
            if KING <= c <= HELICOPTER:
                v = 3.0 if c == HELICOPTER or not state.lifted[c - KING] else 0.5
            elif 0 <= c < 20:
                s = c // 5
                v = 2.0 if not state.lifted[s] and team[s] < n else 1.0
            else:
                v = 0.5
            if v > best:
                best, best_a = v, a
        return best_a
