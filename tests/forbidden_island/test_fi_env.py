"""The Forbidden Island envs: ``ForbiddenIsland-v0``, its PettingZoo AEC and dict
observations, and the observation's promise to show public facts only (FR2.4)."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import inselflucht_env  # noqa: F401
from inselflucht_env.envs.dict_observation import FI_DICT_ENV_ID
from inselflucht_env.envs.forbidden_island import ForbiddenIslandEnv
from inselflucht_env.games.forbidden_island.observation import (
    OBSERVATION_SIZE,
    describe_observation,
    encode_observation,
)
from inselflucht_env.games.forbidden_island.rules import actions as A
from inselflucht_env.games.forbidden_island.rules.config import GameConfig
from inselflucht_env.games.forbidden_island.rules.engine import IllegalActionError, State


def random_states(n: int, seed: int = 0):
    """States met in random play over every setting."""
    rng = np.random.default_rng(seed)
    for i in range(n):
        config = GameConfig.make(
            players=2 + i % 3, difficulty=("novice", "normal", "elite", "legendary")[i % 4]
        )
        s = State.new(config, rng)
        for _ in range(int(rng.integers(0, 40))):
            if s.outcome is not None:
                break
            s.apply(int(rng.choice(s.legal_actions())), rng)
        yield s, rng


def twin(state: State, rng: np.random.Generator) -> State:
    """The same public facts, other hidden orders: both decks reshuffled, the flood deck's
    known top group (FR5.2) within itself."""
    t = state.clone()
    t.treasure_deck = [t.treasure_deck[i] for i in rng.permutation(len(t.treasure_deck))]
    cut = len(t.flood_deck) - t.flood_known
    rest, top = t.flood_deck[:cut], t.flood_deck[cut:]
    t.flood_deck = [rest[i] for i in rng.permutation(len(rest))] + [
        top[i] for i in rng.permutation(len(top))
    ]
    return t


@pytest.mark.parametrize("players", [2, 3, 4])
def test_check_env_passes(players):
    env = gym.make("ForbiddenIsland-v0", players=players, difficulty="elite")
    check_env(env.unwrapped, skip_render_check=False)


def test_make_takes_the_contract_arguments():
    env = gym.make("ForbiddenIsland-v0", players=3, difficulty="legendary", roles=None)
    obs, info = env.reset(seed=3)
    assert obs.shape == (OBSERVATION_SIZE,) and env.action_space.n == A.N_ACTIONS == 77
    assert info["action_mask"].dtype == np.int8 and info["action_mask"].shape == (77,)
    assert env.unwrapped.game_state.level == 4  # FR2.3
    env = gym.make("ForbiddenIsland-v0", players=2, roles=["pilot", "diver"])
    env.reset(seed=0)
    assert env.unwrapped.game_state.roles == [5, 0]


@pytest.mark.parametrize(
    "kwargs, named",
    [
        ({"players": 1}, "players"),
        ({"players": 5}, "players"),
        ({"difficulty": "hard"}, "difficulty"),
        ({"roles": ["pilot", "pilot"]}, "roles"),
        ({"roles": ["pilot", "captain"]}, "roles"),
        ({"reward": "dense"}, "reward"),
        ({"illegal_action": "ignore"}, "illegal_action"),
        ({"meter": "normal"}, "meter"),
    ],
)
def test_bad_arguments_are_one_line_naming_the_argument(kwargs, named):
    with pytest.raises(ValueError, match=named) as err:
        gym.make("ForbiddenIsland-v0", **kwargs)
    assert "\n" not in str(err.value)


def test_info_outcome_on_the_last_step_and_a_finite_game():
    env = gym.make("ForbiddenIsland-v0", players=2)
    _, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(2000):
        assert "outcome" not in info
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, terminated, truncated, info = env.step(action)
        if terminated:
            break
    assert terminated and not truncated and info["outcome"] in ("win", "L1", "L2", "L3", "L4")
    assert info["action_mask"].sum() == 0


def test_illegal_action_terminates_or_raises_leaving_the_state_unchanged():
    env = ForbiddenIslandEnv(players=2, reward="shaped")
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0 and info["outcome"] == "illegal"
    env = ForbiddenIslandEnv(players=2, illegal_action="raise")
    env.reset(seed=1)
    before = env.game_state.clone()
    with pytest.raises(IllegalActionError, match="not legal"):
        env.step(illegal)
    after = env.game_state
    assert all(getattr(after, f) == getattr(before, f) for f in State.__slots__ if f != "_legal")


def test_step_rejects_actions_outside_the_space():
    env = ForbiddenIslandEnv()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="0..76"):
        env.step(77)
    with pytest.raises(ValueError):
        env.step("move:3")


def test_reset_options_fix_the_deal_and_bad_ones_change_nothing():
    env = ForbiddenIslandEnv(players=2)
    options = {
        "layout": list(range(24)),
        "flood_deck": list(range(23, -1, -1)),
        "treasure_deck": [0, 0, 1, 1, *([0] * 3), *([1] * 3), *([2] * 5), *([3] * 5)]
        + [4, 4, 4, 5, 5, 6, 6, 6],
    }
    env.reset(seed=0, options=options)
    s = env.game_state
    assert s.tile == list(range(24))
    assert sorted(s.flood_discard) == [18, 19, 20, 21, 22, 23]  # FR2.2: the first six drawn
    assert s.hands[0][:2] == [2, 0] and s.hands[1][:2] == [0, 2]
    kept = s.clone()
    with pytest.raises(ValueError, match="layout"):
        env.reset(seed=1, options={"layout": [0] * 24})
    with pytest.raises(ValueError, match="unknown reset option"):
        env.reset(seed=1, options={"decks": []})
    assert env.game_state.tile == kept.tile and env.game_state.hands == kept.hands


def test_observation_slices_tile_the_vector():
    table = describe_observation()
    assert table[0]["start"] == 0 and table[-1]["stop"] == OBSERVATION_SIZE
    assert all(a["stop"] == b["start"] for a, b in zip(table, table[1:]))


def test_observation_never_leaks_the_draw_orders():
    """FR2.4: twin deals that differ only in hidden orders give the same observation, from
    every seat."""
    for s, rng in random_states(300):
        t = twin(s, rng)
        for seat in range(s.players):
            np.testing.assert_array_equal(encode_observation(s, seat), encode_observation(t, seat))


def test_observation_stays_in_the_box_over_random_play():
    space = ForbiddenIslandEnv().observation_space
    for s, _ in random_states(300, seed=1):
        assert space.contains(encode_observation(s))


def test_shaped_reward_pays_a_capture():
    env = ForbiddenIslandEnv(players=2, roles=["pilot", "diver"], reward="shaped")
    env.reset(seed=0)
    s = env.game_state
    temple = s.slot_of[1]  # Temple of the Moon: the Earth Stone (FR1.2)
    s.pos[0] = temple
    s.hands[0] = [4, 0, 0, 0, 0, 0]
    s._legal = None
    _, reward, *_ = env.step(A.CAPTURE)
    assert reward == pytest.approx(0.25)


def test_pettingzoo_env_passes_api_and_seed_tests():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, seed_test

    from inselflucht_env import pettingzoo as pz

    api_test(pz.env(game="forbidden_island", players=3), num_cycles=200)
    seed_test(lambda **kw: pz.env(game="forbidden_island", players=2, **kw), num_cycles=200)
    e = pz.env(game="forbidden_island", players=4, difficulty="normal")
    e.reset(seed=0)
    assert e.possible_agents == [f"player_{i}" for i in range(4)]
    assert e.observe("player_0")["action_mask"].shape == (77,)


def test_pettingzoo_unknown_game_is_named():
    pytest.importorskip("pettingzoo")
    from inselflucht_env import pettingzoo as pz

    with pytest.raises(ValueError, match="game='pandemic'"):
        pz.env(game="pandemic")


def test_dict_observation_env():
    env = gym.make(FI_DICT_ENV_ID.split(":")[1], players=2)
    obs, info = env.reset(seed=0)
    assert obs["observations"].shape == (OBSERVATION_SIZE,)
    np.testing.assert_array_equal(obs["action_mask"], info["action_mask"])
    assert env.observation_space.contains(obs)


def test_replay_records_and_replays_a_game_exactly(tmp_path):
    from inselflucht_env.agents import make_agent
    from inselflucht_env.replay import Replay, record_episode, replay

    rep = record_episode(
        make_agent("random"), seed=7, game="forbidden_island", players=3, difficulty="normal"
    )
    assert rep.game == "forbidden_island" and rep.outcome is not None
    loaded = Replay.load(rep.save(tmp_path / "game.json"))
    assert loaded == rep
    result = replay(loaded)
    assert result.outcome == rep.outcome and result.final["outcome"] == rep.outcome


def test_replay_file_with_a_bad_field_is_named():
    from inselflucht_env.replay import Replay

    good = {
        "format": "inselflucht-replay",
        "format_version": 1,
        "game": "forbidden_island",
        "env": {"players": 2, "difficulty": "novice"},
        "seed": 0,
        "actions": ["done"],
    }
    assert Replay.from_dict(good).game == "forbidden_island"
    with pytest.raises(ValueError, match="difficulty"):
        Replay.from_dict({**good, "env": {"players": 2, "difficulty": "easy"}})
    with pytest.raises(ValueError, match="actions"):
        Replay.from_dict({**good, "actions": ["move:up"]})
    with pytest.raises(ValueError, match="'game'"):
        Replay.from_dict({**good, "game": "chess"})
