"""The heuristic and the search on the compiled core (issue 38).

The compiled heuristic must make exactly the Python heuristic's choices: in every state of
the recorded games of ``test_heuristic_unchanged`` (132 games, novice and re-weighted ones
included: the states they reach are held to the *default* heuristic's choice) and in ten
thousand fresh states of every setting, reached by random play, heuristic play and a mix.
The compiled search keeps the Python search's algorithm; its random stream differs, so it
is held to its contract (legal, public facts only, the shortcuts, the same answer in a
batch as alone) here, and to the Python search's strength by the paired evaluation in
``docs/scaling.md``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from inselflucht_env.agents import make_agent
from inselflucht_env.agents.search import SearchAgent
from inselflucht_env.compiled import layout as L
from inselflucht_env.compiled.convert import to_row
from inselflucht_env.compiled.heuristic import (
    WEIGHT_NAMES,
    CompiledHeuristicAgent,
    baked_weights,
    heuristic_action,
)
from inselflucht_env.compiled.play import play_out
from inselflucht_env.compiled.search import STATS, CompiledSearch, decide_many, determinize
from inselflucht_env.compiled.verify import SETTINGS
from inselflucht_env.errors import InputError
from inselflucht_env.games.inselflucht.heuristic import DEFAULT_WEIGHTS, HeuristicAgent
from inselflucht_env.games.inselflucht.rules import actions as A
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from inselflucht_env.games.inselflucht.rules.engine import HIDDEN, State

RECORDED = Path(__file__).resolve().parent / "data" / "heuristic_games.json"
FRESH_STATES = 10_000
REFERENCE = HeuristicAgent()


def _disagreement(state: State, where: str) -> str | None:
    expected, got = REFERENCE.act(state), heuristic_action(state)
    if expected == got:
        return None
    return (
        f"{where}: the heuristic chooses {A.action_name(expected)}, the compiled one "
        f"{A.action_name(got)} (turn {state.turn}, pending {state.pending!r})"
    )


def test_the_compiled_heuristic_bakes_in_the_default_weights():
    assert dict(zip(WEIGHT_NAMES, baked_weights(), strict=True)) == {
        k: float(v) for k, v in DEFAULT_WEIGHTS.items()
    }


def test_the_compiled_heuristic_chooses_as_the_heuristic_in_every_recorded_game():
    games = json.loads(RECORDED.read_text())
    assert len(games) == 132
    states = 0
    for g in games:
        config = GameConfig.make(
            players=g["players"], meter=g["meter"], taucher=g["taucher"], short_game=g["short_game"]
        )
        rng = np.random.default_rng(g["seed"])
        state = State.new(config, rng)
        for i, action in enumerate(g["actions"]):
            problem = _disagreement(state, f"{g['agent']} seed {g['seed']} decision {i}")
            assert problem is None, problem
            state.apply(action, rng)
            states += 1
        assert state.outcome == g["outcome"]
    assert states > 7000


def test_the_compiled_heuristic_chooses_as_the_heuristic_in_10000_fresh_states():
    seen, game, settings = 0, 0, set()
    while seen < FRESH_STATES:
        config = SETTINGS[game % len(SETTINGS)]
        settings.add(config)
        rng = np.random.default_rng([38, game])
        slips = (1.0, 0.0, 0.3)[game % 3]  # random play, the heuristic's, a mix
        state = State.new(config, rng)
        while state.outcome is None and seen < FRESH_STATES:
            problem = _disagreement(state, f"fresh game {game}")
            assert problem is None, problem
            legal = state.legal_actions()
            slip = rng.random() < slips
            state.apply(legal[rng.integers(len(legal))] if slip else REFERENCE.act(state), rng)
            seen += 1
        game += 1
    assert settings == set(SETTINGS)


def test_the_compiled_novice_slips_with_the_same_draws_as_the_novice():
    config = GameConfig.make(2)
    compiled, reference = CompiledHeuristicAgent(epsilon=0.2), HeuristicAgent(epsilon=0.2)
    for seed in range(3):
        outcome = []
        for agent in (compiled, reference):
            rng = np.random.default_rng(seed)
            state = State.new(config, rng)
            played = []
            while state.outcome is None:
                played.append(agent.act(state, rng))
                state.apply(played[-1], rng)
            outcome.append(played)
        assert outcome[0] == outcome[1]


def test_make_agent_plays_the_compiled_core_unless_the_reference_is_asked_for():
    assert isinstance(make_agent("heuristic"), CompiledHeuristicAgent)
    assert make_agent("novice").epsilon == 0.2
    assert isinstance(make_agent("search", simulations=10), CompiledSearch)
    assert isinstance(make_agent("heuristic", engine="reference"), HeuristicAgent)
    assert isinstance(make_agent("search", engine="reference"), SearchAgent)
    # re-weighted heuristics exist only in the reference
    assert isinstance(make_agent("heuristic", lift=10.0), HeuristicAgent)
    with pytest.raises(InputError, match="engine 'gpu'"):
        make_agent("search", engine="gpu")


def _midgame(
    config: GameConfig, seed: int, decisions: int = 12
) -> tuple[State, np.random.Generator]:
    rng = np.random.default_rng(seed)
    state = State.new(config, rng)
    for _ in range(decisions):
        state.apply(REFERENCE.act(state), rng)
    return state, rng


def test_a_determinization_reads_public_facts_only_R9():
    """Two deals that differ only in hidden cards and the flood order sample the same
    worlds from the same generator."""
    state, _ = _midgame(GameConfig.make(2), seed=5)
    twin = state.clone()
    hidden = [p for p in range(25) if state.status[p] == HIDDEN]
    assert len(hidden) >= 2
    a, b = hidden[0], hidden[1]
    twin.card[a], twin.card[b] = state.card[b], state.card[a]
    twin.col_deck = list(reversed(state.col_deck))
    rows = []
    for s in (state, twin):
        world = np.empty(L.STATE_SIZE, dtype=np.int32)
        determinize(world, to_row(s), np.array([99], dtype=np.uint64))
        rows.append(world)
    assert np.array_equal(rows[0], rows[1])
    assert not np.array_equal(to_row(state), to_row(twin))


def test_the_compiled_search_takes_the_shortcuts_and_plays_legally():
    search = CompiledSearch(simulations=40)
    rng = np.random.default_rng(0)
    state = State.new(GameConfig.make(2, meter="schwer"), rng)
    while state.outcome is None:
        action = search.act(state, rng)
        assert action in state.legal_actions()
        if len(state.legal_actions()) == 1 or A.TAKE_OFF in state.legal_actions():
            expected = A.TAKE_OFF if A.TAKE_OFF in state.legal_actions() else action
            assert action == expected
        state.apply(action, rng)
    stats = search.stats
    assert set(stats) == set(STATS)
    assert stats["decisions"] > stats["searched"] > 0 and stats["rollouts"] > 0


def test_a_batch_of_labels_is_each_state_labelled_alone():
    config = GameConfig.make(4)
    states = [_midgame(config, seed)[0] for seed in range(6)]
    rows = np.stack([to_row(s) for s in states])
    seeds = np.arange(1, 7, dtype=np.uint64) * 7919
    out = np.zeros(6, dtype=np.int64)
    decide_many(rows, 60, 8, 6, 2.0, seeds.copy(), np.zeros((6, len(STATS)), np.int64), out)
    for i in range(6):
        alone = np.zeros(1, dtype=np.int64)
        decide_many(
            rows[i : i + 1],
            60,
            8,
            6,
            2.0,
            seeds[i : i + 1].copy(),
            np.zeros((1, 4), np.int64),
            alone,
        )
        assert alone[0] == out[i]
        assert out[i] in states[i].legal_actions()


def test_improve_keeps_the_action_to_beat_unless_a_candidate_beats_it():
    """``CompiledSearch.improve``: with the heuristic's choice to beat it is ``act``; with
    no test passable (z threshold infinite) it keeps any anchor; a random legal anchor is
    beaten in some states; an illegal one is refused."""
    config = GameConfig.make(4)
    states = [_midgame(config, seed)[0] for seed in range(12)]
    search, never = CompiledSearch(simulations=60), CompiledSearch(60, z_threshold=math.inf)
    picker = np.random.default_rng(3)
    for i, state in enumerate(states):
        base = heuristic_action(state)
        alone = search.act(state, np.random.default_rng(i))
        assert search.improve(state, np.random.default_rng(i), base) == alone
        legal = [a for a in state.legal_actions() if a != A.TAKE_OFF]
        anchor = int(picker.choice(legal))
        assert never.improve(state, np.random.default_rng(i), anchor) == anchor
        assert search.improve(state, np.random.default_rng(i), anchor) in state.legal_actions()
    assert search.stats["deviated"] > 0
    illegal = next(a for a in range(A.N_ACTIONS) if not states[0].legal_mask()[a])
    before = to_row(states[0])
    with pytest.raises(ValueError, match=f"anchor {illegal} is not a legal action"):
        search.improve(states[0], np.random.default_rng(0), illegal)
    assert np.array_equal(to_row(states[0]), before)


def test_a_compiled_play_out_stops_after_its_decisions_or_at_the_end():
    state, _ = _midgame(GameConfig.make(2), seed=2, decisions=3)
    action = REFERENCE.act(state)
    short = play_out(state, action, seed=1, decisions=2)
    whole = play_out(state, action, seed=1, decisions=None)
    assert short.outcome is None and whole.outcome is not None
    assert state.outcome is None  # the world itself is left alone


@pytest.mark.parametrize("bad", [{"simulations": 0}, {"probe": 0}, {"max_candidates": 0}])
def test_bad_search_budgets_are_named(bad):
    with pytest.raises(ValueError, match="must be >= 1"):
        CompiledSearch(**bad)
