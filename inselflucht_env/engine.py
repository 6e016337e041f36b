"""The Inselflucht rules engine: a plain state, its legal actions, and applying one.

Pure game logic with no framework in it (the Gymnasium env, encoders, renderers and agents
only call it). Rule numbers refer to ``docs/rules.md``. The state is mutable for speed;
``clone()`` is cheap, for search. Randomness (the deal and every reshuffle) comes only from
the ``numpy.random.Generator`` passed in, so a seed plus the actions replays a game exactly,
and a planner can pass its own generator to sample the future.

A decision is made by the *decider*: the active figure, or during an escape (R5.5) the
figure on the sinking place. Sub-decisions (a give's cards, a short-suit lift's cards, an
escape) are ``pending``; one with exactly one legal choice is applied automatically.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from . import actions as A
from .board import AROUND, BEYOND, CENTRE, N_PLACES, NEIGHBOUR, reachable
from .cards import HELICOPTER, ISLAND_CARDS, KING, N_LAND, NO_CARD
from .config import ACTIONS_PER_TURN, FLOODS_PER_PASS, GameConfig

HIDDEN, DRY, FLOODED, SEA = 0, 1, 2, 3
PLACE_STATES = ("hidden", "dry", "flooded", "sea")

GIVE, LIFT, ESCAPE = "give", "lift", "escape"
OUTCOMES = ("win", "L1", "L2", "L3", "L4", "L5", "L6", "illegal")


class IllegalActionError(ValueError):
    """An action that the rules do not allow in this state; the state is left unchanged."""


def _shuffled_deck(rng: np.random.Generator) -> list[int]:
    """A shuffled column or row deck as a draw list (top card last, for ``pop``)."""
    return [int(v) + 1 for v in rng.permutation(FLOODS_PER_PASS)]


class State:
    """Everything about one game in progress, hidden parts included.

    Places are indexed 0-24 (``board.place``). ``status[p]`` is HIDDEN, DRY, FLOODED or
    SEA; ``card[p]`` the card there (``NO_CARD`` on sea). ``salvage[f]`` lists figure f's
    cards in the order salvaged; ``under_king[s]`` the cards lifting treasure s. The
    flood decks are draw lists (next card last); ``script_*`` hold fixed decks for later
    passes. ``pending`` is None or a tuple: ``("give", giver, receiver, given)``,
    ``("lift", figure, suit, chosen)`` or ``("escape", figure, place)``.
    """

    __slots__ = (
        "config", "status", "card", "pos", "salvage", "under_king", "lifted", "set_aside",
        "box", "meter", "col_deck", "row_deck", "col_discard", "row_discard", "script_col",
        "script_row", "active", "actions_left", "turn", "floods_left", "in_flood",
        "flood_open", "flood_sank", "escapes", "pending", "outcome", "remaining", "_legal",
    )

    # ------------------------------------------------------------------ creation
    @classmethod
    def new(cls, config: GameConfig, rng: np.random.Generator,
            layout: Sequence[int] | None = None,
            column_deck: Sequence[Sequence[int]] = (),
            row_deck: Sequence[Sequence[int]] = ()) -> "State":
        """Set up a game (R2).

        ``layout``: 25 card ids, row 1 first, with ``NO_CARD`` for places dealt at random
        from the cards not named; the centre must be the helicopter. ``column_deck`` and
        ``row_deck``: draw orders of the first passes, one permutation of 1-5 per pass.
        Validation of user input is ``scenario.py``'s job; this trusts its arguments.
        """
        s = cls.__new__(cls)
        s.config = config
        cards = [NO_CARD] * N_PLACES if layout is None else list(layout)
        cards[CENTRE] = HELICOPTER
        free = sorted(set(ISLAND_CARDS) - set(cards))
        open_places = [p for p in range(N_PLACES) if cards[p] == NO_CARD]
        for p, i in zip(open_places, rng.permutation(len(free))):
            cards[p] = free[int(i)]
        s.card = cards
        s.status = [HIDDEN] * N_PLACES
        s.status[CENTRE] = DRY  # R2.1: the helicopter lies face up
        n_fig = config.figures
        s.pos = [CENTRE] * n_fig  # R2.2
        s.salvage = [[] for _ in range(n_fig)]
        s.under_king = [[], [], [], []]
        s.lifted = [False] * 4
        s.set_aside = []
        s.box = []
        s.meter = list(config.meter)
        s.script_col = [list(reversed(block)) for block in column_deck]
        s.script_row = [list(reversed(block)) for block in row_deck]
        s.col_discard, s.row_discard = [], []
        s.col_deck, s.row_deck = s._next_decks(rng)
        s.active = 0
        s.actions_left = ACTIONS_PER_TURN
        s.turn = 1
        s.floods_left = 0
        s.in_flood = False
        s.flood_open = False
        s.flood_sank = False
        s.escapes = []
        s.pending = None
        s.outcome = None
        s.remaining = [5, 5, 5, 5]
        s._legal = None
        return s

    def clone(self) -> "State":
        """An independent copy (lists copied, the config shared)."""
        c = State.__new__(State)
        c.config = self.config
        c.status = self.status[:]
        c.card = self.card[:]
        c.pos = self.pos[:]
        c.salvage = [h[:] for h in self.salvage]
        c.under_king = [h[:] for h in self.under_king]
        c.lifted = self.lifted[:]
        c.set_aside = self.set_aside[:]
        c.box = self.box[:]
        c.meter = self.meter[:]
        c.col_deck = self.col_deck[:]
        c.row_deck = self.row_deck[:]
        c.col_discard = self.col_discard[:]
        c.row_discard = self.row_discard[:]
        c.script_col = [b[:] for b in self.script_col]
        c.script_row = [b[:] for b in self.script_row]
        c.active = self.active
        c.actions_left = self.actions_left
        c.turn = self.turn
        c.floods_left = self.floods_left
        c.in_flood = self.in_flood
        c.flood_open = self.flood_open
        c.flood_sank = self.flood_sank
        c.escapes = self.escapes[:]
        c.pending = self.pending
        c.outcome = self.outcome
        c.remaining = self.remaining[:]
        c._legal = self._legal
        return c

    # ------------------------------------------------------------------ queries
    @property
    def is_terminal(self) -> bool:
        return self.outcome is not None

    @property
    def decider(self) -> int:
        """The figure whose player makes the next decision."""
        p = self.pending
        return p[1] if p is not None else self.active

    @property
    def water_level(self) -> int:
        return self.meter[0]

    def is_short(self, suit: int) -> bool:
        """R6.2: fewer than *n* land cards of the suit remain on the island and in salvage."""
        return self.remaining[suit] < self.config.cards_per_treasure

    def fields_mask(self) -> int:
        """Bit set of the non-sea places (R3.2)."""
        fields = 0
        for p, st in enumerate(self.status):
            if st != SEA:
                fields |= 1 << p
        return fields

    def legal_actions(self) -> list[int]:
        """Indices of the legal actions, ascending; empty once the game is over."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def legal_mask(self) -> list[bool]:
        legal = self.legal_actions()
        mask = [False] * A.N_ACTIONS
        for a in legal:
            mask[a] = True
        return mask

    def _compute_legal(self) -> list[int]:
        if self.outcome is not None:
            return []
        pend = self.pending
        if pend is not None:
            return self._legal_pending(pend)
        f = self.active
        p = self.pos[f]
        st = self.status
        card = self.card
        left = self.actions_left
        legal = []
        nb = NEIGHBOUR[p]
        for d in range(4):  # R4.2 move
            q = nb[d]
            if q >= 0 and st[q] != SEA:
                legal.append(A.MOVE + d)
        if left >= self.config.swim_cost:  # R4.3 swim
            far = BEYOND[p]
            for d in range(4):
                q = nb[d]
                if q >= 0 and st[q] == SEA and far[d] >= 0 and st[far[d]] != SEA:
                    legal.append(A.SWIM + d)
        if st[p] == FLOODED:  # R4.4 shore up
            legal.append(A.SHORE_HERE)
        for d in range(4):
            q = nb[d]
            if q >= 0 and st[q] == FLOODED:
                legal.append(A.SHORE + d)
        pos = self.pos
        for d in range(4):  # R4.5 salvage
            q = nb[d]
            if q >= 0 and (st[q] == DRY or st[q] == FLOODED) and card[q] < N_LAND \
                    and q not in pos:
                legal.append(A.SALVAGE + d)
        if self.salvage[f]:  # R4.6 give
            n_fig = len(pos)
            for k in range(1, n_fig):
                if pos[(f + k) % n_fig] == p:
                    legal.append(A.GIVE + k - 1)
        c = card[p]
        if KING <= c < HELICOPTER and not self.lifted[c - KING] and self._can_lift(f, c - KING):
            legal.append(A.LIFT)  # R4.7
        if c == HELICOPTER and all(self.lifted) and all(q == p for q in pos):
            legal.append(A.TAKE_OFF)  # R4.8
        legal.append(A.END_TURN)
        return legal

    def _can_lift(self, f: int, suit: int) -> bool:
        n = self.config.cards_per_treasure
        hand = self.salvage[f]
        if self.is_short(suit):
            return len(hand) >= n + 1
        return sum(1 for c in hand if c // 5 == suit) >= n

    def _legal_pending(self, pend: tuple) -> list[int]:
        kind = pend[0]
        if kind == ESCAPE:
            st = self.status
            return [A.ESCAPE + e for e, q in enumerate(AROUND[pend[2]]) if q >= 0 and st[q] != SEA]
        hand = self.salvage[pend[1]]
        legal = [A.CARD + s for s in range(4) if any(c // 5 == s for c in hand)]
        if kind == GIVE:
            if pend[3]:
                legal.append(A.DONE)
        elif len(hand) == self.config.cards_per_treasure + 1 - pend[3]:
            return legal[:1]  # the whole hand must go: one set, whatever the order (R4.7)
        return legal

    def end_by_illegal_action(self) -> None:
        """End the game as ``"illegal"``: the env's choice for an action the rules forbid."""
        self.outcome = "illegal"
        self._legal = None

    # ------------------------------------------------------------------ applying
    def apply(self, action: int, rng: np.random.Generator) -> None:
        """Apply the decider's action, then everything that follows without a decision.

        That includes auto-applied one-choice sub-decisions and, when the turn's actions
        are spent, the flood phase up to the next decision or the end of the game.
        Raises ``IllegalActionError`` (state unchanged) for an action not legal here.
        """
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) \
                or action not in self.legal_actions():
            self._refuse(action)
        self._legal = None
        if self.pending is None:
            self._turn_action(action)
        else:
            self._sub_decision(action)
        self._advance(rng)

    def _refuse(self, action: int) -> None:
        if self.outcome is not None:
            raise IllegalActionError(f"the game is over ({self.outcome}); no action is legal")
        try:
            name = A.action_name(action)
        except ValueError as err:
            raise IllegalActionError(str(err)) from None
        legal = ", ".join(A.ACTION_NAMES[a] for a in self.legal_actions())
        raise IllegalActionError(f"action {name!r} is not legal now; legal: {legal}")

    def _turn_action(self, a: int) -> None:
        f = self.active
        p = self.pos[f]
        cost = 1
        if a < A.SWIM:  # R4.2 move
            self._enter(f, NEIGHBOUR[p][a - A.MOVE])
        elif a < A.SHORE_HERE:  # R4.3 swim
            self._enter(f, BEYOND[p][a - A.SWIM])
            cost = self.config.swim_cost
        elif a == A.SHORE_HERE:  # R4.4
            self.status[p] = DRY
        elif a < A.SALVAGE:
            self.status[NEIGHBOUR[p][a - A.SHORE]] = DRY
        elif a < A.GIVE:  # R4.5 salvage: the place becomes sea
            q = NEIGHBOUR[p][a - A.SALVAGE]
            self.salvage[f].append(self.card[q])
            self.card[q] = NO_CARD
            self.status[q] = SEA
            self._check_cut_off()
        elif a < A.LIFT:  # R4.6 give: cards follow as free sub-steps
            self.pending = (GIVE, f, (f + a - A.GIVE + 1) % len(self.pos), 0)
        elif a == A.LIFT:  # R4.7
            suit = self.card[p] - KING
            n = self.config.cards_per_treasure
            if self.is_short(suit):
                self.pending = (LIFT, f, suit, 0)
            else:
                for _ in range(n):
                    self._discard_under_king(f, suit, suit)
                self._finish_lift(suit)
        elif a == A.TAKE_OFF:  # R4.8, R6.1
            self.outcome = "win"
        else:  # end_turn: the rest lapses (R4.1)
            cost = self.actions_left
        self.actions_left -= cost

    def _sub_decision(self, a: int) -> None:
        pend = self.pending
        kind = pend[0]
        if kind == ESCAPE:  # R5.5: a free swim to a neighbouring field, diagonals allowed
            self._enter(pend[1], AROUND[pend[2]][a - A.ESCAPE])
            self.pending = None
            self._next_escape()
        elif kind == GIVE:
            giver, receiver, given = pend[1], pend[2], pend[3]
            if a == A.DONE:
                self.pending = None
            else:
                hand = self.salvage[giver]
                card = next(c for c in hand if c // 5 == a - A.CARD)
                hand.remove(card)
                self.salvage[receiver].append(card)
                self.pending = (GIVE, giver, receiver, given + 1)
        else:  # LIFT with a short suit: n + 1 cards of any suits (R4.7)
            fig, suit, chosen = pend[1], pend[2], pend[3] + 1
            self._discard_under_king(fig, suit, a - A.CARD)
            if chosen == self.config.cards_per_treasure + 1:
                self.pending = None
                self._finish_lift(suit)
            else:
                self.pending = (LIFT, fig, suit, chosen)

    def _discard_under_king(self, f: int, king_suit: int, card_suit: int) -> None:
        hand = self.salvage[f]
        card = next(c for c in hand if c // 5 == card_suit)  # R1.5: the first salvaged
        hand.remove(card)
        self.under_king[king_suit].append(card)
        self.remaining[card_suit] -= 1

    def _finish_lift(self, suit: int) -> None:
        self.lifted[suit] = True
        self._check_too_few()

    def _enter(self, f: int, q: int) -> None:
        """Put figure f on place q, revealing it if hidden (R4.2, R4.3, R5.5)."""
        self.pos[f] = q
        if self.status[q] == HIDDEN:
            self.status[q] = DRY

    # ------------------------------------------------------------------ flow
    def _advance(self, rng: np.random.Generator) -> None:
        """Run everything that needs no decision: one-choice sub-steps, floods, turn ends."""
        while self.outcome is None:
            if self.pending is not None:
                legal = self.legal_actions()
                if len(legal) != 1:
                    return
                self._legal = None
                self._sub_decision(legal[0])
            elif self.flood_open:
                self._close_flood(rng)
            elif self.in_flood:
                if self.floods_left:
                    self._flood()
                else:
                    self._next_turn()
                    return
            elif self.actions_left <= 0:
                self.in_flood = True  # R5.1: the count is fixed at the start of the phase
                self.floods_left = self.meter[0]
            else:
                return
        self._legal = None

    def _next_turn(self) -> None:
        self.in_flood = False
        self.active = (self.active + 1) % len(self.pos)
        self.actions_left = ACTIONS_PER_TURN
        self.turn += 1
        self._legal = None

    def _flood(self) -> None:
        """One flood (R5.2): the next column and row card name a place."""
        self.floods_left -= 1
        col = self.col_deck.pop()
        row = self.row_deck.pop()
        self.col_discard.append(col)
        self.row_discard.append(row)
        self.flood_open = True
        self._legal = None
        p = (row - 1) * 5 + col - 1
        st = self.status[p]
        if st == HIDDEN or st == DRY:
            self.status[p] = FLOODED
        elif st == FLOODED:
            self.flood_sank = True
            self._sink(p)

    def _sink(self, p: int) -> None:
        """R5.5: the place becomes sea; figures on it must escape or drown."""
        c = self.card[p]
        self.status[p] = SEA
        self.card[p] = NO_CARD
        if c < N_LAND:
            self.box.append(c)
            self.remaining[c // 5] -= 1
        elif c == HELICOPTER:
            self.box.append(c)
            self.outcome = "L2"
            return
        elif self.lifted[c - KING]:
            self.set_aside.append(c)  # safe with its cards
        else:
            self.box.append(c)
            self.outcome = "L1"
            return
        n_fig = len(self.pos)
        on = [(self.active + k) % n_fig for k in range(n_fig)]
        self.escapes = [(f, p) for f in on if self.pos[f] == p]
        if self.escapes and not any(q >= 0 and self.status[q] != SEA for q in AROUND[p]):
            self.outcome = "L3"
            return
        self._next_escape()

    def _next_escape(self) -> None:
        if self.escapes:
            f, p = self.escapes.pop(0)
            self.pending = (ESCAPE, f, p)
        self._legal = None

    def _close_flood(self, rng: np.random.Generator) -> None:
        """After a flood and its escapes: L4, L5, then the end of a pass (R5.3, R6.3)."""
        self.flood_open = False
        if self.flood_sank:  # reach and remaining cards change only when a place sinks
            self.flood_sank = False
            self._check_cut_off()
            if self.outcome is None:
                self._check_too_few()
        if self.outcome is None and not self.col_deck:
            if len(self.meter) == 1:  # R5.4: the water must rise past the last card
                self.outcome = "L6"
                return
            self.meter.pop(0)
            self.col_discard, self.row_discard = [], []
            self.col_deck, self.row_deck = self._next_decks(rng)

    def _next_decks(self, rng: np.random.Generator) -> tuple[list[int], list[int]]:
        """Fresh column and row decks: scripted for the first passes, else shuffled (R5.3)."""
        col = self.script_col.pop(0) if self.script_col else _shuffled_deck(rng)
        row = self.script_row.pop(0) if self.script_row else _shuffled_deck(rng)
        return col, row

    # ------------------------------------------------------------------ losses
    def _check_cut_off(self) -> None:
        """L4: some unlifted king, or the helicopter, is out of every figure's reach."""
        fields = self.fields_mask()
        starts = 0
        for q in self.pos:
            starts |= 1 << q
        reach = reachable(fields, starts)
        lost = [p for p in range(N_PLACES)
                if (self.card[p] == HELICOPTER or (KING <= self.card[p] < HELICOPTER
                    and not self.lifted[self.card[p] - KING])) and not reach >> p & 1]
        if lost:
            for p in lost:
                if self.status[p] == HIDDEN:
                    self.status[p] = DRY  # ruling: the cut-off king is revealed at the end
            self.outcome = "L4"

    def _check_too_few(self) -> None:
        """L5: the remaining land cards cannot pay for the unlifted treasures."""
        n = self.config.cards_per_treasure
        need = sum(n + (self.remaining[s] < n) for s in range(4) if not self.lifted[s])
        if sum(self.remaining) < need:
            self.outcome = "L5"
