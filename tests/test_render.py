"""Text and image renderings: public information only, fixed shape, deterministic."""

from __future__ import annotations

import re

import numpy as np
import pytest

from inselflucht_env.games.inselflucht.render.image import SHAPE, render_rgb
from inselflucht_env.games.inselflucht.render.text import render_ansi
from inselflucht_env.games.inselflucht.rules.actions import action_index
from inselflucht_env.games.inselflucht.rules.cards import symbol
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from inselflucht_env.games.inselflucht.rules.engine import HIDDEN, SEA, Escape, Give, Lift, State
from inselflucht_env.games.inselflucht.rules.scenario import parse_options

# The example layout: every place a flood of the scripted first pass hits is known.
OPTIONS = {
    "layout": ["? 7C KC 7S ?", "? 10C 8H 6D 10H", "9S ? JK ? KH", "? 9D 7H ? ?", "? ? ? ? 6S"],
    "column_deck": [3, 2, 5, 1, 4],
    "row_deck": [1, 4, 5, 3, 2],
}
ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def new_state(seed: int = 0, players: int = 2, **config) -> tuple[State, np.random.Generator]:
    rng = np.random.default_rng(seed)
    state = State.new(GameConfig.make(players=players, **config), rng, **parse_options(OPTIONS))
    return state, rng


def play(state: State, rng: np.random.Generator, *names: str) -> State:
    for name in names:
        state.apply(action_index(name), rng)
    return state


# Figure 0 reveals 6♦ and salvages it (its 4 actions end the turn, the first flood hits
# K♣ at column 3, row 1); figure 1 ends its turn (the second flood hits 9♦).
OPENING = ("move:up", "move:right", "move:left", "salvage:right", "end_turn")


@pytest.fixture(scope="module")
def opened() -> State:
    state, rng = new_state()
    return play(state, rng, *OPENING)


def hidden_symbols(state: State) -> list[str]:
    return [symbol(state.card[p]) for p in range(25) if state.status[p] == HIDDEN]


def face_up_symbols(state: State) -> list[str]:
    return [symbol(state.card[p]) for p in range(25) if state.status[p] not in (HIDDEN, SEA)]


# ---------------------------------------------------------------------- text
def test_ansi_shows_face_up_cards_and_never_hidden_ones(opened):
    text = render_ansi(opened)
    assert "??" in text
    assert set(face_up_symbols(opened)) >= {"8\u2665", "K\u2663", "9\u2666", "JK"}
    for s in face_up_symbols(opened):
        assert s in text
    hidden = hidden_symbols(opened)
    assert len(hidden) == 20
    for s in hidden:
        assert s not in text, f"hidden card {s} leaked"
    for s in hidden:
        assert s not in render_ansi(opened, colour=True)


def test_ansi_marks_flooded_sea_and_figures(opened):
    text = render_ansi(opened)
    lines = text.splitlines()
    # column numbers on top, row numbers on the left
    assert lines[1].split() == ["1", "2", "3", "4", "5"]
    assert [ln.split()[0] for ln in lines if re.match(r"^\s+[1-5] \|", ln)] == list("12345")
    assert "\u2248 K\u2663 \u2248" in text  # flooded
    assert "\u2248 9\u2666 \u2248" in text
    assert "~~~~~~~~~" in text  # the salvaged 6♦'s place is sea
    assert ">0" in text  # figure 0 is active again (turn 3)
    assert "turn 3" in text


def test_ansi_shows_salvage_meter_and_flood_discards(opened):
    text = render_ansi(opened)
    assert re.search(r"figure 0: 6\u2666", text)
    assert re.search(r"figure 1: -", text)
    assert "Water level 1" in text
    assert "meter still to come: 1 2 2 3 3 4 4 5" in text
    assert "(3,1) (2,4)" in text
    assert "columns hit: 3 2" in text and "due: 1 4 5" in text
    assert "rows hit: 1 4" in text and "due: 2 3 5" in text
    assert "Outcome" not in text


def test_ansi_plain_has_no_escapes_and_colour_only_adds_them(opened):
    plain = render_ansi(opened)
    coloured = render_ansi(opened, colour=True)
    assert "\x1b" not in plain
    assert "\x1b[" in coloured
    assert ANSI_ESCAPE.sub("", coloured) == plain
    assert max(len(line) for line in plain.splitlines()) <= 80


def test_ansi_outcome_and_pending():
    # A one-card meter: the water must rise after the first pass's five floods (L6).
    state, rng = new_state(players=1, meter=[5])
    play(state, rng, "end_turn")
    assert state.outcome == "L6"
    text = render_ansi(state)
    assert "Outcome: LOST (L6)" in text
    assert max(len(line) for line in text.splitlines()) <= 80
    for s in hidden_symbols(state):
        assert s not in text

    state, rng = new_state()
    pending = state.clone()
    pending.pending = Give("give", figure=0, receiver=1, given=1)
    assert "Pending: figure 0 gives to figure 1: 1 card(s) given" in render_ansi(pending)
    pending.pending = Lift("lift", figure=0, suit=2, chosen=1)
    assert "lifts the \u2665 treasure (short suit): 1 of 3 cards chosen" in render_ansi(pending)
    pending.pending = Escape("escape", figure=1, place=0)
    assert "figure 1 must swim from column 1 row 1" in render_ansi(pending)
    assert render_rgb(pending).shape == SHAPE  # every pending kind draws


# ---------------------------------------------------------------------- image
def test_rgb_shape_dtype_and_constant_size(opened):
    start, _ = new_state()
    four, _ = new_state(players=4)
    images = [render_rgb(s) for s in (start, opened, four)]
    for img in images:
        assert isinstance(img, np.ndarray)
        assert img.dtype == np.uint8
        assert img.shape == SHAPE and img.shape[2] == 3
    assert np.array_equal(render_rgb(opened), images[1])  # deterministic


def test_rgb_differs_between_public_states():
    state, rng = new_state()
    before = render_rgb(state)
    play(state, rng, "move:up")
    after = render_rgb(state)
    assert not np.array_equal(before, after)
    play(state, rng, "move:right", "move:left", "salvage:right")
    assert not np.array_equal(after, render_rgb(state))


def test_renderings_ignore_hidden_cards():
    a, rng_a = new_state(seed=0)
    b, rng_b = new_state(seed=1)
    assert hidden_symbols(a) != hidden_symbols(b)  # the random places were dealt differently
    for names in ((), OPENING):
        play(a, rng_a, *names)
        play(b, rng_b, *names)
        assert hidden_symbols(a) != hidden_symbols(b)
        assert render_ansi(a) == render_ansi(b)
        assert render_ansi(a, colour=True) == render_ansi(b, colour=True)
        assert np.array_equal(render_rgb(a), render_rgb(b))


def test_rgb_shows_outcome():
    state, rng = new_state(players=1, meter=[5])
    before = render_rgb(state)
    play(state, rng, "end_turn")
    assert state.outcome == "L6"
    after = render_rgb(state)
    assert after.shape == before.shape
    assert not np.array_equal(before, after)
