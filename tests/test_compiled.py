"""The compiled core: the same game as the reference engine, and the native vector env.

The differential check (``compiled.verify``) plays each game in both engines with the same
deal and deck orders and compares legal actions, observation (bit for bit) and the whole
state after every action; ``python -m inselflucht_env.compiled.verify --games 1000000``
is the long run. The vector env is held to ``Inselflucht-v0`` itself: same scenario, same
actions, same observations, rewards and ends.
"""

from __future__ import annotations

import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, VectorEnv

import inselflucht_env  # noqa: F401
from inselflucht_env.compiled import layout as L
from inselflucht_env.compiled import observe, rules
from inselflucht_env.compiled.convert import from_row, to_row
from inselflucht_env.compiled.sb3 import CompiledVecEnv
from inselflucht_env.compiled.vector_env import InselfluchtVectorEnv
from inselflucht_env.compiled.verify import SETTINGS, check_games
from inselflucht_env.envs.inselflucht import InselfluchtEnv
from inselflucht_env.games.inselflucht.rules.actions import N_ACTIONS, action_index
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from inselflucht_env.games.inselflucht.rules.engine import IllegalActionError, State

FULL_LAYOUT = [  # every card named: the deal does not depend on any generator
    "6C 7C KC 7S 8S",
    "9C 10C 8H 6D 10H",
    "9S KD JK KS KH",
    "8C 9D 7H 6H 10S",
    "7D 8D 10D 9H 6S",
]
DECKS = {  # every pass of the normal meter scripted (9 passes)
    "column_deck": [3, 2, 5, 1, 4] * 9,
    "row_deck": [1, 4, 5, 3, 2] * 9,
}


def test_the_compiled_engine_equals_the_reference_after_every_action_of_10000_games():
    report = check_games(0, 10_000, full=True)
    assert report.games == 10_000
    # every setting (players 1-4, each meter, Taucher, Kurzes Spiel) and most ends were met
    assert len(SETTINGS) == 48
    assert {"win", "L1", "L2", "L4", "L6"} <= set(report.outcomes)


def test_a_row_round_trips_through_the_reference_state():
    rng = np.random.default_rng(3)
    state = State.new(GameConfig.make(3, taucher=True), rng)
    for _ in range(40):
        if state.outcome is not None:
            break
        state.apply(state.legal_actions()[-1], rng)
    row = to_row(state)
    assert np.array_equal(to_row(from_row(row, state.config)), row)


def test_a_meter_longer_than_the_row_holds_is_a_clear_error():
    with pytest.raises(ValueError, match="at most 32 cards"):
        InselfluchtVectorEnv(num_envs=2, meter=[1] * 33)


def _play_both(options: dict, actions_of, steps: int = 400, **kwargs):
    """The vector env (2 envs) and Inselflucht-v0 on the same scenario and actions."""
    vec = InselfluchtVectorEnv(num_envs=2, **kwargs)
    env = InselfluchtEnv(**kwargs)
    obs_v, info_v = vec.reset(seed=0, options=options)
    obs, info = env.reset(seed=0, options=options)
    for _ in range(steps):
        assert np.array_equal(obs_v[0], obs) and np.array_equal(obs_v[1], obs)
        assert np.array_equal(info_v["action_mask"][0], info["action_mask"])
        action = actions_of(env)
        obs_v, rew_v, term_v, trunc_v, info_v = vec.step(np.array([action, action]))
        obs, rew, term, trunc, info = env.step(action)
        assert list(rew_v) == [rew, rew] and list(term_v) == [term, term]
        assert not trunc_v.any() and not trunc
        if term:
            assert list(info_v["outcome"]) == [info["outcome"]] * 2
            assert info_v["_outcome"].all()
            return info["outcome"]
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("reward", ["win", "shaped"])
def test_the_vector_env_plays_a_scenario_as_inselflucht_v0_does(reward):
    from inselflucht_env.agents import HeuristicAgent

    heuristic = HeuristicAgent()
    rng = np.random.default_rng(0)
    outcome = _play_both(
        {"layout": FULL_LAYOUT, **DECKS},
        lambda env: heuristic.act(env.unwrapped.game_state, rng),
        reward=reward,
    )
    assert outcome is not None


def test_an_illegal_action_ends_only_its_own_game_as_illegal():
    vec = InselfluchtVectorEnv(num_envs=3)
    vec.reset(seed=1)
    before = vec.batch.states.copy()
    swim = action_index("swim:up")  # nothing is sea at the start: never legal
    end_turn = action_index("end_turn")
    obs, reward, terminated, truncated, info = vec.step(np.array([end_turn, swim, end_turn]))
    assert list(terminated) == [False, True, False]
    assert info["outcome"][1] == "illegal" and list(info["_outcome"]) == [False, True, False]
    assert not info["action_mask"][1].any()
    row = vec.batch.states[1]
    assert row[L.OUTCOME] == L.ILLEGAL
    changed = np.flatnonzero(row != before[1])
    assert list(changed) == [L.OUTCOME]  # nothing else of that game moved
    # next step: that env is reset (its action ignored), the others play on
    obs, reward, terminated, truncated, info = vec.step(np.array([end_turn, 0, end_turn]))
    assert vec.batch.states[1][L.OUTCOME] == L.RUNNING and reward[1] == 0.0
    assert info["action_mask"][1].any()


def test_illegal_action_raise_mode_raises_before_any_env_is_stepped():
    vec = InselfluchtVectorEnv(num_envs=2, illegal_action="raise")
    vec.reset(seed=2)
    before = vec.batch.states.copy()
    with pytest.raises(IllegalActionError, match="env 1: action 'swim:up' is not legal"):
        vec.step(np.array([action_index("end_turn"), action_index("swim:up")]))
    assert np.array_equal(vec.batch.states, before)


def test_make_vec_builds_the_native_vector_env_with_the_envs_arguments():
    envs = gym.make_vec(
        "Inselflucht-v0",
        num_envs=4,
        vectorization_mode="vector_entry_point",
        players=3,
        meter="schwer",
        taucher=True,
    )
    assert isinstance(envs.unwrapped, VectorEnv)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, info = envs.reset(seed=0)
    assert obs.shape == (4, 504) and obs.dtype == np.float32
    assert obs in envs.observation_space and obs[0] in envs.single_observation_space
    assert info["action_mask"].shape == (4, N_ACTIONS) and info["_action_mask"].all()
    assert envs.unwrapped.config.meter == GameConfig.make(meter="schwer").meter
    assert envs.unwrapped.batch.states[0][L.FIGURES] == 3
    assert envs.action_space == gym.spaces.MultiDiscrete([N_ACTIONS] * 4)


def _random_run(vec: InselfluchtVectorEnv, seed: int, steps: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    obs, info = vec.reset(seed=seed)
    trace = [obs]
    for _ in range(steps):
        masks = vec.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, reward, terminated, truncated, info = vec.step(actions)
        assert obs in vec.observation_space
        trace += [obs, reward, terminated]
    return trace


def test_next_step_autoreset_seeding_and_fresh_arrays():
    vec = InselfluchtVectorEnv(num_envs=8)
    first = _random_run(vec, 5, 300)
    again = _random_run(vec, 5, 300)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    other = _random_run(vec, 6, 300)
    assert not all(np.array_equal(a, b) for a, b in zip(first, other, strict=True))
    # next-step autoreset: the step after an end is a reset with reward 0, not terminated
    rng = np.random.default_rng(0)
    vec.reset(seed=3)
    ended = np.zeros(8, dtype=bool)
    for _ in range(400):
        masks = vec.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, reward, terminated, truncated, info = vec.step(actions)
        assert not (terminated & ended).any() and (reward[ended] == 0).all()
        assert (vec.batch.states[ended][:, L.TURN] == 1).all()  # a fresh game
        ended = terminated.copy()
    obs_a, *_ = vec.step(np.zeros(8, dtype=np.int64))
    obs_b, *_ = vec.step(np.zeros(8, dtype=np.int64))
    assert obs_a is not obs_b and not np.shares_memory(obs_a, obs_b)


def test_reset_mask_resets_only_the_chosen_envs():
    vec = InselfluchtVectorEnv(num_envs=3)
    vec.reset(seed=0)
    vec.step(np.full(3, action_index("end_turn")))
    before = vec.batch.states.copy()
    vec.reset(options={"reset_mask": np.array([False, True, False])})
    assert np.array_equal(vec.batch.states[[0, 2]], before[[0, 2]])
    assert vec.batch.states[1][L.TURN] == 1


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"num_envs": 0}, "num_envs=0"),
        ({"num_envs": 2, "players": 5}, "players=5"),
        ({"num_envs": 2, "reward": "dense"}, "reward='dense'"),
        ({"num_envs": 2, "speed": 3}, "unknown argument.*'speed'"),
    ],
)
def test_bad_vector_env_arguments_are_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        InselfluchtVectorEnv(**kwargs)


def test_bad_actions_and_options_are_named_and_change_nothing():
    vec = InselfluchtVectorEnv(num_envs=2)
    vec.reset(seed=0)
    before = vec.batch.states.copy()
    with pytest.raises(ValueError, match="actions must be 2 integers"):
        vec.step(np.array([1, 2, 3]))
    with pytest.raises(ValueError, match="action 36 of env 1"):
        vec.step(np.array([18, 36]))
    with pytest.raises(ValueError, match="unknown reset option"):
        vec.reset(options={"deck": [1]})
    assert np.array_equal(vec.batch.states, before)


def test_renderings_of_every_env():
    options = {"layout": FULL_LAYOUT, **DECKS}
    vec = InselfluchtVectorEnv(num_envs=2, render_mode="ansi")
    env = InselfluchtEnv(render_mode="ansi")
    vec.reset(seed=0, options=options)
    env.reset(seed=0, options=options)
    for action in ("move:up", "move:up", "move:left"):
        vec.step(np.full(2, action_index(action)))
        env.step(action_index(action))
    assert vec.render() == (env.render(), env.render())
    pictures = InselfluchtVectorEnv(num_envs=2, render_mode="rgb_array")
    pictures.reset(seed=0)
    assert all(p.ndim == 3 and p.shape[2] == 3 for p in pictures.render())


def test_maskable_ppo_trains_on_the_sb3_adapter():
    from sb3_contrib import MaskablePPO

    venv = CompiledVecEnv(8, seed=0)
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0)
    model.learn(512)
    assert model.num_timesteps >= 512
    obs = venv.reset()
    actions, _ = model.predict(obs, action_masks=venv.action_masks())
    assert venv.action_masks()[np.arange(8), actions].all()


def test_the_sb3_adapter_resets_in_the_same_step_and_keeps_the_last_observation():
    venv = CompiledVecEnv(4, seed=1)
    venv.reset()
    rng = np.random.default_rng(0)
    for _ in range(300):
        masks = venv.action_masks()
        obs, rewards, dones, infos = venv.step(
            np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        )
        for i in np.flatnonzero(dones):
            assert infos[i]["outcome"] in ("win", "L1", "L2", "L3", "L4", "L5", "L6")
            assert infos[i]["terminal_observation"].shape == (504,)
            assert venv.batch.states[i][L.TURN] == 1  # already the next game
        assert masks.any(axis=1).all()


def test_importing_the_package_and_the_plain_env_loads_no_numba():
    script = (
        "import sys, gymnasium as gym, inselflucht_env\n"
        "env = gym.make('Inselflucht-v0'); env.reset(seed=0); env.step(18)\n"
        "assert 'numba' not in sys.modules, 'numba was imported'\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True)


def test_compiled_randomness_is_per_game():
    """Reseeding one game's generator changes only that game's future."""
    vec = InselfluchtVectorEnv(num_envs=3)
    vec.reset(seed=[1, 2, 3])
    a = vec.batch.states.copy()
    vec.reset(seed=[1, 9, 3])
    b = vec.batch.states.copy()
    assert np.array_equal(a[[0, 2]], b[[0, 2]]) and not np.array_equal(a[1], b[1])


def test_the_compiled_mask_and_observation_of_a_fresh_game_match_the_reference():
    rng = np.random.default_rng(0)
    state = State.new(GameConfig.make(4, short_game=True), rng)
    row = to_row(state)
    obs = np.zeros(504, dtype=np.float32)
    mask = np.zeros(N_ACTIONS, dtype=np.int8)
    observe.encode(row, obs)
    observe.write_mask(row, mask)
    assert np.flatnonzero(mask).tolist() == state.legal_actions()
    assert rules.decider(row) == state.decider
