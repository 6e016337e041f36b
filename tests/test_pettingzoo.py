"""The PettingZoo AEC environment: API conformance, seats, masks, escapes, shared reward."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

with warnings.catch_warnings():  # pettingzoo.test imports a classic env the deprecated way
    warnings.simplefilter("ignore", DeprecationWarning)
    from pettingzoo.test import api_test, seed_test  # noqa: E402

from conftest import ESCAPE_OPTIONS  # noqa: E402

from inselflucht_env.envs import pettingzoo as iz  # noqa: E402
from inselflucht_env.games.inselflucht.observation import OBSERVATION_LAYOUT, encode_observation  # noqa: E402
from inselflucht_env.games.inselflucht.rules.actions import ACTION_NAMES, N_ACTIONS, action_index  # noqa: E402
from inselflucht_env.replay import replay  # noqa: E402


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def _random_game(env, seed: int, check=None) -> None:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        if check is not None:
            check(env, agent, obs)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_api_test(players):
    _quiet(api_test, iz.env(players=players), num_cycles=200)


def test_api_test_raw_env_and_variants():
    _quiet(
        api_test,
        iz.raw_env(players=2, taucher=True, short_game=True, reward="shaped"),
        num_cycles=200,
    )


@pytest.mark.parametrize("players", [1, 3])
def test_seed_test(players):
    _quiet(seed_test, lambda: iz.env(players=players), num_cycles=300)


def test_agents_one_per_figure():
    assert iz.env(players=1).possible_agents == ["figure_0", "figure_1"]  # solo: two figures
    assert iz.env(players=4).possible_agents == [f"figure_{k}" for k in range(4)]
    e = iz.env(players=3)
    e.reset(seed=0)
    space = e.observation_space("figure_2")
    assert space["observation"].shape == (504,) and space["observation"].dtype == np.float32
    assert space["action_mask"].shape == (N_ACTIONS,) and space["action_mask"].dtype == np.int8
    assert e.action_space("figure_1").n == N_ACTIONS
    assert e.unwrapped.state_space.shape == (iz.STATE_SIZE,)


def test_masks_zero_off_turn_and_shared_reward():
    e = iz.env(players=3, reward="shaped")
    seen = {"steps": 0}

    def check(env, agent, obs):
        state = env.unwrapped.game_state
        assert agent == f"figure_{state.decider}"
        assert list(np.flatnonzero(obs["action_mask"])) == state.legal_actions()
        np.testing.assert_array_equal(obs["observation"], encode_observation(state))
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        rewards = set(env.rewards.values())
        assert len(rewards) == 1  # one team reward for everybody
        s = env.state()
        assert env.unwrapped.state_space.contains(s)
        seen["steps"] += 1

    for seed in range(3):
        _random_game(e, seed, check)
    assert seen["steps"] > 20


def test_game_end_terminates_everybody_with_the_team_reward():
    e = iz.env(players=2, reward="shaped")
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    while True:
        obs, _, term, _, _ = e.last()
        assert not term
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if all(e.terminations.values()):
            break
    assert len(set(e.rewards.values())) == 1
    outcome = e.unwrapped.outcome
    assert outcome is not None
    assert all(info["outcome"] == outcome for info in e.infos.values())
    for agent in e.agents:
        assert not e.observe(agent)["action_mask"].any()
    while e.agents:
        e.step(None)


def test_illegal_action_ends_the_game_for_the_team():
    e = iz.env(players=2)
    e.reset(seed=1)
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(illegal)
    assert all(e.terminations.values())
    assert set(e.rewards.values()) == {-1.0}
    assert e.infos["figure_0"]["outcome"] == "illegal"
    rep = e.unwrapped.replay
    assert rep.outcome == "illegal" and rep.actions == [ACTION_NAMES[illegal]]
    assert replay(rep).outcome == "illegal"


def test_escape_is_decided_by_the_sinking_figures_agent():
    e = iz.env(players=2)
    e.reset(seed=0, options=ESCAPE_OPTIONS)

    def play(agent, name):
        assert e.agent_selection == agent, (agent, name)
        obs, *_ = e.last()
        assert obs["action_mask"][action_index(name)] == 1
        e.step(action_index(name))

    play("figure_0", "end_turn")  # turn 1, flood (3,2): flooded
    play("figure_1", "move:up")  # turn 2: figure 1 waits on the flooded (3,2)
    play("figure_1", "end_turn")
    for turn in range(3, 7):  # turns 3-6; pass 2 begins after turn 5
        play(f"figure_{(turn - 1) % 2}", "end_turn")
    play("figure_0", "end_turn")  # turn 7: flood (3,2) again: it sinks
    state = e.unwrapped.game_state
    assert state.active == 0 and state.turn == 7 and state.pending.kind == "escape"
    assert e.agent_selection == "figure_1"  # the sinking figure's agent decides
    assert e.infos["figure_1"]["decider"] == "figure_1"
    assert not e.observe("figure_0")["action_mask"].any()
    mask = e.observe("figure_1")["action_mask"]
    assert {ACTION_NAMES[a] for a in np.flatnonzero(mask)} == {
        f"escape:{d}"
        for d in ("up", "down", "left", "right", "up-left", "up-right", "down-left", "down-right")
    }
    play("figure_1", "escape:down")  # onto the helicopter
    state = e.unwrapped.game_state
    assert state.pos[1] == 12 and state.pending is None
    assert state.turn == 8 and e.agent_selection == "figure_1"
    assert replay(e.unwrapped.replay).outcome is None


def test_off_turn_observation_is_from_the_agents_own_seat():
    e = iz.raw_env(players=3)
    e.reset(seed=2)
    state = e.game_state
    seat0 = OBSERVATION_LAYOUT["figure_seat0"]
    for f in range(3):
        obs = e.observe(f"figure_{f}")["observation"]
        np.testing.assert_array_equal(obs, encode_observation(state, f))  # the one observer
        plane = obs[seat0[0] : seat0[1]]
        assert plane[state.pos[f]] == 1.0 and plane.sum() == 1.0
    full = e.state()
    np.testing.assert_array_equal(full[:504], encode_observation(state, 0))
    assert full[504 + state.decider] == 1.0 and full[508 + state.active] == 1.0
    assert full.sum() > 0 and full.dtype == np.float32


def test_give_receiver_seat_is_consistent():
    """Each agent's observation is the observer's from its own seat: the receiver of a
    pending give is counted from the observer, and is all zero for the receiver itself."""
    from conftest import Game  # tests/ is on sys.path under pytest

    g = Game(players=3).hand(0, "6C", "7D")
    g.do("give:+1")  # pending give 0 -> 1, two suits: a decision
    assert g.s.pending.kind == "give" and g.s.pending.receiver == 1 and g.s.decider == 0
    pend = slice(*OBSERVATION_LAYOUT["pending"][:2])
    recv = slice(*OBSERVATION_LAYOUT["give_receiver"][:2])
    for f in range(3):
        obs = encode_observation(g.s, f)
        assert list(obs[pend]) == [0, 1, 0, 0], f
        expected = [0, 0, 0]
        if f != 1:
            expected[(1 - f) % 3 - 1] = 1
        assert list(obs[recv]) == expected, f


def test_reset_options_render_pickle_and_replay(tmp_path):
    e = iz.env(players=2, render_mode="ansi")
    with pytest.warns(UserWarning, match="ignoring unknown reset option"):
        e.reset(seed=3, options={"bogus": 1})
    assert "INSELFLUCHT" in e.render()
    with pytest.raises(ValueError, match="layout"):
        e.reset(seed=3, options={"layout": "nonsense"})
    clone = pickle.loads(pickle.dumps(iz.raw_env(players=3)))
    assert clone.possible_agents == ["figure_0", "figure_1", "figure_2"]
    rgb = iz.raw_env(players=2, render_mode="rgb_array")
    rgb.reset(seed=0)
    frame = rgb.render()
    assert frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8
    # An AEC episode replays exactly through the Gymnasium env.
    e = iz.env(players=2)
    _random_game(e, 11)
    rep = e.unwrapped.replay
    assert rep.seed == 11 and rep.outcome is not None and rep.meta["source"] == "pettingzoo"
    path = rep.save(tmp_path / "aec.json")
    assert replay(type(rep).load(path)).outcome == rep.outcome


def test_registry_form():
    import pettingzoo

    if not hasattr(pettingzoo, "make"):
        pytest.skip("this PettingZoo has no registry")
    e = pettingzoo.make("aec", iz.REGISTRY_ID, players=3)
    e.reset(seed=4)
    assert e.agents == ["figure_0", "figure_1", "figure_2"]
    assert isinstance(e.unwrapped, iz.InselfluchtAEC)
