"""Inselflucht-Gym: a rules engine and Gymnasium environment for the game Inselflucht.

``import inselflucht_env`` registers ``Inselflucht-v0``::

    import gymnasium as gym, inselflucht_env
    env = gym.make("Inselflucht-v0", players=2)

The engine (``engine``, ``board``, ``cards``, ``config``, ``actions``, ...) and the agents
import no framework, as PGX's game modules do: without gymnasium installed they still work,
and only the registration is skipped.
"""

from .actions import ACTION_NAMES, N_ACTIONS, action_index, action_name
from .config import METER_PRESETS, GameConfig
from .engine import IllegalActionError, State

__version__ = "0.2.0"

try:
    from gymnasium.envs.registration import register
except ImportError:  # the engine and agents are usable without the framework
    pass
else:
    register(id="Inselflucht-v0", entry_point="inselflucht_env.env:InselfluchtEnv")

__all__ = [
    "ACTION_NAMES",
    "N_ACTIONS",
    "GameConfig",
    "IllegalActionError",
    "METER_PRESETS",
    "State",
    "action_index",
    "action_name",
    "__version__",
]
