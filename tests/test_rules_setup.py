"""R1 cards, R2 setup, R3 places: one test per rule number."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import QUIET_COLS, QUIET_ROWS, STANDARD, Game, P, island_cards

from inselflucht_env.games.inselflucht.rules.cards import (
    HELICOPTER,
    ISLAND_CARDS,
    KING,
    N_LAND,
    code,
    parse,
    suit_of,
)
from inselflucht_env.games.inselflucht.rules.config import METER_PRESETS, GameConfig
from inselflucht_env.games.inselflucht.rules.engine import DRY, HIDDEN, State
from inselflucht_env.games.inselflucht.rules.public import describe

EXAMPLE = ["? 7C KC 7S ?", "? 10C 8H 6D 10H", "9S ? JK ? KH", "? 9D 7H ? ?", "? ? ? ? 6S"]


# ---------------------------------------------------------------- R1 cards
def test_R1_1_deck_without_jacks_queens_and_5d():
    """R1.1: 52 cards plus a Joker; jacks, queens and the 5 of diamonds are not used;
    an ace counts 1."""
    codes = {code(c) for c in ISLAND_CARDS} | {code(HELICOPTER)}
    assert len(codes) == 25
    for bad in ("JC", "QH", "JS", "QD", "5D", "AS", "AH", "5C", "11C", "1S"):
        assert bad not in codes
        with pytest.raises(ValueError):
            parse(bad)
    # The flood cards are aces to fives: values 1-5, the ace counting 1.
    s = State.new(GameConfig.make(), np.random.default_rng(3))
    assert sorted(s.col_deck) == [1, 2, 3, 4, 5]
    assert sorted(s.row_deck) == [1, 2, 3, 4, 5]


def test_R1_2_island_cards_land_kings_and_joker():
    """R1.2: 24 island cards, the 20 land cards 6-10 of each suit and the 4 kings;
    the Joker is the helicopter."""
    land = [c for c in ISLAND_CARDS if c < N_LAND]
    kings = [c for c in ISLAND_CARDS if KING <= c < HELICOPTER]
    assert len(ISLAND_CARDS) == 24 and len(land) == 20 and len(kings) == 4
    assert sorted(code(c) for c in kings) == ["KC", "KD", "KH", "KS"]
    for suit in "CDHS":
        assert sorted(int(code(c)[:-1]) for c in land if code(c).endswith(suit)) == [6, 7, 8, 9, 10]
    assert code(HELICOPTER) == "JK"
    s = State.new(GameConfig.make(), np.random.default_rng(1))
    assert sorted(s.card) == list(range(25))
    assert s.card[P(3, 3)] == HELICOPTER


def test_R1_3_column_and_row_cards_name_a_place():
    """R1.3: column cards A-5 of spades give the column, row cards A-5 of hearts the row:
    "4 of spades and 2 of hearts: column 4, row 2"."""
    g = Game(
        ["? ? ? ? ?"] * 2 + ["? ? JK ? ?"] + ["? ? ? ? ?"] * 2,
        cols=[4, 1, 2, 3, 5],
        rows=[2, 1, 3, 4, 5],
    )
    g.do("end_turn")
    assert g.d["flood_discards"] == {"columns": [4], "rows": [2]}
    assert g.status(4, 2) == "flooded"
    assert sum(1 for p in range(25) if g.s.status[p] not in (HIDDEN, DRY)) == 1


def test_R1_4_water_meter_top_card_is_level():
    """R1.4: the meter A, A, 2, 2, 3, 3, 4, 4, 5, top first; the top card's value is the
    water level."""
    assert METER_PRESETS["normal"] == (1, 1, 2, 2, 3, 3, 4, 4, 5)
    g = Game()
    assert g.s.meter == [1, 1, 2, 2, 3, 3, 4, 4, 5]
    assert g.d["meter"] == [1, 1, 2, 2, 3, 3, 4, 4, 5]
    assert g.s.water_level == 1 and g.d["water_level"] == 1
    g.s.meter = [4, 4, 5]
    assert g.s.water_level == 4 and g.d["water_level"] == 4 and g.d["meter"] == [4, 4, 5]
    g.s.meter = [5]
    assert g.s.water_level == 5 and g.d["water_level"] == 5


def test_R1_5_only_suit_matters_real_card_kept():
    """R1.5: only a land card's suit matters; the real card is kept; which card of a suit
    moves out of a salvage is free (here: the one salvaged first)."""
    layout = ["? ? KC ? ?", "? ? ? ? ?", "? ? JK ? ?", "? ? ? ? ?", "6C 9C 10C 8C 7D"]
    a = Game(layout).put(0, 3, 1).hand(0, "6C", "9C", "7D")
    b = Game(layout).put(0, 3, 1).hand(0, "10C", "8C", "7D")
    assert a.legal() == b.legal()
    a.do("lift")
    b.do("lift")
    assert a.s.lifted == b.s.lifted == [True, False, False, False]
    assert [code(c) for c in a.s.under_king[0]] == ["6C", "9C"]  # real cards kept
    assert [code(c) for c in b.s.under_king[0]] == ["10C", "8C"]
    assert a.salvage(0) == b.salvage(0) == ["7D"]
    # A give moves the first salvaged card of the chosen suit.
    g = Game().hand(0, "9D", "6C", "7D")
    g.do("give:+1", "card:diamonds", "done")
    assert g.salvage(1) == ["9D"] and g.salvage(0) == ["6C", "7D"]
    assert suit_of(parse("9D")) == suit_of(parse("KD")) == 1


# ---------------------------------------------------------------- R2 setup
def test_R2_1_grid_helicopter_face_up_rest_face_down():
    """R2.1: 5 x 5 grid; the helicopter face up at column 3, row 3; the 24 island cards
    shuffled face down onto the other places."""
    deals = set()
    for seed in range(6):
        s = State.new(GameConfig.make(), np.random.default_rng(seed))
        assert len(s.card) == len(s.status) == 25
        assert s.card[P(3, 3)] == HELICOPTER and s.status[P(3, 3)] == DRY
        assert sorted(s.card[:12] + s.card[13:]) == list(ISLAND_CARDS)
        assert all(s.status[p] == HIDDEN for p in range(25) if p != P(3, 3))
        d = describe(s)
        assert d["places"][2][2] == {"state": "dry", "card": "JK"}
        assert all(
            d["places"][r][c] == {"state": "hidden", "card": None}
            for r in range(5)
            for c in range(5)
            if (r, c) != (2, 2)
        )
        deals.add(tuple(s.card))
    assert len(deals) == 6  # shuffled
    g = Game(EXAMPLE, fill=False)
    assert g.card(3, 1) == "KC" and g.card(5, 3) == "KH" and g.card(5, 5) == "6S"


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_R2_2_figures_start_on_helicopter(players):
    """R2.2: all figures start on the helicopter."""
    g = Game(players=players)
    assert g.s.pos == [P(3, 3)] * g.config.figures
    assert g.d["figures"] == [[3, 3]] * g.config.figures


def test_R2_3_flood_decks_shuffled_separately_discards_face_up():
    """R2.3: column and row decks shuffled separately, face down; discards face up."""
    differ = 0
    orders = set()
    for seed in range(20):
        s = State.new(GameConfig.make(), np.random.default_rng(seed))
        assert sorted(s.col_deck) == sorted(s.row_deck) == [1, 2, 3, 4, 5]
        assert s.col_discard == s.row_discard == []
        differ += s.col_deck != s.row_deck
        orders.add(tuple(s.col_deck))
    assert differ >= 15 and len(orders) >= 10
    g = Game(cols=[2, 1, 3, 4, 5], rows=[5, 1, 3, 4, 2])
    g.do("end_turn", "end_turn")
    assert g.d["flood_discards"] == {"columns": [2, 1], "rows": [5, 1]}


@pytest.mark.parametrize("players,figures", [(1, 2), (2, 2), (3, 3), (4, 4)])
def test_R2_4_players_solo_and_turn_order(players, figures):
    """R2.4: 1-4 players; solo runs two figures with their own salvage, like 2 players;
    turn order is figure 0, 1, ..., then 0 again."""
    g = Game(cols=QUIET_COLS, rows=QUIET_ROWS, players=players)
    assert len(g.s.pos) == len(g.s.salvage) == figures
    seen = []
    for _ in range(figures + 1):
        seen.append(g.s.active)
        g.do("end_turn")
    assert seen == list(range(figures)) + [0]
    assert g.d["turn"] == figures + 2
    with pytest.raises(ValueError):
        GameConfig.make(players=0)
    with pytest.raises(ValueError):
        GameConfig.make(players=5)
    if players == 1:  # each figure has its own salvage
        solo = Game(players=1).hand(0, "7C").hand(1, "8D")
        assert solo.salvage(0) == ["7C"] and solo.salvage(1) == ["8D"]
        assert solo.is_legal("give:+1") and not solo.is_legal("give:+2")


# ---------------------------------------------------------------- R3 places
def test_R3_1_place_states_hidden_dry_flooded_sea():
    """R3.1: a place is hidden, dry, flooded or sea (no card: sunk, salvaged, sunk king)."""
    g = Game(
        ["? ? ? ? ?", "? ? 8H ? ?", "? 7H JK ? ?", "? ? ? ? ?", "? ? ? ? ?"],
        cols=[3, 1, 2, 4, 5],
        rows=[2, 1, 5, 4, 3],
    )
    assert g.status(3, 2) == "hidden"
    g.do("move:left")  # reveals 7H: dry
    assert g.status(2, 3) == "dry"
    g.do("move:right", "end_turn")  # flood (3, 2): hidden -> flooded
    assert g.status(3, 2) == "flooded" and g.card(3, 2) == "8H"
    g.do("salvage:left")  # figure 1 salvages 7H: sea, no card
    assert g.status(2, 3) == "sea" and g.card(2, 3) is None
    assert g.d["places"][2][1] == {"state": "sea", "card": None}


def test_R3_2_fields_shared_by_any_number_of_figures():
    """R3.2: every non-sea place is a field; any number of figures may share one."""
    g = Game(STANDARD, QUIET_COLS, QUIET_ROWS, players=4)
    assert g.s.fields_mask() == (1 << 25) - 1
    g.do("move:up", "move:down", "end_turn")
    g.do("move:up", "move:down", "end_turn")
    g.do("move:up", "end_turn")
    g.do("move:up", "end_turn")
    assert g.at(2) == g.at(3) == (3, 2) and g.at(0) == g.at(1) == (3, 3)
    g.sink((1, 1))
    assert not g.s.fields_mask() >> P(1, 1) & 1


def test_R3_3_revealing_turns_face_up_dry():
    """R3.3: explored = face up; revealing a hidden place turns it face up, dry."""
    g = Game(["? ? ? ? ?", "? ? ? ? ?", "? ? JK 9S ?", "? ? ? ? ?", "? ? ? ? ?"])
    assert g.d["places"][2][3] == {"state": "hidden", "card": None}
    g.do("move:right")
    assert g.d["places"][2][3] == {"state": "dry", "card": "9S"}


def test_R3_4_adjacency_is_orthogonal():
    """R3.4: adjacent means up, down, left, right, never diagonal (except escapes)."""
    g = Game(["? ? ? ? ?", "? 7C ? ? ?", "? ? JK ? ?", "? ? ? ? ?", "? ? ? ? ?"])
    g.set_status({(2, 2): "flooded", (4, 4): "flooded"})
    moves = {n for n in g.legal() if n.startswith("move")}
    assert moves == {"move:up", "move:down", "move:left", "move:right"}
    assert not any(n.startswith(("shore", "salvage")) for n in g.legal())  # (2,2) diagonal
    g.do("move:up")  # now (2, 2) is left of the figure
    assert {"shore:left", "salvage:left"} <= g.legal()
    assert len([n for n in g.legal() if n.startswith("escape")]) == 0
    assert len(island_cards(g.s)) == 25
