"""Recording: ``ReplayRecorder`` wraps an env and writes down what it does;
``record_episode`` plays one episode with agents and returns its record."""

from __future__ import annotations

import copy
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from .actions import action_name
from .env import InselfluchtEnv
from .replay_format import SEED_LIMIT, normalise_options
from .replay_record import Replay, env_kwargs_of


def _fresh_seed() -> int:
    return int(np.random.default_rng().integers(2**31 - 1))


class ReplayRecorder(gym.Wrapper):
    """Records every episode of an ``InselfluchtEnv`` (or a wrapper around one).

    ``replay``: the current (or just finished) episode; ``replays``: the finished ones,
    newest last (at most ``keep``). With ``directory`` each finished episode is also
    saved there as ``{name_prefix}-{n}.json``. ``meta`` is copied into every record.
    It always resets with an explicit seed: when none is given it draws one (from the
    env's generator once that is seeded, else from fresh entropy), so every episode replays.
    """

    def __init__(
        self,
        env: gym.Env,
        directory: str | os.PathLike | None = None,
        name_prefix: str = "episode",
        meta: Mapping[str, Any] | None = None,
        keep: int = 100,
    ):
        super().__init__(env)
        inner = env.unwrapped
        if not isinstance(inner, InselfluchtEnv):
            raise ValueError(
                f"ReplayRecorder needs an InselfluchtEnv inside, got {type(inner).__name__}"
            )
        self._inner: InselfluchtEnv = inner  # the env inside: its config, generator and state
        self.directory = None if directory is None else Path(directory)
        if self.directory is not None:
            self.directory.mkdir(parents=True, exist_ok=True)
        self.name_prefix = name_prefix
        self.meta = dict(meta or {})
        self.keep = keep
        self.replays: list[Replay] = []
        self.episode_count = 0
        self._current: Replay | None = None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        if seed is None:
            inner = self._inner
            seeded = getattr(inner, "_np_random", None) is not None
            seed = int(inner.np_random.integers(2**31 - 1)) if seeded else _fresh_seed()
        elif (
            isinstance(seed, bool)
            or not isinstance(seed, (int, np.integer))
            or not 0 <= int(seed) < SEED_LIMIT
        ):
            raise ValueError(f"seed={seed!r} must be an integer 0 <= seed < 2**63 to be replayable")
        seed = int(seed)
        stored = normalise_options(options)
        obs, info = self.env.reset(seed=seed, options=options)
        self._current = Replay(
            env_kwargs=env_kwargs_of(self._inner),
            seed=seed,
            options=stored,
            meta=copy.deepcopy(self.meta),
        )
        return obs, info

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        rep = self._current
        if rep is not None:
            rep.actions.append(action_name(int(action)))
            if terminated or truncated:
                rep.outcome = info.get("outcome")
                self._finish(rep)
        return obs, reward, terminated, truncated, info

    def _finish(self, rep: Replay) -> None:
        self.episode_count += 1
        self.replays.append(copy.deepcopy(rep))
        del self.replays[: -self.keep]
        if self.directory is not None:
            rep.save(self.directory / f"{self.name_prefix}-{self.episode_count}.json")

    @property
    def replay(self) -> Replay:
        """The current episode so far (a copy); ``RuntimeError`` before the first reset."""
        if self._current is None:
            raise RuntimeError("nothing recorded yet: call reset() first")
        return copy.deepcopy(self._current)


def _agent_for(agents: Any, figure: int) -> Any:
    if hasattr(agents, "act"):
        return agents
    return agents[figure]


def record_episode(
    agents: Any,
    *,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    agent_rng: np.random.Generator | None = None,
    meta: Mapping[str, Any] | None = None,
    max_steps: int = 100_000,
    **env_kwargs: Any,
) -> Replay:
    """Play one episode and return its record.

    ``agents``: one agent for every figure, or a sequence with one per figure; an agent
    has ``act(state, rng) -> int`` (a legal action of ``state.decider``). ``env_kwargs``
    go to ``InselfluchtEnv``. ``agent_rng`` drives the agents (default: from ``seed``).
    """
    env = ReplayRecorder(InselfluchtEnv(**env_kwargs), meta=meta)
    env.reset(seed=seed, options=dict(options) if options is not None else None)
    rng = agent_rng if agent_rng is not None else np.random.default_rng([env.replay.seed, 1])
    state = env._inner.game_state
    for _ in range(max_steps):
        action = _agent_for(agents, state.decider).act(state, rng)
        _, _, terminated, truncated, _ = env.step(int(action))
        if terminated or truncated:
            break
    return env.replay
