"""Forbidden Island renderings: text and image show public facts only (FR2.4), in a fixed
shape, and every action has a sentence."""

from __future__ import annotations

import re

import numpy as np
import pytest

from inselflucht_env.games.forbidden_island.render.image import SHAPE, render_rgb
from inselflucht_env.games.forbidden_island.render.text import (
    OUTCOME_TEXT,
    SHORT_NAMES,
    describe_action,
    render_text,
)
from inselflucht_env.games.forbidden_island.rules import actions as A
from inselflucht_env.games.forbidden_island.rules.board import N_SLOTS, TILE_NAMES
from inselflucht_env.games.forbidden_island.rules.config import ROLE_NAMES, GameConfig
from inselflucht_env.games.forbidden_island.rules.engine import (
    DRY,
    FLOODED,
    SUNK,
    Guide,
    State,
    Swim,
)

GRID_LINES = 25  # 6 rows of 3 lines and 7 border lines, after the header


def fresh(seed: int = 0, players: int = 4, **config) -> tuple[State, np.random.Generator]:
    rng = np.random.default_rng(seed)
    return State.new(GameConfig.make(players=players, **config), rng), rng


def grid(text: str) -> str:
    return "\n".join(text.splitlines()[1 : 1 + GRID_LINES])


def played(n: int, seed: int = 0):
    """States met in random play over every setting."""
    rng = np.random.default_rng(seed)
    for i in range(n):
        config = GameConfig.make(
            players=2 + i % 3, difficulty=("novice", "normal", "elite", "legendary")[i % 4]
        )
        s = State.new(config, rng)
        for _ in range(int(rng.integers(0, 60))):
            if s.outcome is not None:
                break
            s.apply(int(rng.choice(s.legal_actions())), rng)
        yield s


def twin(state: State, rng: np.random.Generator) -> State:
    """The same public facts, other hidden orders: the treasure deck reshuffled, the flood
    deck reshuffled below its known top group (FR5.2) and within it."""
    t = state.clone()
    t.treasure_deck = [t.treasure_deck[i] for i in rng.permutation(len(t.treasure_deck))]
    cut = len(t.flood_deck) - t.flood_known
    rest, top = t.flood_deck[:cut], t.flood_deck[cut:]
    t.flood_deck = [rest[i] for i in rng.permutation(len(rest))] + [
        top[i] for i in rng.permutation(len(top))
    ]
    return t


# ---------------------------------------------------------------------- text
def test_lines_fit_80_columns():
    for s in played(40):
        text = render_text(s)
        assert max(len(line) for line in text.splitlines()) <= 80, text
        assert "\x1b" not in text


def test_fresh_state_names_every_role_and_six_flooded_tiles():
    state, _ = fresh(roles=["diver", "engineer", "navigator", "pilot"])
    text = render_text(state)
    for seat, role in enumerate(state.roles):
        assert re.search(rf"^ [> ]{seat} {ROLE_NAMES[role].capitalize()} ", text, re.M)
    assert "Tiles (FR1.4): 18 dry, 6 flooded, 0 sunk" in text  # FR2.2
    # a flooded cell's slot line is "≈≈ 7 [E] ≈≈": one per flooded tile in the grid
    assert len(re.findall(r"\|\u2248+ \d{1,2} (?:\[.\] )?\u2248+", grid(text))) == 6
    for slot in range(N_SLOTS):
        assert SHORT_NAMES[state.tile[slot]] in grid(text)
    assert ">0" in grid(text)  # seat 0 begins (FR2.2)
    assert "Water level 1 of 10 (FR2.3): 2 flood card(s) a turn" in text
    assert "Outcome" not in text


def test_sunk_tile_shows_as_sea():
    state, _ = fresh()
    slot = next(s for s in range(N_SLOTS) if state.status[s] == DRY and s not in state.pos)
    name = SHORT_NAMES[state.tile[slot]]
    assert name in grid(render_text(state))
    state.status[slot] = SUNK
    state.flood_out.append(state.tile[slot])
    text = render_text(state)
    assert name not in grid(text)
    assert "~" * 11 in grid(text)
    assert f"~~~ {slot} ~~~" in grid(text)
    assert "0 sunk" not in text and "1 sunk" in text
    assert "Sunk (FR8.2): " + TILE_NAMES[state.tile[slot]] in text


@pytest.mark.parametrize("outcome", sorted(OUTCOME_TEXT))
def test_outcome_text_appears(outcome):
    state, _ = fresh()
    state.outcome = outcome
    text = render_text(state)
    assert "Outcome: " + OUTCOME_TEXT[outcome].split(" (FR")[0] in text
    assert "game over" in text.splitlines()[0]
    assert max(len(line) for line in text.splitlines()) <= 80


def test_render_never_reads_the_hidden_deck_order():
    rng = np.random.default_rng(7)
    for s in played(30, seed=3):
        t = twin(s, rng)
        assert render_text(t) == render_text(s)
        assert np.array_equal(render_rgb(t), render_rgb(s))


def test_known_flood_top_is_shown_as_a_set():
    state, rng = fresh()
    state.flood_known = 3  # as if Waters Rise! had put three cards back (FR5.2)
    text = render_text(state)
    top = sorted(TILE_NAMES[t] for t in state.flood_deck[-3:])
    shown = re.search(r"in some order \(FR5\.2\):\s+\{([^}]*)\}", text.replace("\n  ", " "))
    assert shown is not None
    assert sorted(shown.group(1).split(", ")) == top
    assert render_text(twin(state, rng)) == text


def test_pending_and_phase_lines():
    state, _ = fresh(roles=["navigator", "diver", "pilot", "engineer"])
    assert "Phase: actions (FR4) of seat 0 (Navigator), 3 of 3 left" in render_text(state)
    state.pending = [Guide(0, 1)]
    assert "Pending: seat 0 (Navigator) guides seat 1 (Diver)" in render_text(state)
    state.pending = [Swim(2)]
    text = render_text(state)
    assert "Pending: seat 2 (Pilot) must swim" in text
    assert "!2P" in grid(text) and ">0N" in grid(text)


# ---------------------------------------------------------------------- action sentences
def test_describe_action_sentences():
    state, rng = fresh(roles=["navigator", "diver", "pilot", "engineer"])
    assert describe_action(state, A.GUIDE) == "Navigator guides seat 1 (Diver) (FR3.5)"
    slot = state.walk_targets(0)[0]
    name = TILE_NAMES[state.tile[slot]]
    assert describe_action(state, A.MOVE + slot) == f"Navigator moves to {name} (slot {slot})"
    assert describe_action(state, A.CAPTURE).endswith("(not legal now)")
    state.apply(A.GUIDE, rng)
    if state.pending:  # more than one place to guide to: the destination is asked
        target = state.legal_actions()[0] - A.MOVE
        assert describe_action(state, A.MOVE + target).startswith(
            f"Navigator moves seat 1 (Diver) to {TILE_NAMES[state.tile[target]]}"
        )
    with pytest.raises(ValueError):
        describe_action(state, A.N_ACTIONS)


def test_every_action_has_a_sentence():
    for s in played(20, seed=5):
        for a in range(A.N_ACTIONS):
            text = describe_action(s, a)
            assert text.startswith(ROLE_NAMES[s.roles[s.decider]].capitalize() + " ")
            assert text.endswith("(not legal now)") == (a not in s.legal_actions())


# ---------------------------------------------------------------------- image
def test_rgb_shape_dtype_and_determinism():
    for players in (2, 3, 4):
        state, _ = fresh(players=players)
        img = render_rgb(state)
        assert isinstance(img, np.ndarray)
        assert img.dtype == np.uint8 and img.shape == SHAPE and img.shape[2] == 3
        assert np.array_equal(img, render_rgb(state))


@pytest.mark.parametrize("new_status", [DRY, FLOODED, SUNK])
def test_rgb_changes_with_a_tile_status(new_status):
    state, _ = fresh()
    slot = next(s for s in range(N_SLOTS) if state.status[s] != new_status)
    before = render_rgb(state)
    state.status[slot] = new_status
    after = render_rgb(state)
    assert not np.array_equal(before, after)


def test_rgb_shows_captures_level_and_outcome():
    state, _ = fresh()
    base = render_rgb(state)
    for change in ("captured", "level", "outcome"):
        s = state.clone()
        if change == "captured":
            s.captured[2] = True
        elif change == "level":
            s.level = 3
        else:
            s.outcome = "L2"
        assert not np.array_equal(base, render_rgb(s)), change
