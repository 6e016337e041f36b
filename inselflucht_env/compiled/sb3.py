"""A Stable-Baselines3 ``VecEnv`` over the compiled batch, for ``MaskablePPO``.

SB3 resets an env in the step that ends it (the last observation goes to
``infos[i]["terminal_observation"]``), where Gymnasium 1.x resets on the next step; the
kernel does either, so this adapter needs no Python loop over the envs. Masks come from
``env_method("action_masks")``, as sb3-contrib's ``get_action_masks`` asks for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices

from inselflucht_env.compiled import kernels
from inselflucht_env.compiled.batch import Batch, template_row
from inselflucht_env.envs.arguments import check_choice
from inselflucht_env.envs.inselflucht import REWARD_SCHEMES
from inselflucht_env.games.inselflucht.observation import OBSERVATION_SIZE
from inselflucht_env.games.inselflucht.rules import actions as A
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from inselflucht_env.games.inselflucht.rules.engine import OUTCOMES


class CompiledVecEnv(VecEnv):
    """``num_envs`` Inselflucht games as one SB3 ``VecEnv`` (same-step autoreset)."""

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        taucher: bool = False,
        short_game: bool = False,
        meter: str | Sequence[int] = "normal",
        reward: str = "win",
        seed: int | None = None,
    ):
        check_choice("reward", reward, REWARD_SCHEMES)
        self.config = GameConfig.make(players, taucher, short_game, meter)
        self.batch = Batch(num_envs, self.config, seed)
        self.shaped = reward == "shaped"
        self.render_mode = None
        super().__init__(
            num_envs,
            spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32),
            spaces.Discrete(A.N_ACTIONS),
        )
        n = num_envs
        self._obs = np.zeros((n, OBSERVATION_SIZE), dtype=np.float32)
        self._final_obs = np.zeros((n, OBSERVATION_SIZE), dtype=np.float32)
        self._masks = np.zeros((n, A.N_ACTIONS), dtype=np.int8)
        self._rewards = np.zeros(n, dtype=np.float64)
        self._dones = np.zeros(n, dtype=np.bool_)
        self._outcomes = np.full(n, -1, dtype=np.int32)
        self._needs_reset = np.zeros(n, dtype=np.bool_)
        self._actions = np.zeros(n, dtype=np.int64)
        self._deciders = np.zeros(n, dtype=np.int64)

    def reset(self) -> np.ndarray:
        if self._seeds[0] is not None:
            self.batch.seed(self._seeds[0])
            self._reset_seeds()
        self.batch.reset(
            np.ones(self.num_envs, dtype=np.bool_), self._obs, self._masks, self._deciders
        )
        return self._obs.copy()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions[:] = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        kernels.step_envs(
            self.batch.states,
            self._actions,
            self._needs_reset,
            self.batch.template,
            self.batch.layout,
            self.batch.rng,
            self.shaped,
            kernels.SAME_STEP,
            self._obs,
            self._masks,
            self._rewards,
            self._dones,
            self._outcomes,
            self._final_obs,
            self._deciders,
        )
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(self._dones):
            infos[i] = {
                "terminal_observation": self._final_obs[i].copy(),
                "outcome": OUTCOMES[self._outcomes[i]],
                "TimeLimit.truncated": False,
            }
        return (
            self._obs.copy(),
            self._rewards.astype(np.float32),
            self._dones.copy(),
            infos,
        )

    def action_masks(self) -> np.ndarray:
        return self._masks.astype(bool)

    def close(self) -> None:
        pass

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return [getattr(self, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        setattr(self, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **kwargs: Any
    ) -> list[Any]:
        chosen = list(self._indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in chosen]
        if method_name == "set_config":
            (config,) = method_args
            self.batch.config = self.config = config
            self.batch.template = template_row(config)
            return [None] * len(chosen)
        raise AttributeError(f"CompiledVecEnv has no per-env method {method_name!r}")

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def _indices(self, indices: VecEnvIndices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)
