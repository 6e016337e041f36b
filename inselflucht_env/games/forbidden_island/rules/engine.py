"""The Forbidden Island rules engine: a plain state, its legal actions, and applying one.

Pure game logic with no framework in it. Rule numbers refer to
``docs/rules_forbidden_island.md``. Randomness (the deal and every reshuffle) comes only from
the ``numpy.random.Generator`` passed in, so a seed plus the actions replays a game exactly.

A turn (FR4-FR8) is a phase machine: ``ACTIONS`` (the active player's up to 3 actions),
then drawing 2 treasure cards, then the special-card ``WINDOW`` (each holder of a Helicopter
Lift or Sandbags, in seat order from the active player, may play them), then the flood
cards. Sub-decisions (a Navigator's guide, a Helicopter Lift's group and destination, a
Sandbag's tile, an Engineer's second shore-up, a discard over the hand limit, a swim, a
window) are records on the ``pending`` stack; the top one is decided by its ``player``, and
one with exactly one legal choice is applied automatically.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from inselflucht_env.errors import InputError
from inselflucht_env.games.forbidden_island.rules import actions as A
from inselflucht_env.games.forbidden_island.rules.board import (
    DIAGONAL,
    FOOLS_LANDING,
    N_SLOTS,
    N_TILES,
    ORTHOGONAL,
    grid_distance,
    tile_treasure,
    treasure_tiles,
)
from inselflucht_env.games.forbidden_island.rules.cards import (
    CAPTURE_CARDS,
    HAND_KINDS,
    HAND_LIMIT,
    HELICOPTER,
    SANDBAG,
    TREASURE_DECK,
    WATERS_RISE,
)
from inselflucht_env.games.forbidden_island.rules.config import (
    ACTIONS_PER_TURN,
    DIVER,
    ENGINEER,
    EXPLORER,
    FLOODS_AT_LEVEL,
    MESSENGER,
    NAVIGATOR,
    PILOT,
    SETUP_CARDS,
    SETUP_FLOODS,
    SKULL,
    START_TILE,
    GameConfig,
)

DRY, FLOODED, SUNK = 0, 1, 2
TILE_STATES = ("dry", "flooded", "sunk")
ACTIONS, WINDOW, FLOOD = 0, 1, 2  # phases; the treasure draw runs inside _advance
PHASE_NAMES = ("actions", "window", "flood")
OUTCOMES = ("win", "L1", "L2", "L3", "L4", "illegal")


# ---------------------------------------------------------------------- pending sub-decisions
class Guide(NamedTuple):
    """FR3.5: the Navigator has spent an action to move ``target``; ``move:<slot>`` picks
    where (up to 2 orthogonal steps)."""

    player: int
    target: int


class Lift(NamedTuple):
    """FR6.1: ``player`` played a Helicopter Lift for the pawns in bit set ``group``, all on
    ``slot``; ``lift:+k`` adds another pawn there, ``move:<slot>`` flies them all."""

    player: int
    group: int
    slot: int


class Sandbag(NamedTuple):
    """FR6.2: ``player`` played Sandbags; ``shore:<slot>`` picks any flooded tile."""

    player: int


class Engineer(NamedTuple):
    """FR3.2: the Engineer shored up a tile and may shore up a second one for the same
    action (``shore:<slot>``) or not (``done``)."""

    player: int


class Discard(NamedTuple):
    """FR5.3: ``player`` holds more than 5 cards and discards (or plays a special card)
    until 5 remain."""

    player: int


class Window(NamedTuple):
    """FR6.3: ``player`` may play Helicopter Lifts and Sandbags before the flood cards;
    ``done`` passes to the next holder."""

    player: int


class Swim(NamedTuple):
    """FR7: ``player``'s tile sank; ``move:<slot>`` picks where they swim."""

    player: int


Pending = Guide | Lift | Sandbag | Engineer | Discard | Window | Swim


class IllegalActionError(InputError):
    """An action that the rules do not allow in this state; the state is left unchanged."""


def _order(name: str, order: Sequence[int], expected: Sequence[int]) -> list[int]:
    """``order`` as a list of ints if it rearranges ``expected``; else a ValueError naming it."""
    if isinstance(order, (str, bytes)) or not isinstance(order, (Sequence, np.ndarray)):
        raise ValueError(f"{name} must be a sequence of integers, got {order!r}")
    if any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) for v in order):
        raise ValueError(f"{name} must be a sequence of integers, got {order!r}")
    values = [int(v) for v in order]
    if sorted(values) != sorted(expected):
        raise ValueError(f"{name} must be an order of {sorted(expected)}, got {values}")
    return values


class State:
    """Everything about one game in progress, hidden parts included.

    ``tile[s]`` is the tile on slot s and ``slot_of[t]`` its inverse; ``status[s]`` DRY,
    FLOODED or SUNK. ``hands[p]`` counts player p's cards per kind (``cards.HAND_KINDS``).
    Decks are draw lists, next card last: ``treasure_deck`` holds card kinds, ``flood_deck``
    tiles. The top ``flood_known`` cards of the flood deck are the ones Waters Rise! put back
    (FR5.2): which tiles they are is public, not their order. ``flood_out`` holds the flood
    cards of sunk tiles, ``captured_cards`` nothing: captured treasures' cards go to the
    discard (FR4.5). The deck orders are hidden information.
    """

    __slots__ = (
        "config",
        "tile",
        "slot_of",
        "status",
        "roles",
        "pos",
        "hands",
        "treasure_deck",
        "treasure_discard",
        "flood_deck",
        "flood_discard",
        "flood_out",
        "flood_known",
        "level",
        "captured",
        "active",
        "actions_left",
        "flew",
        "phase",
        "window_seat",
        "floods_left",
        "pending",
        "turn",
        "outcome",
        "_legal",
    )
    config: GameConfig
    tile: list[int]  # per slot: its tile (FR1.1)
    slot_of: list[int]  # per tile: its slot
    status: list[int]  # per slot: DRY, FLOODED or SUNK
    roles: list[int]  # per seat: role index (config.ROLE_NAMES)
    pos: list[int]  # per seat: the slot of its pawn
    hands: list[list[int]]  # per seat: count per card kind
    treasure_deck: list[int]  # next card last (hidden order)
    treasure_discard: list[int]
    flood_deck: list[int]  # tiles, next card last (hidden order)
    flood_discard: list[int]
    flood_out: list[int]  # flood cards of sunk tiles, out of the game (FR8.2)
    flood_known: int  # the top cards of flood_deck that are a known set (FR5.2)
    level: int  # water level 1-10 (FR2.3)
    captured: list[bool]  # per treasure
    active: int
    actions_left: int
    flew: bool  # the Pilot has flown this turn (FR3.6)
    phase: int  # ACTIONS, WINDOW or FLOOD
    window_seat: int  # the window's next seat, relative to the active player
    floods_left: int  # flood cards still to draw this turn
    pending: list[Pending]  # sub-decisions, top last
    turn: int
    outcome: str | None  # None while running, else one of OUTCOMES
    _legal: list[int] | None

    # ------------------------------------------------------------------ creation
    @classmethod
    def new(
        cls,
        config: GameConfig,
        rng: np.random.Generator,
        layout: Sequence[int] | None = None,
        treasure_deck: Sequence[int] | None = None,
        flood_deck: Sequence[int] | None = None,
    ) -> State:
        """Set up a game (FR2).

        Scenario options, for tests and worked examples: ``layout`` the tile of each slot
        (24 tiles); ``treasure_deck`` and ``flood_deck`` the draw orders, first drawn first
        (28 card kinds, 24 tiles). What is not given is shuffled from ``rng``.
        """
        if not isinstance(config, GameConfig):
            raise TypeError(f"State.new: config must be a GameConfig, got {type(config).__name__}")
        if not isinstance(rng, np.random.Generator):
            raise TypeError(
                f"State.new: rng must be a numpy.random.Generator, got {type(rng).__name__}"
            )
        s = cls.__new__(cls)
        s.config = config
        s.tile = (
            _order("layout", layout, range(N_TILES))
            if layout is not None
            else rng.permutation(N_TILES).tolist()
        )
        s.slot_of = [0] * N_TILES
        for slot, t in enumerate(s.tile):
            s.slot_of[t] = slot
        s.status = [DRY] * N_SLOTS
        s.flood_deck = (
            _order("flood_deck", flood_deck, range(N_TILES))[::-1]
            if flood_deck is not None
            else rng.permutation(N_TILES).tolist()
        )
        s.flood_discard, s.flood_out, s.flood_known = [], [], 0
        for _ in range(SETUP_FLOODS):  # FR2.2
            t = s.flood_deck.pop()
            s.status[s.slot_of[t]] = FLOODED
            s.flood_discard.append(t)
        n = config.players
        s.roles = (
            list(config.roles) if config.roles is not None else rng.permutation(6)[:n].tolist()
        )
        s.pos = [s.slot_of[START_TILE[r]] for r in s.roles]
        s.treasure_deck = (
            _order("treasure_deck", treasure_deck, TREASURE_DECK)[::-1]
            if treasure_deck is not None
            else [TREASURE_DECK[i] for i in rng.permutation(len(TREASURE_DECK))]
        )
        s.treasure_discard = []
        s.hands = [[0] * HAND_KINDS for _ in range(n)]
        set_aside = 0
        for p in range(n):  # FR2.2: Waters Rise! is set aside and replaced
            dealt = 0
            while dealt < SETUP_CARDS:
                card = s.treasure_deck.pop()
                if card == WATERS_RISE:
                    set_aside += 1
                else:
                    s.hands[p][card] += 1
                    dealt += 1
        if set_aside:
            s.treasure_deck.extend([WATERS_RISE] * set_aside)
            if treasure_deck is None:
                s.treasure_deck = [
                    s.treasure_deck[i] for i in rng.permutation(len(s.treasure_deck))
                ]
            else:  # a scripted deck keeps its order; the set-aside cards go to the bottom
                s.treasure_deck = [WATERS_RISE] * set_aside + s.treasure_deck[:-set_aside]
        s.level = config.start_level
        s.captured = [False] * 4
        s.active = 0
        s.actions_left = ACTIONS_PER_TURN
        s.flew = False
        s.phase = ACTIONS
        s.window_seat = 0
        s.floods_left = 0
        s.pending = []
        s.turn = 1
        s.outcome = None
        s._legal = None
        return s

    def clone(self) -> State:
        """An independent copy (lists copied, the config shared)."""
        c = State.__new__(State)
        c.config = self.config
        c.tile = self.tile[:]
        c.slot_of = self.slot_of[:]
        c.status = self.status[:]
        c.roles = self.roles[:]
        c.pos = self.pos[:]
        c.hands = [h[:] for h in self.hands]
        c.treasure_deck = self.treasure_deck[:]
        c.treasure_discard = self.treasure_discard[:]
        c.flood_deck = self.flood_deck[:]
        c.flood_discard = self.flood_discard[:]
        c.flood_out = self.flood_out[:]
        c.flood_known = self.flood_known
        c.level = self.level
        c.captured = self.captured[:]
        c.active = self.active
        c.actions_left = self.actions_left
        c.flew = self.flew
        c.phase = self.phase
        c.window_seat = self.window_seat
        c.floods_left = self.floods_left
        c.pending = self.pending[:]
        c.turn = self.turn
        c.outcome = self.outcome
        c._legal = self._legal
        return c

    # ------------------------------------------------------------------ reading
    @property
    def decider(self) -> int:
        """The seat that makes the next decision: the top sub-decision's player, else the
        active player."""
        return self.pending[-1].player if self.pending else self.active

    @property
    def players(self) -> int:
        return self.config.players

    def exists(self, slot: int) -> bool:
        """Whether slot ``slot`` still holds a tile (dry or flooded)."""
        return self.status[slot] != SUNK

    def hand_size(self, player: int) -> int:
        return sum(self.hands[player])

    def seat(self, player: int, k: int) -> int:
        """The player ``k`` seats after ``player``."""
        return (player + k) % self.config.players

    def walk_targets(self, player: int) -> list[int]:
        """Slots ``player`` can move to for one action without flying (FR4.1, FR3.3, FR3.4)."""
        here, role = self.pos[player], self.roles[player]
        near = set(s for s in ORTHOGONAL[here] if self.status[s] != SUNK)
        if role == EXPLORER:
            near.update(s for s in DIAGONAL[here] if self.status[s] != SUNK)
        elif role == DIVER:  # FR3.4: through any chain of flooded or sunk slots
            seen, frontier = {here}, [here]
            while frontier:
                nxt = []
                for s in frontier:
                    for t in ORTHOGONAL[s]:
                        if t in seen:
                            continue
                        seen.add(t)
                        if self.status[t] != SUNK:
                            near.add(t)
                        if self.status[t] != DRY:
                            nxt.append(t)
                frontier = nxt
        near.discard(here)
        return sorted(near)

    def shore_targets(self, player: int) -> list[int]:
        """Flooded slots ``player`` can shore up: its own and the adjacent ones (FR4.3),
        diagonals too for the Explorer (FR3.3)."""
        here = self.pos[player]
        around = ORTHOGONAL[here] + (DIAGONAL[here] if self.roles[player] == EXPLORER else ())
        return sorted(s for s in (here, *around) if self.status[s] == FLOODED)

    def guide_targets(self, target: int) -> list[int]:
        """FR3.5: slots up to two orthogonal steps from ``target``'s pawn over tiles."""
        here = self.pos[target]
        one = [s for s in ORTHOGONAL[here] if self.status[s] != SUNK]
        two = {t for s in one for t in ORTHOGONAL[s] if self.status[t] != SUNK}
        return sorted((set(one) | two) - {here})

    def swim_targets(self, player: int) -> list[int]:
        """FR7: where ``player`` may swim from its sinking slot."""
        here, role = self.pos[player], self.roles[player]
        if role == PILOT:  # FR7.3: the Pilot flies anywhere
            return [s for s in range(N_SLOTS) if s != here and self.status[s] != SUNK]
        if role == DIVER:  # FR7.3: the nearest tile(s)
            tiles = [s for s in range(N_SLOTS) if s != here and self.status[s] != SUNK]
            if not tiles:
                return []
            best = min(grid_distance(here, s) for s in tiles)
            return [s for s in tiles if grid_distance(here, s) == best]
        around = ORTHOGONAL[here] + (DIAGONAL[here] if role == EXPLORER else ())
        return sorted(s for s in around if self.status[s] != SUNK)

    def capturable(self, player: int) -> int:
        """The treasure ``player`` can capture where it stands (FR4.5), or -1."""
        t = tile_treasure(self.tile[self.pos[player]])
        if t >= 0 and not self.captured[t] and self.hands[player][t] >= CAPTURE_CARDS:
            return t
        return -1

    def can_escape(self, player: int) -> bool:
        """FR9.1: all treasures captured, every pawn on Fools' Landing, and ``player`` holds
        a Helicopter Lift."""
        landing = self.slot_of[FOOLS_LANDING]
        return (
            all(self.captured)
            and self.hands[player][HELICOPTER] > 0
            and all(p == landing for p in self.pos)
        )

    def card_count(self) -> int:
        """Treasure-deck cards accounted for (always 28, FR2.1)."""
        return (
            len(self.treasure_deck)
            + len(self.treasure_discard)
            + sum(self.hand_size(p) for p in range(self.config.players))
        )

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[int]:
        """The legal action indices for the decider, ascending; [] once the game is over."""
        if self._legal is None:
            self._legal = sorted(self._compute_legal())
        return list(self._legal)

    def legal_mask(self) -> list[bool]:
        """Per action index: is it legal (the list form of ``legal_actions``)."""
        mask = [False] * A.N_ACTIONS
        for a in self.legal_actions():
            mask[a] = True
        return mask

    def _specials(self, player: int) -> list[int]:
        """Helicopter Lift, Sandbags and the escape ``player`` may play now (FR6, FR9.1)."""
        out: list[int] = []
        hand = self.hands[player]
        if hand[SANDBAG] and FLOODED in self.status:
            out.append(A.SANDBAG)
        if hand[HELICOPTER]:
            if sum(1 for s in range(N_SLOTS) if self.status[s] != SUNK) > 1:
                out.extend(A.LIFT + k for k in range(self.config.players))
            if self.can_escape(player):
                out.append(A.ESCAPE)
        return out

    def _compute_legal(self) -> list[int]:
        if self.outcome is not None:
            return []
        if self.pending:
            return self._pending_legal(self.pending[-1])
        p = self.active  # the actions phase (FR4)
        out = [A.DONE, *self._specials(p)]
        walk = self.walk_targets(p)
        out.extend(A.MOVE + s for s in walk)
        if self.roles[p] == PILOT and not self.flew:  # FR3.6
            out.extend(
                A.MOVE + s
                for s in range(N_SLOTS)
                if self.status[s] != SUNK and s != self.pos[p] and s not in walk
            )
        out.extend(A.SHORE + s for s in self.shore_targets(p))
        for k in range(1, self.config.players):
            q = self.seat(p, k)
            if self.roles[p] == MESSENGER or self.pos[q] == self.pos[p]:  # FR4.4, FR3.7
                out.extend(A.GIVE + 3 * t + k - 1 for t in range(4) if self.hands[p][t])
            if self.roles[p] == NAVIGATOR and self.guide_targets(q):
                out.append(A.GUIDE + k - 1)
        if self.capturable(p) >= 0:
            out.append(A.CAPTURE)
        return out

    def _pending_legal(self, top: Pending) -> list[int]:
        if isinstance(top, Guide):
            return [A.MOVE + s for s in self.guide_targets(top.target)]
        if isinstance(top, Lift):
            out = [
                A.LIFT + k
                for k in range(self.config.players)
                if not top.group >> self.seat(top.player, k) & 1
                and self.pos[self.seat(top.player, k)] == top.slot
            ]
            out.extend(
                A.MOVE + s for s in range(N_SLOTS) if self.status[s] != SUNK and s != top.slot
            )
            return out
        if isinstance(top, Sandbag):
            return [A.SHORE + s for s in range(N_SLOTS) if self.status[s] == FLOODED]
        if isinstance(top, Engineer):
            return [A.DONE, *(A.SHORE + s for s in self.shore_targets(top.player))]
        if isinstance(top, Discard):
            hand = self.hands[top.player]
            return [A.DISCARD + k for k in range(HAND_KINDS) if hand[k]] + self._specials(
                top.player
            )
        if isinstance(top, Window):
            return [A.DONE, *self._specials(top.player)]
        return [A.MOVE + s for s in self.swim_targets(top.player)]  # Swim

    def end_by_illegal_action(self) -> None:
        """End the game as ``"illegal"``: the env's choice for an action the rules forbid."""
        self.outcome = "illegal"
        self._legal = None

    # ------------------------------------------------------------------ applying
    def apply(self, action: int, rng: np.random.Generator) -> None:
        """Play ``action`` for the decider, then run the game on to the next decision.

        ``IllegalActionError`` (state unchanged) for an action not in ``legal_actions()``.
        """
        legal = self.legal_actions()
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(f"action {action!r} is not an action index")
        a = int(action)
        if a not in legal:
            if self.outcome is not None:
                raise IllegalActionError(f"the game is over ({self.outcome}); no action is legal")
            name = A.action_name(a) if 0 <= a < A.N_ACTIONS else repr(action)
            raise IllegalActionError(
                f"action {name} is not legal now; legal: "
                + ", ".join(A.ACTION_NAMES[i] for i in legal)
            )
        self._legal = None
        if self.pending:
            self._apply_pending(self.pending[-1], a)
        else:
            self._apply_turn_action(a)
        self._advance(rng)

    def _apply_turn_action(self, a: int) -> None:
        p = self.active
        if self._play_special(p, a):
            return
        if a == A.DONE:  # FR4: the remaining actions are given up
            self.actions_left = 0
            return
        self.actions_left -= 1
        if a < A.SHORE:  # move (FR4.1) or the Pilot's flight (FR3.6)
            slot = a - A.MOVE
            if slot not in self.walk_targets(p):
                self.flew = True
            self.pos[p] = slot
        elif a < A.GIVE:  # FR4.3
            self.status[a - A.SHORE] = DRY
            if self.roles[p] == ENGINEER and self.shore_targets(p):
                self.pending.append(Engineer(p))  # FR3.2
        elif a < A.CAPTURE:  # FR4.4
            t, k = divmod(a - A.GIVE, 3)
            q = self.seat(p, k + 1)
            self.hands[p][t] -= 1
            self.hands[q][t] += 1
            if self.hand_size(q) > HAND_LIMIT:
                self.pending.append(Discard(q))  # FR5.3
        elif a == A.CAPTURE:  # FR4.5
            t = self.capturable(p)
            self.hands[p][t] -= CAPTURE_CARDS
            self.treasure_discard.extend([t] * CAPTURE_CARDS)
            self.captured[t] = True
        else:  # guide (FR3.5)
            self.pending.append(Guide(p, self.seat(p, a - A.GUIDE + 1)))

    def _play_special(self, p: int, a: int) -> bool:
        """Play Sandbags, a Helicopter Lift or the escape for ``p``; False for other actions."""
        if a == A.SANDBAG:
            self.hands[p][SANDBAG] -= 1
            self.treasure_discard.append(SANDBAG)
            self.pending.append(Sandbag(p))
        elif A.LIFT <= a < A.ESCAPE:
            self.hands[p][HELICOPTER] -= 1
            self.treasure_discard.append(HELICOPTER)
            q = self.seat(p, a - A.LIFT)
            self.pending.append(Lift(p, 1 << q, self.pos[q]))
        elif a == A.ESCAPE:
            self.hands[p][HELICOPTER] -= 1
            self.treasure_discard.append(HELICOPTER)
            self.outcome = "win"
        else:
            return False
        return True

    def _apply_pending(self, top: Pending, a: int) -> None:
        if isinstance(top, Guide):
            self.pending.pop()
            self.pos[top.target] = a - A.MOVE
        elif isinstance(top, Lift):
            if a >= A.LIFT:
                q = self.seat(top.player, a - A.LIFT)
                self.pending[-1] = top._replace(group=top.group | 1 << q)
            else:
                self.pending.pop()
                for q in range(self.config.players):
                    if top.group >> q & 1:
                        self.pos[q] = a - A.MOVE
        elif isinstance(top, (Sandbag, Engineer)):
            self.pending.pop()
            if a != A.DONE:
                self.status[a - A.SHORE] = DRY
        elif isinstance(top, Discard):
            if not self._play_special(top.player, a):
                self.hands[top.player][a - A.DISCARD] -= 1
                self.treasure_discard.append(a - A.DISCARD)
            if self.hand_size(top.player) <= HAND_LIMIT:  # records compare as tuples: by identity
                del self.pending[next(i for i, x in enumerate(self.pending) if x is top)]
        elif isinstance(top, Window):
            if a == A.DONE:
                self.pending.pop()
                self.window_seat += 1
            else:
                self._play_special(top.player, a)
        else:  # Swim
            self.pending.pop()
            self.pos[top.player] = a - A.MOVE

    # ------------------------------------------------------------------ running the turn
    def _advance(self, rng: np.random.Generator) -> None:
        """Run the game on until a player has a real choice or the game is over."""
        while self.outcome is None:
            if self.pending:
                legal = self.legal_actions()
                if len(legal) != 1:
                    return
                self._legal = None
                self._apply_pending(self.pending[-1], legal[0])
                continue
            if self.phase == ACTIONS:
                if self.actions_left > 0:
                    return
                self._draw_treasure_cards(rng)  # FR5
                self.phase, self.window_seat = WINDOW, 0
                if self.hand_size(self.active) > HAND_LIMIT:
                    self.pending.append(Discard(self.active))
                continue
            if self.phase == WINDOW:  # FR6.3
                while self.window_seat < self.config.players:
                    q = self.seat(self.active, self.window_seat)
                    if self._specials(q):
                        self.pending.append(Window(q))
                        break
                    self.window_seat += 1
                else:
                    self.phase, self.floods_left = FLOOD, FLOODS_AT_LEVEL[self.level]
                continue
            if self.floods_left > 0:  # FR8
                self.floods_left -= 1
                self._flood_one(rng)
                continue
            self._next_turn()
        self._legal = None

    def _draw_treasure_cards(self, rng: np.random.Generator) -> None:
        """FR5.1, FR5.2: the active player draws two cards; Waters Rise! acts at once."""
        for _ in range(2):
            if not self.treasure_deck:
                self._reshuffle_treasure(rng)
                if not self.treasure_deck:
                    return
            card = self.treasure_deck.pop()
            if card != WATERS_RISE:
                self.hands[self.active][card] += 1
            else:
                self.treasure_discard.append(WATERS_RISE)
                self.level += 1
                if self.level >= SKULL:
                    self.outcome = "L4"  # FR10.4
                    return
                if self.flood_discard:
                    back = [self.flood_discard[i] for i in rng.permutation(len(self.flood_discard))]
                    self.flood_deck.extend(back)
                    self.flood_known = len(back)
                    self.flood_discard = []
            if not self.treasure_deck:  # FR5.1: an empty deck is reshuffled at once
                self._reshuffle_treasure(rng)

    def _reshuffle_treasure(self, rng: np.random.Generator) -> None:
        d = self.treasure_discard
        self.treasure_deck = [d[i] for i in rng.permutation(len(d))]
        self.treasure_discard = []

    def _flood_one(self, rng: np.random.Generator) -> None:
        """FR8.1: draw one flood card; a dry tile floods, a flooded one sinks (FR8.2)."""
        if not self.flood_deck:  # FR8.3
            d = self.flood_discard
            self.flood_deck = [d[i] for i in rng.permutation(len(d))]
            self.flood_discard, self.flood_known = [], 0
            if not self.flood_deck:
                return
        t = self.flood_deck.pop()
        self.flood_known = max(0, self.flood_known - 1)
        slot = self.slot_of[t]
        if self.status[slot] == DRY:
            self.status[slot] = FLOODED
            self.flood_discard.append(t)
            return
        self.status[slot] = SUNK
        self.flood_out.append(t)
        if t == FOOLS_LANDING:
            self.outcome = "L2"  # FR10.2
            return
        tr = tile_treasure(t)
        if (
            tr >= 0
            and not self.captured[tr]
            and all(self.status[self.slot_of[x]] == SUNK for x in treasure_tiles(tr))
        ):
            self.outcome = "L1"  # FR10.1
            return
        swimmers = [self.seat(self.active, k) for k in range(self.config.players)]
        swimmers = [q for q in swimmers if self.pos[q] == slot]
        for q in swimmers:
            if not self.swim_targets(q):
                self.outcome = "L3"  # FR10.3
                return
        self.pending.extend(Swim(q) for q in reversed(swimmers))  # FR7.1: in seat order

    def _next_turn(self) -> None:
        self.active = self.seat(self.active, 1)
        self.actions_left = ACTIONS_PER_TURN
        self.flew = False
        self.phase = ACTIONS
        self.turn += 1
