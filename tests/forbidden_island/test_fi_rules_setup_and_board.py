"""Forbidden Island rules FR1 (the island) and FR2 (cards and set-up), one test per rule or
ruling of ``docs/rules_forbidden_island.md``, each on a small hand-built situation."""

from __future__ import annotations

from collections import Counter

import numpy as np

from inselflucht_env.games.forbidden_island.rules import actions as A
from inselflucht_env.games.forbidden_island.rules.board import (
    FOOLS_LANDING,
    GRID,
    N_SLOTS,
    ORTHOGONAL,
    SLOT_CELL,
    TILE_NAMES,
    tile_treasure,
    treasure_tiles,
)
from inselflucht_env.games.forbidden_island.rules.cards import TREASURE_DECK
from inselflucht_env.games.forbidden_island.rules.config import ROLE_NAMES, GameConfig
from inselflucht_env.games.forbidden_island.rules.engine import (
    ACTIONS,
    DRY,
    FLOODED,
    State,
)
from inselflucht_env.games.forbidden_island.rules.public import describe
from tests.forbidden_island.fi_scenarios import (
    EARTH,
    FIRE,
    HELI,
    IDENTITY,
    OCEAN,
    SAND,
    WIND,
    WR,
    build,
    flood_cards_accounted,
    moves,
    names,
    play,
    shores,
)

DIFFICULTIES = ("novice", "normal", "elite", "legendary")


def dealt(seed, players=2, difficulty="novice", roles=None, **options):
    """A fresh deal from ``State.new``."""
    config = GameConfig.make(players, difficulty, roles)
    return State.new(config, np.random.default_rng(seed), **options)


def all_cards(s):
    """Every treasure-deck card of a state as a multiset: deck, discard and hands."""
    cards = Counter(s.treasure_deck) + Counter(s.treasure_discard)
    for h in s.hands:
        cards.update({k: n for k, n in enumerate(h) if n})
    return cards


def deck_starting_with(*first):
    """A scripted treasure deck (first drawn first) that begins with ``first``."""
    rest = Counter(TREASURE_DECK)
    rest.subtract(first)
    return [*first, *rest.elements()]


# ---------------------------------------------------------------------------------- FR1
def test_FR1_1_slots_are_rows_of_2_4_6_6_4_2_in_reading_order_and_actions_name_slots():
    assert N_SLOTS == 24 and GRID == 6
    per_row = Counter(r for r, _ in SLOT_CELL)
    assert [per_row[r] for r in range(6)] == [2, 4, 6, 6, 4, 2]
    assert list(SLOT_CELL) == sorted(SLOT_CELL)  # reading order: row by row, left to right
    assert all(0 <= r < 6 and 0 <= c < 6 for r, c in SLOT_CELL)
    # the square with two slots on each side: every row is centred
    for r in range(6):
        cols = [c for rr, c in SLOT_CELL if rr == r]
        assert cols == list(range(cols[0], cols[-1] + 1)) and cols[0] + cols[-1] == 5
    # the 24 tiles are dealt at random onto the slots
    layouts = {tuple(dealt(seed).tile) for seed in range(6)}
    assert len(layouts) == 6 and all(sorted(t) == IDENTITY for t in layouts)
    # move:<slot> names a slot whatever tile lies there: a Messenger on a dry island moves
    # to the same action indices on two different deals
    for seed in (0, 1):
        s = dealt(seed, roles=["messenger", "diver"])
        s.status = [DRY] * N_SLOTS
        s._legal = None
        assert moves(s) == set(ORTHOGONAL[s.pos[0]])
        assert s.tile[s.pos[0]] == TILE_NAMES.index("Silver Gate")


def test_FR1_2_eight_tiles_hold_the_four_treasures_two_each():
    pairs = {
        0: {"Temple of the Moon", "Temple of the Sun"},
        1: {"Whispering Garden", "Howling Garden"},
        2: {"Cave of Embers", "Cave of Shadows"},
        3: {"Coral Palace", "Tidal Palace"},
    }
    for t, expected in pairs.items():
        assert {TILE_NAMES[x] for x in treasure_tiles(t)} == expected
        assert all(tile_treasure(x) == t for x in treasure_tiles(t))
    assert sum(tile_treasure(x) >= 0 for x in range(24)) == 8
    # in play: four Earth cards capture on either temple and nowhere else
    for where, can in ((1, True), (2, True), (3, False), (9, False), (0, False)):
        s = build(["messenger", "pilot"], pos=[where, 0], hands=[[EARTH] * 4, []])
        assert ("capture" in names(s)) is can, TILE_NAMES[where]


def test_FR1_3_fools_landing_five_gates_and_ten_plain_tiles():
    assert TILE_NAMES[FOOLS_LANDING] == "Fools' Landing"
    gates = {x for x in TILE_NAMES if x.endswith(" Gate")}
    assert gates == {f"{m} Gate" for m in ("Bronze", "Copper", "Gold", "Iron", "Silver")}
    plain = set(TILE_NAMES) - gates - {"Fools' Landing"}
    plain -= {TILE_NAMES[x] for t in range(4) for x in treasure_tiles(t)}
    assert plain == {
        "Breakers Bridge",
        "Cliffs of Abandon",
        "Crimson Forest",
        "Dunes of Deception",
        "Lost Lagoon",
        "Misty Marsh",
        "Observatory",
        "Phantom Rock",
        "Twilight Hollow",
        "Watchtower",
    }
    assert len(set(TILE_NAMES)) == 24
    # the gates and Fools' Landing are start tiles (FR3.1); no treasure lies on them
    starts = set()
    for role in ROLE_NAMES:
        s = dealt(0, roles=[role, "diver" if role == "pilot" else "pilot"])
        starts.add(TILE_NAMES[s.tile[s.pos[0]]])
    assert all(tile_treasure(TILE_NAMES.index(x)) == -1 for x in starts | plain)


def test_FR1_4_flooded_tiles_are_entered_crossed_and_stood_on_sunk_ones_are_gone():
    # Messenger on 8 (row 2, col 2); 9 to the right flooded, 14 below sunk, 7 dry
    s = build(["messenger", "navigator"], pos=[8, 20], flooded=[9, 15], sunk=[14])
    assert moves(s) == {3, 7, 9}  # entered: 9 is flooded; 14 is sea
    assert 14 not in shores(s) and shores(s) == {9}  # a sunk tile is not shored up
    play(s, "move:9")
    assert s.pos[0] == 9 and s.status[9] == FLOODED  # stood on, still flooded
    assert moves(s) >= {4, 8, 10, 15}
    # crossed: the Navigator guides a pawn two steps over the flooded tile 15 ...
    s = build(["navigator", "messenger"], pos=[0, 20], flooded=[15], sunk=[19])
    play(s, "guide:+1")
    # from 20: one step to 15, 21, 23 (19 is sea), two steps on to 9, 14, 16, 22; 9 and 14
    # lie beyond the flooded 15, while 18 lies only beyond the sunk 19
    assert moves(s) == {9, 14, 15, 16, 21, 22, 23}
    play(s, "move:9")
    assert s.pos[1] == 9


def test_FR1_4_a_sunk_tile_is_water_for_good():
    s = build(["messenger", "pilot"], pos=[8, 0], sunk=[9], hands=[[SAND], []], flooded=[20])
    assert 9 not in moves(s)
    play(s, "sandbag")  # the only flooded tile: applied at once
    assert s.status[20] == DRY and s.status[9] != DRY and not s.exists(9)
    # the Pilot's flight does not land there either
    s = build(["pilot", "messenger"], sunk=[9])
    assert 9 not in moves(s) and len(moves(s)) == 22


# ---------------------------------------------------------------------------------- FR2
def test_FR2_1_treasure_deck_of_28_and_flood_deck_of_24():
    kinds = Counter(TREASURE_DECK)
    assert len(TREASURE_DECK) == 28
    assert kinds == {EARTH: 5, WIND: 5, FIRE: 5, OCEAN: 5, HELI: 3, SAND: 2, WR: 3}
    for seed, players in ((0, 2), (1, 3), (2, 4)):
        s = dealt(seed, players)
        assert s.card_count() == 28 and all_cards(s) == kinds
        assert flood_cards_accounted(s) and not s.flood_out
        assert len(s.flood_deck) + len(s.flood_discard) == 24


def test_FR2_2_setup_floods_the_first_six_flood_cards_into_the_discard():
    order = [5, 17, 0, 22, 9, 3, *(t for t in range(24) if t not in (5, 17, 0, 22, 9, 3))]
    s = dealt(0, layout=IDENTITY, flood_deck=order)
    assert s.flood_discard == order[:6]
    assert [x for x in range(24) if s.status[x] == FLOODED] == sorted(order[:6])
    assert s.flood_deck[::-1] == order[6:]  # the rest is the flood deck, in order
    # a random deal floods six random tiles the same way
    s = dealt(3, players=4)
    assert len(s.flood_discard) == 6 and len(s.flood_deck) == 18
    assert {s.tile[x] for x in range(24) if s.status[x] == FLOODED} == set(s.flood_discard)


def test_FR2_2_roles_are_distinct_at_random_unless_named_pawns_on_their_start_tiles():
    seen = set()
    for seed in range(20):
        s = dealt(seed, players=4)
        assert len(set(s.roles)) == 4
        seen.add(tuple(s.roles))
        start = {0: "Iron Gate", 1: "Bronze Gate", 2: "Copper Gate", 3: "Silver Gate"}
        start |= {4: "Gold Gate", 5: "Fools' Landing"}
        assert [TILE_NAMES[s.tile[p]] for p in s.pos] == [start[r] for r in s.roles]
    assert len(seen) > 10  # at random
    s = dealt(0, players=3, roles=["pilot", "diver", "engineer"])
    assert [ROLE_NAMES[r] for r in s.roles] == ["pilot", "diver", "engineer"]


def test_FR2_2_deal_two_cards_each_in_seat_order_waters_rise_set_aside_and_replaced():
    deck = deck_starting_with(WR, EARTH, WIND, FIRE, WR, OCEAN, HELI, SAND)
    s = dealt(0, players=3, layout=IDENTITY, treasure_deck=deck)
    assert s.hands[0] == [1, 1, 0, 0, 0, 0]  # Waters Rise! skipped, earth + wind
    assert s.hands[1] == [0, 0, 1, 1, 0, 0]  # fire, (Waters Rise! skipped), ocean
    assert s.hands[2] == [0, 0, 0, 0, 1, 1]
    assert s.level == 1  # a set-aside Waters Rise! does nothing
    assert len(s.treasure_deck) == 22 and s.treasure_deck.count(WR) == 3
    assert s.treasure_deck[:2] == [WR, WR]  # a scripted deck: set aside cards at the bottom
    assert not s.treasure_discard
    # a random deal: never a Waters Rise! in hand, the set-aside ones back in the deck
    for seed in range(30):
        s = dealt(seed, players=4)
        assert all(sum(h) == 2 for h in s.hands) and s.treasure_deck.count(WR) == 3
        assert s.level == 1 and len(s.treasure_deck) == 20


def test_FR2_2_ruling_seat_0_begins():
    for seed, players in ((0, 2), (1, 3), (2, 4), (3, 4)):
        s = dealt(seed, players)
        assert s.active == 0 and s.decider == 0 and s.turn == 1
        assert s.phase == ACTIONS and s.actions_left == 3 and not s.pending
        assert A.DONE in s.legal_actions()


def test_FR2_3_start_level_by_difficulty_and_flood_cards_per_level():
    for level, difficulty in enumerate(DIFFICULTIES, start=1):
        assert dealt(0, difficulty=difficulty).level == level
    for level, expected in zip(range(1, 10), (2, 2, 3, 3, 3, 4, 4, 5, 5)):
        s = build(["messenger", "navigator"], level=level)
        deck_before = len(s.flood_deck)
        play(s, "done")
        drawn = deck_before - len(s.flood_deck)
        assert drawn == expected == len(s.flood_discard), level
        assert s.status.count(FLOODED) == expected and s.level == level
        assert s.active == 1 and s.outcome is None


def test_FR2_4_hands_and_discard_piles_are_public_the_deck_orders_hidden():
    s = build(
        ["messenger", "pilot"],
        hands=[[EARTH, HELI], [SAND]],
        treasure_discard=[FIRE, WR],
        flooded=[3, 17],
    )
    d = describe(s)
    assert d["players"][0]["hand"] == {"earth": 1, "helicopter": 1}
    assert d["players"][1]["hand"] == {"sandbag": 1}
    assert d["treasure_discard"] == ["fire", "waters_rise"]
    assert d["flood_discard"] == ["Whispering Garden", "Dunes of Deception"]
    assert d["treasure_deck"] == len(s.treasure_deck) and d["flood_deck"] == len(s.flood_deck)
    # another order of both draw decks: the public view is the same
    t = s.clone()
    t.treasure_deck.reverse()
    t.flood_deck.reverse()
    assert t.treasure_deck != s.treasure_deck and describe(t) == d
