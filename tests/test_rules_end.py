"""R6 end of the game: the win, short suits, the losses L1-L6 and their order.

Island used by most tests (``STANDARD``), column across, row down:

    6C  7C  KC  8C  9C
    10C 6D  7D  8D  9D
    10D KD  JK  6H  7H
    8H  9H  10H KH  6S
    7S  8S  9S  10S KS
"""

from __future__ import annotations

import pytest
from conftest import QUIET_COLS, QUIET_ROWS, STANDARD, Game, island_cards

from inselflucht_env.games.inselflucht.rules.cards import is_land, parse, suit_of


def deck(*places: tuple[int, int]) -> tuple[list[int], list[int]]:
    """Column and row decks of one pass whose first floods hit ``places`` in order."""
    cols = [c for c, r in places]
    rows = [r for c, r in places]
    cols += [c for c in range(1, 6) if c not in cols]
    rows += [r for r in range(1, 6) if r not in rows]
    return cols, rows


def ks_corner(cols, rows, **kw) -> Game:
    """KS at (5,5), reachable only over 10S at (4,5): 6S (5,4) is sea, and so are 9S (3,5)
    and 7H (5,3), where a swim onto KS would start."""
    return Game(STANDARD, cols, rows, **kw).sink((3, 5), (5, 3), (5, 4))


# ---------------------------------------------------------------- R6.1
def test_R6_1_win_by_take_off():
    """R6.1: the team wins by taking off (R4.8)."""
    g = Game(STANDARD, QUIET_COLS, QUIET_ROWS)
    g.lifted("KC", "6C", "7C").lifted("KD", "6D", "10D").lifted("KH", "8H", "9H")
    g.put(0, 5, 5).hand(0, "7S", "10S").put(1, 4, 3)
    g.do("lift", "move:up", "move:up", "move:left")  # KS lifted; figure 0 to (4,3)
    assert g.s.lifted == [True] * 4 and g.s.active == 1
    g.do("move:left", "end_turn")  # figure 1 onto the helicopter
    g.refuse("take_off")
    g.do("move:left")  # figure 0 joins it
    assert g.is_legal("take_off")
    g.do("take_off")
    assert g.s.outcome == "win" and g.s.is_terminal and g.s.legal_actions() == []
    assert g.d["outcome"] == "win"
    g.refuse("end_turn")


# ---------------------------------------------------------------- R6.2
def test_R6_2_short_suit_counts_island_and_salvage():
    """R6.2: a suit is short when fewer than n of its land cards remain on the island and in
    all salvage together; cards under kings and sunk cards do not remain. Public: 5 minus
    the suit's sunk and used cards."""
    g = Game(STANDARD, QUIET_COLS, QUIET_ROWS)
    g.hand(0, "6C", "7C").hand(1, "8C")
    g.sink((5, 1), (1, 2))  # 9C, 10C
    assert g.s.remaining[0] == 3 and not g.s.is_short(0)  # all three are in salvage
    g.put(0, 3, 1).do("lift")  # 6C, 7C go under KC
    assert g.s.remaining[0] == 1 and g.s.is_short(0)
    for suit in range(4):  # public: 5 minus sunk and used
        sunk = sum(1 for c in g.s.box if is_land(c) and suit_of(c) == suit)
        used = sum(1 for h in g.s.under_king for c in h if suit_of(c) == suit)
        assert g.s.remaining[suit] == 5 - sunk - used
    assert [g.s.is_short(s) for s in range(4)] == [True, False, False, False]
    short = Game(STANDARD, short_game=True).sink((1, 1), (2, 1), (4, 1), (5, 1))
    assert not short.s.is_short(0)  # n = 1: one club left is enough
    short.sink((1, 2))
    assert short.s.is_short(0)


# ---------------------------------------------------------------- R6.3 L1 - L6
def test_R6_3_L1_unlifted_king_sinks():
    """R6.3 L1: the king of an unlifted treasure sinks."""
    g = Game(STANDARD, *deck((2, 3)))
    g.set_status({(2, 3): "flooded"})
    g.do("end_turn")
    assert g.s.outcome == "L1" and g.status(2, 3) == "sea" and parse("KD") in g.s.box
    assert len(island_cards(g.s)) == 25 and g.s.legal_actions() == []


def test_R6_3_L2_helicopter_sinks():
    """R6.3 L2: the helicopter sinks."""
    g = Game(STANDARD, *deck((3, 3))).put(0, 3, 2).put(1, 3, 2)
    g.set_status({(3, 3): "flooded"})
    g.do("end_turn")
    assert g.s.outcome == "L2" and g.status(3, 3) == "sea"


def test_R6_3_L3_figure_cannot_swim_to_safety():
    """R6.3 L3: a figure on a sinking place with no neighbouring field drowns."""
    g = Game(STANDARD, *deck((1, 1))).put(0, 1, 1)
    g.set_status({(1, 1): "flooded"}).sink((2, 1), (1, 2), (2, 2))
    g.do("end_turn")
    assert g.s.outcome == "L3" and g.s.pending is None and g.s.legal_actions() == []


def test_R6_3_L4_king_cut_off_by_salvage():
    """R6.3 L4: no figure can reach some king with an unlifted treasure, by any moves and
    swims ignoring the action budget; checked after every action."""
    g = ks_corner(QUIET_COLS, QUIET_ROWS).put(0, 4, 4).set_status({(4, 5): "dry", (5, 5): "dry"})
    assert g.is_legal("salvage:down")
    g.do("salvage:down")  # 10S: nothing leads to KS any more
    assert g.s.outcome == "L4" and g.s.actions_left == 3 and g.s.legal_actions() == []


def test_R6_3_L4_king_cut_off_by_flood():
    """R6.3 L4: checked after every flood."""
    g = ks_corner(*deck((4, 5))).set_status({(4, 5): "flooded", (5, 5): "dry"})
    g.do("end_turn")
    assert g.s.outcome == "L4" and g.status(4, 5) == "sea"


def test_R6_3_L4_hidden_king_cut_off_ruling():
    """R6.3 L4 Ruling: checked on the true cards, so a cut-off king that is still hidden
    also loses; it is then revealed in the final state."""
    g = ks_corner(QUIET_COLS, QUIET_ROWS).put(0, 4, 4).set_status({(4, 5): "dry"})
    assert g.d["places"][4][4] == {"state": "hidden", "card": None}
    g.do("salvage:down")
    assert g.s.outcome == "L4"
    assert g.d["places"][4][4] == {"state": "dry", "card": "KS"}
    # the same cut with hidden land in the corner is no loss, and the card stays hidden
    swapped = [row.replace("KS", "XX").replace("7S", "KS").replace("XX", "7S") for row in STANDARD]
    h = Game(swapped, QUIET_COLS, QUIET_ROWS).sink((3, 5), (5, 3), (5, 4))
    h.put(0, 4, 4).set_status({(4, 5): "dry"})
    h.do("salvage:down")
    assert h.s.outcome is None and h.d["places"][4][4] == {"state": "hidden", "card": None}


def test_R6_3_L4_helicopter_cut_off():
    """R6.3 L4: no figure can reach the helicopter."""
    g = Game(STANDARD, *deck((1, 3)))
    g.lifted("KC", "8C", "9C").lifted("KD", "6D", "7D").lifted("KH", "8H", "9H")
    g.lifted("KS", "7S", "8S")
    g.put(0, 1, 1).put(1, 1, 1).sink((2, 1), (1, 2), (3, 1))  # (1,1) reaches only (1,3)
    g.set_status({(1, 3): "flooded"})
    g.do("end_turn")
    assert g.s.outcome == "L4"


def test_R6_3_L4_note_single_figure_cut_off_from_helicopter_is_no_loss():
    """R6.3 Note: L4 asks that *no* figure can reach the helicopter; one figure cut off
    makes the take-off impossible without being a loss: the game runs on."""
    g = Game(STANDARD, *deck((1, 3)))
    g.lifted("KC", "8C", "9C").lifted("KD", "6D", "7D").lifted("KH", "8H", "9H")
    g.lifted("KS", "7S", "8S")
    g.put(0, 1, 1).sink((2, 1), (1, 2), (3, 1))  # figure 1 stays on the helicopter
    g.set_status({(1, 3): "flooded"})
    g.do("end_turn")
    assert g.s.outcome is None and g.s.turn == 2
    g.do("end_turn", "end_turn")
    assert g.s.outcome is None and g.s.turn == 4


def l5_game(cols, rows, **kw) -> Game:
    """Nothing lifted, 9 land cards left: clubs 7C (2,1), 8C (4,1), 10C (1,2); diamonds 7D,
    8D; hearts 6H, 10H; spades 6S, 10S. Need 8, every king still reachable."""
    g = Game(STANDARD, cols, rows, **kw)
    g.sink_cards("6C", "9C", "6D", "9D", "10D", "7H", "8H", "9H", "7S", "8S", "9S")
    assert g.s.remaining == [3, 2, 2, 2]
    return g


def test_R6_3_L5_too_few_cards_after_flood():
    """R6.3 L5: the remaining land cards are fewer than the unlifted treasures need: n each,
    n + 1 for a short suit."""
    g = l5_game(*deck((2, 1), (1, 2))).set_status({(2, 1): "flooded", (1, 2): "flooded"})
    g.do("end_turn")  # 7C sinks: 8 left, 8 needed
    assert g.s.outcome is None and g.s.remaining == [2, 2, 2, 2]
    g.do("end_turn")  # 10C sinks: clubs short, 7 left, 9 needed
    assert g.s.outcome == "L5" and g.s.is_short(0)


def test_R6_3_L5_sum_is_exact():
    """R6.3 L5: the sum is exact: while it holds, a way to lift everything exists and the
    game goes on."""
    g = l5_game(*deck((2, 1), (1, 2))).set_status({(2, 1): "flooded"})
    g.do("end_turn")
    assert g.s.remaining == [2, 2, 2, 2] and g.s.outcome is None  # 8 == 2 * 4
    g.put(1, 3, 1).hand(1, "8C", "10C")  # and indeed: each treasure takes its own two
    assert g.is_legal("lift")


@pytest.mark.parametrize(
    "cards,outcome", [(("hearts", "hearts"), None), (("diamonds", "hearts"), "L5")]
)
def test_R6_3_L5_after_a_lift_depends_on_the_cards_chosen(cards, outcome):
    """R6.3 L5 is checked after every action: a short-suit lift that spends another
    unlifted suit's cards can make that suit short too."""
    g = Game(STANDARD, QUIET_COLS, QUIET_ROWS)
    g.lifted("KH", "8H", "9H").lifted("KS", "7S", "8S")
    g.sink_cards("6C", "8C", "9C", "10C", "8D", "9D", "10D", "7H", "6S", "9S", "10S")
    g.put(0, 3, 1).hand(0, "7C", "6D", "6H", "10H")
    # clubs short (1 left: need 3), diamonds 6D 7D (need 2): 5 needed, 5 left
    assert g.s.remaining == [1, 2, 2, 0] and g.s.outcome is None
    g.do("lift", "card:" + cards[0], "card:" + cards[1])
    if g.s.pending is not None:
        g.do("card:clubs")
    assert g.s.lifted[0] and g.s.outcome == outcome


def test_R6_3_L6_water_rises_past_last_meter_card():
    """R6.3 L6: the water must rise while the meter shows its last card."""
    g = Game(STANDARD, QUIET_COLS, QUIET_ROWS, meter=[5])
    g.do("end_turn")
    assert g.s.outcome == "L6" and g.s.turn == 1 and g.s.meter == [5]
    assert len(g.d["flood_discards"]["columns"]) == 5


# ---------------------------------------------------------------- R6.3 order
def test_R6_3_order_L1_at_the_sinking_before_L4():
    """R6.3: several losses at once: the first to arise counts; L1 at the sinking itself,
    L4 only once the flood has resolved."""
    layout = [
        row.replace("KH", "XX").replace("6S", "KH").replace("XX", "6S") for row in STANDARD
    ]  # KH at (5,4), next to KS
    g = Game(layout, *deck((5, 4))).sink((3, 5), (4, 5), (5, 3))
    g.set_status({(5, 4): "flooded"})
    g.do("end_turn")  # KH sinks: L1; KS is cut off as well (L4)
    assert g.s.outcome == "L1"


def test_R6_3_order_L2_before_L3():
    """R6.3: the helicopter sinking under figures that have nowhere to go is L2."""
    g = Game(STANDARD, *deck((3, 3)))
    g.lifted("KD", "6D", "7D").lifted("KH", "8H", "9H")
    g.sink((4, 2), (2, 3), (4, 3), (3, 4), (4, 4))  # all 8 neighbours of the centre are sea
    g.set_status({(3, 3): "flooded"})
    g.do("end_turn")
    assert g.s.outcome == "L2"


def test_R6_3_order_L3_before_L4():
    """R6.3: a drowning figure is L3 at the sinking, even when L4 holds afterwards."""
    g = ks_corner(*deck((1, 1))).sink((4, 5)).put(0, 1, 1).put(1, 1, 1)  # KS cut off
    g.set_status({(1, 1): "flooded"}).sink((2, 1), (1, 2), (2, 2))
    g.do("end_turn")
    assert g.s.outcome == "L3"


def test_R6_3_order_L4_before_L5():
    """R6.3: L4 and L5 are checked in that order once the flood has resolved."""
    layout = ["7S ? ? ? ?", "? ? ? ? ?", "KH ? JK KC ?", "? ? ? KD 6S", "? ? ? ? KS"]
    g = Game(layout, *deck((5, 4)))
    g.lifted("KC", "6C", "7C").lifted("KD", "6D", "7D").lifted("KH", "6H", "7H")
    g.sink_cards("8C", "9C", "10C", "8D", "9D", "10D", "8H", "9H", "10H", "8S", "9S", "10S")
    g.set_status({(5, 4): "flooded"})
    assert g.s.remaining == [0, 0, 0, 2] and g.s.outcome is None
    g.do("end_turn")  # 6S sinks: KS cut off (L4) and 1 spade for 3 needed (L5)
    assert g.s.outcome == "L4"


def test_R6_3_order_L4_after_escapes():
    """R6.3: L4 is checked once the flood has fully resolved, escapes included: the
    escaping figure's choice decides it."""
    outcomes = {}
    for choice in ("escape:right", "escape:up", "escape:up-left"):
        g = ks_corner(*deck((4, 5))).put(0, 4, 5).set_status({(4, 5): "flooded"})
        g.do("end_turn")
        assert g.legal() == {"escape:right", "escape:up", "escape:up-left"}
        g.do(choice)
        outcomes[choice] = g.s.outcome
    assert outcomes == {"escape:right": None, "escape:up": "L4", "escape:up-left": "L4"}


def test_R6_3_order_L5_before_L6():
    """R6.3: L6 arises at the rise after the pass's last flood, after that flood's L4/L5."""
    g = l5_game([2, 3, 4, 5, 1], [1, 5, 3, 4, 2], meter=[5]).sink_cards("7C")
    g.set_status({(1, 2): "flooded"})
    assert g.s.outcome is None
    g.do("end_turn")  # floods 1-4 harmless, the 5th sinks 10C: L5, then the rise: L6
    assert g.s.outcome == "L5" and len(g.d["flood_discards"]["columns"]) == 5
