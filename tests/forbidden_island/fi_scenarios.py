"""Shared helpers for the Forbidden Island rule tests: build a small situation, play it by
action name, read the legal actions back as names and slots.

Every scenario uses the identity layout: tile t lies on slot t, so a slot number is also a
tile number (``board.TILE_NAMES``). The grid (FR1.1), slots in reading order:

    column:  0   1   2   3   4   5
    row 0            0   1              0 Fools' Landing, 1-2 earth, 3-4 wind,
    row 1        2   3   4   5          5-6 fire, 7-8 ocean, 9 Bronze, 10 Copper,
    row 2    6   7   8   9  10  11      11 Gold, 12 Iron, 13 Silver Gate,
    row 3   12  13  14  15  16  17      14-23 plain tiles
    row 4       18  19  20  21
    row 5           22  23

``build`` starts from ``State.new`` with that layout and scripted decks, then sets the fields
a test is about, keeping all 28 treasure-deck cards and all 24 flood cards accounted for
(unless a test deliberately hands out more cards than exist).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np

from inselflucht_env.games.forbidden_island.rules import actions as A
from inselflucht_env.games.forbidden_island.rules.board import CELL_SLOT, N_SLOTS
from inselflucht_env.games.forbidden_island.rules.cards import (
    CAPTURE_CARDS,
    HAND_KINDS,
    TREASURE_DECK,
)
from inselflucht_env.games.forbidden_island.rules.config import ACTIONS_PER_TURN, GameConfig
from inselflucht_env.games.forbidden_island.rules.engine import (
    ACTIONS,
    DRY,
    FLOODED,
    SUNK,
    State,
)

EARTH, WIND, FIRE, OCEAN, HELI, SAND, WR = range(7)  # card kinds (cards.CARD_NAMES)
IDENTITY = list(range(N_SLOTS))  # tile t on slot t
# The order (first drawn first) of the flood cards a scenario does not name: plain tiles
# first, then the gates, the treasure tiles, Fools' Landing last.
HARMLESS_FIRST = [*range(14, 24), *range(9, 14), *range(1, 9), 0]
# The start slots of the roles on the identity layout (FR3.1).
START = {
    "diver": 12,
    "engineer": 9,
    "explorer": 10,
    "messenger": 13,
    "navigator": 11,
    "pilot": 0,
}


def slot(row: int, col: int) -> int:
    """The slot at grid cell (row, column)."""
    return CELL_SLOT[(row, col)]


def act(name: str) -> int:
    """The index of an action name."""
    return A.action_index(name)


def names(s: State) -> set[str]:
    """The legal actions as names."""
    return {A.ACTION_NAMES[i] for i in s.legal_actions()}


def moves(s: State) -> set[int]:
    """The slots named by the legal ``move:<slot>`` actions."""
    return {a - A.MOVE for a in s.legal_actions() if A.MOVE <= a < A.SHORE}


def shores(s: State) -> set[int]:
    """The slots named by the legal ``shore:<slot>`` actions."""
    return {a - A.SHORE for a in s.legal_actions() if A.SHORE <= a < A.GIVE}


def play(s: State, *actions: str, rng: np.random.Generator | None = None) -> State:
    """Apply the named actions in order (each must be legal); returns the state."""
    rng = np.random.default_rng(0) if rng is None else rng
    for name in actions:
        s.apply(act(name), rng)
    return s


def hand(*kinds: int) -> list[int]:
    """A hand (counts per kind) holding the given cards."""
    counts = [0] * HAND_KINDS
    for k in kinds:
        counts[k] += 1
    return counts


def fields(s: State) -> dict:
    """Every field of a state except the legal-action cache, deep-copied for comparing."""
    c = s.clone()
    return {f: getattr(c, f) for f in State.__slots__ if f != "_legal"}


def flood_top(s: State, n: int) -> list[int]:
    """The next ``n`` flood cards, first drawn first."""
    return s.flood_deck[::-1][:n]


def build(
    roles: Sequence[str],
    *,
    difficulty: str = "novice",
    level: int | None = None,
    pos: Sequence[int] | None = None,
    hands: Sequence[Sequence[int]] | None = None,
    flooded: Iterable[int] = (),
    sunk: Iterable[int] = (),
    captured: Iterable[int] = (),
    treasure_draws: Sequence[int] = (EARTH, WIND),
    treasure_discard: Sequence[int] = (),
    rest_to_discard: bool = False,
    flood_draws: Sequence[int] = (),
    flood_discard: Sequence[int] | None = None,
    active: int = 0,
    seed: int = 0,
) -> State:
    """A hand-built situation on the identity layout, at the start of ``active``'s actions.

    roles: one role name per seat; pos: the pawns' slots (default: the start tiles).
    hands: per seat the cards held (kinds, see ``hand``). flooded / sunk: slots (all others
    dry). captured: treasures already taken (their 4 cards lie in the treasure discard).
    treasure_draws: the next treasure cards, first drawn first; the rest of the 28 lies below
    them (Waters Rise! at the very bottom), or in the discard with ``rest_to_discard``.
    flood_draws: the next flood cards, first drawn first; flood_discard: the flood discard
    (default: the flooded tiles not in ``flood_draws``); the other standing tiles' cards lie
    below ``flood_draws`` (in ``HARMLESS_FIRST`` order) and the sunk tiles' cards are out of
    the game.
    """
    n = len(roles)
    rng = np.random.default_rng(seed)
    s = State.new(
        GameConfig.make(n, difficulty, list(roles)),
        rng,
        layout=IDENTITY,
        treasure_deck=list(TREASURE_DECK),
        flood_deck=IDENTITY,
    )
    flooded, sunk, captured = set(flooded), set(sunk), list(captured)
    assert not flooded & sunk
    s.status = [SUNK if x in sunk else FLOODED if x in flooded else DRY for x in range(N_SLOTS)]
    # flood cards (tile == slot on this layout)
    draws = list(flood_draws)
    discard = (
        [t for t in sorted(flooded) if t not in draws]
        if flood_discard is None
        else list(flood_discard)
    )
    out = sorted(sunk)
    placed = draws + discard + out
    assert len(set(placed)) == len(placed), "a flood card named twice"
    below = [t for t in HARMLESS_FIRST if t not in placed]
    s.flood_deck = below[::-1] + draws[::-1]
    s.flood_discard, s.flood_out, s.flood_known = discard, out, 0
    # treasure cards
    hands = [list(h) for h in hands] if hands is not None else [[] for _ in range(n)]
    assert len(hands) == n
    s.hands = [hand(*h) for h in hands]
    s.captured = [t in captured for t in range(4)]
    taken = Counter(k for h in hands for k in h)
    taken.update(t for t in captured for _ in range(CAPTURE_CARDS))
    taken.update(treasure_draws)
    taken.update(treasure_discard)
    pool = Counter(TREASURE_DECK)
    pool.subtract(taken)
    # more cards than the game has only where a test asks for it on purpose
    rest = [k for k in (WR, SAND, HELI, OCEAN, FIRE, WIND, EARTH) for _ in range(max(0, pool[k]))]
    s.treasure_discard = [t for t in captured for _ in range(CAPTURE_CARDS)] + list(
        treasure_discard
    )
    if rest_to_discard:
        s.treasure_discard += rest
        rest = []
    s.treasure_deck = rest + list(treasure_draws)[::-1]
    # the turn
    s.pos = list(pos) if pos is not None else [START[r] for r in roles]
    s.level = s.config.start_level if level is None else level
    s.active, s.actions_left, s.flew, s.phase = active, ACTIONS_PER_TURN, False, ACTIONS
    s.window_seat, s.floods_left, s.pending, s.turn, s.outcome = 0, 0, [], 1, None
    s._legal = None
    return s


def flood_cards_accounted(s: State) -> bool:
    """All 24 flood cards are in exactly one of deck, discard and out (FR2.1, FR8)."""
    cards = s.flood_deck + s.flood_discard + s.flood_out
    return sorted(cards) == list(range(N_SLOTS))
