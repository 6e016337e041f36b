"""Inselflucht-Gym: a rules engine and Gymnasium environment for the game Inselflucht.

``import inselflucht_env`` registers ``Inselflucht-v0``::

    import gymnasium as gym, inselflucht_env
    env = gym.make("Inselflucht-v0", players=2)

The package's rooms, bottom to top (``tests/test_layers.py`` holds each to its layer):
``games/<game>/rules`` (the engine: pure game logic, no framework, as PGX's game modules),
``games/<game>`` (encoding, heuristic, renderers), ``agents``, ``envs`` (Gymnasium,
PettingZoo, dict observation, advice), ``replay`` and ``evaluation``, ``learned`` (networks,
checkpoints) and ``cli``. ``game.py`` is the interface the shared rooms use to reach a game.

The engine's names are imported here; the names of higher rooms (``InselfluchtEnv``,
``make_agent``, ``evaluate``, ``Replay``, ``load_policy``, ...) are loaded on first use, so
``import inselflucht_env`` stays light and works without gymnasium or torch.
"""

from __future__ import annotations

import importlib
from typing import Any

from inselflucht_env.errors import InputError
from inselflucht_env.game import Game, GameState, game_names, get_game
from inselflucht_env.games.inselflucht.rules.actions import (
    ACTION_NAMES,
    N_ACTIONS,
    action_index,
    action_name,
)
from inselflucht_env.games.inselflucht.rules.config import METER_PRESETS, GameConfig
from inselflucht_env.games.inselflucht.rules.engine import IllegalActionError, State

__version__ = "0.2.0"

# name -> the module that defines it (loaded by ``__getattr__`` on first use)
LAZY_NAMES = {
    "Agent": "inselflucht_env.agents",
    "make_agent": "inselflucht_env.agents",
    "InselfluchtEnv": "inselflucht_env.envs.inselflucht",
    "ForbiddenIslandEnv": "inselflucht_env.envs.forbidden_island",
    "Replay": "inselflucht_env.replay",
    "ReplayRecorder": "inselflucht_env.replay",
    "replay": "inselflucht_env.replay",
    "evaluate": "inselflucht_env.evaluation",
    "load_policy": "inselflucht_env.learned",
    "CheckpointError": "inselflucht_env.learned",
}

try:
    from gymnasium.envs.registration import register
except ImportError:  # the engine and agents are usable without the framework
    pass
else:
    register(
        id="Inselflucht-v0",
        entry_point="inselflucht_env.envs.inselflucht:InselfluchtEnv",
        # make_vec(..., vectorization_mode="vector_entry_point"): the compiled batch, loaded
        # (and compiled) only when asked for
        vector_entry_point="inselflucht_env.compiled.vector_env:InselfluchtVectorEnv",
    )
    register(
        id="ForbiddenIsland-v0",
        entry_point="inselflucht_env.envs.forbidden_island:ForbiddenIslandEnv",
    )


def __getattr__(name: str) -> Any:
    module = LAZY_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module 'inselflucht_env' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "ACTION_NAMES",
    "METER_PRESETS",
    "N_ACTIONS",
    "Game",
    "GameConfig",
    "GameState",
    "IllegalActionError",
    "InputError",
    "State",
    "__version__",
    "action_index",
    "action_name",
    "game_names",
    "get_game",
    *LAZY_NAMES,
]
