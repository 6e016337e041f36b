"""R4 a turn: the seven actions, their costs and their illegal cases.

Island used by most tests (``STANDARD``), column across, row down:

    6C  7C  KC  8C  9C
    10C 6D  7D  8D  9D
    10D KD  JK  6H  7H
    8H  9H  10H KH  6S
    7S  8S  9S  10S KS
"""

from __future__ import annotations

from conftest import QUIET_COLS, QUIET_ROWS, STANDARD, Game

from inselflucht_env.games.inselflucht.rules.actions import ACTION_NAMES
from inselflucht_env.games.inselflucht.rules.cards import code


def game(**kw) -> Game:
    return Game(STANDARD, QUIET_COLS, QUIET_ROWS, **kw)


# ---------------------------------------------------------------- R4.1
def test_R4_1_four_actions_repeatable_end_turn_lapses():
    """R4.1: 4 actions; an action may be repeated; end turn lets the rest lapse; then the
    flood phase follows."""
    g = game()
    assert g.s.actions_left == 4 and g.s.active == 0
    g.do("move:up", "move:down", "move:up")  # repeated
    assert g.s.actions_left == 1 and g.d["flood_discards"]["columns"] == []
    g.do("move:down")  # the 4th action: the flood phase runs inside the same apply
    assert g.d["flood_discards"] == {"columns": [1], "rows": [5]}
    assert (g.s.turn, g.s.active, g.s.actions_left) == (2, 1, 4)
    assert "end_turn" in g.legal()
    g.do("move:left", "end_turn")  # 3 actions lapse
    assert g.d["flood_discards"] == {"columns": [1, 2], "rows": [5, 4]}
    assert (g.s.turn, g.s.active, g.s.actions_left) == (3, 0, 4)
    assert g.at(1) == (2, 3)


# ---------------------------------------------------------------- R4.2
def test_R4_2_move_one_step_reveals_hidden():
    """R4.2: move one step to an adjacent field (1 action); a hidden field is revealed."""
    g = game()
    assert g.status(3, 2) == "hidden"
    g.do("move:up")
    assert g.at(0) == (3, 2) and g.status(3, 2) == "dry" and g.card(3, 2) == "7D"
    assert g.s.actions_left == 3
    g.set_status({(3, 1): "flooded"})
    g.do("move:up")  # onto a flooded field
    assert g.at(0) == (3, 1) and g.status(3, 1) == "flooded"


def test_R4_2_move_illegal_onto_sea_or_off_grid():
    """R4.2: never onto sea, never off the island, never diagonal."""
    g = game().sink((3, 2))
    g.refuse("move:up")  # sea
    g.do("move:right", "move:up", "move:up")  # (4,3) -> (4,2) -> (4,1)
    assert g.at(0) == (4, 1)
    g.refuse("move:up")  # off the grid
    assert not any(n.startswith("move:") and n.count("-") for n in ACTION_NAMES)


# ---------------------------------------------------------------- R4.3
def test_R4_3_swim_over_exactly_one_sea_place():
    """R4.3: swim two steps straight over exactly one sea place onto a field (2 actions);
    a hidden destination is revealed."""
    g = game().sink((3, 2))
    assert g.is_legal("swim:up")
    assert not {"swim:down", "swim:left", "swim:right"} & g.legal()  # middles are fields
    g.do("swim:up")
    assert g.at(0) == (3, 1) and g.status(3, 1) == "dry" and g.card(3, 1) == "KC"
    assert g.s.actions_left == 2


def test_R4_3_swim_illegal_cases():
    """R4.3: the middle must be sea, the destination a field inside the grid, and 2
    actions must be left."""
    g = game().sink((3, 4), (3, 5))
    g.refuse("swim:down")  # destination is sea too: two sea places
    g.refuse("swim:up")  # the middle (3,2) is a field: that is a move, not a swim
    edge = game().sink((1, 1))
    edge.do("move:left", "move:left", "move:up")  # (1, 2), 1 action left
    edge.refuse("swim:up")  # beyond the grid
    short = game().sink((2, 4))
    short.do("move:down")
    assert short.is_legal("swim:left")  # (3,4) over (2,4) onto (1,4), 3 left
    short.do("move:right", "move:left")
    assert short.s.actions_left == 1
    short.refuse("swim:left")  # needs 2 actions left


# ---------------------------------------------------------------- R4.4
def test_R4_4_shore_up_own_or_adjacent_incl_king_and_helicopter():
    """R4.4: turn a flooded field, the figure's own or an adjacent one, dry (1 action);
    works on land, kings and the helicopter."""
    g = game().set_status(
        {(3, 3): "flooded", (2, 3): "flooded", (3, 2): "flooded", (2, 2): "flooded", (4, 3): "dry"}
    )
    assert {n for n in g.legal() if n.startswith("shore")} == {
        "shore:here",
        "shore:left",
        "shore:up",
    }
    g.do("shore:here", "shore:left", "shore:up")
    assert g.status(3, 3) == g.status(2, 3) == g.status(3, 2) == "dry"  # JK, KD, 7D
    assert g.status(2, 2) == "flooded"  # diagonal: not adjacent
    assert g.s.actions_left == 1


def test_R4_4_shore_up_illegal_on_dry_hidden_sea_diagonal():
    """R4.4: only flooded fields can be shored up."""
    g = game().set_status({(4, 3): "dry", (2, 2): "flooded"}).sink((3, 4))
    for name in ("shore:here", "shore:up", "shore:right", "shore:down", "shore:left"):
        g.refuse(name)  # dry JK, hidden 7D, dry 6H, sea, hidden KD; flooded (2,2) is diagonal


# ---------------------------------------------------------------- R4.5
def test_R4_5_salvage_adjacent_explored_land():
    """R4.5: take an adjacent explored land card into your salvage (1 action); the place
    becomes sea."""
    g = game().set_status({(3, 2): "dry"})
    g.do("salvage:up")
    assert g.salvage(0) == ["7D"] and g.status(3, 2) == "sea" and g.card(3, 2) is None
    assert g.s.actions_left == 3 and g.d["salvage"] == [["7D"], []]


def test_R4_5_salvage_flooded_land_ruling():
    """R4.5 Ruling: flooded land may be salvaged: it is explored land."""
    g = game().set_status({(4, 3): "flooded"})
    assert g.is_legal("salvage:right")
    g.do("salvage:right")
    assert g.salvage(0) == ["6H"] and g.status(4, 3) == "sea"


def test_R4_5_salvage_illegal_cases():
    """R4.5: never a king, the helicopter, a hidden place, a place with a figure on it, or
    the figure's own place; only orthogonal neighbours."""
    g = game().set_status({(2, 3): "dry", (4, 3): "dry", (2, 2): "dry"})
    g.refuse("salvage:left")  # KD
    g.refuse("salvage:up")  # 7D hidden
    g.refuse("salvage:down")  # 10H hidden
    g.put(1, 4, 3)
    g.refuse("salvage:right")  # figure 1 stands on 6H
    g.do("move:up")  # figure 0 on 7D
    g.refuse("salvage:down")  # the helicopter
    assert g.is_legal("salvage:left")  # 6D, now orthogonal
    assert not any(n.startswith("salvage") and n.endswith("here") for n in ACTION_NAMES)
    assert {n for n in g.legal() if n.startswith("salvage")} == {"salvage:left"}


# ---------------------------------------------------------------- R4.6
def test_R4_6_give_sub_steps_several_cards_one_action():
    """R4.6: give any number (>= 1) of your salvaged cards to one other figure on the same
    field; one action: give:+k, then card:* sub-steps, then done."""
    g = game().hand(0, "6C", "7D", "8D")
    g.do("give:+1")
    assert g.d["pending"] == {"kind": "give", "figure": 0, "receiver": 1, "given": 0}
    assert g.s.decider == 0 and g.s.actions_left == 3
    assert g.legal() == {"card:clubs", "card:diamonds"}  # done needs one card first
    g.refuse("done")
    g.refuse("card:hearts")  # no heart in the salvage
    g.do("card:diamonds")
    assert g.legal() == {"card:clubs", "card:diamonds", "done"}
    g.do("card:diamonds", "done")
    assert g.salvage(0) == ["6C"] and g.salvage(1) == ["7D", "8D"]
    assert g.s.pending is None and g.s.actions_left == 3
    g.do("give:+1")  # one card left: the card and then done are the only choices
    assert g.s.pending is None and g.salvage(0) == [] and g.salvage(1) == ["7D", "8D", "6C"]
    assert g.s.actions_left == 2


def test_R4_6_give_illegal_other_field_empty_salvage_missing_seat():
    """R4.6: the receiver must stand on the same field; the giver needs a card."""
    g = game(players=3).hand(0, "6C")
    g.do("move:up")
    g.refuse("give:+1")  # figures 1 and 2 are on another field
    g.refuse("give:+2")
    g.refuse("give:+3")  # there is no fourth figure
    g.do("move:down")
    assert {"give:+1", "give:+2"} <= g.legal()
    g.do("give:+2")  # to figure 2, two seats on
    assert g.salvage(2) == ["6C"] and g.salvage(0) == []
    g.refuse("give:+1")  # nothing left to give
    assert "give:+1" not in game().legal()


def test_R4_6_give_as_last_action_flood_waits_for_sub_steps():
    """R4.6 with R4.1: the card sub-steps of a give are part of its one action; the flood
    phase follows only once the give is done."""
    g = game().hand(0, "6C", "7D").set_status({(3, 3): "flooded"})
    g.do("move:right", "move:left", "shore:here", "give:+1")
    assert g.s.actions_left == 0 and g.s.pending is not None
    g.do("card:clubs")
    assert g.d["flood_discards"]["columns"] == [] and g.s.turn == 1
    g.do("done")
    assert g.d["flood_discards"]["columns"] == [1] and g.s.turn == 2 and g.s.active == 1
    assert g.salvage(1) == ["6C"] and g.salvage(0) == ["7D"]


# ---------------------------------------------------------------- R4.7
def test_R4_7_lift_treasure_with_n_cards_of_kings_suit():
    """R4.7: on a king whose treasure is not lifted, discard n = 2 cards of its suit; they
    go under the king, out of play for good; the king may be dry or flooded."""
    g = game().put(0, 3, 1).hand(0, "8H", "6C", "7D", "7C").set_status({(3, 1): "flooded"})
    assert g.is_legal("lift")
    g.do("lift")
    assert g.s.lifted == [True, False, False, False]
    assert g.d["lifted"] == {"C": True, "D": False, "H": False, "S": False}
    assert [code(c) for c in g.s.under_king[0]] == ["6C", "7C"]
    assert g.salvage(0) == ["8H", "7D"] and g.s.actions_left == 3
    assert g.s.remaining == [3, 5, 5, 5]
    g.refuse("lift")  # already lifted


def test_R4_7_lift_illegal_cases():
    """R4.7: n cards of the king's suit, standing on that king, treasure not lifted."""
    g = game().put(0, 3, 1).hand(0, "6C", "7D")
    g.refuse("lift")  # one club only, and clubs are not short
    g.hand(0, "7C")
    assert g.is_legal("lift")
    g.do("move:right")
    g.refuse("lift")  # not on a king
    g.put(0, 3, 3)
    g.refuse("lift")  # the helicopter
    g.put(0, 2, 3)
    g.refuse("lift")  # KD: one diamond only


def test_R4_7_lift_counts_only_the_kings_suit():
    """R4.7: the cards must be of the king's suit unless that suit is short."""
    g = game().put(0, 2, 3).hand(0, "6C", "7C", "7D")
    assert not g.is_legal("lift")
    g.hand(0, "8D")
    assert g.is_legal("lift")
    g.do("lift")
    assert [code(c) for c in g.s.under_king[1]] == ["7D", "8D"] and g.salvage(0) == ["6C", "7C"]


def test_R4_7_short_suit_lift_n_plus_1_any_suits():
    """R4.7: if the king's suit is short (R6.2), discard n + 1 cards of any suits instead,
    chosen by the figure (card:* sub-steps)."""
    g = game().put(0, 3, 1).sink((1, 1), (4, 1), (5, 1), (1, 2))  # 6C 8C 9C 10C sink
    g.hand(0, "7C", "6D")
    assert g.s.is_short(0) and g.s.remaining[0] == 1
    g.refuse("lift")  # needs 3 cards
    g.hand(0, "7H", "8H")
    g.do("lift")
    assert g.d["pending"] == {"kind": "lift", "figure": 0, "suit": "C", "chosen": 0, "needed": 3}
    assert g.legal() == {"card:clubs", "card:diamonds", "card:hearts"}
    g.refuse("card:spades")
    g.refuse("done")  # a lift has no done
    g.do("card:hearts", "card:diamonds")
    assert g.d["pending"]["chosen"] == 2 and not g.s.lifted[0]
    g.do("card:hearts")
    assert g.s.pending is None and g.s.lifted[0]
    assert [code(c) for c in g.s.under_king[0]] == ["7H", "6D", "8H"]
    assert g.salvage(0) == ["7C"] and g.s.actions_left == 3
    assert g.s.remaining == [1, 4, 3, 5]


def test_R4_7_short_suit_lift_one_suit_in_hand_auto():
    """R4.7: a short-suit lift whose every card choice is forced needs no sub-decision."""
    g = game().put(0, 3, 1).sink((1, 1), (2, 1), (4, 1), (5, 1), (1, 2))  # no club left
    g.hand(0, "6D", "7D", "8D")
    g.do("lift")
    assert g.s.pending is None and g.s.lifted[0] and g.salvage(0) == []
    assert g.s.remaining == [0, 2, 5, 5]


def test_R4_7_short_suit_lift_whole_hand_forced_auto():
    """R4.7: with exactly n + 1 cards in hand there is one set to give, in any suits: the
    lift completes without card sub-steps (a one-choice sub-decision)."""
    g = game().put(0, 3, 1).sink((1, 1), (4, 1), (5, 1), (1, 2))  # clubs short
    g.hand(0, "6D", "7H", "7S")
    g.do("lift")
    assert g.s.pending is None and g.s.lifted[0] and g.salvage(0) == []
    assert sorted(code(c) for c in g.s.under_king[0]) == ["6D", "7H", "7S"]


# ---------------------------------------------------------------- R4.8
def test_R4_8_take_off_needs_all_treasures_and_all_figures():
    """R4.8: with all four treasures lifted and every figure on the helicopter, take off
    (1 action): the team wins."""
    g = game(players=3)
    g.lifted("KC", "6C", "7C").lifted("KD", "6D", "7D").lifted("KH", "8H", "9H")
    g.refuse("take_off")  # three treasures
    g.lifted("KS", "7S", "8S")
    assert g.is_legal("take_off")
    g.do("move:right")
    g.refuse("take_off")  # not on the helicopter
    g.do("move:left")
    g.put(2, 4, 3)
    g.refuse("take_off")  # figure 2 is not on it
    g.put(2, 3, 3)
    g.do("take_off")
    assert g.s.outcome == "win" and g.s.legal_actions() == []


# ---------------------------------------------------------------- R4.9
def test_R4_9_salvage_is_open_information():
    """R4.9: salvage is open: every figure's cards show face up in the public view."""
    g = game().set_status({(3, 2): "dry", (4, 3): "flooded"})
    g.do("salvage:up", "salvage:right", "end_turn")
    assert g.d["salvage"] == [["7D", "6H"], []]
