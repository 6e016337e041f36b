"""Baseline agents: legal play, no hidden information (R9), the factory, determinization."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from conftest import play_agent, twin

from inselflucht_env.agents import (
    HeuristicAgent,
    RandomAgent,
    SearchAgent,
    make_agent,
    register_agent_kind,
)
from inselflucht_env.agents.base import Agent
from inselflucht_env.games.inselflucht import knowledge as K
from inselflucht_env.games.inselflucht.determinize import determinize
from inselflucht_env.games.inselflucht.rules import actions as A
from inselflucht_env.games.inselflucht.rules.board import N_PLACES
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from inselflucht_env.games.inselflucht.rules.engine import DRY, FLOODED, HIDDEN, State
from inselflucht_env.games.inselflucht.rules.public import describe

AGENTS_DIR = Path(__file__).resolve().parents[1] / "inselflucht_env" / "agents"
CONFIGS = [
    GameConfig.make(players=2),
    GameConfig.make(players=1, taucher=True),
    GameConfig.make(players=3, short_game=True),
    GameConfig.make(players=4, meter="schwer"),
    GameConfig.make(players=2, meter="leicht", taucher=True, short_game=True),
]


def small_search() -> SearchAgent:
    # a budget that never hits the clock, so the agent is a pure function of its inputs
    return SearchAgent(simulations=12, probe=3, seconds=1e9, max_candidates=3)


# ---------------------------------------------------------------- legal play
@pytest.mark.parametrize("make", [RandomAgent, HeuristicAgent])
def test_agents_play_only_legal_actions(make):
    agent = make()
    assert isinstance(agent, Agent)
    outcomes = [play_agent(agent, cfg, seed).outcome for cfg in CONFIGS for seed in range(12)]
    assert len(outcomes) == 60 and set(outcomes) <= {"win", "L1", "L2", "L3", "L4", "L5", "L6"}
    assert len(set(outcomes)) >= 3  # games of every kind were played to their ends


def test_search_agent_plays_only_legal_actions():
    """The search agent plays legal actions to the end: 3 players, short game here; two
    2-player games are checked move by move in ``test_same_public_history_same_play``."""
    agent = small_search()
    play_agent(agent, CONFIGS[2], 4)
    assert agent.stats["decisions"] > 20 and agent.stats["rollouts"] > agent.stats["decisions"]


def test_heuristic_wins_clearly_more_than_random():
    """The headline target in small: random never wins, the heuristic mostly does."""
    cfg = GameConfig.make(players=2)
    h = sum(play_agent(HeuristicAgent(), cfg, seed).outcome == "win" for seed in range(40))
    r = sum(play_agent(RandomAgent(), cfg, seed).outcome == "win" for seed in range(40))
    assert r == 0
    assert h >= 24


# ---------------------------------------------------------------- no leak (R9)
def sample_states(n_games: int, every: int = 3) -> list[State]:
    """States from heuristic play, with hidden places left, sub-decisions included."""
    out = []
    h = HeuristicAgent()
    for g in range(n_games):
        cfg = CONFIGS[g % len(CONFIGS)]
        rng = np.random.default_rng(1000 + g)
        s = State.new(
            cfg,
            rng,
            column_deck=[[3, 1, 4, 5, 2]] * 3,
            row_deck=[[2, 5, 1, 3, 4], [1, 2, 3, 4, 5], [5, 4, 3, 2, 1]],
        )
        k = 0
        while s.outcome is None:
            if (
                k % every == 0
                and any(st == HIDDEN for st in s.status)
                and len(s.legal_actions()) > 1
            ):
                out.append(s.clone())
            s.apply(h.act(s, rng), rng)
            k += 1
    return out


@pytest.fixture(scope="module")
def states() -> list[State]:
    """About 130 states from 8 heuristic games in 5 configurations, read (never changed) by
    the R9 tests below."""
    out = sample_states(8)
    assert len(out) > 100 and len({s.config for s in out}) == 5
    return out


def differs_in_hidden(a: State, b: State) -> bool:
    return a.card != b.card or a.col_deck != b.col_deck or a.row_deck != b.row_deck


@pytest.mark.parametrize("make", [RandomAgent, HeuristicAgent])
def test_agents_do_not_read_hidden_information(make, states):
    agent = make()
    rng = np.random.default_rng(7)
    changed = 0
    for s in states:
        t = twin(s, rng)
        changed += differs_in_hidden(s, t)
        assert agent.act(s, np.random.default_rng(11)) == agent.act(t, np.random.default_rng(11))
    assert changed > len(states) // 2


def test_search_agent_does_not_read_hidden_information(states):
    agent = small_search()
    rng = np.random.default_rng(8)
    for s in states[::11]:  # 12 decisions: the search costs ~20 ms a decision
        t = twin(s, rng)
        assert agent.act(s, np.random.default_rng(5)) == agent.act(t, np.random.default_rng(5))


def test_same_public_history_same_play():
    """Two deals that differ only in cards that stay face down all game are played
    identically, decision by decision, by every agent (same seeds for deal and agent)."""
    cfg = GameConfig.make(players=2)

    def run(make, seed, swap=None):
        rng = np.random.default_rng(seed)
        s = State.new(cfg, rng)
        if swap:
            a, b = swap
            s.card[a], s.card[b] = s.card[b], s.card[a]
        agent, arng, history = make(), np.random.default_rng(seed + 1), []
        while s.outcome is None:
            act = agent.act(s, arng)
            assert act in s.legal_actions()
            history.append((act, describe(s)))
            s.apply(act, rng)
        return s, history

    checked = []
    # the search agent costs ~0.25 s a game: two deals for it (seeds that leave at least
    # two places face down), four for the others
    for make, seeds in (
        (RandomAgent, range(4)),
        (HeuristicAgent, range(4)),
        (small_search, (1, 3)),
    ):
        for seed in seeds:
            first, history = run(make, seed)
            still_hidden = [p for p in range(N_PLACES) if first.status[p] == HIDDEN]
            if len(still_hidden) < 2:
                continue
            swap = (still_hidden[0], still_hidden[-1])
            second, again = run(make, seed, swap)
            assert second.card != first.card  # the deals differ
            assert (again, second.outcome) == (history, first.outcome)
            checked.append(make)
    assert len(checked) >= 6 and checked.count(small_search) == 2


def test_determinize_depends_only_on_public_facts(states):
    rng = np.random.default_rng(3)
    for s in states:
        t = twin(s, rng)
        ds, dt = determinize(s, np.random.default_rng(1)), determinize(t, np.random.default_rng(1))
        assert ds.card == dt.card and ds.col_deck == dt.col_deck and ds.row_deck == dt.row_deck
        assert ds.script_col == [] and ds.script_row == []
        # consistent with the public facts: same face-up cards, same unseen set, same piles
        assert describe(ds) == describe(s)
        hidden = [p for p in range(N_PLACES) if s.status[p] == HIDDEN]
        assert sorted(ds.card[p] for p in hidden) == sorted(K.unseen_cards(s))
        assert sorted(ds.col_deck) == sorted(K.pass_left(s)[0])
        assert sorted(ds.row_deck) == sorted(K.pass_left(s)[1])


def test_unseen_cards_match_the_hidden_places(states):
    for s in states:
        hidden = [p for p in range(N_PLACES) if s.status[p] == HIDDEN]
        assert sorted(K.unseen_cards(s)) == sorted(s.card[p] for p in hidden)


def test_agent_sources_read_hidden_fields_only_in_the_audited_modules():
    """Only knowledge.py reads ``.card`` (face-up places only); no agent reads the decks or
    writes the state's hidden fields (determinize asks ``State.with_hidden``)."""
    for path in AGENTS_DIR.glob("*.py"):
        text = path.read_text()
        code = "\n".join(line.split("#")[0] for line in text.splitlines())
        code = re.sub(r'"""[\s\S]*?"""', "", code)
        if path.name != "knowledge.py":
            assert not re.search(r"\.card\b", code), f"{path.name} reads State.card"
        assert not re.search(r"col_deck|row_deck|script_col|script_row|\._legal", code), path.name


def test_visible_cards_hide_hidden_places():
    s = State.new(GameConfig.make(), np.random.default_rng(0))
    vis = K.visible_cards(s)
    assert all(v == K.UNKNOWN for p, v in enumerate(vis) if s.status[p] == HIDDEN)
    assert all(v == s.card[p] for p, v in enumerate(vis) if s.status[p] in (DRY, FLOODED))


# ---------------------------------------------------------------- knowledge helpers
def test_hit_probability_uses_the_pass_left():
    s = State.new(GameConfig.make(), np.random.default_rng(0))
    assert K.hit_probability(s, 0, 5) == pytest.approx(1 / 5)
    assert K.hit_probability(s, 0, 1) == pytest.approx(1 / 25)
    s.col_discard, s.row_discard = [1, 2], [3, 4]
    assert K.hit_probability(s, 0, 3) == 0.0  # column 1 is spent in this pass
    assert K.hit_probability(s, 2, 3) == pytest.approx(1 / 3)  # column 3, row 1: 1 of 3 left
    assert K.hit_probability(s, 0, 8) == pytest.approx(1 - (1 - 5 / 25))


def test_turns_left_matches_the_meter():
    """R5.4: 45 floods with the full meter, the take-off at the latest in turn 22."""
    s = State.new(GameConfig.make(), np.random.default_rng(0))
    assert K.turns_left(s) == 22
    assert K.floods_to_go(s) == 45
    short = State.new(GameConfig.make(short_game=True), np.random.default_rng(0))
    assert K.turns_left(short) == 17


def test_paths_cost_swims():
    from inselflucht_env.games.inselflucht.rules.engine import SEA

    s = State.new(GameConfig.make(), np.random.default_rng(0))
    st = s.status[:]
    st[13] = SEA  # right of the centre
    dist, first = K.paths_sea(K.sea_mask(st), 12, 2)
    assert dist[14] == 2 and first[14] == A.SWIM + 3  # across (walking round costs 4)
    assert dist[8] == 2 and first[8] in (A.MOVE + 0,)  # up, then right
    dist1, first1 = K.paths_sea(K.sea_mask(st), 12, 1)
    assert dist1[14] == 1 and first1[14] == A.SWIM + 3


# ---------------------------------------------------------------- factory
def test_make_agent_builds_the_named_agents_with_their_keywords():
    assert make_agent("random").name == "random"
    assert make_agent("heuristic").name == "heuristic"
    assert make_agent("novice").epsilon == 0.2
    assert make_agent("search", simulations=10).simulations == 10
    with pytest.raises(ValueError):
        make_agent("heuristic", no_such_weight=1.0)
    with pytest.raises(ValueError, match="unknown kind 'oracle'"):
        make_agent("oracle:everything")


def test_registered_agent_kinds_are_built_from_kind_and_argument(monkeypatch):
    from inselflucht_env import agents

    monkeypatch.setattr(agents, "_KINDS", dict(agents._KINDS))
    seen = []

    def factory(argument, **kw):
        seen.append((argument, kw))
        return RandomAgent()

    register_agent_kind("fake", factory)
    assert isinstance(make_agent("fake:some/where", simulations=3), RandomAgent)
    assert seen == [("some/where", {"simulations": 3})]
    with pytest.raises(ValueError, match="identifier other than"):
        register_agent_kind("search", factory)


def test_a_checkpoint_path_or_shipped_name_builds_the_learned_agent():
    from inselflucht_env.learned import CheckpointAgent

    agent = make_agent("ppo_2p_normal_noadvice")
    assert isinstance(agent, CheckpointAgent)
    assert isinstance(make_agent("checkpoint:checkpoints/ppo_2p_normal"), CheckpointAgent)
    s = play_agent(agent, GameConfig.make(players=2, short_game=True), 0)
    assert s.outcome is not None


def test_checkpoint_agent_inputs_do_not_depend_on_hidden_facts(states):
    """A checkpoint sees the observation and the mask (and the advice, tested below): all
    equal on twin states."""
    from inselflucht_env.games.inselflucht.observation import encode_observation

    rng = np.random.default_rng(4)
    for s in states:
        t = twin(s, rng)
        assert np.array_equal(encode_observation(s), encode_observation(t))
        assert s.legal_mask() == t.legal_mask()


# ---------------------------------------------------------------- advice
@pytest.mark.filterwarnings("ignore:.*different from the unwrapped")
def test_advice_appends_the_heuristics_choice_as_one_hot():
    from gymnasium.utils.env_checker import check_env

    from inselflucht_env.envs.advice import AdviceWrapper, observation_size
    from inselflucht_env.envs.inselflucht import InselfluchtEnv
    from inselflucht_env.games.inselflucht.observation import encode_observation

    env = AdviceWrapper(InselfluchtEnv())
    assert env.observation_space.shape == (observation_size("heuristic"),) == (540,)
    heuristic = HeuristicAgent()
    obs, _ = env.reset(seed=3)
    done = False
    while not done:
        state = env.unwrapped.game_state
        choice = heuristic.act(state, None)
        assert np.array_equal(obs[:504], encode_observation(state))
        assert obs[504:].sum() == 1 and obs[504 + choice] == 1
        obs, _, done, _, _ = env.step(choice)
    assert obs[504:].sum() == 0  # the game is over: no advice
    check_env(AdviceWrapper(InselfluchtEnv()), skip_render_check=True)
    with pytest.raises(ValueError, match="advisor 'oracle'"):
        AdviceWrapper(InselfluchtEnv(), "oracle")


def test_advice_names_the_experts_obvious_choice():
    """The advice is a one-hot at the heuristic's action: take off when the team can win,
    lift on a king with two cards of its suit, shore up the flooded helicopter."""
    from conftest import QUIET_COLS, QUIET_ROWS, STANDARD, Game

    from inselflucht_env.envs.advice import Advisor

    advisor = Advisor("heuristic")
    win = Game(STANDARD, QUIET_COLS, QUIET_ROWS).lifted("KC", "6C", "7C").lifted("KD", "6D", "7D")
    win.lifted("KH", "8H", "9H").lifted("KS", "7S", "8S")
    lift = Game(STANDARD, QUIET_COLS, QUIET_ROWS).put(0, 3, 1).hand(0, "8C", "9C")
    shore = Game(STANDARD, QUIET_COLS, QUIET_ROWS).set_status({(3, 3): "flooded"})
    for g, index in ((win, 21), (lift, 20), (shore, 8)):  # take_off, lift, shore:here
        obs = advisor.observe(g.s)
        assert obs.shape == (540,) and obs[504:].tolist() == [float(i == index) for i in range(36)]
    assert advisor.observe(win.do("take_off").s)[504:].sum() == 0  # the game is over
    assert Advisor("none").observe(lift.s).shape == (504,)


def test_advice_does_not_depend_on_hidden_facts(states):
    """The advice is a public-facts policy's choice (R9): equal on twin states."""
    from inselflucht_env.envs.advice import Advisor

    advisor = Advisor("heuristic")
    rng = np.random.default_rng(5)
    advised = set()
    for s in states[::2]:
        advice = advisor.observe(s)[504:]
        assert advice.sum() == 1 and s.legal_mask()[int(advice.argmax())]
        np.testing.assert_array_equal(advisor.observe(twin(s, rng))[504:], advice)
        advised.add(int(advice.argmax()))
    assert len(advised) >= 5  # move, shore, salvage, lift, end turn, card: not one constant
