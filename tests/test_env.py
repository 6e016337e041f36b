"""The Gymnasium layer: registration, arguments, spaces, masks, errors, vector envs."""

from __future__ import annotations

import json
import warnings

import gymnasium as gym
import numpy as np
import pytest

import inselflucht_env  # noqa: F401
from inselflucht_env.actions import ACTION_NAMES, N_ACTIONS
from inselflucht_env.env import InselfluchtEnv
from inselflucht_env.engine import IllegalActionError

R8_OPTIONS = {
    "layout": ["? 7C KC 7S ?", "? 10C 8H 6D 10H", "9S ? JK ? KH", "? 9D 7H ? ?", "? ? ? ? 6S"],
    "column_deck": [3, 2, 5, 1, 4],
    "row_deck": [1, 4, 5, 3, 2],
}
EXPECTED_NAMES = (
    ["move:up", "move:down", "move:left", "move:right",
     "swim:up", "swim:down", "swim:left", "swim:right",
     "shore:here", "shore:up", "shore:down", "shore:left", "shore:right",
     "salvage:up", "salvage:down", "salvage:left", "salvage:right",
     "give:+1", "give:+2", "give:+3", "lift", "take_off", "end_turn",
     "card:clubs", "card:diamonds", "card:hearts", "card:spades", "done"]
    + [f"escape:{d}" for d in ("up", "down", "left", "right",
                               "up-left", "up-right", "down-left", "down-right")])


def play_random(env, seed: int, max_steps: int = 10_000):
    """Play one episode of uniformly random legal actions; yields every step's result."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    for _ in range(max_steps):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        yield action, obs, reward, terminated, truncated, info
        if terminated or truncated:
            return


def test_registered_and_importable_by_module_path():
    env = gym.make("inselflucht_env:Inselflucht-v0")
    assert isinstance(env.unwrapped, InselfluchtEnv)
    env = gym.make("Inselflucht-v0", players=3, taucher=True, short_game=True, meter="leicht")
    assert env.unwrapped.config.figures == 3


@pytest.mark.parametrize("kwargs, name", [
    ({"players": 0}, "players"), ({"players": 5}, "players"), ({"players": "2"}, "players"),
    ({"taucher": "yes"}, "taucher"), ({"short_game": 1}, "short_game"),
    ({"meter": "medium"}, "meter"), ({"meter": []}, "meter"), ({"meter": [1, 6]}, "meter"),
    ({"reward": "dense"}, "reward"), ({"illegal_action": "ignore"}, "illegal_action"),
    ({"render_mode": "video"}, "render_mode"),
])
def test_bad_argument_names_it_and_the_allowed_values(kwargs, name):
    with pytest.raises(ValueError, match=name):
        InselfluchtEnv(**kwargs)


def test_action_names_are_the_documented_contract():
    env = InselfluchtEnv()
    assert list(ACTION_NAMES) == EXPECTED_NAMES
    assert env.action_space.n == N_ACTIONS == 36
    for i, name in enumerate(EXPECTED_NAMES):
        assert env.action_index(name) == i and env.action_name(i) == name
    with pytest.raises(ValueError, match="unknown action name"):
        env.action_index("fly")
    with pytest.raises(ValueError, match="not an index"):
        env.action_name(36)


def test_masks_after_reset_and_every_step_never_all_false_while_on():
    env = gym.make("Inselflucht-v0")
    for seed in range(20):
        _, info = env.reset(seed=seed)
        assert info["action_mask"].dtype == np.int8 and info["action_mask"].any()
        for action, _, _, terminated, _, info in play_random(env, seed):
            mask = env.unwrapped.action_masks()
            assert mask.dtype == bool and mask.shape == (N_ACTIONS,)
            assert np.array_equal(mask, info["action_mask"].astype(bool))
            assert mask.any() != terminated
            assert env.unwrapped.legal_action_names() == [ACTION_NAMES[i] for i in np.flatnonzero(mask)]


def test_gymnasium_check_env_passes():
    from gymnasium.utils.env_checker import check_env
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gym.make("Inselflucht-v0", render_mode="rgb_array").unwrapped)


def test_stable_baselines3_check_env_passes_without_warnings():
    from stable_baselines3.common.env_checker import check_env
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(InselfluchtEnv())
    assert [str(w.message) for w in caught] == []


def test_illegal_action_terminates_by_default():
    env = InselfluchtEnv()
    env.reset(seed=0, options=R8_OPTIONS)
    obs, reward, terminated, truncated, info = env.step(env.action_index("take_off"))
    assert terminated and not truncated and reward == 0.0
    assert info["outcome"] == "illegal" and env.describe()["outcome"] == "illegal"
    assert not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(env.action_index("end_turn"))


def test_illegal_action_raise_mode_leaves_state_unchanged():
    env = InselfluchtEnv(illegal_action="raise")
    env.reset(seed=0, options=R8_OPTIONS)
    before = env.describe()
    with pytest.raises(IllegalActionError, match="salvage:up"):
        env.step(env.action_index("salvage:up"))
    assert env.describe() == before
    env.step(env.action_index("move:up"))  # the game goes on


@pytest.mark.parametrize("action", [36, -1, 2.5, "move:up", None])
def test_action_outside_the_space_is_a_clear_error(action):
    env = InselfluchtEnv()
    env.reset(seed=0)
    before = env.describe()
    with pytest.raises(ValueError, match="Discrete|not an index"):
        env.step(action)
    assert env.describe() == before


@pytest.mark.parametrize("options, where", [
    ({"layout": ["? ? ? ? ?"] * 4}, "layout"),
    ({"layout": ["? ? ? ? ?", "? ? ? ? ?", "? ? KC ? ?", "? ? ? ? ?", "? ? ? ? ?"]}, "row 3 column 3"),
    ({"layout": ["JK ? ? ? ?", "? ? ? ? ?", "? ? ? ? ?", "? ? ? ? ?", "? ? ? ? ?"]}, "row 1 column 1"),
    ({"layout": ["7C 7C ? ? ?", "? ? ? ? ?", "? ? JK ? ?", "? ? ? ? ?", "? ? ? ? ?"]}, "twice"),
    ({"layout": ["5C ? ? ? ?", "? ? ? ? ?", "? ? JK ? ?", "? ? ? ? ?", "? ? ? ? ?"]}, "row 1 column 1"),
    ({"layout": ["? ? ? ?", "? ? ? ? ?", "? ? JK ? ?", "? ? ? ? ?", "? ? ? ? ?"]}, "row 1"),
    ({"column_deck": [1, 2, 3, 4]}, "column_deck"),
    ({"row_deck": [1, 2, 3, 4, 4]}, "pass 1"),
    ({"row_deck": [1, 2, 3, 4, 5, 5, 4, 3, 2, 2]}, "pass 2"),
    ({"colum_deck": [1, 2, 3, 4, 5]}, "unknown"),
    ({"layout": ["? ? ? ? ?", "? ? ? ? ?", "? ? ? ? ?", "? ? ? ? ?", "? ? ? ? ?"]}, "row 3 column 3"),
    ({"layout": ["10h ? ? ? ?", "? ? ? ? ?", "? ? JK ? ?", "? ? ? ? ?", "? ? ? ? ?"]}, "upper-case"),
    ({"column_deck": {1, 2, 3, 4, 5}}, "column_deck"),
    ({"column_deck": "12345"}, "column_deck"),
])
def test_malformed_scenario_options_say_what_and_where(options, where):
    env = InselfluchtEnv()
    env.reset(seed=3)
    before = env.describe()
    with pytest.raises(ValueError, match=where):
        env.reset(seed=4, options=options)
    assert env.describe() == before


def test_describe_has_exactly_the_documented_keys_and_is_json():
    env = InselfluchtEnv()
    env.reset(seed=0, options=R8_OPTIONS)
    d = env.describe()
    assert set(d) == {"turn", "active_figure", "actions_left", "water_level", "meter", "places",
                      "figures", "salvage", "lifted", "flood_discards", "outcome", "pending"}
    assert json.loads(json.dumps(d)) == d
    assert d["places"][2][2] == {"state": "dry", "card": "JK"}
    assert d["places"][0][0] == {"state": "hidden", "card": None}
    assert d["figures"] == [[3, 3], [3, 3]] and d["turn"] == 1 and d["actions_left"] == 4
    assert d["lifted"] == {"C": False, "D": False, "H": False, "S": False}
    assert d["flood_discards"] == {"columns": [], "rows": []} and d["pending"] is None


def test_observation_slices_are_documented_and_cover_the_vector():
    env = InselfluchtEnv()
    table = env.describe_observation()
    assert table[0]["start"] == 0
    for a, b in zip(table, table[1:]):
        assert a["stop"] == b["start"]
    assert table[-1]["stop"] == env.observation_space.shape[0]


def test_turn_ends_by_itself_after_four_actions_and_floods_inside_the_step():
    env = InselfluchtEnv()
    env.reset(seed=0, options=R8_OPTIONS)
    for name in ("move:up", "move:up", "move:left"):
        env.step(env.action_index(name))
        assert env.describe()["flood_discards"]["columns"] == []
    _, _, _, _, info = env.step(env.action_index("move:down"))
    d = env.describe()
    assert d["flood_discards"] == {"columns": [3], "rows": [1]}
    assert d["active_figure"] == 1 and d["actions_left"] == 4 and info["decider"] == 1


def test_win_reward_is_one_only_on_the_win():
    env = InselfluchtEnv()
    for seed in range(5):
        rewards = [r for _, _, r, _, _, _ in play_random(env, seed)]
        assert all(r == 0.0 for r in rewards)  # random play does not win these deals


def test_shaped_reward_pays_treasures_and_ends_minus_one_on_loss():
    env = InselfluchtEnv(reward="shaped")
    env.reset(seed=0, options=R8_OPTIONS)
    total = 0.0
    for name in ["move:up", "move:up", "move:left", "move:down", "move:up", "move:up",
                 "shore:here", "move:right", "salvage:up", "move:right", "salvage:left",
                 "move:up", "move:down", "move:right", "move:down", "salvage:up"]:
        total += env.step(env.action_index(name))[1]
    _, reward, *_ = env.step(env.action_index("lift"))
    assert reward == pytest.approx(0.25)
    assert total == pytest.approx(2 * 0.05 + 3 * 0.02)  # K♣ and K♥ seen; 7♣, 10♣, 10♥ salvaged
    outcome_rewards = [(r, i.get("outcome")) for *_, r, _, _, i in play_random(env, 1)]
    assert outcome_rewards[-1][0] <= -1.0 + 0.3


def _trajectory(env, seed):
    return [(a, obs.tobytes(), r, t, info["action_mask"].tobytes()) for a, obs, r, t, _, info
            in play_random(env, seed)]


def test_same_seed_and_actions_give_the_same_trajectory():
    env = InselfluchtEnv()
    assert _trajectory(env, 11) == _trajectory(env, 11)
    assert _trajectory(env, 11) != _trajectory(env, 12)


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_make_vec_is_deterministic(mode):
    def run():
        envs = gym.make_vec("Inselflucht-v0", num_envs=2, vectorization_mode=mode)
        obs, info = envs.reset(seed=5)
        rng = np.random.default_rng(0)
        trace = [obs.copy()]
        for _ in range(60):
            actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 22
                       for m in info["action_mask"]]
            obs, reward, terminated, truncated, info = envs.step(np.array(actions))
            trace.append(obs.copy())
        envs.close()
        return np.stack(trace)
    assert np.array_equal(run(), run())


def test_no_leak_deals_differing_in_hidden_cards_and_flood_order_look_the_same():
    """R9: along the same public history, observation, mask and info are identical."""
    env_a, env_b = InselfluchtEnv(), InselfluchtEnv()
    opts_b = dict(R8_OPTIONS, column_deck=[3, 2, 1, 4, 5], row_deck=[1, 4, 3, 2, 5])
    obs_a, info_a = env_a.reset(seed=1, options=R8_OPTIONS)
    obs_b, info_b = env_b.reset(seed=2, options=opts_b)
    assert env_a.game_state.card != env_b.game_state.card  # the hidden cards differ
    for name in ["move:up", "move:up", "move:left", "move:down",
                 "move:up", "move:up", "shore:here", "move:right"]:
        assert np.array_equal(obs_a, obs_b)
        assert {k: np.asarray(v).tolist() for k, v in info_a.items()} == \
               {k: np.asarray(v).tolist() for k, v in info_b.items()}
        obs_a, _, _, _, info_a = env_a.step(env_a.action_index(name))
        obs_b, _, _, _, info_b = env_b.step(env_b.action_index(name))
    assert np.array_equal(obs_a, obs_b) and env_a.describe() == env_b.describe()


def test_no_leak_random_histories():
    """R9 as a property: whenever two games' public states agree, so do their observations."""
    for seed in range(30):
        env_a, env_b = InselfluchtEnv(), InselfluchtEnv()
        obs_a, info_a = env_a.reset(seed=1000 + seed)
        obs_b, info_b = env_b.reset(seed=2000 + seed)
        rng = np.random.default_rng(seed)
        while env_a.describe() == env_b.describe() and "outcome" not in info_a:
            assert np.array_equal(obs_a, obs_b)
            assert np.array_equal(info_a["action_mask"], info_b["action_mask"])
            assert info_a["decider"] == info_b["decider"]
            action = int(rng.choice(np.flatnonzero(info_a["action_mask"])))
            obs_a, _, _, _, info_a = env_a.step(action)
            obs_b, _, _, _, info_b = env_b.step(action)


def test_sb3_vec_envs_and_subprocess():
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv
    for cls in (None, SubprocVecEnv):
        kwargs = {} if cls is None else {"vec_env_cls": cls}
        # Subprocesses start fresh: the module-path id imports the package there (forkserver).
        venv = make_vec_env("inselflucht_env:Inselflucht-v0", n_envs=2, seed=0, **kwargs)
        venv.reset()
        for _ in range(50):
            masks = np.stack(venv.env_method("action_masks"))
            venv.step(np.array([np.flatnonzero(m)[0] for m in masks]))
        venv.close()


@pytest.mark.slow
def test_maskable_ppo_smoke_training():
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env
    venv = make_vec_env("Inselflucht-v0", n_envs=2, seed=0)
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0,
                        device="cpu")
    model.learn(total_timesteps=256)
    env = InselfluchtEnv()
    obs, info = env.reset(seed=0)
    for _ in range(50):
        action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        assert env.action_masks()[int(action)]
        obs, _, terminated, _, info = env.step(int(action))
        if terminated:
            break
