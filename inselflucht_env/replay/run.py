"""Recording and re-running episodes.

``ReplayRecorder`` wraps an env and writes down what it does; ``record_episode`` plays one
episode with agents and returns its record; ``replay(rep)`` plays a record again, checks
every step and the outcome and collects frames; ``write_gif`` turns ``rgb_array`` frames
into an animated GIF.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from inselflucht_env.replay.record import (
    SEED_LIMIT,
    Replay,
    env_kwargs_of,
    game_of_env,
    normalise_options,
    replay_game,
)


def _fresh_seed() -> int:
    return int(np.random.default_rng().integers(2**31 - 1))


class ReplayRecorder(gym.Wrapper):
    """Records every episode of an ``InselfluchtEnv`` or ``ForbiddenIslandEnv`` (or a
    wrapper around one).

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
        try:
            self.game = game_of_env(inner)
        except ValueError as err:
            raise ValueError(f"ReplayRecorder: {err}") from None
        self._names = replay_game(self.game).action_names
        self._inner: Any = inner  # the env inside: its config, generator and state
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
        stored = normalise_options(options, self.game)
        obs, info = self.env.reset(seed=seed, options=options)
        self._current = Replay(
            env_kwargs=env_kwargs_of(self._inner),
            seed=seed,
            options=stored,
            meta=copy.deepcopy(self.meta),
            game=self.game,
        )
        return obs, info

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        rep = self._current
        if rep is not None:
            rep.actions.append(self._names[int(action)])
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
    game: str = "inselflucht",
    **env_kwargs: Any,
) -> Replay:
    """Play one episode and return its record.

    ``agents``: one agent for every figure, or a sequence with one per figure; an agent
    has ``act(state, rng) -> int`` (a legal action of ``state.decider``). ``env_kwargs``
    go to the Gymnasium env of ``game``. ``agent_rng`` drives the agents (default: from
    ``seed``).
    """
    env = ReplayRecorder(replay_game(game).env_class(**env_kwargs), meta=meta)
    env.reset(seed=seed, options=dict(options) if options is not None else None)
    rng = agent_rng if agent_rng is not None else np.random.default_rng([env.replay.seed, 1])
    state = env._inner.game_state
    for _ in range(max_steps):
        action = _agent_for(agents, state.decider).act(state, rng)
        _, _, terminated, truncated, _ = env.step(int(action))
        if terminated or truncated:
            break
    return env.replay


class ReplayMismatchError(ValueError):
    """Re-running a replay did not give the recorded game (illegal step or other outcome)."""


@dataclass
class ReplayResult:
    """What re-running a record gave: the outcome, steps, frames and the final public state.

    ``frames``: one per state (after reset, after every step) for ``render_mode``
    ``"ansi"`` (text) or ``"rgb_array"`` (images); empty otherwise. ``deciders``: the
    figure that chose each action.
    """

    outcome: str | None
    steps: int
    frames: list[Any]
    final: dict[str, Any]
    deciders: list[int]


def replay(rep: Replay, render_mode: str | None = None, verify: bool = True) -> ReplayResult:
    """Re-run a record exactly; with ``verify`` raise ``ReplayMismatchError`` on any difference.

    Checked: every action is playable at its step (an illegal one only as the recorded
    last step of an ``"illegal"`` outcome), no actions follow the end, and the outcome
    is the recorded one (``None``: the game must still be running).
    """
    env = rep.make_env(render_mode)
    names = replay_game(rep.game).action_names
    frames: list[Any] = []
    deciders: list[int] = []
    collect = render_mode in ("ansi", "rgb_array")
    env.reset(seed=rep.seed, options=rep.options)
    if collect:
        frames.append(env.render())
    outcome = None
    for i, name in enumerate(rep.actions):
        if outcome is not None:
            raise ReplayMismatchError(
                f"replay: the game ended ({outcome}) after step {i}, but "
                f"{len(rep.actions) - i} more action(s) are recorded"
            )
        index = names.index(name)
        state = env.game_state
        if (
            verify
            and index not in state.legal_actions()
            and not (rep.outcome == "illegal" and i == len(rep.actions) - 1)
        ):
            legal = ", ".join(names[a] for a in state.legal_actions())
            raise ReplayMismatchError(
                f"replay: step {i + 1} {name!r} is not legal in the replayed game "
                f"(legal: {legal}); the file does not match this version of the rules"
            )
        deciders.append(state.decider)
        try:
            _, _, terminated, truncated, info = env.step(index)
        except ValueError as err:  # illegal_action="raise" in the record
            raise ReplayMismatchError(f"replay: step {i + 1} {name!r}: {err}") from None
        if collect:
            frames.append(env.render())
        if terminated or truncated:
            outcome = info.get("outcome")
    if verify and outcome != rep.outcome:
        raise ReplayMismatchError(
            f"replay: recorded outcome {rep.outcome!r} but the replayed game gave {outcome!r}"
        )
    final = env.describe()
    env.close()
    return ReplayResult(
        outcome=outcome, steps=len(rep.actions), frames=frames, final=final, deciders=deciders
    )


def write_gif(
    frames: Iterable[np.ndarray], path: str | os.PathLike, fps: float = 2.0, loop: int = 0
) -> Path:
    """Write RGB frames (uint8 H x W x 3, all one size) as an animated GIF with Pillow.

    Identical consecutive frames are merged by Pillow (their time adds up).
    """
    from PIL import Image

    frames = list(frames)
    if not frames:
        raise ValueError("write_gif needs at least one frame")
    if not fps > 0:
        raise ValueError(f"fps must be positive, got {fps!r}")
    shape = None
    images = []
    for k, frame in enumerate(frames):
        arr = np.asarray(frame)
        if arr.ndim != 3 or arr.shape[2] != 3 or arr.dtype != np.uint8:
            raise ValueError(
                f"frame {k} must be a uint8 array of shape (H, W, 3), got {arr.dtype} {arr.shape}"
            )
        if shape is None:
            shape = arr.shape
        elif arr.shape != shape:
            raise ValueError(f"frame {k} has shape {arr.shape}, frame 0 has {shape}")
        images.append(Image.fromarray(arr, "RGB"))
    path = Path(path)
    images[0].save(
        path,
        format="GIF",
        save_all=True,
        append_images=images[1:],
        duration=max(int(round(1000 / fps)), 20),
        loop=loop,
    )
    return path
