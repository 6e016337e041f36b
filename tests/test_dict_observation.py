"""The Dict observation wrappers: RLlib's keys, both env checkers, the default unchanged."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import inselflucht_env  # noqa: F401  (registers Inselflucht-v0)
from inselflucht_env.envs.dict_observation import (
    ACTION_MASK,
    DICT_ENV_ID,
    OBSERVATIONS,
    DictObservation,
    dict_space,
    make_env,
)
from inselflucht_env.games.inselflucht.observation import OBSERVATION_SIZE
from inselflucht_env.games.inselflucht.rules.actions import N_ACTIONS


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


@pytest.mark.parametrize("mask_dtype", [np.int8, np.float32])
def test_space_is_what_rllib_reads(mask_dtype):
    env = make_env(mask_dtype=mask_dtype, players=4)
    space = env.observation_space
    assert isinstance(space, gym.spaces.Dict)
    assert set(space.spaces) == {"observations", "action_mask"}
    assert space[OBSERVATIONS] == gym.spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32)
    assert space[ACTION_MASK] == gym.spaces.Box(0, 1, (N_ACTIONS,), mask_dtype)
    obs, _ = env.reset(seed=3)
    assert space.contains(obs) and obs[ACTION_MASK].dtype == mask_dtype


@pytest.mark.parametrize("mask_dtype", [np.int8, np.float32])
def test_passes_gymnasium_and_sb3_checkers(mask_dtype):
    env = make_env(mask_dtype=mask_dtype, players=2)
    _quiet(check_env, env, skip_render_check=True)  # (its only warning: "env is wrapped")
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sb3_checker.check_env(make_env(mask_dtype=mask_dtype, players=2))
    assert [str(w.message) for w in caught] == []


def test_registered_id_builds_the_wrapper_and_default_stays_flat():
    env = gym.make(DICT_ENV_ID, players=3)
    assert isinstance(env.observation_space, gym.spaces.Dict)
    plain = gym.make("Inselflucht-v0", players=3)
    assert plain.observation_space == gym.spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32)


def test_same_game_as_the_plain_env_and_mask_matches_info():
    wrapped, plain = make_env(players=4), gym.make("Inselflucht-v0", players=4).unwrapped
    obs, info = wrapped.reset(seed=11)
    flat, _ = plain.reset(seed=11)
    for _ in range(3000):
        np.testing.assert_array_equal(obs[OBSERVATIONS], flat)
        np.testing.assert_array_equal(obs[ACTION_MASK], info["action_mask"])
        np.testing.assert_array_equal(obs[ACTION_MASK].astype(bool), wrapped.action_masks())
        action = wrapped.action_space.sample(mask=obs[ACTION_MASK])
        assert obs[ACTION_MASK][action] == 1
        obs, _, terminated, truncated, info = wrapped.step(action)
        flat, *_ = plain.step(action)
        if terminated or truncated:
            assert info["outcome"] != "illegal" and not obs[ACTION_MASK].any()
            break
    else:
        pytest.fail("no game end in 3000 steps")


def test_bad_mask_dtype_is_a_clear_error():
    with pytest.raises(ValueError, match="mask_dtype bool: expected int8 or float32"):
        dict_space(gym.spaces.Box(0, 1, (3,)), bool)


def test_wraps_other_wrappers():
    from inselflucht_env.envs.advice import AdviceWrapper

    env = DictObservation(AdviceWrapper(gym.make("Inselflucht-v0").unwrapped))
    obs, _ = env.reset(seed=0)
    assert obs[OBSERVATIONS].shape == (OBSERVATION_SIZE + N_ACTIONS,)
    assert env.observation_space.contains(obs)


# ---------------------------------------------------------------- PettingZoo
def test_pettingzoo_api_test_and_rllib_keys():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from inselflucht_env.envs import pettingzoo as iz
    from inselflucht_env.envs.dict_observation import PettingZooDictObservation, dict_aec_env

    _quiet(api_test, dict_aec_env(players=4), num_cycles=300)
    env, plain = dict_aec_env(players=3), iz.env(players=3)
    assert isinstance(env, PettingZooDictObservation)
    env.reset(seed=5)
    plain.reset(seed=5)
    rng = np.random.default_rng(1)
    for agent in env.agent_iter(max_iter=400):
        obs, _, terminated, truncated, _ = env.last()
        ref = plain.observe(agent)
        assert set(obs) == {"observations", "action_mask"}
        assert env.observation_space(agent).contains(obs)
        np.testing.assert_array_equal(obs[OBSERVATIONS], ref["observation"])
        np.testing.assert_array_equal(obs[ACTION_MASK], ref["action_mask"])
        if terminated or truncated:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(obs[ACTION_MASK])))
        env.step(action)
        plain.step(action)
