"""The public API: what users import from ``inselflucht_env`` and its rooms keeps working.

The list below is the contract; a name removed or moved fails here first (add new public
names here and to ``CHANGELOG.md``).
"""

from __future__ import annotations

import importlib

import pytest

import inselflucht_env

TOP_LEVEL = {
    "ACTION_NAMES",
    "METER_PRESETS",
    "N_ACTIONS",
    "Agent",
    "CheckpointError",
    "ForbiddenIslandEnv",
    "Game",
    "GameConfig",
    "GameState",
    "IllegalActionError",
    "InputError",
    "InselfluchtEnv",
    "Replay",
    "ReplayRecorder",
    "State",
    "__version__",
    "action_index",
    "action_name",
    "evaluate",
    "game_names",
    "get_game",
    "load_policy",
    "make_agent",
    "replay",
}
ROOMS = {
    "inselflucht_env.games.inselflucht.rules.engine": ["State", "IllegalActionError"],
    "inselflucht_env.games.inselflucht.observation": ["encode_observation", "OBSERVATION_SIZE"],
    "inselflucht_env.games.inselflucht.heuristic": ["HeuristicAgent"],
    "inselflucht_env.agents": ["make_agent", "register_agent_kind", "AGENT_NAMES"],
    "inselflucht_env.envs.inselflucht": ["InselfluchtEnv"],
    "inselflucht_env.envs.forbidden_island": ["ForbiddenIslandEnv"],
    "inselflucht_env.games.forbidden_island.rules.engine": ["State", "IllegalActionError"],
    "inselflucht_env.games.forbidden_island.observation": [
        "encode_observation",
        "OBSERVATION_SIZE",
    ],
    "inselflucht_env.envs.dict_observation": ["DICT_ENV_ID", "FI_DICT_ENV_ID", "DictObservation"],
    "inselflucht_env.envs.advice": ["AdviceWrapper", "Advisor"],
    "inselflucht_env.pettingzoo": ["env", "raw_env", "ForbiddenIslandAEC"],
    "inselflucht_env.replay": ["Replay", "ReplayRecorder", "record_episode", "replay"],
    "inselflucht_env.evaluation": ["evaluate", "run_episodes", "play_episode", "Backend"],
    "inselflucht_env.learned": ["load_policy", "save_checkpoint", "CheckpointError"],
    "inselflucht_env.cli.evaluate": ["main"],
    "inselflucht_env.cli.enjoy": ["main"],
    "inselflucht_env.cli.play": ["main"],
    "inselflucht_env.cli.replay": ["main"],
}


def test_top_level_all_is_the_listed_api():
    assert set(inselflucht_env.__all__) == TOP_LEVEL


@pytest.mark.parametrize("name", sorted(TOP_LEVEL))
def test_every_top_level_name_resolves(name):
    assert getattr(inselflucht_env, name) is not None


def test_an_unknown_top_level_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        _ = inselflucht_env.nothing_here


@pytest.mark.parametrize("module", sorted(ROOMS))
def test_each_room_exports_its_names(module):
    mod = importlib.import_module(module)
    missing = [n for n in ROOMS[module] if not hasattr(mod, n)]
    assert not missing, f"{module} lacks {missing}"


def test_the_game_registry_finds_inselflucht_and_names_the_known_games():
    game = inselflucht_env.get_game("inselflucht")
    assert game.env_id == "Inselflucht-v0" and "inselflucht" in inselflucht_env.game_names()
    with pytest.raises(inselflucht_env.InputError, match="unknown game 'chess'"):
        inselflucht_env.get_game("chess")
