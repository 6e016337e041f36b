"""Inselflucht-v0: unknown constructor arguments and render() without a render mode."""

from __future__ import annotations

import gymnasium as gym
import pytest

import inselflucht_env  # noqa: F401  (registers Inselflucht-v0)
from inselflucht_env.envs.inselflucht import InselfluchtEnv

ALLOWED = "players, taucher, short_game, meter, reward, illegal_action, render_mode"


def test_unknown_argument_is_a_value_error_naming_it_and_the_allowed_ones():
    with pytest.raises(ValueError, match=f"unknown argument 'foo'.*{ALLOWED}"):
        InselfluchtEnv(foo=1)


def test_unknown_argument_through_gym_make_is_a_value_error():
    with pytest.raises(ValueError, match=f"unknown argument 'foo'.*{ALLOWED}"):
        gym.make("Inselflucht-v0", foo=1)


def test_several_unknown_arguments_are_all_named():
    with pytest.raises(ValueError, match="unknown arguments 'colour', 'foo'"):
        InselfluchtEnv(players=2, foo=1, colour=True)


def test_render_without_render_mode_warns_and_returns_none():
    env = InselfluchtEnv()
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="without specifying any render mode"):
        assert env.render() is None


def test_render_without_render_mode_through_gym_make_names_the_env_id():
    env = gym.make("Inselflucht-v0")
    env.reset(seed=0)
    with pytest.warns(UserWarning, match='gym.make\\("Inselflucht-v0", render_mode='):
        assert env.render() is None
