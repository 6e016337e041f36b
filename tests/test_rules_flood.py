"""R5 the flood phase: flood count, one flood, the rising water, sinking and escapes.

Island used by most tests (``STANDARD``), column across, row down:

    6C  7C  KC  8C  9C
    10C 6D  7D  8D  9D
    10D KD  JK  6H  7H
    8H  9H  10H KH  6S
    7S  8S  9S  10S KS
"""

from __future__ import annotations

import pytest
from conftest import QUIET2_ROWS, QUIET_COLS, QUIET_ROWS, STANDARD, Game, island_cards

from inselflucht_env.games.inselflucht.rules.cards import code, parse


def floods_drawn(g: Game) -> int:
    return len(g.d["flood_discards"]["columns"])


# ---------------------------------------------------------------- R5.1
def test_R5_1_flood_count_fixed_rise_mid_phase_counts_next_phase():
    """R5.1: k = the water level at the start of the phase; a rise during the phase only
    counts from the next flood phase."""
    g = Game(STANDARD, QUIET_COLS * 2, QUIET_ROWS + QUIET2_ROWS, meter=[2, 3, 5])
    g.do("end_turn")
    assert floods_drawn(g) == 2
    g.do("end_turn")
    assert floods_drawn(g) == 4 and g.s.water_level == 2
    g.do("end_turn")  # floods 5 and 6: the water rises after the 5th, this phase keeps k=2
    assert g.s.meter == [3, 5] and floods_drawn(g) == 1
    g.do("end_turn")  # next phase: k = 3
    assert floods_drawn(g) == 4


# ---------------------------------------------------------------- R5.2
def test_R5_2_one_flood_dry_floods_flooded_sinks_sea_nothing():
    """R5.2: the top column and row cards name a place: dry (hidden or face up) becomes
    flooded, a hidden one revealed first; flooded sinks; sea: nothing happens."""
    # hits (1,5) 7S, (2,4) 9H, (3,1) KC, (4,2) 8D, (5,3) 7H in this order
    g = Game(STANDARD, [1, 2, 3, 4, 5], [5, 4, 1, 2, 3])
    g.set_status({(2, 4): "dry", (5, 3): "flooded"}).sink((4, 2))
    g.do("end_turn")  # (1,5) hidden -> revealed, flooded
    assert g.d["places"][4][0] == {"state": "flooded", "card": "7S"}
    g.do("end_turn")  # (2,4) face-up dry -> flooded
    assert g.d["places"][3][1] == {"state": "flooded", "card": "9H"}
    g.do("end_turn")  # (3,1) hidden king -> revealed, flooded
    assert g.d["places"][0][2] == {"state": "flooded", "card": "KC"}
    before = g.d["places"]
    g.do("end_turn")  # (4,2) sea: nothing happens
    assert g.d["places"] == before and g.d["flood_discards"]["columns"] == [1, 2, 3, 4]
    g.do("end_turn")  # (5,3) 7H flooded -> sinks, into the box
    assert g.status(5, 3) == "sea" and parse("7H") in g.s.box
    assert g.s.remaining == [5, 4, 4, 5] and g.s.outcome is None


# ---------------------------------------------------------------- R5.3
def test_R5_3_decks_reshuffled_and_water_rises_after_five_floods():
    """R5.3: both decks run out together after five floods; each is reshuffled separately
    and the water rises: removing the first ace leaves level 1, the second gives level 2."""
    g = Game(STANDARD, QUIET_COLS * 2, QUIET_ROWS + QUIET2_ROWS)
    for k in range(1, 5):
        g.do("end_turn")
        assert floods_drawn(g) == k and len(g.s.col_deck) == len(g.s.row_deck) == 5 - k
    g.do("end_turn")
    assert g.s.meter == [1, 2, 2, 3, 3, 4, 4, 5] and g.s.water_level == 1
    assert g.d["flood_discards"] == {"columns": [], "rows": []}
    assert sorted(g.s.col_deck) == sorted(g.s.row_deck) == [1, 2, 3, 4, 5]
    for _ in range(5):
        g.do("end_turn")
    assert g.s.meter == [2, 2, 3, 3, 4, 4, 5] and g.s.water_level == 2
    # unscripted passes are shuffled, the column and the row deck separately
    decks = set()
    for seed in range(8):
        h = Game(STANDARD, QUIET_COLS, QUIET_ROWS, seed=seed)
        for _ in range(5):
            h.do("end_turn")
        assert sorted(h.s.col_deck) == sorted(h.s.row_deck) == [1, 2, 3, 4, 5]
        decks.add((tuple(h.s.col_deck), tuple(h.s.row_deck)))
    assert len(decks) == 8 and len({c for c, r in decks}) > 1 and any(c != r for c, r in decks)


def test_R5_3_rise_right_after_fifth_flood_rest_use_fresh_decks():
    """R5.3: the rise happens at once after the 5th flood, before any further flood; floods
    left in this phase continue with the fresh decks."""
    g = Game(STANDARD, QUIET_COLS * 2, QUIET_ROWS + QUIET2_ROWS, meter=[3, 4, 5])
    g.do("end_turn")  # floods 1-3
    assert g.d["flood_discards"] == {"columns": [1, 2, 3], "rows": [5, 4, 2]}
    g.do("end_turn")  # floods 4, 5, rise, then flood 6 from the second pass
    assert g.s.meter == [4, 5]
    assert g.d["flood_discards"] == {"columns": [1], "rows": [2]}
    assert g.status(1, 2) == "flooded" and g.status(5, 3) == "flooded"
    assert len(g.s.col_deck) == len(g.s.row_deck) == 4


# ---------------------------------------------------------------- R5.4
@pytest.mark.parametrize(
    "meter,short,turns,floods",
    [
        ("normal", False, 22, 45),
        ("leicht", False, 27, 50),
        ("schwer", False, 17, 40),
        ("normal", True, 17, 40),
    ],
)
def test_R5_4_45_floods_then_L6(meter, short, turns, floods):
    """R5.4: the water must rise with the meter on its last card: loss L6. With the full
    meter the 45th flood ends the game: take off at the latest in turn 22."""
    # every pass hits the same five places: flooded in pass 1, sea from pass 2 on
    n_pass = floods // 5
    g = Game(STANDARD, QUIET_COLS * n_pass, QUIET_ROWS * n_pass, meter=meter, short_game=short)
    assert g.config.total_floods == floods
    drawn = 0
    while g.s.outcome is None:
        turn, level = g.s.turn, g.s.water_level
        assert g.s.legal_actions()
        g.do("end_turn")
        drawn += min(level, floods - drawn)
    assert g.s.outcome == "L6" and turn == turns and drawn == floods
    assert g.s.meter == [5] and floods_drawn(g) == 5 and g.s.turn == turns


# ---------------------------------------------------------------- R5.5
def test_R5_5_sinking_land_card_goes_to_box():
    """R5.5: a sinking land card leaves the game."""
    g = Game(STANDARD, [4, 1, 2, 3, 5], [2, 5, 4, 1, 3])
    g.set_status({(4, 2): "flooded"})
    g.do("end_turn")
    assert g.status(4, 2) == "sea" and g.s.box == [parse("8D")] and g.s.remaining[1] == 4
    assert g.s.outcome is None and len(island_cards(g.s)) == 25


def test_R5_5_lifted_king_sinks_safely_with_its_cards():
    """R5.5: a king whose treasure is lifted is set aside with its cards (safe)."""
    g = Game(STANDARD, [3, 1, 2, 4, 5], [1, 5, 4, 2, 3]).lifted("KC", "6C", "7C")
    g.set_status({(3, 1): "flooded"})
    g.do("end_turn")
    assert g.status(3, 1) == "sea" and g.s.set_aside == [parse("KC")]
    assert [code(c) for c in g.s.under_king[0]] == ["6C", "7C"]
    assert g.s.outcome is None and g.s.turn == 2


def test_R5_5_figure_escapes_free_to_chosen_neighbour_incl_diagonal():
    """R5.5: a figure on the sinking place swims at once, for free, to a field among the 8
    neighbours chosen by its player; a hidden one is revealed."""
    g = Game(STANDARD, [2, 1, 3, 4, 5], [2, 5, 1, 3, 4]).put(0, 2, 2)
    g.set_status({(2, 2): "flooded"}).sink((1, 2))
    g.do("end_turn")
    assert g.d["pending"] == {"kind": "escape", "figure": 0, "from": [2, 2]}
    assert g.legal() == {
        "escape:up",
        "escape:down",
        "escape:right",
        "escape:up-left",
        "escape:up-right",
        "escape:down-left",
        "escape:down-right",
    }
    assert g.s.turn == 1 and g.s.in_flood
    g.do("escape:up-left")
    assert g.at(0) == (1, 1) and g.d["places"][0][0] == {"state": "dry", "card": "6C"}
    assert g.s.turn == 2 and g.s.active == 1 and g.s.actions_left == 4


def test_R5_5_single_escape_choice_is_automatic():
    """R5.5: with one neighbouring field the escape needs no decision."""
    g = Game(STANDARD, [1, 2, 3, 4, 5], [1, 5, 4, 2, 3]).put(0, 1, 1)
    g.set_status({(1, 1): "flooded"}).sink((2, 1), (1, 2))
    g.do("end_turn")
    assert g.at(0) == (2, 2) and g.status(2, 2) == "dry" and g.s.pending is None
    assert g.s.turn == 2 and g.s.outcome is None


def test_R5_5_several_figures_escape_in_turn_order_from_active_ruling():
    """R5.5 Ruling: several figures on a sinking place choose in turn order starting from
    the active figure; each choice is its player's decision."""
    # flood 1 (figure 0's phase) hits (1,5); flood 2 (figure 1's phase) hits (2,2)
    g = Game(STANDARD, [1, 2, 3, 4, 5], [5, 2, 1, 3, 4], players=3)
    for f in range(3):
        g.put(f, 2, 2)
    g.set_status({(2, 2): "flooded"})
    g.do("end_turn")
    assert g.s.active == 1 and g.s.pending is None
    g.do("end_turn")
    order = []
    for name in ("escape:up", "escape:right", "escape:down-left"):
        assert g.s.active == 1 and g.s.pending.kind == "escape"
        order.append(g.s.decider)
        g.do(name)
    assert order == [1, 2, 0]
    assert g.at(1) == (2, 1) and g.at(2) == (3, 2) and g.at(0) == (1, 3)
    assert g.s.active == 2 and g.s.turn == 3


def test_R5_5_escape_decided_by_sinking_figure_in_anothers_phase():
    """R5.5: the escape is the choice of the sinking figure's player, even in another
    figure's flood phase."""
    g = Game(STANDARD, [1, 4, 3, 2, 5], [5, 4, 1, 2, 3])
    g.put(0, 4, 4).set_status({(4, 4): "flooded"})  # KH, flooded, figure 0 on it
    g.lifted("KH", "8H", "9H")
    g.do("end_turn")  # (1,5)
    g.do("end_turn")  # figure 1's phase: (4,4) sinks under figure 0
    assert g.s.active == 1 and g.s.decider == 0
    assert g.d["pending"] == {"kind": "escape", "figure": 0, "from": [4, 4]}
    g.do("escape:down-right")
    assert g.at(0) == (5, 5) and g.s.active == 0 and g.s.turn == 3


# ---------------------------------------------------------------- R5.6
def test_R5_6_loss_ends_game_no_further_flood():
    """R5.6: a loss ends the game at once: no further flood is drawn."""
    g = Game(STANDARD, [3, 1, 2, 4, 5], [1, 5, 4, 2, 3], meter=[3, 5])
    g.set_status({(3, 1): "flooded"})  # KC, unlifted
    g.do("end_turn")
    assert g.s.outcome == "L1" and floods_drawn(g) == 1 and g.s.floods_left == 2
    assert g.s.legal_actions() == [] and g.s.turn == 1
    g.refuse("end_turn")
    assert g.status(1, 5) == "hidden"  # the second flood was never drawn
