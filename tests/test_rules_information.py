"""R9 information at engine level: the public view never depends on hidden identities.

Public: face-up cards, which places are hidden, positions, salvage, cards under kings, the
meter, the flood discards of the current pass, the box. Hidden: the identity of each hidden
island card and the order of the undrawn flood cards.
"""

from __future__ import annotations

import json

import numpy as np
from conftest import STANDARD, Game, fill_layout, layout_rows

from inselflucht_env.games.inselflucht.rules.cards import (
    ISLAND_CARDS,
    code,
    is_king,
    is_land,
    suit_of,
)
from inselflucht_env.games.inselflucht.rules.engine import HIDDEN
from inselflucht_env.games.inselflucht.rules.public import (
    describe,
    piles,
    unseen_by_suit,
    unseen_cards,
)

EXAMPLE = ["? 7C KC 7S ?", "? 10C 8H 6D 10H", "9S ? JK ? KH", "? 9D 7H ? ?", "? ? ? ? 6S"]


def test_R9_describe_shows_no_hidden_card():
    """R9: the identity of a hidden island card appears nowhere in the public view."""
    rng = np.random.default_rng(5)
    for seed in range(4):
        g = Game(seed=seed)
        for _ in range(60):
            if g.s.outcome:
                break
            text = json.dumps(describe(g.s))
            for p in range(25):
                if g.s.status[p] == HIDDEN:
                    assert f'"{code(g.s.card[p])}"' not in text
            legal = g.s.legal_actions()
            g.s.apply(legal[int(rng.integers(len(legal)))], g.rng)


def test_R9_public_facts_are_in_the_view():
    """R9: face-up cards, hidden places, positions, salvage, meter and the current pass's
    flood discards (so the columns and rows not yet hit) are public."""
    g = Game(EXAMPLE, [3, 2, 5, 1, 4], [1, 4, 5, 3, 2], fill=False)
    g.do("move:up", "move:up", "move:left", "move:down")
    g.do("move:up", "move:up", "shore:here", "move:right")
    g.do("salvage:up")
    d = g.d
    assert d["places"][0][2] == {"state": "dry", "card": "KC"}
    assert d["places"][3][1] == {"state": "flooded", "card": "9D"}
    assert d["places"][4][4] == {"state": "hidden", "card": None}
    assert d["figures"] == [[2, 2], [4, 1]] and d["salvage"] == [["7C"], []]
    assert d["meter"] == [1, 1, 2, 2, 3, 3, 4, 4, 5] and d["water_level"] == 1
    assert d["flood_discards"] == {"columns": [3, 2], "rows": [1, 4]}
    json.dumps(d)


def test_R9_cards_under_kings_and_box_are_in_the_view():
    """R9: the cards under kings and the box (sunk cards) are public too (``public.piles``)."""
    g = Game(STANDARD, [1, 2, 3, 4, 5], [1, 5, 4, 2, 3]).set_status({(1, 1): "flooded"})
    g.lifted("KC", "7C", "8C")
    g.do("end_turn")  # 6C sinks into the box
    view = piles(g.s)
    assert sorted(view["under_kings"]["C"]) == ["7C", "8C"] and view["box"] == ["6C"]
    json.dumps(view)


def hidden_history(seed: int):
    """A random deal and a random legal game on it; returns the deal, the actions and the
    places never revealed during the game."""
    rng = np.random.default_rng(100 + seed)
    layout = Game(seed=seed).s.card  # a random deal, then fixed (no '?') for both games
    a = Game(layout_rows(layout), seed=seed, fill=False)
    actions, ever_seen = [], set()
    while a.s.outcome is None and len(actions) < 400:
        ever_seen |= {p for p in range(25) if a.s.status[p] != HIDDEN}
        legal = a.s.legal_actions()
        actions.append(legal[int(rng.integers(len(legal)))])
        a.s.apply(actions[-1], a.rng)
    ever_seen |= {p for p in range(25) if a.s.status[p] != HIDDEN}
    return layout, actions, [p for p in range(25) if p not in ever_seen]


def test_R9_same_public_history_same_view_whatever_the_hidden_cards():
    """R9: two deals that differ only in cards that stay hidden give identical describe(),
    legal actions and unseen_cards() along the same public history."""
    checked = 0
    for seed in range(40):
        layout0, actions, never = hidden_history(seed)
        if len(never) < 2:
            continue
        layout1 = layout0[:]
        for p, q in zip(never, never[1:] + never[:1]):  # rotate the never-seen cards
            layout1[q] = layout0[p]
        a = Game(layout_rows(layout0), seed=seed, fill=False)
        b = Game(layout_rows(layout1), seed=seed, fill=False)
        assert b.s.card == layout1 != a.s.card
        for action in actions:
            if b.s.outcome is not None:
                break
            assert describe(a.s) == describe(b.s)
            assert unseen_cards(a.s) == unseen_cards(b.s)
            assert unseen_by_suit(a.s) == unseen_by_suit(b.s)
            assert a.s.legal_actions() == b.s.legal_actions()
            a.s.apply(action, a.rng)
            b.s.apply(action, b.rng)
        if a.s.outcome == b.s.outcome:
            assert describe(a.s) == describe(b.s)
        else:  # only the L4 ruling may tell a hidden king from hidden land (R6.3)
            assert "L4" in (a.s.outcome, b.s.outcome)
        checked += 1
    assert checked >= 20


def test_R9_undrawn_flood_order_is_hidden():
    """R9: the order of the undrawn flood cards is hidden: two passes that agree on the
    cards drawn so far give the same view."""
    layout = fill_layout(EXAMPLE)
    a = Game(layout, [3, 2, 5, 1, 4], [1, 4, 5, 3, 2], fill=False)
    b = Game(layout, [3, 2, 1, 4, 5], [1, 4, 2, 5, 3], fill=False)
    for names in (
        ["move:up", "move:up", "move:left", "move:down"],
        ["move:up", "move:up", "shore:here", "move:right"],
    ):
        a.do(*names)
        b.do(*names)
        assert a.d == b.d and a.legal() == b.legal()
        assert unseen_cards(a.s) == unseen_cards(b.s)
    assert a.s.col_deck != b.s.col_deck and a.s.row_deck != b.s.row_deck
    assert a.d["flood_discards"] == {"columns": [3, 2], "rows": [1, 4]}


def test_R9_unseen_cards_is_a_public_deduction():
    """R9: which cards are still unseen follows from the public facts only (face-up places,
    salvage, cards under kings, box), e.g. which kings are still unseen."""
    g = Game(EXAMPLE, [3, 2, 5, 1, 4], [1, 4, 5, 3, 2], fill=False)
    assert unseen_by_suit(g.s) == ([5, 5, 5, 5], [True] * 4)
    assert unseen_cards(g.s) == list(ISLAND_CARDS)
    g.do("move:up", "move:up", "move:left", "move:down")  # 8H, KC, 7C, 10C
    assert unseen_by_suit(g.s) == ([3, 5, 4, 5], [False, True, True, True])
    g.do("move:up", "move:up", "shore:here", "move:right")  # 7S; flood reveals 9D
    assert unseen_by_suit(g.s) == ([3, 4, 4, 4], [False, True, True, True])
    g.do("salvage:up", "move:right", "salvage:left", "move:up")  # salvage stays seen
    assert unseen_by_suit(g.s) == ([3, 4, 4, 3], [False, True, True, True])  # 6S flooded
    hidden = [g.s.card[p] for p in range(25) if g.s.status[p] == HIDDEN]
    assert unseen_cards(g.s) == sorted(hidden)  # one card per hidden place, ascending
    land, kings = unseen_by_suit(g.s)
    assert sum(land) + sum(kings) == len(hidden)
    for suit in range(4):
        assert land[suit] == sum(1 for c in hidden if is_land(c) and suit_of(c) == suit)
        assert kings[suit] == any(is_king(c) and suit_of(c) == suit for c in hidden)
