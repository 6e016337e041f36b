"""Forbidden Island rules FR7-FR10 of ``docs/rules_forbidden_island.md``, one test per rule or
ruling: swimming from a sinking tile, the flood cards, the win and the four losses (with the
ruling on the order L1, L2, L3 of one flood card). Slots are those of the identity layout
drawn in ``fi_scenarios``; ``done`` ends the actions, the default treasure draw (earth, wind)
opens no window, and ``flood_draws`` scripts the flood cards."""

from __future__ import annotations

import pytest

from inselflucht_env.games.forbidden_island.rules.board import N_SLOTS
from inselflucht_env.games.forbidden_island.rules.config import FLOODS_AT_LEVEL
from inselflucht_env.games.forbidden_island.rules.engine import (
    ACTIONS,
    DRY,
    FLOODED,
    SUNK,
    Swim,
    Window,
)
from tests.forbidden_island.fi_scenarios import (
    EARTH,
    HARMLESS_FIRST,
    HELI,
    WR,
    build,
    flood_cards_accounted,
    moves,
    names,
    play,
)


def flooded_slots(s):
    return [x for x in range(N_SLOTS) if s.status[x] == FLOODED]


# ---------------------------------------------------------------------------------- FR7.1
def test_FR7_1_pawns_on_a_sinking_tile_swim_at_once_in_seat_order():
    # active seat 1; all three pawns stand on the flooded 14, whose card is drawn first
    s = build(
        ["messenger", "engineer", "navigator"],
        pos=[14, 14, 14],
        flooded=[14],
        flood_draws=[14],
        active=1,
    )
    play(s, "done")
    assert s.status[14] == SUNK
    # seat order from the active player: 1, then 2, then 0 (top of the stack last)
    assert s.pending == [Swim(0), Swim(2), Swim(1)]
    assert s.floods_left == 1  # at once: the second flood card waits for the swims
    assert s.decider == 1 and moves(s) == {8, 13, 15, 19}
    play(s, "move:8")
    assert s.decider == 2 and moves(s) == {8, 13, 15, 19}
    play(s, "move:13")
    assert s.decider == 0
    play(s, "move:19")
    assert s.pos == [19, 8, 13]
    # then the second flood card (15) and seat 2's turn
    assert s.status[15] == FLOODED and s.active == 2 and not s.pending


def test_FR7_1_a_swim_goes_to_an_orthogonal_tile_dry_or_flooded_not_sunk():
    s = build(
        ["messenger", "engineer"],
        pos=[14, 9],
        flooded=[14, 8],
        sunk=[19],
        flood_draws=[14],
    )
    play(s, "done")
    assert s.pending == [Swim(0)]
    assert moves(s) == {8, 13, 15}  # 8 is flooded, 19 sunk, no diagonals
    play(s, "move:8")
    assert s.pos[0] == 8 and s.status[8] == FLOODED


def test_sub_decisions_a_swim_with_one_tile_to_reach_is_automatic():
    # Messenger on 22 (neighbours 19, 23); 19 has sunk: only 23 is left
    s = build(["messenger", "engineer"], pos=[22, 9], flooded=[22], sunk=[19], flood_draws=[22])
    play(s, "done")
    assert s.pos[0] == 23 and not s.pending and s.active == 1


# ---------------------------------------------------------------------------------- FR7.2
def test_FR7_2_explorer_may_swim_diagonally_too():
    s = build(["explorer", "engineer"], pos=[14, 9], flooded=[14], flood_draws=[14])
    play(s, "done")
    assert s.pending == [Swim(0)]
    assert moves(s) == {8, 13, 15, 19, 7, 9, 18, 20}
    play(s, "move:20")
    assert s.pos[0] == 20
    # cut off orthogonally, the Explorer still swims diagonally (a Messenger loses, FR10.3)
    s = build(["explorer", "engineer"], pos=[22, 9], flooded=[22], sunk=[19, 23], flood_draws=[22])
    play(s, "done")
    assert s.outcome is None and moves(s) == {18, 20}


# ---------------------------------------------------------------------------------- FR7.3
def test_FR7_3_diver_swims_to_the_nearest_tile_a_choice_among_ties():
    # Diver on 14 (row 3, col 2): all four neighbours sunk, and 9 and 20 (two steps) too;
    # the tiles two grid steps away that stand are 3, 7, 12, 16, 18, 22
    s = build(
        ["diver", "engineer"],
        pos=[14, 11],
        flooded=[14],
        sunk=[8, 13, 15, 19, 9, 20],
        flood_draws=[14],
    )
    play(s, "done")
    assert s.pending == [Swim(0)]
    assert moves(s) == {3, 7, 12, 16, 18, 22}  # nothing farther, like 23 or 0
    play(s, "move:22")
    assert s.pos[0] == 22


def test_FR7_3_diver_with_one_nearest_tile_swims_there_automatically():
    # Diver on 22 (row 5, col 2): 19 and 23 sunk, of the tiles two steps away 14 and 18
    # sunk: 20 is the one nearest tile
    s = build(
        ["diver", "engineer"],
        pos=[22, 9],
        flooded=[22],
        sunk=[19, 23, 14, 18],
        flood_draws=[22],
    )
    play(s, "done")
    assert s.outcome is None and s.pos[0] == 20 and not s.pending


def test_FR7_3_pilot_flies_to_any_tile():
    s = build(["pilot", "engineer"], pos=[14, 9], flooded=[14], sunk=[23], flood_draws=[14])
    play(s, "done")
    assert s.pending == [Swim(0)]
    assert moves(s) == set(range(N_SLOTS)) - {14, 23}
    play(s, "move:0")
    assert s.pos[0] == 0


# ---------------------------------------------------------------------------------- FR7.4
def test_FR7_4_a_swim_costs_no_action_and_keeps_the_pilots_flight():
    # the Pilot (seat 1) swims by flying far, on seat 0's turn
    s = build(["messenger", "pilot"], pos=[13, 14], flooded=[14], flood_draws=[14])
    play(s, "done")
    assert s.pending == [Swim(1)]
    play(s, "move:23")
    assert s.pos[1] == 23
    # its own turn: three actions and the flight still there
    assert s.active == 1 and s.phase == ACTIONS and not s.pending
    assert s.actions_left == 3 and not s.flew
    assert 1 in moves(s)  # far away from 23: only a flight reaches it
    play(s, "move:1")
    assert s.flew and s.actions_left == 2 and s.pos[1] == 1


# ---------------------------------------------------------------------------------- FR8.1
@pytest.mark.parametrize("level", range(1, 10))
def test_FR8_1_as_many_flood_cards_as_the_level_shows(level):
    s = build(["messenger", "engineer"], level=level)
    play(s, "done")
    n = (2, 2, 3, 3, 3, 4, 4, 5, 5)[level - 1]
    assert FLOODS_AT_LEVEL[level] == n
    drawn = HARMLESS_FIRST[:n]  # the next flood cards: dry plain tiles
    assert flooded_slots(s) == drawn and s.flood_discard == drawn
    assert s.status[HARMLESS_FIRST[n]] == DRY
    assert len(s.flood_deck) == N_SLOTS - n and flood_cards_accounted(s)


def test_FR8_1_a_dry_tile_floods_and_its_card_goes_to_the_flood_discard():
    s = build(["messenger", "engineer"], flooded=[21], flood_draws=[20, 17])
    assert s.flood_discard == [21]
    play(s, "done")
    assert s.status[20] == FLOODED and s.status[17] == FLOODED
    assert s.flood_discard == [21, 20, 17]  # one at a time, in draw order
    assert 20 not in s.flood_deck and not s.flood_out and flood_cards_accounted(s)


# ---------------------------------------------------------------------------------- FR8.2
def test_FR8_2_a_flooded_tile_sinks_and_it_and_its_card_leave_the_game():
    s = build(["messenger", "engineer"], flooded=[20], flood_draws=[20, 21])
    play(s, "done")
    assert s.status[20] == SUNK and s.flood_out == [20]
    assert 20 not in s.flood_deck and 20 not in s.flood_discard
    assert s.flood_discard == [21] and flood_cards_accounted(s)
    # a sunk slot is water: nobody enters it
    s.pos[1] = 15
    s._legal = None
    assert 20 not in s.walk_targets(1)


# ---------------------------------------------------------------------------------- FR8.3
def test_FR8_3_an_empty_flood_deck_reshuffles_the_discard_and_draws_on():
    s = build(["messenger", "engineer"], flooded=[21])
    # one card left in the deck (20), every other card in the discard
    s.flood_deck = [20]
    s.flood_discard = [t for t in range(N_SLOTS) if t != 20]
    s.flood_out, s.flood_known, s._legal = [], 0, None
    before = s.status[:]
    play(s, "done")
    # card 1 floods 20; the deck is empty, the 24 discarded cards become the new deck and
    # card 2 comes from it
    assert s.status[20] == FLOODED
    assert len(s.flood_deck) == N_SLOTS - 1
    assert len(s.flood_discard) + len(s.flood_out) == 1
    second = (s.flood_discard + s.flood_out)[0]
    assert s.status[second] != before[second]  # it flooded or sank
    assert flood_cards_accounted(s) and s.active == 1


# ---------------------------------------------------------------------------------- FR8.4
def test_FR8_4_then_the_next_seats_turn_begins():
    s = build(["messenger", "engineer", "explorer"], active=2)
    play(s, "move:16", "done")
    assert s.active == 0 and s.phase == ACTIONS and s.actions_left == 3
    assert s.turn == 2 and not s.flew and not s.pending and s.outcome is None
    assert s.decider == 0 and "done" in names(s)


# ---------------------------------------------------------------------------------- FR9.1
def test_FR9_1_all_treasures_every_pawn_on_fools_landing_and_a_lift_escapes():
    s = build(
        ["messenger", "engineer"],
        pos=[0, 0],
        hands=[[HELI], []],
        captured=[0, 1, 2, 3],
    )
    assert "escape" in names(s)
    play(s, "escape")
    assert s.outcome == "win" and s.legal_actions() == []
    assert s.card_count() == 28 and s.hands[0][HELI] == 0


def test_FR9_1_no_escape_without_all_treasures_every_pawn_there_or_a_lift():
    kw = {"hands": [[HELI], []], "captured": [0, 1, 2, 3]}
    assert "escape" in names(build(["messenger", "engineer"], pos=[0, 0], **kw))
    # one treasure missing
    s = build(["messenger", "engineer"], pos=[0, 0], hands=[[HELI], []], captured=[0, 1, 2])
    assert "escape" not in names(s) and "lift:+0" in names(s)
    # one pawn elsewhere
    s = build(["messenger", "engineer"], pos=[0, 1], **kw)
    assert "escape" not in names(s)
    # no Helicopter Lift
    s = build(["messenger", "engineer"], pos=[0, 0], captured=[0, 1, 2, 3])
    assert "escape" not in names(s)


def test_FR9_1_escape_whenever_the_holder_could_play_the_card_in_the_window():
    # the Lift is held by seat 1, not active: it escapes in the window (FR6.3)
    s = build(
        ["messenger", "engineer"],
        pos=[0, 0],
        hands=[[], [HELI]],
        captured=[0, 1, 2, 3],
    )
    assert "escape" not in names(s)  # seat 0 decides and holds no Lift
    play(s, "done")
    assert s.pending == [Window(1)] and "escape" in names(s)
    play(s, "escape")
    assert s.outcome == "win" and s.legal_actions() == []
    assert flooded_slots(s) == []  # the flood cards were never drawn


# --------------------------------------------------------------------------------- FR10.1
def test_FR10_1_L1_both_tiles_of_an_uncaptured_treasure_sink():
    # the Earth Stone: Temple of the Moon (1) sunk, Temple of the Sun (2) flooded
    s = build(["messenger", "engineer"], sunk=[1], flooded=[2], flood_draws=[2, 20])
    play(s, "done")
    assert s.outcome == "L1" and s.legal_actions() == []
    assert s.status[20] == DRY  # lost at once: no further flood card


def test_FR10_1_L1_not_for_a_treasure_already_captured():
    s = build(["messenger", "engineer"], sunk=[1], flooded=[2], captured=[EARTH], flood_draws=[2])
    play(s, "done")
    assert s.status[2] == SUNK and s.outcome is None and s.active == 1


# --------------------------------------------------------------------------------- FR10.2
def test_FR10_2_L2_fools_landing_sinks():
    s = build(["messenger", "engineer"], flooded=[0], flood_draws=[0])
    play(s, "done")
    assert s.status[0] == SUNK and s.outcome == "L2" and s.legal_actions() == []
    assert s.status[HARMLESS_FIRST[0]] == DRY  # lost at once


# --------------------------------------------------------------------------------- FR10.3
def test_FR10_3_L3_a_pawn_that_cannot_swim_to_any_tile():
    # Messenger on 22 (neighbours 19 and 23 sunk)
    s = build(["messenger", "engineer"], pos=[22, 9], flooded=[22], sunk=[19, 23], flood_draws=[22])
    play(s, "done")
    assert s.status[22] == SUNK and s.outcome == "L3" and s.legal_actions() == []


# --------------------------------------------------------------------------------- FR10.4
def test_FR10_4_L4_the_water_level_reaches_the_skull():
    s = build(["messenger", "engineer"], level=9, treasure_draws=(WR, EARTH))
    play(s, "done")
    assert s.level == 10 and s.outcome == "L4" and s.legal_actions() == []
    assert flooded_slots(s) == []  # lost at once: no flood cards drawn


def test_FR10_4_L4_two_waters_rise_from_level_8():
    s = build(["messenger", "engineer"], level=8, treasure_draws=(WR, WR))
    play(s, "done")
    assert s.level == 10 and s.outcome == "L4"
    # one Waters Rise! from level 8 is not yet the skull
    s = build(["messenger", "engineer"], level=8, treasure_draws=(WR, EARTH))
    play(s, "done")
    assert s.level == 9 and s.outcome is None


# ----------------------------------------------------------------------- FR10 order ruling
def test_FR10_ruling_L1_is_reported_before_L3():
    # Messenger trapped on Temple of the Sun (2): neighbours 3 and 7 sunk, Temple of the
    # Moon (1) sunk too; one flood card causes L1 and L3
    s = build(["messenger", "engineer"], pos=[2, 9], flooded=[2], sunk=[1, 3, 7], flood_draws=[2])
    play(s, "done")
    assert s.outcome == "L1"


def test_FR10_ruling_L2_is_reported_before_L3():
    # Messenger trapped on Fools' Landing (0): neighbours 1 and 3 sunk
    s = build(["messenger", "engineer"], pos=[0, 9], flooded=[0], sunk=[1, 3], flood_draws=[0])
    play(s, "done")
    assert s.outcome == "L2"
