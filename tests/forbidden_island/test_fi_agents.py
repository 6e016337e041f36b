"""Forbidden Island's agents: the heuristic team policy, determinization and the search,
built by ``make_agent(..., game="forbidden_island")``; each plays from public facts only
(FR2.4) and legal actions only."""

from __future__ import annotations

import numpy as np
import pytest

from inselflucht_env.agents import make_agent
from inselflucht_env.errors import InputError
from inselflucht_env.games.forbidden_island.determinize import determinize
from inselflucht_env.games.forbidden_island.heuristic import HeuristicAgent
from inselflucht_env.games.forbidden_island.rules import actions as A
from inselflucht_env.games.forbidden_island.rules.board import FOOLS_LANDING, treasure_tiles
from inselflucht_env.games.forbidden_island.rules.cards import HELICOPTER
from inselflucht_env.games.forbidden_island.rules.config import GameConfig
from inselflucht_env.games.forbidden_island.rules.engine import DRY, State
from inselflucht_env.games.forbidden_island.search import SearchAgent
from tests.forbidden_island.test_fi_env import random_states, twin


def fresh(
    players: int = 2, roles: tuple[str, ...] | None = ("engineer", "messenger"), seed: int = 0
) -> State:
    """A deal on a dry island, so a test sets up only what it is about."""
    s = State.new(GameConfig.make(players, "novice", roles), np.random.default_rng(seed))
    s.status = [DRY] * len(s.status)
    s.hands = [[0] * 6 for _ in range(players)]
    s._legal = None
    return s


def test_make_agent_builds_the_forbidden_island_agents():
    for spec, kind in (("heuristic", HeuristicAgent), ("novice", HeuristicAgent)):
        assert isinstance(make_agent(spec, game="forbidden_island"), kind)
    assert make_agent("novice", game="forbidden_island").epsilon == 0.2
    search = make_agent("search", game="forbidden_island", simulations=16)
    assert isinstance(search, SearchAgent) and search.simulations == 16


def test_make_agent_refuses_a_compiled_engine_for_forbidden_island():
    with pytest.raises(InputError, match="no compiled core"):
        make_agent("heuristic", game="forbidden_island", engine="compiled")


def test_heuristic_refuses_a_bad_epsilon():
    with pytest.raises(ValueError, match="epsilon"):
        HeuristicAgent(epsilon=1.5)


@pytest.mark.parametrize("planner", [True, False])
def test_heuristic_plays_legal_actions_to_the_end(planner):
    agent = HeuristicAgent(planner=planner)
    for seed in range(6):
        rng = np.random.default_rng(seed)
        s = State.new(GameConfig.make(2 + seed % 3, "normal"), rng)
        while s.outcome is None:
            a = agent.act(s, rng)
            assert a in s.legal_actions()
            s.apply(a, rng)


def test_heuristic_sees_public_facts_only_FR2_4():
    """Twin states (other hidden deck orders) get the same choice."""
    agent = HeuristicAgent()
    for s, rng in random_states(60, seed=5):
        if s.outcome is None:
            assert agent.act(s, rng) == agent.act(twin(s, rng), rng)


def test_heuristic_captures_when_it_can_FR4_5():
    s = fresh()
    slot = s.slot_of[treasure_tiles(0)[0]]
    s.pos[0] = slot
    s.hands[0][0] = 4
    s._legal = None
    assert HeuristicAgent().act(s, np.random.default_rng(0)) == A.CAPTURE


def test_heuristic_escapes_when_it_can_FR9_1():
    s = fresh()
    s.captured = [True] * 4
    s.pos = [s.slot_of[FOOLS_LANDING]] * 2
    s.hands[0][HELICOPTER] = 1
    s._legal = None
    assert A.ESCAPE in s.legal_actions()
    assert HeuristicAgent().act(s, np.random.default_rng(0)) == A.ESCAPE


def test_novice_slips_to_random_legal_actions():
    """epsilon=1 plays uniformly random legal actions: over many states it disagrees with
    the heuristic somewhere."""
    expert, novice = HeuristicAgent(), HeuristicAgent(epsilon=1.0)
    differ = 0
    for s, rng in random_states(40, seed=2):
        if s.outcome is None:
            a = novice.act(s, rng)
            assert a in s.legal_actions()
            differ += a != expert.act(s, rng)
    assert differ > 0


def test_determinize_keeps_every_public_fact_FR2_4():
    for s, rng in random_states(40, seed=3):
        w = determinize(s, rng)
        assert sorted(w.treasure_deck) == sorted(s.treasure_deck)
        cut = len(s.flood_deck) - s.flood_known
        assert sorted(w.flood_deck[:cut]) == sorted(s.flood_deck[:cut])
        assert sorted(w.flood_deck[cut:]) == sorted(s.flood_deck[cut:])  # FR5.2's known top
        assert (w.hands, w.status, w.pos, w.flood_discard) == (
            s.hands,
            s.status,
            s.pos,
            s.flood_discard,
        )
        assert w.legal_actions() == s.legal_actions()


def test_determinize_depends_on_public_facts_only():
    for s, rng in random_states(30, seed=4):
        t = twin(s, rng)
        a = determinize(s, np.random.default_rng(9))
        b = determinize(t, np.random.default_rng(9))
        assert (a.treasure_deck, a.flood_deck) == (b.treasure_deck, b.flood_deck)


def test_determinize_leaves_the_state_unchanged():
    s, rng = next(iter(random_states(1, seed=8)))
    before = (s.treasure_deck[:], s.flood_deck[:])
    determinize(s, rng)
    assert (s.treasure_deck, s.flood_deck) == before


def test_search_plays_legal_public_only_and_reproducibly():
    agent = SearchAgent(simulations=12, probe=4)
    for s, rng in random_states(12, seed=6):
        if s.outcome is None:
            a = agent.act(s, np.random.default_rng(1))
            assert a in s.legal_actions()
            assert agent.act(twin(s, rng), np.random.default_rng(1)) == a
    assert agent.stats["decisions"] > 0


def test_search_deviates_only_among_legal_candidates():
    agent = SearchAgent(simulations=24, probe=4, z_threshold=0.0)
    for s, rng in random_states(10, seed=7):
        if s.outcome is None:
            legal = s.legal_actions()
            assert agent._candidates(s, legal, legal[-1])[0] == legal[-1]
            assert agent.act(s, rng) in legal


def test_search_refuses_a_bad_budget():
    with pytest.raises(ValueError, match="simulations"):
        SearchAgent(simulations=0)
    with pytest.raises(ValueError, match="seconds"):
        SearchAgent(seconds=0.0)
