"""Forbidden Island rules FR3 (the six roles), one test per rule or ruling of
``docs/rules_forbidden_island.md``: start tiles, the Engineer's double shore-up, the
Explorer's diagonals, the Diver's chains, the Navigator's guide, the Pilot's flight and the
Messenger's gifts. Slots are those of the identity layout drawn in ``fi_scenarios``."""

from __future__ import annotations

import numpy as np

from inselflucht_env.games.forbidden_island.rules.board import TILE_NAMES
from inselflucht_env.games.forbidden_island.rules.config import GameConfig
from inselflucht_env.games.forbidden_island.rules.engine import (
    DRY,
    FLOODED,
    Engineer,
    Guide,
    State,
)
from tests.forbidden_island.fi_scenarios import (
    EARTH,
    FIRE,
    HELI,
    SAND,
    build,
    moves,
    names,
    play,
    shores,
)


def guided(role, at, **kw):
    """A Navigator (seat 0, far away on 23 or 22) has chosen to guide a ``role`` pawn on
    slot ``at`` (seat 1): the pawn's own targets, the guide's targets and the state."""
    nav_at = 22 if at == 23 else 23
    s = build(["navigator", role], pos=[nav_at, at], **kw)
    own = set(s.walk_targets(1))
    play(s, "guide:+1")
    assert s.pending == [Guide(0, 1)]
    return own, moves(s), s


# ---------------------------------------------------------------------------------- FR3.1
def test_FR3_1_each_role_starts_on_its_tile():
    start = {
        "diver": "Iron Gate",
        "engineer": "Bronze Gate",
        "explorer": "Copper Gate",
        "messenger": "Silver Gate",
        "navigator": "Gold Gate",
        "pilot": "Fools' Landing",
    }
    teams = (["diver", "engineer", "explorer"], ["messenger", "navigator", "pilot"])
    for seed in range(3):
        for team in teams:
            config = GameConfig.make(3, "normal", team)
            s = State.new(config, np.random.default_rng(seed))
            assert [TILE_NAMES[s.tile[p]] for p in s.pos] == [start[r] for r in team]


# ---------------------------------------------------------------------------------- FR3.2
def test_FR3_2_engineer_shores_up_two_tiles_for_one_action():
    # Engineer on 9 (row 2, col 3): 9 itself, 4 above and 8 to the left are flooded
    s = build(["engineer", "messenger"], flooded=[4, 8, 9])
    play(s, "shore:9", "shore:8")
    assert s.status[9] == DRY and s.status[8] == DRY and s.status[4] == FLOODED
    assert s.actions_left == 2 and not s.pending
    # a Messenger in the same place dries one tile per action
    s = build(["messenger", "engineer"], pos=[9, 9], flooded=[4, 8, 9])
    play(s, "shore:9")
    assert not s.pending and s.actions_left == 2 and s.status.count(FLOODED) == 2


def test_FR3_2_ruling_the_second_shore_up_is_a_sub_decision_done_declines_it():
    s = build(["engineer", "messenger"], flooded=[4, 8, 9, 20])
    play(s, "shore:9")
    assert s.pending == [Engineer(0)] and s.decider == 0
    assert names(s) == {"done", "shore:4", "shore:8"}  # reachable flooded tiles, or done
    play(s, "done")
    assert not s.pending and s.actions_left == 2  # done declines, it ends no turn
    assert [x for x in range(24) if s.status[x] == FLOODED] == [4, 8, 20]
    assert "move:10" in names(s)


def test_FR3_2_ruling_the_choice_is_skipped_with_no_flooded_tile_in_reach():
    s = build(["engineer", "messenger"], flooded=[8, 20])  # 20 is out of reach
    play(s, "shore:8")
    assert not s.pending and s.actions_left == 2 and s.status[20] == FLOODED
    assert "done" in names(s) and "move:8" in names(s)  # the actions go on


# ---------------------------------------------------------------------------------- FR3.3
def test_FR3_3_explorer_moves_and_shores_up_diagonally_too():
    # on 8 (row 2, col 2); 15 diagonally below right is flooded, 2 above left sunk
    s = build(["explorer", "messenger"], pos=[8, 13], flooded=[15], sunk=[2])
    assert moves(s) == {3, 7, 9, 14, 4, 13, 15}  # orthogonal and diagonal, not the sunk 2
    assert shores(s) == {15}
    play(s, "move:4", "move:10")  # two diagonal steps
    assert s.pos[0] == 10 and s.actions_left == 1
    # a Messenger on 8 has neither
    s = build(["messenger", "explorer"], pos=[8, 10], flooded=[15], sunk=[2])
    assert moves(s) == {3, 7, 9, 14} and not shores(s)


# ---------------------------------------------------------------------------------- FR3.4
def test_FR3_4_diver_passes_through_a_chain_of_flooded_and_sunk_slots():
    # Diver on 8. Chain: 9 flooded, 10 sunk, 16 sunk, 21 flooded (right, then down, down)
    s = build(["diver", "messenger"], pos=[8, 13], flooded=[9, 21], sunk=[10, 16])
    # next to the start: 3, 7, 9, 14; next to the chain: 4, 15 (by 9), 5, 11 (by 10),
    # 17, 21 (by 16), 20 (by 21); the dry tiles block: not 2, 22, 23, ...
    assert moves(s) == {3, 7, 9, 14, 4, 15, 5, 11, 17, 21, 20}
    assert 10 not in moves(s) and 16 not in moves(s)  # never ends on a sunk slot
    play(s, "move:20")
    assert s.pos[0] == 20 and s.actions_left == 2  # one action
    # a Messenger in the same place moves one step
    s = build(["messenger", "diver"], pos=[8, 13], flooded=[9, 21], sunk=[10, 16])
    assert moves(s) == {3, 7, 9, 14}


def test_FR3_4_diver_does_not_cross_the_sea_around_the_island():
    # Diver on 0 (row 0, col 2), 1 to its right sunk. Off the grid beyond 1 lies the sea at
    # (row 0, col 4), next to slot 5: only the 24 slots count, so 5 is out of reach.
    s = build(["diver", "messenger"], pos=[0, 13], sunk=[1])
    assert moves(s) == {3, 4}
    s.status[4] = FLOODED  # through the flooded 4, 5 is reached on the island
    s._legal = None
    assert moves(s) == {3, 4, 5, 9}


# ---------------------------------------------------------------------------------- FR3.5
def test_FR3_5_navigator_moves_another_pawn_up_to_two_orthogonal_steps():
    s = build(["navigator", "messenger", "engineer"], pos=[11, 14, 0], sunk=[18])
    assert {"guide:+1", "guide:+2"} <= names(s)
    play(s, "guide:+1")  # one action, then the destination is a sub-decision
    assert s.pending == [Guide(0, 1)] and s.decider == 0 and s.actions_left == 2
    # from 14: one step 8, 13, 15, 19; two steps 3, 7, 9, 12, 16, 20, 22 (18 is sunk)
    assert moves(s) == {8, 13, 15, 19, 3, 7, 9, 12, 16, 20, 22}
    play(s, "move:3")
    assert s.pos == [11, 3, 0] and not s.pending and s.actions_left == 2
    play(s, "guide:+2", "move:4")  # +2: the Engineer, two seats on
    assert s.pos == [11, 3, 4] and s.actions_left == 1


def test_FR3_5_ruling_a_guided_explorer_moves_like_a_plain_pawn():
    # 3 and 7 are sunk: the Explorer itself still steps diagonally to 2, a guide cannot
    own, targets, _ = guided("explorer", 8, sunk=[3, 7])
    assert 2 in own and 2 not in targets
    assert targets == {9, 14, 4, 10, 15, 13, 19}


def test_FR3_5_ruling_a_guided_diver_moves_like_a_plain_pawn():
    # 9 is sunk: the Diver itself passes through it to 10, a guide cannot
    own, targets, _ = guided("diver", 8, sunk=[9])
    assert 10 in own and 10 not in targets
    assert targets == {3, 7, 14, 0, 2, 4, 6, 13, 15, 19}


def test_FR3_5_ruling_a_guided_pilot_does_not_fly():
    _, targets, s = guided("pilot", 0)
    assert targets == {1, 3, 2, 4, 8}  # two steps, no flight to 23 and the like
    play(s, "move:8")
    assert s.pos[1] == 8 and not s.flew


# ---------------------------------------------------------------------------------- FR3.6
def test_FR3_6_pilot_flies_once_a_turn_to_any_standing_tile():
    s = build(["pilot", "messenger"], sunk=[22])
    assert moves(s) == set(range(1, 24)) - {22}
    play(s, "move:23")  # a flight: 23 is far from 0
    assert s.pos[0] == 23 and s.flew and s.actions_left == 2
    assert moves(s) == {20}  # now only ordinary moves (22 is sunk)
    play(s, "move:20")
    assert moves(s) == {15, 19, 21, 23}
    play(s, "done", "done")  # the Messenger's turn passes; the Pilot's next turn
    assert s.active == 0 and not s.flew
    assert len(moves(s)) == 22


def test_FR3_6_ruling_an_ordinary_move_keeps_the_flight():
    s = build(["pilot", "messenger"])
    play(s, "move:1")  # next to Fools' Landing: an ordinary move
    assert s.pos[0] == 1 and not s.flew
    assert moves(s) == set(range(24)) - {1}  # the flight is still there
    play(s, "move:22")  # the flight, second action
    assert s.pos[0] == 22 and s.flew and s.actions_left == 1
    assert moves(s) == {19, 23}


# ---------------------------------------------------------------------------------- FR3.7
def test_FR3_7_messenger_gives_treasure_cards_to_a_player_anywhere():
    s = build(
        ["messenger", "pilot", "diver"],
        hands=[[EARTH, FIRE, HELI, SAND], [], []],
    )
    assert s.pos == [13, 0, 12]  # three different tiles
    gives = {n for n in names(s) if n.startswith("give:")}
    assert gives == {"give:earth:+1", "give:earth:+2", "give:fire:+1", "give:fire:+2"}
    play(s, "give:fire:+2")
    assert s.hands[2][FIRE] == 1 and s.hands[0][FIRE] == 0 and s.actions_left == 2
    # anyone else gives only on the same tile (FR4.4)
    s = build(["diver", "pilot"], hands=[[EARTH], []])
    assert not any(n.startswith("give:") for n in names(s))
