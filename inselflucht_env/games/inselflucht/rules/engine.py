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

from collections.abc import Sequence
from typing import Any, Final, Literal, NamedTuple, NoReturn

import numpy as np

from inselflucht_env.errors import InputError
from inselflucht_env.games.inselflucht.rules import actions as A
from inselflucht_env.games.inselflucht.rules.board import (
    ALL,
    AROUND,
    BEYOND,
    CENTRE,
    N_PLACES,
    NEIGHBOUR,
    place,
    reachable,
    reaches_all,
)
from inselflucht_env.games.inselflucht.rules.cards import (
    HELICOPTER,
    ISLAND_CARDS,
    KING,
    N_LAND,
    NO_CARD,
    is_king,
    suit_of,
)
from inselflucht_env.games.inselflucht.rules.config import (
    ACTIONS_PER_TURN,
    FLOODS_PER_PASS,
    GameConfig,
)

HIDDEN, DRY, FLOODED, SEA = 0, 1, 2, 3
PLACE_STATES = ("hidden", "dry", "flooded", "sea")

GIVE: Final = "give"
LIFT: Final = "lift"
ESCAPE: Final = "escape"
OUTCOMES = ("win", "L1", "L2", "L3", "L4", "L5", "L6", "illegal")


# ---------------------------------------------------------------------- pending sub-decisions
# One record per kind. They are tuples with the kind first (``pending[0]``), then the
# deciding figure (``pending[1]``), so positional code keeps working; new code uses names.
class Give(NamedTuple):
    """A give in progress (R4.6): ``figure`` hands cards, one ``card:*`` at a time, to
    ``receiver`` until ``done``; ``given`` cards so far."""

    kind: Literal["give"]
    figure: int
    receiver: int
    given: int


class Lift(NamedTuple):
    """A short-suit lift in progress (R4.7): ``figure`` pays *n* + 1 cards of any suits for
    the treasure of ``suit``; ``chosen`` cards so far."""

    kind: Literal["lift"]
    figure: int
    suit: int
    chosen: int


class Escape(NamedTuple):
    """R5.5: ``figure`` stands on the sinking ``place`` and must swim to a neighbour."""

    kind: Literal["escape"]
    figure: int
    place: int


Pending = Give | Lift | Escape


class IllegalActionError(InputError):
    """An action that the rules do not allow in this state; the state is left unchanged."""


def _shuffled_deck(rng: np.random.Generator) -> list[int]:
    """A shuffled column or row deck as a draw list (top card last, for ``pop``)."""
    return (rng.permutation(FLOODS_PER_PASS) + 1).tolist()


# A translation table: byte SEA -> "1", every other byte -> "0" (``sea_mask`` in C).
_SEA_DIGITS = bytes(ord("1") if v == SEA else ord("0") for v in range(256))


def sea_mask(status: Sequence[int]) -> int:
    """Bit set of the sea places (R3.1); its complement in ``board.ALL`` is the fields."""
    if type(status) is list and len(status) == N_PLACES:  # the engine's own lists: fast path
        try:
            return int(bytes(status).translate(_SEA_DIGITS)[::-1], 2)
        except (TypeError, ValueError):
            pass  # not all small integers: the general loop decides
    sea = 0
    for p in range(N_PLACES):
        if status[p] == SEA:
            sea |= 1 << p
    return sea


# Per place: (neighbour, place beyond it, move bit, swim bit, shore bit, salvage bit) for each
# orthogonal neighbour on the grid; ``_compute_legal`` ORs action bits, ``_LEGAL_OF`` lists them.
_STEPS = tuple(
    tuple(
        (
            NEIGHBOUR[p][d],
            BEYOND[p][d],
            1 << (A.MOVE + d),
            1 << (A.SWIM + d),
            1 << (A.SHORE + d),
            1 << (A.SALVAGE + d),
        )
        for d in range(4)
        if NEIGHBOUR[p][d] >= 0
    )
    for p in range(N_PLACES)
)
_LEGAL_OF: dict[int, tuple[int, ...]] = {}  # action bit set -> its indices, ascending
_SHORE_HERE_BIT, _LIFT_BIT = 1 << A.SHORE_HERE, 1 << A.LIFT
_GOAL_CARDS = (KING, KING + 1, KING + 2, KING + 3, HELICOPTER)  # what L4 checks the reach of
_TAKE_OFF_BIT, _END_TURN_BIT = 1 << A.TAKE_OFF, 1 << A.END_TURN


def _legal_of(bits: int) -> list[int]:
    """The action indices in bit set ``bits``, ascending, as a new list (memoized)."""
    legal = _LEGAL_OF.get(bits)
    if legal is None:
        legal = tuple(a for a in range(A.N_ACTIONS) if bits >> a & 1)
        if len(_LEGAL_OF) > 100_000:
            _LEGAL_OF.clear()
        _LEGAL_OF[bits] = legal
    return list(legal)


def _rearrangement(name: str, order: Sequence[int], expected: Sequence[int]) -> list[int]:
    """``order`` as a list of ints if it rearranges ``expected``; else a ValueError naming it."""
    if (
        isinstance(order, (str, bytes))
        or not isinstance(order, (Sequence, np.ndarray))
        or any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) for v in order)
    ):
        raise ValueError(f"{name} must be a sequence of integers, got {order!r}")
    values = [int(v) for v in order]
    if sorted(values) != sorted(expected):
        raise ValueError(f"{name} must be an order of {sorted(expected)}, got {values}")
    return values


class State:
    """Everything about one game in progress, hidden parts included.

    Places are indexed 0-24 (``board.place``). ``status[p]`` is HIDDEN, DRY, FLOODED or
    SEA; ``card[p]`` the card there (``NO_CARD`` on sea). ``salvage[f]`` lists figure f's
    cards in the order salvaged; ``under_king[s]`` the cards lifting treasure s. The
    flood decks are draw lists (next card last); ``script_*`` hold fixed decks for later
    passes. ``pending`` is None or one of the records ``Give``, ``Lift``, ``Escape``.
    ``card`` and the undrawn decks are hidden information (R9): agents get them replaced
    through ``with_hidden``, never by writing them.
    """

    __slots__ = (
        "config",
        "status",
        "card",
        "pos",
        "salvage",
        "under_king",
        "lifted",
        "set_aside",
        "box",
        "meter",
        "col_deck",
        "row_deck",
        "col_discard",
        "row_discard",
        "script_col",
        "script_row",
        "active",
        "actions_left",
        "turn",
        "floods_left",
        "in_flood",
        "flood_open",
        "flood_sank",
        "escapes",
        "pending",
        "outcome",
        "remaining",
        "_legal",
        "_view",
        "_touched",
    )
    config: GameConfig
    status: list[int]  # per place: HIDDEN, DRY, FLOODED or SEA (R3.1)
    card: list[int]  # per place: card id, NO_CARD on sea (hidden: R9)
    pos: list[int]  # per figure: its place
    salvage: list[list[int]]  # per figure: cards in the order salvaged (R4.5)
    under_king: list[list[int]]  # per suit: the cards that lifted its treasure (R4.7)
    lifted: list[bool]  # per suit
    set_aside: list[int]  # sunk kings of lifted treasures (R5.5)
    box: list[int]  # sunk cards (R5.5)
    meter: list[int]  # water meter, top (the level) first (R1.4)
    col_deck: list[int]  # undrawn column cards of this pass, next last (hidden)
    row_deck: list[int]  # undrawn row cards of this pass, next last (hidden)
    col_discard: list[int]  # column cards drawn in this pass, in order (public)
    row_discard: list[int]  # row cards drawn in this pass, in order (public)
    script_col: list[list[int]]  # fixed column decks of later passes, each next last
    script_row: list[list[int]]  # fixed row decks of later passes, each next last
    active: int  # the figure whose turn it is
    actions_left: int  # of the active figure's 4 (R4.1)
    turn: int  # 1, 2, ...
    floods_left: int  # floods still to draw in the running flood phase
    in_flood: bool  # the flood phase (R5) is running
    flood_open: bool  # a flood was drawn; its escapes and checks still due
    flood_sank: bool  # that flood sank a place (L4, L5 need checking)
    escapes: list[tuple[int, int]]  # (figure, place) still to escape from this sinking
    pending: Pending | None  # the sub-decision to make, if any
    outcome: str | None  # None while running, else one of OUTCOMES
    remaining: list[int]  # per suit: land cards left on the island and in salvage
    _legal: list[int] | None  # cache of legal_actions(); None when stale
    _view: Any  # the observation encoder's memo: a BoardView or None
    _touched: int  # bit set: places whose status or card changed since the
    # encoder last looked (a hint that it checks by value)

    # ------------------------------------------------------------------ creation
    @classmethod
    def new(
        cls,
        config: GameConfig,
        rng: np.random.Generator,
        layout: Sequence[int] | None = None,
        column_deck: Sequence[Sequence[int]] = (),
        row_deck: Sequence[Sequence[int]] = (),
    ) -> State:
        """Set up a game (R2).

        ``layout``: 25 card ids, row 1 first, with ``NO_CARD`` for places dealt at random
        from the cards not named; the centre must be the helicopter. ``column_deck`` and
        ``row_deck``: draw orders of the first passes, one permutation of 1-5 per pass.
        Validation of user input is ``scenario.py``'s job; this checks only the types of
        ``config`` and ``rng``, whose misuse would otherwise fail deep inside.
        """
        if not isinstance(config, GameConfig):
            raise TypeError(
                f"State.new: config must be a GameConfig (GameConfig.make(...)), "
                f"got {type(config).__name__}"
            )
        if not isinstance(rng, np.random.Generator):
            raise TypeError(
                f"State.new: rng must be a numpy.random.Generator "
                f"(np.random.default_rng(seed)), got {type(rng).__name__}"
            )
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
        s._view = None
        s._touched = 0
        return s

    def clone(self) -> State:
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
        c._view = self._view  # immutable, and checked against the lists whenever it is used
        c._touched = self._touched
        return c

    def with_hidden(
        self,
        hidden_cards: Sequence[int],
        column_order: Sequence[int],
        row_order: Sequence[int],
        later_columns: Sequence[Sequence[int]] = (),
        later_rows: Sequence[Sequence[int]] = (),
    ) -> State:
        """A copy with the hidden information (R9) replaced; the public facts stay as they are.

        For planners (determinization) and tests (twin deals). ``hidden_cards``: the cards
        for the hidden places in place order, a rearrangement of the cards lying there now.
        ``column_order`` / ``row_order``: the column and row cards still due in this pass,
        next first, a rearrangement of the undrawn ones (R5.2). ``later_columns`` /
        ``later_rows``: fixed decks for the following passes, next first, one permutation
        of 1-5 each, as ``new``'s ``column_deck``; passes beyond them are shuffled from the
        generator given to ``apply`` (R5.3). Raises ``ValueError`` for anything else.
        """
        hidden = [p for p in range(N_PLACES) if self.status[p] == HIDDEN]
        cards = _rearrangement("hidden_cards", hidden_cards, [self.card[p] for p in hidden])
        cols = _rearrangement("column_order", column_order, self.col_deck)
        rows = _rearrangement("row_order", row_order, self.row_deck)
        full = range(1, FLOODS_PER_PASS + 1)
        later_c = [
            _rearrangement(f"later_columns[{k}]", b, full) for k, b in enumerate(later_columns)
        ]
        later_r = [_rearrangement(f"later_rows[{k}]", b, full) for k, b in enumerate(later_rows)]
        c = self.clone()
        for p, card in zip(hidden, cards):
            c.card[p] = card
            c._touched |= 1 << p
        c.col_deck = cols[::-1]  # draw lists: the next card last
        c.row_deck = rows[::-1]
        c.script_col = [b[::-1] for b in later_c]
        c.script_row = [b[::-1] for b in later_r]
        c._legal = None
        return c

    # ------------------------------------------------------------------ queries
    @property
    def is_terminal(self) -> bool:
        return self.outcome is not None

    @property
    def decider(self) -> int:
        """The figure whose player makes the next decision."""
        p = self.pending
        return p.figure if p is not None else self.active

    @property
    def water_level(self) -> int:
        return self.meter[0]

    def is_short(self, suit: int) -> bool:
        """R6.2: fewer than *n* land cards of the suit remain on the island and in salvage."""
        return self.remaining[suit] < self.config.cards_per_treasure

    def fields_mask(self) -> int:
        """Bit set of the non-sea places (R3.2)."""
        return ALL & ~sea_mask(self.status)

    def legal_actions(self) -> list[int]:
        """Indices of the legal actions, ascending; empty once the game is over."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def legal_mask(self) -> list[bool]:
        """Per action index: is it legal (the list form of ``legal_actions``)."""
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
        pos = self.pos
        p = pos[f]
        st = self.status
        card = self.card
        swim = self.actions_left >= self.config.swim_cost
        bits = _END_TURN_BIT  # R4.1: always legal
        for q, far, move, swim_bit, shore, salvage in _STEPS[p]:
            x = st[q]
            if x == SEA:
                if swim and far >= 0 and st[far] != SEA:  # R4.3 swim
                    bits |= swim_bit
            else:
                bits |= move  # R4.2 move
                if x == FLOODED:  # R4.4 shore up a neighbour
                    bits |= shore
                if x != HIDDEN and card[q] < N_LAND and q not in pos:  # R4.5 salvage
                    bits |= salvage
        if st[p] == FLOODED:  # R4.4 shore up here
            bits |= _SHORE_HERE_BIT
        if self.salvage[f]:  # R4.6 give
            n_fig = len(pos)
            for k in range(1, n_fig):
                if pos[(f + k) % n_fig] == p:
                    bits |= 1 << (A.GIVE + k - 1)
        c = card[p]
        if KING <= c < HELICOPTER and not self.lifted[c - KING] and self._can_lift(f, c - KING):
            bits |= _LIFT_BIT  # R4.7
        elif c == HELICOPTER and all(self.lifted) and pos.count(p) == len(pos):
            bits |= _TAKE_OFF_BIT  # R4.8
        return _legal_of(bits)

    def _can_lift(self, f: int, suit: int) -> bool:
        """R4.7: *n* cards of the king's suit, or *n* + 1 of any suits if it is short."""
        n = self.config.cards_per_treasure
        hand = self.salvage[f]
        if self.remaining[suit] < n:  # short (R6.2)
            return len(hand) >= n + 1
        return len(hand) >= n and sum(1 for c in hand if suit_of(c) == suit) >= n

    def _legal_pending(self, pend: Pending) -> list[int]:
        if isinstance(pend, Escape):  # R5.5: a neighbouring field, diagonals allowed
            st = self.status
            return [
                A.ESCAPE + e for e, q in enumerate(AROUND[pend.place]) if q >= 0 and st[q] != SEA
            ]
        hand = self.salvage[pend.figure]
        held = {suit_of(c) for c in hand}
        legal = [A.CARD + s for s in range(4) if s in held]
        if isinstance(pend, Give):  # R4.6: any number >= 1 of cards
            if pend.given:
                legal.append(A.DONE)
        elif len(hand) == self.config.cards_per_treasure + 1 - pend.chosen:
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
        if (
            type(action) is not int
            and (isinstance(action, bool) or not isinstance(action, (int, np.integer)))
            or action not in self.legal_actions()
        ):
            self._refuse(action)
        self._legal = None
        if self.pending is None:
            self._turn_action(action)
        else:
            self._sub_decision(action)
        self._advance(rng)

    def _refuse(self, action: int) -> NoReturn:
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
            self._touched |= 1 << p
        elif a < A.SALVAGE:
            q = NEIGHBOUR[p][a - A.SHORE]
            self.status[q] = DRY
            self._touched |= 1 << q
        elif a < A.GIVE:  # R4.5 salvage: the place becomes sea
            q = NEIGHBOUR[p][a - A.SALVAGE]
            self.salvage[f].append(self.card[q])
            self.card[q] = NO_CARD
            self.status[q] = SEA
            self._touched |= 1 << q
            self._check_cut_off()
        elif a < A.LIFT:  # R4.6 give: cards follow as free sub-steps
            self.pending = Give(GIVE, f, (f + a - A.GIVE + 1) % len(self.pos), 0)
        elif a == A.LIFT:  # R4.7
            suit = suit_of(self.card[p])
            n = self.config.cards_per_treasure
            if self.is_short(suit):
                self.pending = Lift(LIFT, f, suit, 0)
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
        if isinstance(pend, Escape):  # R5.5: a free swim to a neighbour, diagonals allowed
            self._enter(pend.figure, AROUND[pend.place][a - A.ESCAPE])
            self.pending = None
            self._next_escape()
        elif isinstance(pend, Give):  # R4.6
            if a == A.DONE:
                self.pending = None
            else:
                card = self._take(pend.figure, a - A.CARD)
                self.salvage[pend.receiver].append(card)
                self.pending = Give(GIVE, pend.figure, pend.receiver, pend.given + 1)
        elif isinstance(pend, Lift):  # a short suit: n + 1 cards of any suits (R4.7)
            chosen = pend.chosen + 1
            self._discard_under_king(pend.figure, pend.suit, a - A.CARD)
            if chosen == self.config.cards_per_treasure + 1:
                self.pending = None
                self._finish_lift(pend.suit)
            else:
                self.pending = Lift(LIFT, pend.figure, pend.suit, chosen)

    def _take(self, f: int, suit: int) -> int:
        """Remove and return figure f's first salvaged card of ``suit`` (R1.5: any one)."""
        hand = self.salvage[f]
        card = next(c for c in hand if suit_of(c) == suit)
        hand.remove(card)
        return card

    def _discard_under_king(self, f: int, king_suit: int, card_suit: int) -> None:
        card = self._take(f, card_suit)
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
            self._touched |= 1 << q

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
        p = place(col, row)
        st = self.status[p]
        if st == HIDDEN or st == DRY:
            self.status[p] = FLOODED
            self._touched |= 1 << p
        elif st == FLOODED:
            self.flood_sank = True
            self._sink(p)

    def _sink(self, p: int) -> None:
        """R5.5: the place becomes sea; figures on it must escape or drown."""
        c = self.card[p]
        self.status[p] = SEA
        self.card[p] = NO_CARD
        self._touched |= 1 << p
        if c < N_LAND:
            self.box.append(c)
            self.remaining[suit_of(c)] -= 1
        elif c == HELICOPTER:
            self.box.append(c)
            self.outcome = "L2"
            return
        elif self.lifted[suit_of(c)]:
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
            self.pending = Escape(ESCAPE, f, p)
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
        card, lifted = self.card, self.lifted
        goals = 0  # the places of the helicopter and the kings still to lift
        for c in _GOAL_CARDS:
            if c == HELICOPTER or not lifted[c - KING]:
                try:
                    goals |= 1 << card.index(c)
                except ValueError:
                    pass  # not on the island
        if reaches_all(fields, starts, goals):
            return
        reach = reachable(fields, starts)
        lost = [
            p
            for p in range(N_PLACES)
            if not reach >> p & 1
            and (card[p] == HELICOPTER or is_king(card[p]) and not lifted[suit_of(card[p])])
        ]
        if lost:
            for p in lost:
                if self.status[p] == HIDDEN:
                    self.status[p] = DRY  # ruling: the cut-off king is revealed at the end
                    self._touched |= 1 << p
            self.outcome = "L4"

    def _check_too_few(self) -> None:
        """L5: the remaining land cards cannot pay for the unlifted treasures."""
        n = self.config.cards_per_treasure
        need = sum(n + (self.remaining[s] < n) for s in range(4) if not self.lifted[s])
        if sum(self.remaining) < need:
            self.outcome = "L5"
