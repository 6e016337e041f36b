"""The engine's API for its callers: typed state, pending records, ``with_hidden``, the
observer's seat, and clear errors for wrong arguments."""

from __future__ import annotations

import typing

import numpy as np
import pytest
from conftest import QUIET2_ROWS, QUIET_COLS, QUIET_ROWS, STANDARD, Game

from inselflucht_env.games.inselflucht.observation import OBSERVATION_LAYOUT, encode_observation
from inselflucht_env.games.inselflucht.rules import actions as A
from inselflucht_env.games.inselflucht.rules.board import N_PLACES
from inselflucht_env.games.inselflucht.rules.cards import ISLAND_CARDS, SUIT_OF, suit_of
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from inselflucht_env.games.inselflucht.rules.engine import HIDDEN, Escape, Give, Lift, State
from inselflucht_env.games.inselflucht.rules.public import describe


def played(seed: int = 4, steps: int = 30, players: int = 2) -> tuple[State, np.random.Generator]:
    """A state some random steps into a game, with hidden places left."""
    rng = np.random.default_rng(seed)
    s = State.new(GameConfig.make(players=players), rng)
    for _ in range(steps):
        legal = s.legal_actions()
        if s.outcome is not None:
            break
        s.apply(legal[int(rng.integers(len(legal)))], rng)
    return s, rng


# ---------------------------------------------------------------- State.new arguments
def test_new_names_a_wrong_generator():
    cfg = GameConfig.make()
    with pytest.raises(TypeError, match="rng must be a numpy.random.Generator.*NoneType"):
        State.new(cfg, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rng must be a numpy.random.Generator.*RandomState"):
        State.new(cfg, np.random.RandomState(0))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="config must be a GameConfig"):
        State.new(None, np.random.default_rng(0))  # type: ignore[arg-type]


# ---------------------------------------------------------------- typed state
def test_every_slot_is_annotated():
    hints = typing.get_type_hints(State)
    assert set(State.__slots__) == set(hints)


def test_pending_records_are_named_and_keep_the_old_tuple_order():
    """Positional code (``pending[0]`` the kind, ``pending[1]`` the figure, ``pending[2]``
    the receiver / suit / place) keeps working on the records."""
    give, lift, escape = Give("give", 0, 2, 1), Lift("lift", 1, 3, 2), Escape("escape", 1, 7)
    assert give == ("give", 0, 2, 1) and lift == ("lift", 1, 3, 2) and escape == ("escape", 1, 7)
    assert Give._fields == ("kind", "figure", "receiver", "given")
    assert Lift._fields == ("kind", "figure", "suit", "chosen")
    assert Escape._fields == ("kind", "figure", "place")
    g = Game(players=3).hand(0, "6C", "7D")
    g.do("give:+2")
    pend = g.s.pending
    assert isinstance(pend, Give) and pend.kind == pend[0] == "give"
    assert (pend.figure, pend.receiver, pend.given) == (0, 2, 0) == pend[1:]
    g.do("card:clubs")
    assert g.s.pending == Give("give", 0, 2, 1) and g.s.decider == 0


def test_suit_table_matches_suit_of():
    assert all(SUIT_OF[c] == suit_of(c) for c in ISLAND_CARDS)


# ---------------------------------------------------------------- with_hidden
def test_with_hidden_replaces_hidden_cards_and_flood_order_only():
    s, _ = played()
    hidden = [p for p in range(N_PLACES) if s.status[p] == HIDDEN]
    assert len(hidden) >= 2
    before = (s.card[:], s.col_deck[:], s.row_deck[:], describe(s))
    cards = [s.card[p] for p in hidden]
    rotated = cards[1:] + cards[:1]
    # the undrawn cards in the reverse of their draw order (the engine's lists: next last)
    t = s.with_hidden(rotated, s.col_deck, s.row_deck)
    assert (s.card, s.col_deck, s.row_deck, describe(s)) == before  # the original is untouched
    assert [t.card[p] for p in hidden] == rotated
    assert all(t.card[p] == s.card[p] for p in range(N_PLACES) if p not in hidden)
    assert t.col_deck == s.col_deck[::-1] and t.row_deck == s.row_deck[::-1]
    assert describe(t) == describe(s) and t.legal_actions() == s.legal_actions()
    assert t.script_col == [] and t.script_row == []


def test_with_hidden_orders_are_next_first_and_later_passes_follow():
    """R5.2, R5.3: ``column_order`` / ``row_order`` are drawn first to last, then the fixed
    later passes, then fresh shuffles."""
    g = Game(STANDARD, QUIET_COLS, QUIET_ROWS)
    cards = [g.s.card[p] for p in range(N_PLACES) if g.s.status[p] == HIDDEN]
    t = g.s.with_hidden(
        cards,
        [5, 4, 3, 2, 1],
        [3, 1, 2, 4, 5],
        later_columns=[QUIET_COLS],
        later_rows=[QUIET2_ROWS],
    )
    for _ in range(4):  # level 1: one flood per turn
        t.apply(A.END_TURN, g.rng)
    assert t.col_discard == [5, 4, 3, 2] and t.row_discard == [3, 1, 2, 4]
    t.apply(A.END_TURN, g.rng)  # the pass's last flood, then at once fresh decks (R5.3)
    assert t.col_discard == [] and t.outcome is None
    t.apply(A.END_TURN, g.rng)
    assert t.col_discard == [QUIET_COLS[0]] and t.row_discard == [QUIET2_ROWS[0]]


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda h, c, r: (h[:-1], c, r), "hidden_cards must be an order of"),
        (lambda h, c, r: (h[:-1] + [24], c, r), "hidden_cards must be an order of"),
        (lambda h, c, r: (h, c + [c[0]], r), "column_order must be an order of"),
        (lambda h, c, r: (h, c, r[1:]), "row_order must be an order of"),
        (lambda h, c, r: (h, [True] * len(c), r), "column_order must be a sequence of integers"),
        (lambda h, c, r: (h, c, None), "row_order must be a sequence of integers"),
    ],
)
def test_with_hidden_rejects_what_does_not_fit(change, message):
    s, _ = played()
    hidden = [s.card[p] for p in range(N_PLACES) if s.status[p] == HIDDEN]
    with pytest.raises(ValueError, match=message):
        s.with_hidden(*change(hidden, s.col_deck[::-1], s.row_deck[::-1]))
    with pytest.raises(ValueError, match=r"later_columns\[0\] must be an order of \[1, 2, 3"):
        s.with_hidden(hidden, s.col_deck[::-1], s.row_deck[::-1], later_columns=[[1, 2, 3, 4, 4]])


# ---------------------------------------------------------------- the observer's seat
def test_observer_defaults_to_the_decider_and_names_a_bad_seat():
    for seed in range(3):
        s, _ = played(seed, steps=20, players=3)
        default = encode_observation(s)
        np.testing.assert_array_equal(default, encode_observation(s, s.decider))
        seat0 = slice(*OBSERVATION_LAYOUT["figure_seat0"][:2])
        for f in range(3):
            assert encode_observation(s, f)[seat0][s.pos[f]] == 1.0  # seat 0 is the observer
    for bad in (3, -1, True, 1.0):
        with pytest.raises(ValueError, match="seat"):
            encode_observation(s, bad)  # type: ignore[arg-type]
