"""The action mask inside the observation: a Dict ``{"observations", "action_mask"}``.

Why: RLlib's action-masking RLModules, CleanRL-style scripts and TorchRL's ``ActionMask``
transform read the mask from the observation, while ``Inselflucht-v0`` gives a flat ``Box``
and the mask in ``info`` (sb3-contrib's convention) and the PettingZoo env names its key
``"observation"`` (PettingZoo classic's convention). RLlib expects ``"observations"``, so
RLlib's ``PettingZooEnv`` over the plain AEC env fails with ``KeyError: 'observations'``.
These wrappers give every framework the same space and leave the default envs unchanged::

    {"observations": Box(0, 1, (504,), float32), "action_mask": Box(0, 1, (36,), int8)}

* ``DictObservation(gym_env)``: a Gymnasium wrapper; ``info["action_mask"]`` and
  ``action_masks()`` stay as they are. ``gym.make(DICT_ENV_ID, players=4)`` builds
  ``Inselflucht-v0`` with it (the ``module:`` prefix of the id imports this module), and
  ``gym.make(FI_DICT_ENV_ID)`` ``ForbiddenIsland-v0`` (a 77-action mask).
* ``PettingZooDictObservation(aec_env)``: the same for the AEC env (``observation`` is
  renamed ``observations``); ``dict_aec_env(**kwargs)`` builds ``pettingzoo.env(**kwargs)``
  with it.

``mask_dtype`` is ``np.int8`` (default: what ``Discrete.sample(mask=...)``, PettingZoo and
TorchRL's ``Binary`` spec accept) or ``np.float32``. The mask is all zeros once a game is
over (and, in the AEC env, for agents not on turn).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.envs.registration import register, registry

from inselflucht_env.games.inselflucht.rules.actions import N_ACTIONS

OBSERVATIONS = "observations"  # RLlib's key for the unmasked observation
ACTION_MASK = "action_mask"
MASK_DTYPES = (np.int8, np.float32)
DICT_ENV_ID = "inselflucht_env.envs.dict_observation:InselfluchtDict-v0"
FI_DICT_ENV_ID = "inselflucht_env.envs.dict_observation:ForbiddenIslandDict-v0"


def dict_space(
    observation_space: spaces.Space, mask_dtype: type = np.int8, n_actions: int = N_ACTIONS
) -> spaces.Dict:
    """The Dict space around ``observation_space`` (a flat Box) and an ``n_actions`` mask
    (Inselflucht's 36 by default)."""
    if not isinstance(observation_space, spaces.Box) or len(observation_space.shape) != 1:
        raise ValueError(f"expected a flat Box observation space, not {observation_space}")
    if np.dtype(mask_dtype) not in {np.dtype(d) for d in MASK_DTYPES}:
        raise ValueError(f"mask_dtype {np.dtype(mask_dtype).name}: expected int8 or float32")
    return spaces.Dict(
        {OBSERVATIONS: observation_space, ACTION_MASK: spaces.Box(0, 1, (n_actions,), mask_dtype)}
    )


class DictObservation(gym.Wrapper):
    """``Inselflucht-v0`` (or a wrapper of it) whose observation holds the action mask.

    The mask comes from ``info["action_mask"]``, which every wrapper of the env passes on,
    so it always belongs to the observation it is returned with.
    """

    def __init__(self, env: gym.Env, mask_dtype: type = np.int8):
        super().__init__(env)
        self.mask_dtype = np.dtype(mask_dtype)
        n_actions = env.action_space.n  # type: ignore[attr-defined]
        self.observation_space = dict_space(env.observation_space, mask_dtype, int(n_actions))

    def reset(self, **kwargs: Any):
        obs, info = self.env.reset(**kwargs)
        return self._dict(obs, info), info

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self._dict(obs, info), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """Bool mask for sb3-contrib (Gymnasium wrappers do not forward attributes)."""
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined]

    def _dict(self, obs: np.ndarray, info: dict[str, Any]) -> dict[str, np.ndarray]:
        return {OBSERVATIONS: obs, ACTION_MASK: info[ACTION_MASK].astype(self.mask_dtype)}


def make_env(mask_dtype: type = np.int8, **kwargs: Any) -> DictObservation:
    """``Inselflucht-v0`` with ``kwargs`` in a ``DictObservation`` (entry point of
    ``DICT_ENV_ID``)."""
    from inselflucht_env.envs.inselflucht import InselfluchtEnv

    return DictObservation(InselfluchtEnv(**kwargs), mask_dtype)


def make_forbidden_island_env(mask_dtype: type = np.int8, **kwargs: Any) -> DictObservation:
    """``ForbiddenIsland-v0`` with ``kwargs`` in a ``DictObservation`` (entry point of
    ``FI_DICT_ENV_ID``)."""
    from inselflucht_env.envs.forbidden_island import ForbiddenIslandEnv

    return DictObservation(ForbiddenIslandEnv(**kwargs), mask_dtype)


for _id, _entry in ((DICT_ENV_ID, "make_env"), (FI_DICT_ENV_ID, "make_forbidden_island_env")):
    if _id.split(":")[1] not in registry:
        register(id=_id.split(":")[1], entry_point=f"{__name__}:{_entry}")


# ---------------------------------------------------------------- PettingZoo
_PZ_OBSERVATION = "observation"  # PettingZoo classic's key

try:
    from pettingzoo.utils.wrappers import BaseWrapper
except ImportError:  # the [pettingzoo] extra is optional; the Gymnasium wrapper needs none
    BaseWrapper = object
    _HAS_PETTINGZOO = False
else:
    _HAS_PETTINGZOO = True


class PettingZooDictObservation(BaseWrapper):
    """The AEC env (e.g. ``inselflucht_env.envs.pettingzoo.env()``) with ``{"observations",
    "action_mask"}``, the keys RLlib's action masking reads; everything else is passed on."""

    def __init__(self, env: Any, mask_dtype: type = np.int8):
        if not _HAS_PETTINGZOO:
            raise ImportError(
                "PettingZooDictObservation needs PettingZoo: pip install "
                "'inselflucht-gym[pettingzoo]'"
            )
        super().__init__(env)
        self.mask_dtype = np.dtype(mask_dtype)
        # one space object per agent, the same on every call (PettingZoo's api_test)
        self._spaces = {
            a: dict_space(
                env.observation_space(a)[_PZ_OBSERVATION],
                mask_dtype,
                int(env.action_space(a).n),
            )
            for a in env.possible_agents
        }

    def observation_space(self, agent: str) -> spaces.Space:
        return self._spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray] | None:
        obs = super().observe(agent)
        if obs is None:
            return None
        return {
            OBSERVATIONS: obs[_PZ_OBSERVATION],
            ACTION_MASK: obs[ACTION_MASK].astype(self.mask_dtype),
        }

    def __str__(self) -> str:
        return str(self.env)


def dict_aec_env(mask_dtype: type = np.int8, **kwargs: Any) -> Any:
    """``inselflucht_env.envs.pettingzoo.env(**kwargs)`` in a ``PettingZooDictObservation``."""
    from inselflucht_env.envs import pettingzoo as iz

    return PettingZooDictObservation(iz.env(**kwargs), mask_dtype)


__all__ = [
    "ACTION_MASK",
    "DICT_ENV_ID",
    "DictObservation",
    "FI_DICT_ENV_ID",
    "OBSERVATIONS",
    "PettingZooDictObservation",
    "dict_aec_env",
    "dict_space",
    "make_env",
    "make_forbidden_island_env",
]
