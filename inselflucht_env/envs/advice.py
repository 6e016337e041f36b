"""Advice: the heuristic agent's choice appended to the observation, for learned policies.

A policy that sees what the hand-written expert would do only has to learn *when to do
something else* (residual learning on top of a prior policy): imitation of the expert
becomes exact after a short behaviour cloning, so training can only be about the few
decisions where the expert errs. (README "Training" reports how far that got.)
The advice is a one-hot over the 36 actions of the heuristic's choice for the deciding
figure; the heuristic reads public facts only (R9), so the advice leaks nothing hidden.

``Advisor(advisor).observe(state)`` builds such an observation from an engine state, and
``AdviceWrapper`` adds it to an ``Inselflucht-v0`` environment. ``advisor="none"`` keeps
the plain observation.
"""

from __future__ import annotations

from typing import cast

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from inselflucht_env.envs.inselflucht import InselfluchtEnv
from inselflucht_env.games.inselflucht.heuristic import HeuristicAgent
from inselflucht_env.games.inselflucht.observation import OBSERVATION_SIZE, encode_observation
from inselflucht_env.games.inselflucht.rules.actions import N_ACTIONS
from inselflucht_env.games.inselflucht.rules.engine import State

ADVISORS = ("none", "heuristic")


def _check(advisor: str) -> None:
    if advisor not in ADVISORS:
        raise ValueError(f"advisor {advisor!r}: expected one of {list(ADVISORS)}")


def observation_size(advisor: str) -> int:
    """Length of the observation vector with this advisor's one-hot appended."""
    _check(advisor)
    return OBSERVATION_SIZE + (N_ACTIONS if advisor != "none" else 0)


class Advisor:
    """Computes the advice for a state; one instance keeps its agent between calls."""

    def __init__(self, advisor: str = "heuristic"):
        _check(advisor)
        self.name = advisor
        self._agent: HeuristicAgent | None = None
        if advisor == "heuristic":
            self._agent = HeuristicAgent()  # deterministic: needs no random generator

    def observe(self, state: State, obs: np.ndarray | None = None) -> np.ndarray:
        """The observation of ``state`` (``obs`` if already encoded) with the advice."""
        if obs is None:
            obs = encode_observation(state)
        if self._agent is None:
            return obs
        advice = np.zeros(N_ACTIONS, dtype=np.float32)
        if state.outcome is None:
            advice[self._agent.act(state)] = 1.0
        return np.concatenate([obs, advice])


class AdviceWrapper(gym.ObservationWrapper):
    """``Inselflucht-v0`` whose observation ends with the advisor's one-hot choice."""

    def __init__(self, env: gym.Env, advisor: str = "heuristic"):
        super().__init__(env)
        self.advisor = Advisor(advisor)
        self.observation_space = spaces.Box(0.0, 1.0, (observation_size(advisor),), np.float32)

    def observation(self, observation: np.ndarray) -> np.ndarray:
        env = cast(InselfluchtEnv, self.env.unwrapped)
        return self.advisor.observe(env.game_state, observation)
