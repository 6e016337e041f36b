"""Forbidden Island rules FR4-FR6 of ``docs/rules_forbidden_island.md``, one test per rule or
ruling: the actions, drawing treasure cards (Waters Rise!, the hand limit), special cards."""

from __future__ import annotations

from collections import Counter

from inselflucht_env.games.forbidden_island.rules.engine import (
    ACTIONS,
    DRY,
    FLOODED,
    SUNK,
    WINDOW,
    Discard,
    Lift,
    Sandbag,
    Swim,
    Window,
)
from tests.forbidden_island.fi_scenarios import (
    EARTH,
    FIRE,
    HELI,
    OCEAN,
    SAND,
    WIND,
    WR,
    build,
    flood_cards_accounted,
    hand,
    moves,
    names,
    play,
    shores,
)

TREASURE_ACTIONS = {"done", "lift:+0", "lift:+1", "lift:+2"}


# ---------------------------------------------------------------------------------- FR4.1
def test_FR4_1_move_one_tile_orthogonally_onto_a_dry_or_flooded_tile():
    # Messenger on 9 (row 2, col 3): 4 above flooded, 10 to the right sunk, 8 and 15 dry;
    # the diagonals 3, 5, 14, 16 are not offered
    s = build(["messenger", "engineer"], pos=[9, 20], flooded=[4], sunk=[10])
    assert moves(s) == {4, 8, 15}
    play(s, "move:4")
    assert s.pos == [4, 20] and s.actions_left == 2 and s.status[4] == FLOODED
    assert moves(s) == {1, 3, 5, 9}
    play(s, "move:9", "move:8")
    # three actions spent: the turn runs on to the next seat
    assert s.pos[0] == 8 and s.active == 1 and s.actions_left == 3


def test_FR4_actions_done_gives_up_the_remaining_actions():
    s = build(["messenger", "engineer"], pos=[9, 20])
    play(s, "move:8", "done")
    assert s.pos[0] == 8 and s.active == 1 and s.turn == 2
    assert s.hands[0] == hand(EARTH, WIND)  # the treasure draw followed at once


# ---------------------------------------------------------------------------------- FR4.2
def test_FR4_2_special_cards_cost_no_action_and_may_be_played_between_actions():
    s = build(["messenger", "engineer"], pos=[13, 9], hands=[[HELI, SAND], []], flooded=[20, 21])
    assert {"sandbag", "lift:+0", "lift:+1"} <= names(s)
    play(s, "move:14")
    assert s.actions_left == 2
    play(s, "sandbag", "shore:20")
    assert s.status[20] == DRY and s.actions_left == 2
    play(s, "lift:+0", "move:23")
    assert s.pos == [23, 9] and s.actions_left == 2
    assert s.hands[0] == hand() and s.treasure_discard[-2:] == [SAND, HELI]
    play(s, "move:22")
    assert s.pos[0] == 22 and s.actions_left == 1


# ---------------------------------------------------------------------------------- FR4.3
def test_FR4_3_shore_up_the_own_tile_or_an_orthogonal_neighbour():
    # Messenger on 9: 9 itself and 4 above flooded, 3 (diagonal) and 20 (far) flooded too
    s = build(["messenger", "engineer"], pos=[9, 23], flooded=[3, 4, 9, 20])
    assert shores(s) == {4, 9}
    play(s, "shore:4")
    assert s.status[4] == DRY and s.actions_left == 2
    assert [x for x in range(24) if s.status[x] == FLOODED] == [3, 9, 20]
    play(s, "shore:9")
    assert s.status[9] == DRY and s.actions_left == 1 and not shores(s)


# ---------------------------------------------------------------------------------- FR4.4
def test_FR4_4_give_a_treasure_card_to_a_player_on_the_same_tile():
    s = build(
        ["engineer", "explorer", "diver"], pos=[9, 9, 20], hands=[[EARTH, EARTH, FIRE], [], []]
    )
    gives = {n for n in names(s) if n.startswith("give:")}
    assert gives == {"give:earth:+1", "give:fire:+1"}  # seat 2 is elsewhere
    play(s, "give:earth:+1")
    assert s.hands[0] == hand(EARTH, FIRE) and s.hands[1] == hand(EARTH)
    assert s.actions_left == 2


def test_FR4_4_give_plus_k_names_the_seat_k_after_the_giver():
    # active seat 1 with three players: +1 is seat 2, +2 wraps round to seat 0
    s = build(
        ["engineer", "explorer", "diver"],
        pos=[9, 9, 9],
        hands=[[], [WIND, OCEAN], []],
        active=1,
    )
    gives = {n for n in names(s) if n.startswith("give:")}
    assert gives == {"give:wind:+1", "give:wind:+2", "give:ocean:+1", "give:ocean:+2"}
    play(s, "give:wind:+2")
    assert s.hands == [hand(WIND), hand(OCEAN), hand()]
    play(s, "give:ocean:+1")
    assert s.hands == [hand(WIND), hand(), hand(OCEAN)] and s.actions_left == 1


def test_FR4_4_helicopter_lifts_and_sandbags_are_not_given():
    s = build(["engineer", "explorer"], pos=[9, 9], hands=[[HELI, SAND], []], flooded=[20])
    assert not {n for n in names(s) if n.startswith("give:")}
    assert {"lift:+0", "sandbag"} <= names(s)


def test_FR4_4_only_the_active_player_gives():
    # seat 1 shares the tile with seat 0 and holds treasure cards and a Helicopter Lift:
    # in the window after seat 0's draw it may play the card, not give
    s = build(["engineer", "explorer"], pos=[9, 9], hands=[[], [EARTH, FIRE, HELI]])
    play(s, "done")
    assert s.phase == WINDOW and s.pending == [Window(1)] and s.decider == 1
    assert names(s) == {"done", "lift:+0", "lift:+1"}


# ---------------------------------------------------------------------------------- FR4.5
def test_FR4_5_capture_with_4_cards_on_a_dry_treasure_tile():
    # slot 1 is the Temple of the Sun (the Earth Stone)
    s = build(["messenger", "engineer"], pos=[1, 9], hands=[[EARTH] * 4 + [FIRE], []])
    assert "capture" in names(s)
    discard_before = len(s.treasure_discard)
    play(s, "capture")
    assert s.captured == [True, False, False, False]
    assert s.hands[0] == hand(FIRE) and s.actions_left == 2
    assert s.treasure_discard[discard_before:] == [EARTH] * 4
    assert s.card_count() == 28
    assert "capture" not in names(s)


def test_FR4_5_capture_on_a_flooded_treasure_tile():
    # slot 7 is the Coral Palace (the Ocean's Chalice), flooded
    s = build(["messenger", "engineer"], pos=[7, 9], hands=[[OCEAN] * 4, []], flooded=[7])
    assert "capture" in names(s)
    play(s, "capture")
    assert s.captured == [False, False, False, True] and s.hands[0] == hand()
    assert s.status[7] == FLOODED


def test_FR4_5_no_capture_without_4_cards_or_off_the_treasure_tile():
    s = build(["messenger", "engineer"], pos=[1, 9], hands=[[EARTH] * 3, []])
    assert "capture" not in names(s)  # 3 cards
    s = build(["messenger", "engineer"], pos=[3, 9], hands=[[EARTH] * 4, []])
    assert "capture" not in names(s)  # slot 3 holds the Statue of the Wind
    s = build(["messenger", "engineer"], pos=[9, 1], hands=[[EARTH] * 4, []])
    assert "capture" not in names(s)  # the Bronze Gate


def test_FR4_5_no_capture_of_a_treasure_already_captured():
    # deliberately more earth cards than the game has: the treasure is already taken
    s = build(["messenger", "engineer"], pos=[2, 9], hands=[[EARTH] * 4, []], captured=[0])
    assert s.captured[0]
    assert "capture" not in names(s)


# ---------------------------------------------------------------------------------- FR5.1
def test_FR5_1_the_active_player_draws_2_treasure_cards_after_the_actions():
    s = build(["messenger", "engineer"], hands=[[EARTH], []], treasure_draws=(FIRE, OCEAN))
    deck_before = len(s.treasure_deck)
    play(s, "move:14", "move:15")
    assert s.hands[0] == hand(EARTH)  # no draw during the actions
    play(s, "move:16")
    assert s.hands[0] == hand(EARTH, FIRE, OCEAN) and s.hands[1] == hand()
    assert len(s.treasure_deck) == deck_before - 2
    assert s.active == 1 and s.phase == ACTIONS  # the window (nobody) and floods followed


def test_FR5_1_an_empty_deck_is_reshuffled_at_once():
    # only the two drawn cards are in the deck, the other 26 in the discard
    s = build(["messenger", "engineer"], treasure_draws=(FIRE, OCEAN), rest_to_discard=True)
    rest = Counter(s.treasure_discard)
    assert len(s.treasure_deck) == 2 and sum(rest.values()) == 26
    play(s, "done")
    assert s.hands[0] == hand(FIRE, OCEAN)
    assert s.treasure_discard == [] and len(s.treasure_deck) == 26
    assert Counter(s.treasure_deck) == rest
    assert s.card_count() == 28


def test_FR5_1_the_second_card_comes_from_the_reshuffled_discard():
    # one card in the deck: after it the discard becomes the deck before the second draw
    s = build(["messenger", "engineer"], treasure_draws=(FIRE,), rest_to_discard=True)
    assert len(s.treasure_deck) == 1 and len(s.treasure_discard) == 27
    play(s, "done")
    assert s.hands[0][FIRE] >= 1
    drawn = s.hand_size(0) + (s.level - 1)  # a Waters Rise! drawn does not stay in hand
    assert drawn == 2
    assert len(s.treasure_deck) == 26 and s.card_count() == 28


# ---------------------------------------------------------------------------------- FR5.2
def test_FR5_2_waters_rise_level_up_flood_discard_on_top_card_discarded():
    # seat 1 holds Sandbags, so the window after the draw stops play before the flood cards
    s = build(
        ["messenger", "engineer"],
        hands=[[], [SAND]],
        flooded=[14, 15, 16],
        treasure_draws=(WR, FIRE),
    )
    assert s.flood_discard == [14, 15, 16] and s.level == 1
    play(s, "done")
    assert s.pending == [Window(1)]
    assert s.level == 2
    assert s.hands[0] == hand(FIRE)  # no replacement for the Waters Rise!
    assert s.treasure_discard[-1] == WR
    assert s.flood_discard == [] and s.flood_known == 3
    assert sorted(s.flood_deck[-3:]) == [14, 15, 16]  # on top: drawn next
    assert flood_cards_accounted(s) and s.card_count() == 28


def test_FR5_2_two_waters_rise_shuffle_once_and_raise_the_level_by_2():
    s = build(
        ["messenger", "engineer"],
        hands=[[], [SAND]],
        flooded=[14, 15, 16],
        treasure_draws=(WR, WR),
    )
    deck_before = len(s.flood_deck)
    play(s, "done")
    assert s.pending == [Window(1)]
    assert s.level == 3 and s.hands[0] == hand()
    assert s.treasure_discard[-2:] == [WR, WR]
    assert len(s.flood_deck) == deck_before + 3 and s.flood_known == 3
    assert sorted(s.flood_deck[-3:]) == [14, 15, 16] and s.flood_discard == []
    assert flood_cards_accounted(s)


def test_FR5_2_the_returned_cards_are_the_next_flood_cards():
    # nobody holds a special card: the flood phase at level 2 draws 2 of the returned 3,
    # each flooded already, so they sink
    s = build(["messenger", "engineer"], flooded=[14, 15, 16], treasure_draws=(WR, FIRE))
    play(s, "done")
    assert s.level == 2 and s.active == 1
    assert sum(s.status[x] == SUNK for x in (14, 15, 16)) == 2
    assert sorted(s.flood_out) == sorted(x for x in (14, 15, 16) if s.status[x] == SUNK)
    assert s.flood_known == 1 and flood_cards_accounted(s)


# ---------------------------------------------------------------------------------- FR5.3
def test_FR5_3_hand_limit_5_discard_one_card_a_decision():
    s = build(
        ["messenger", "engineer"],
        hands=[[EARTH, EARTH, WIND, FIRE], []],
        treasure_draws=(OCEAN, OCEAN),
    )
    play(s, "done")
    assert s.pending == [Discard(0)] and s.decider == 0 and s.hand_size(0) == 6
    assert names(s) == {"discard:earth", "discard:wind", "discard:fire", "discard:ocean"}
    play(s, "discard:earth")
    assert s.hands[0] == hand(EARTH, WIND, FIRE, OCEAN, OCEAN)
    assert s.treasure_discard[-1] == EARTH
    assert not s.pending and s.active == 1  # play went on to the floods and the next turn
    assert s.card_count() == 28


def test_FR5_3_ruling_limit_checked_after_both_draws():
    # 5 in hand: the limit is checked once both cards are in, so the hand reaches 7
    s = build(
        ["messenger", "engineer"],
        hands=[[EARTH, EARTH, WIND, WIND, FIRE], []],
        treasure_draws=(OCEAN, OCEAN),
    )
    play(s, "done")
    assert s.pending == [Discard(0)] and s.hand_size(0) == 7
    play(s, "discard:wind")
    assert s.pending == [Discard(0)] and s.hand_size(0) == 6  # until 5 remain
    play(s, "discard:ocean")
    assert not s.pending and s.hands[0] == hand(EARTH, EARTH, WIND, FIRE, OCEAN)
    assert s.active == 1


def test_FR5_3_a_card_received_over_the_limit_is_discarded():
    s = build(
        ["engineer", "explorer"],
        pos=[9, 9],
        hands=[[EARTH], [WIND, WIND, FIRE, FIRE, OCEAN]],
    )
    play(s, "give:earth:+1")
    assert s.pending == [Discard(1)] and s.hand_size(1) == 6
    assert names(s) == {"discard:earth", "discard:wind", "discard:fire", "discard:ocean"}


def test_FR5_3_a_discard_with_one_kind_in_hand_and_no_special_is_automatic():
    # deliberately a sixth earth card: the receiver holds one kind only, so no decision
    s = build(["engineer", "explorer"], pos=[9, 9], hands=[[EARTH], [EARTH] * 5])
    play(s, "give:earth:+1")
    assert s.hands[1] == hand(*[EARTH] * 5) and s.hands[0] == hand()
    assert not s.pending and s.decider == 0 and s.actions_left == 2
    assert s.treasure_discard[-1] == EARTH


def test_FR5_3_ruling_on_another_players_turn_the_over_limit_player_decides_at_once():
    s = build(
        ["engineer", "explorer"],
        pos=[9, 9],
        hands=[[EARTH, EARTH], [WIND, WIND, FIRE, FIRE, OCEAN]],
    )
    play(s, "give:earth:+1")
    # play waits for seat 1: seat 0's moves are not offered
    assert s.active == 0 and s.decider == 1 and s.phase == ACTIONS
    assert not moves(s) and "done" not in names(s)
    play(s, "discard:fire")
    assert s.hands[1] == hand(EARTH, WIND, WIND, FIRE, OCEAN)
    assert s.decider == 0 and s.actions_left == 2 and not s.pending
    assert "give:earth:+1" in names(s) and 8 in moves(s)


def test_FR5_3_a_special_card_may_be_played_instead_of_discarding():
    s = build(
        ["engineer", "explorer"],
        pos=[9, 9],
        hands=[[EARTH], [WIND, WIND, FIRE, HELI, SAND]],
        flooded=[20, 21],
    )
    play(s, "give:earth:+1")
    assert s.pending == [Discard(1)]
    assert names(s) == {
        "discard:earth",
        "discard:wind",
        "discard:fire",
        "discard:helicopter",
        "discard:sandbag",
        "sandbag",
        "lift:+0",
        "lift:+1",
    }
    play(s, "sandbag")
    assert s.pending == [Sandbag(1)]  # back to 5: no further discard is asked
    play(s, "shore:21")
    assert s.status[21] == DRY and s.status[20] == FLOODED
    assert s.hands[1] == hand(EARTH, WIND, WIND, FIRE, HELI)
    assert s.treasure_discard[-1] == SAND
    assert s.decider == 0 and s.actions_left == 2 and not s.pending


def test_FR5_3_a_helicopter_lift_instead_of_discarding_after_the_draw():
    s = build(
        ["messenger", "engineer"],
        pos=[13, 9],
        hands=[[EARTH, WIND, FIRE, HELI], []],
        treasure_draws=(OCEAN, OCEAN),
    )
    play(s, "done")
    assert s.pending == [Discard(0)] and "lift:+0" in names(s)
    play(s, "lift:+0")
    assert s.pending == [Lift(0, 0b01, 13)] and s.hand_size(0) == 5
    play(s, "move:22")
    assert s.pos == [22, 9] and s.hands[0] == hand(EARTH, WIND, FIRE, OCEAN, OCEAN)
    assert s.active == 1 and not s.pending


# ---------------------------------------------------------------------------------- FR6.1
def test_FR6_1_helicopter_lift_flies_pawns_standing_together():
    s = build(
        ["messenger", "engineer", "explorer"],
        pos=[13, 13, 20],
        hands=[[HELI], [], []],
        flooded=[5],
        sunk=[22],
    )
    play(s, "lift:+1")  # the first pawn: seat 1
    assert s.pending == [Lift(0, 0b010, 13)] and s.decider == 0
    assert {n for n in names(s) if n.startswith("lift:")} == {"lift:+0"}  # seat 2 is on 20
    assert moves(s) == set(range(24)) - {13, 22}  # any other tile, not a sunk slot
    play(s, "lift:+0")
    assert not {n for n in names(s) if n.startswith("lift:")}
    play(s, "move:5")  # onto a flooded tile
    assert s.pos == [5, 5, 20] and not s.pending
    assert s.hands[0] == hand() and s.treasure_discard[-1] == HELI
    assert s.actions_left == 3


def test_FR6_1_helicopter_lift_of_another_pawn_alone():
    s = build(
        ["messenger", "engineer", "explorer"],
        pos=[13, 13, 20],
        hands=[[HELI], [], []],
    )
    play(s, "lift:+2")  # the Explorer, alone on 20
    assert s.pending == [Lift(0, 0b100, 20)]
    assert not {n for n in names(s) if n.startswith("lift:")}
    play(s, "move:0")
    assert s.pos == [13, 13, 0] and s.actions_left == 3


# ---------------------------------------------------------------------------------- FR6.2
def test_FR6_2_sandbags_dry_any_flooded_tile():
    s = build(["messenger", "engineer"], pos=[13, 9], hands=[[SAND], []], flooded=[0, 9, 23])
    play(s, "sandbag")
    assert s.pending == [Sandbag(0)]
    assert names(s) == {"shore:0", "shore:9", "shore:23"}  # anywhere, not only in reach
    play(s, "shore:0")
    assert s.status[0] == DRY and s.status[9] == FLOODED and s.status[23] == FLOODED
    assert s.hands[0] == hand() and s.treasure_discard[-1] == SAND and s.actions_left == 3


def test_FR6_2_sandbags_need_a_flooded_tile():
    s = build(["messenger", "engineer"], pos=[13, 9], hands=[[SAND], []])
    assert "sandbag" not in names(s)


def test_FR6_2_sandbags_not_playable_during_the_flood_cards():
    # seat 0 stands on the flooded 14, whose card is drawn first: it sinks and seat 0
    # swims; the Sandbags it holds are not offered in the swim
    s = build(
        ["messenger", "engineer"],
        pos=[14, 9],
        hands=[[SAND], []],
        flooded=[14, 20],
        flood_draws=[14],
    )
    play(s, "done")
    assert s.pending == [Window(0)] and names(s) == {"done", "sandbag"}
    play(s, "done")
    assert s.status[14] == SUNK and s.pending == [Swim(0)]
    assert names(s) == {"move:8", "move:13", "move:15", "move:19"}
    assert s.hands[0][SAND] == 1


# ---------------------------------------------------------------------------------- FR6.3
def test_FR6_3_ruling_other_players_cannot_play_specials_during_the_actions():
    s = build(["messenger", "engineer"], pos=[13, 9], hands=[[], [HELI, SAND]], flooded=[20])
    assert s.decider == 0
    assert not {n for n in names(s) if n.startswith(("lift:", "sandbag"))}


def test_FR6_3_ruling_window_after_the_draw_in_seat_order_from_the_active_player():
    # active seat 1 holds Sandbags (a flooded tile exists), seats 2 and 0 Helicopter Lifts
    s = build(
        ["messenger", "engineer", "explorer"],
        pos=[13, 9, 10],
        hands=[[HELI], [SAND], [HELI]],
        flooded=[20],
        active=1,
    )
    play(s, "done")
    assert s.hands[1] == hand(SAND, EARTH, WIND)  # the draw came first
    assert s.phase == WINDOW and s.pending == [Window(1)]
    assert names(s) == {"done", "sandbag"}
    play(s, "done")
    assert s.pending == [Window(2)] and names(s) == TREASURE_ACTIONS
    play(s, "done")
    assert s.pending == [Window(0)] and names(s) == TREASURE_ACTIONS
    play(s, "done")
    # then the flood cards (14 and 15 at level 1) and seat 2's turn
    assert s.status[14] == FLOODED and s.status[15] == FLOODED
    assert s.active == 2 and s.phase == ACTIONS and not s.pending


def test_FR6_3_ruling_a_special_played_in_the_window_then_done_passes():
    s = build(["messenger", "engineer"], pos=[13, 9], hands=[[], [HELI, SAND]], flooded=[20, 21])
    play(s, "done")
    assert s.pending == [Window(1)]
    play(s, "sandbag", "shore:20")
    assert s.status[20] == DRY and s.pending == [Window(1)]  # the window stays open
    play(s, "lift:+1", "move:4")  # the Messenger (seat 0, one seat after seat 1)
    assert s.pos == [4, 9] and s.hands[1] == hand()
    # nothing left to play: the window closes by itself, the floods run, seat 1's turn
    assert not s.pending and s.active == 1 and s.phase == ACTIONS
    assert s.status[14] == FLOODED and s.status[15] == FLOODED
