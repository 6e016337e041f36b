"""R7 variants: Taucher, Kurzes Spiel, difficulty (meter presets); all combinable.

Island used by most tests (``STANDARD``), column across, row down:

    6C  7C  KC  8C  9C
    10C 6D  7D  8D  9D
    10D KD  JK  6H  7H
    8H  9H  10H KH  6S
    7S  8S  9S  10S KS
"""

from __future__ import annotations

import pytest
from conftest import QUIET_COLS, QUIET_ROWS, STANDARD, Game

from inselflucht_env.games.inselflucht.rules.cards import code
from inselflucht_env.games.inselflucht.rules.config import METER_PRESETS, GameConfig, resolve_meter


# ---------------------------------------------------------------- R7.1
def test_R7_1_taucher_swim_costs_one_action():
    """R7.1 Taucher: swimming costs 1 action (and needs only 1 left)."""
    g = Game(STANDARD, QUIET_COLS, QUIET_ROWS, taucher=True).sink((3, 2))
    assert g.config.swim_cost == 1
    g.do("swim:up")
    assert g.at(0) == (3, 1) and g.s.actions_left == 3
    g.do("move:left", "move:right")
    assert g.s.actions_left == 1 and g.is_legal("swim:down")
    g.do("swim:down")
    assert g.at(0) == (3, 3) and g.s.turn == 2
    plain = Game(STANDARD, QUIET_COLS, QUIET_ROWS).sink((3, 2))
    assert plain.config.swim_cost == 2
    plain.do("swim:up")
    assert plain.s.actions_left == 2


# ---------------------------------------------------------------- R7.2
def test_R7_2_short_game_n1_and_meter_without_first_ace():
    """R7.2 Kurzes Spiel: n = 1 and the meter starts without the first ace (17 turns);
    remove the first card of normal and leicht; schwer has none to remove; a custom meter
    is taken as given."""
    assert GameConfig.make(short_game=True).meter == (1, 2, 2, 3, 3, 4, 4, 5)
    assert GameConfig.make(short_game=True, meter="leicht").meter == (1, 1, 2, 2, 3, 3, 4, 4, 5)
    assert GameConfig.make(short_game=True, meter="schwer").meter == (1, 2, 2, 3, 3, 4, 4, 5)
    assert GameConfig.make(short_game=True, meter=[1, 1, 3]).meter == (1, 1, 3)
    cfg = GameConfig.make(short_game=True)
    assert cfg.cards_per_treasure == 1 and cfg.total_floods == 40
    assert GameConfig.make().cards_per_treasure == 2
    g = Game(STANDARD, QUIET_COLS, QUIET_ROWS, short_game=True).put(0, 3, 1).hand(0, "7C")
    assert g.s.meter == [1, 2, 2, 3, 3, 4, 4, 5]
    g.do("lift")
    assert g.s.lifted[0] and [code(c) for c in g.s.under_king[0]] == ["7C"]
    assert g.s.remaining[0] == 4


def test_R7_2_short_game_short_suit_lift_with_two_cards():
    """R7.2 with R4.7: in the short game a suit is short when none of it remains; its
    treasure then takes n + 1 = 2 cards of any suits."""
    g = Game(STANDARD, QUIET_COLS, QUIET_ROWS, short_game=True).put(0, 3, 1)
    g.sink((1, 1), (2, 1), (4, 1), (5, 1), (1, 2))  # every club sinks
    g.hand(0, "6D")
    assert g.s.is_short(0) and not g.is_legal("lift")
    g.hand(0, "8H")
    g.do("lift")  # the whole hand must go: one set of cards, applied automatically
    assert g.s.lifted[0] and g.s.pending is None
    assert sorted(code(c) for c in g.s.under_king[0]) == ["6D", "8H"]


def test_R7_2_short_game_L5_counts_n1():
    """R7.2 with R6.3 L5: the need is n = 1 per treasure, 2 for a short suit."""
    g = Game(STANDARD, [2, 1, 3, 4, 5], [1, 2, 3, 4, 5], short_game=True)
    g.sink_cards(
        "6C",
        "7C",
        "8C",
        "9C",
        "6D",
        "7D",
        "8D",
        "9D",
        "6H",
        "7H",
        "8H",
        "9H",
        "6S",
        "7S",
        "8S",
        "9S",
    )  # left: 10C (1,2), 10D, 10H, 10S
    g.set_status({(1, 2): "flooded"})
    assert g.s.remaining == [1, 1, 1, 1]
    g.do("end_turn")  # (2,1) is sea; 4 left, 4 needed (8 if n were 2)
    assert g.s.outcome is None and g.s.turn == 2
    g.do("end_turn")  # 10C sinks: clubs short, 3 left, 2 + 1 + 1 + 1 needed
    assert g.s.outcome == "L5"


# ---------------------------------------------------------------- R7.3
@pytest.mark.parametrize(
    "name,levels,floods",
    [
        ("normal", (1, 1, 2, 2, 3, 3, 4, 4, 5), 45),
        ("leicht", (1, 1, 1, 2, 2, 3, 3, 4, 4, 5), 50),
        ("schwer", (1, 2, 2, 3, 3, 4, 4, 5), 40),
    ],
)
def test_R7_3_difficulty_presets(name, levels, floods):
    """R7.3 Ruling: the meter is a list of levels with presets normal (45 floods), leicht
    (50) and schwer (the meter without the first ace, n stays 2: 40)."""
    cfg = GameConfig.make(meter=name)
    assert cfg.meter == levels and cfg.total_floods == floods and cfg.cards_per_treasure == 2
    assert METER_PRESETS[name] == levels
    assert Game(meter=name).s.meter == list(levels)


def test_R7_3_custom_meter_last_card_is_the_last_5():
    """R7.3: any non-empty meter of values 1-5 is valid; its last card plays the role of
    the 5 of clubs in R5.4."""
    g = Game(STANDARD, QUIET_COLS, QUIET_ROWS, meter=[2])
    g.do("end_turn", "end_turn")
    assert g.s.outcome is None and g.s.turn == 3
    g.do("end_turn")  # the 5th flood, then the water must rise: L6 with 1 flood unplayed
    assert g.s.outcome == "L6" and g.s.turn == 3 and g.s.floods_left == 1
    assert resolve_meter([5, 1, 3], False) == (5, 1, 3)
    for bad in ([], [0], [6], [1, 2.0], [True], "hard", None, 3):
        with pytest.raises(ValueError):
            GameConfig.make(meter=bad)


def test_R7_variants_combine():
    """R7: all variants are optional and combinable."""
    cfg = GameConfig.make(players=1, taucher=True, short_game=True, meter="leicht")
    assert (cfg.figures, cfg.swim_cost, cfg.cards_per_treasure, cfg.meter) == (
        2,
        1,
        1,
        (1, 1, 2, 2, 3, 3, 4, 4, 5),
    )
    assert cfg.total_floods == 45
