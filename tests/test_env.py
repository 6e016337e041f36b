"""The Gymnasium layer: registration, arguments, spaces, masks, errors, vector envs."""

from __future__ import annotations

import json
import warnings

import gymnasium as gym
import numpy as np
import pytest
from conftest import layout_rows, twin

import inselflucht_env  # noqa: F401
from inselflucht_env.agents import HeuristicAgent
from inselflucht_env.envs.inselflucht import InselfluchtEnv
from inselflucht_env.games.inselflucht.observation import encode_observation
from inselflucht_env.games.inselflucht.render.image import render_rgb
from inselflucht_env.games.inselflucht.rules.actions import ACTION_NAMES, N_ACTIONS
from inselflucht_env.games.inselflucht.rules.cards import is_land, parse
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from inselflucht_env.games.inselflucht.rules.engine import HIDDEN, IllegalActionError, State

R8_OPTIONS = {
    "layout": ["? 7C KC 7S ?", "? 10C 8H 6D 10H", "9S ? JK ? KH", "? 9D 7H ? ?", "? ? ? ? 6S"],
    "column_deck": [3, 2, 5, 1, 4],
    "row_deck": [1, 4, 5, 3, 2],
}
# The worked example's first four turns (R8), 16 decisions; its next one is a lift.
R8_TO_THE_FIRST_LIFT = [
    *("move:up", "move:up", "move:left", "move:down"),
    *("move:up", "move:up", "shore:here", "move:right"),
    *("salvage:up", "move:right", "salvage:left", "move:up"),
    *("move:down", "move:right", "move:down", "salvage:up"),
]
EXPECTED_NAMES = [
    "move:up",
    "move:down",
    "move:left",
    "move:right",
    "swim:up",
    "swim:down",
    "swim:left",
    "swim:right",
    "shore:here",
    "shore:up",
    "shore:down",
    "shore:left",
    "shore:right",
    "salvage:up",
    "salvage:down",
    "salvage:left",
    "salvage:right",
    "give:+1",
    "give:+2",
    "give:+3",
    "lift",
    "take_off",
    "end_turn",
    "card:clubs",
    "card:diamonds",
    "card:hearts",
    "card:spades",
    "done",
] + [
    f"escape:{d}"
    for d in ("up", "down", "left", "right", "up-left", "up-right", "down-left", "down-right")
]


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


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"players": 0}, "players"),
        ({"players": 5}, "players"),
        ({"players": "2"}, "players"),
        ({"taucher": "yes"}, "taucher"),
        ({"short_game": 1}, "short_game"),
        ({"meter": "medium"}, "meter"),
        ({"meter": []}, "meter"),
        ({"meter": [1, 6]}, "meter"),
        ({"reward": "dense"}, "reward"),
        ({"illegal_action": "ignore"}, "illegal_action"),
        ({"render_mode": "video"}, "render_mode"),
    ],
)
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
        for _, _, _, terminated, _, info in play_random(env, seed):
            mask = env.unwrapped.action_masks()
            assert mask.dtype == bool and mask.shape == (N_ACTIONS,)
            assert np.array_equal(mask, info["action_mask"].astype(bool))
            assert mask.any() != terminated
            assert env.unwrapped.legal_action_names() == [
                ACTION_NAMES[i] for i in np.flatnonzero(mask)
            ]


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


@pytest.mark.parametrize(
    "options, where",
    [
        ({"layout": ["? ? ? ? ?"] * 4}, "layout"),
        (
            {"layout": ["? ? ? ? ?", "? ? ? ? ?", "? ? KC ? ?", "? ? ? ? ?", "? ? ? ? ?"]},
            "row 3 column 3",
        ),
        (
            {"layout": ["JK ? ? ? ?", "? ? ? ? ?", "? ? ? ? ?", "? ? ? ? ?", "? ? ? ? ?"]},
            "row 1 column 1",
        ),
        ({"layout": ["7C 7C ? ? ?", "? ? ? ? ?", "? ? JK ? ?", "? ? ? ? ?", "? ? ? ? ?"]}, "twice"),
        (
            {"layout": ["5C ? ? ? ?", "? ? ? ? ?", "? ? JK ? ?", "? ? ? ? ?", "? ? ? ? ?"]},
            "row 1 column 1",
        ),
        ({"layout": ["? ? ? ?", "? ? ? ? ?", "? ? JK ? ?", "? ? ? ? ?", "? ? ? ? ?"]}, "row 1"),
        ({"column_deck": [1, 2, 3, 4]}, "column_deck"),
        ({"row_deck": [1, 2, 3, 4, 4]}, "pass 1"),
        ({"row_deck": [1, 2, 3, 4, 5, 5, 4, 3, 2, 2]}, "pass 2"),
        ({"colum_deck": [1, 2, 3, 4, 5]}, "unknown"),
        (
            {"layout": ["? ? ? ? ?", "? ? ? ? ?", "? ? ? ? ?", "? ? ? ? ?", "? ? ? ? ?"]},
            "row 3 column 3",
        ),
        (
            {"layout": ["10h ? ? ? ?", "? ? ? ? ?", "? ? JK ? ?", "? ? ? ? ?", "? ? ? ? ?"]},
            "upper-case",
        ),
        ({"column_deck": {1, 2, 3, 4, 5}}, "column_deck"),
        ({"column_deck": "12345"}, "column_deck"),
    ],
)
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
    assert set(d) == {
        "turn",
        "active_figure",
        "actions_left",
        "water_level",
        "meter",
        "places",
        "figures",
        "salvage",
        "lifted",
        "flood_discards",
        "outcome",
        "pending",
    }
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
    assert table[-1]["stop"] == env.observation_space.shape[0] == 504


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
    """Rewards (``reward="win"``): +1 on the step that takes off, 0 on every other step; a
    loss ends with 0. The heuristic agent wins these deals (seeds 0-2, 2 players)."""
    env = InselfluchtEnv()
    heuristic = HeuristicAgent()
    for seed in range(3):
        _, info = env.reset(seed=seed)
        steps = []
        while "outcome" not in info:
            action = heuristic.act(env.game_state, None)
            _, reward, terminated, truncated, info = env.step(action)
            steps.append((ACTION_NAMES[action], reward, terminated, truncated))
        assert info["outcome"] == "win", (seed, info["outcome"])
        assert len(steps) > 30
        assert steps[-1] == ("take_off", 1.0, True, False)
        assert all(r == 0.0 and not t and not tr for _, r, t, tr in steps[:-1])
    lost = [r for _, _, r, _, _, _ in play_random(env, 0)]
    assert env.describe()["outcome"] == "L1" and lost == [0.0] * len(lost)


def test_shaped_reward_pays_treasures_and_ends_minus_one_on_loss():
    env = InselfluchtEnv(reward="shaped")
    env.reset(seed=0, options=R8_OPTIONS)
    total = 0.0
    for name in R8_TO_THE_FIRST_LIFT:
        total += env.step(env.action_index(name))[1]
    _, reward, *_ = env.step(env.action_index("lift"))
    assert reward == pytest.approx(0.25)
    assert total == pytest.approx(2 * 0.05 + 3 * 0.02)  # K♣ and K♥ seen; 7♣, 10♣, 10♥ salvaged
    *before, last = [(r, i.get("outcome")) for _, _, r, _, _, i in play_random(env, 1)]
    assert last == (-1.0, "L1")  # a flood after end_turn sinks a king: no progress, -1
    assert len(before) > 20 and all(r >= 0.0 and o is None for r, o in before)


def _trajectory(env, seed):
    return [
        (a, obs.tobytes(), r, t, info["action_mask"].tobytes())
        for a, obs, r, t, _, info in play_random(env, seed)
    ]


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
            actions = [
                int(rng.choice(np.flatnonzero(m))) if m.any() else 22 for m in info["action_mask"]
            ]
            obs, reward, terminated, truncated, info = envs.step(np.array(actions))
            trace.append(obs.copy())
        envs.close()
        return np.stack(trace)

    first = run()
    assert first.shape == (61, 2, 504) and len({frame.tobytes() for frame in first}) > 30
    assert np.array_equal(first, run())


def test_no_leak_deals_differing_in_hidden_cards_and_flood_order_look_the_same():
    """R9: along the same public history, observation, mask and info are identical."""
    env_a, env_b = InselfluchtEnv(), InselfluchtEnv()
    opts_b = dict(R8_OPTIONS, column_deck=[3, 2, 1, 4, 5], row_deck=[1, 4, 3, 2, 5])
    obs_a, info_a = env_a.reset(seed=1, options=R8_OPTIONS)
    obs_b, info_b = env_b.reset(seed=2, options=opts_b)
    assert env_a.game_state.card != env_b.game_state.card  # the hidden cards differ
    for name in R8_TO_THE_FIRST_LIFT[:8]:  # the first two turns
        assert np.array_equal(obs_a, obs_b)
        assert {k: np.asarray(v).tolist() for k, v in info_a.items()} == {
            k: np.asarray(v).tolist() for k, v in info_b.items()
        }
        obs_a, _, _, _, info_a = env_a.step(env_a.action_index(name))
        obs_b, _, _, _, info_b = env_b.step(env_b.action_index(name))
    assert np.array_equal(obs_a, obs_b) and env_a.describe() == env_b.describe()


NO_LEAK_CONFIGS = [
    dict(players=2),
    dict(players=1, taucher=True),
    dict(players=3, short_game=True),
    dict(players=4, meter="schwer"),
    dict(players=2, meter="leicht"),
]


def scripted_deal(config_kwargs: dict, seed: int) -> dict:
    """Reset options fixing a seed's whole deal: all 24 island cards and 10 flood passes."""
    rng = np.random.default_rng(seed)
    s = State.new(GameConfig.make(**config_kwargs), rng)
    passes = [[int(v) for v in rng.permutation(5) + 1] for _ in range(20)]
    return {
        "layout": layout_rows(s.card),
        "column_deck": sum(passes[:10], []),
        "row_deck": sum(passes[10:], []),
    }


def play_recorded(env, options: dict, seed: int, heuristic: bool) -> list[int]:
    """One game (random or heuristic decisions) on a scripted deal; returns the actions."""
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed, options=options)
    actions: list[int] = []
    while "outcome" not in info:
        state = env.game_state
        action = (
            HeuristicAgent().act(state, None)
            if heuristic
            else int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
        actions.append(action)
        info = env.step(action)[4]
    return actions


def twin_deal(options: dict, final: State, never_seen: list[int]) -> dict:
    """The same deal with the hidden facts of ``final``'s game changed: the land cards that
    were never face up rotated, and the flood cards never drawn put in another order (the
    rest of the last pass reversed, the unstarted passes rotated)."""
    cards = [parse(tok) for row in options["layout"] for tok in row.split()]
    land = [p for p in never_seen if is_land(cards[p])]
    twin_cards = cards[:]
    for p, q in zip(land, land[1:] + land[:1]):
        twin_cards[q] = cards[p]
    current = len(final.config.meter) - len(final.meter)  # passes reshuffled so far
    drawn = len(final.col_discard)
    decks = {}
    for key in ("column_deck", "row_deck"):
        passes = [options[key][k : k + 5] for k in range(0, 50, 5)]
        passes[current] = passes[current][:drawn] + passes[current][drawn:][::-1]
        for k in range(current + 1, 10):
            passes[k] = passes[k][1:] + passes[k][:1]
        decks[key] = sum(passes, [])
    return {"layout": layout_rows(twin_cards), **decks}


def test_no_leak_random_histories():
    """R9 through the Gymnasium layer: twin deals that differ only in hidden facts (cards
    that stay face down all game, flood cards never drawn) give the same observation,
    reward, termination, info and renders at every step of the same long public history;
    and at every decision a ``State.with_hidden`` twin (every hidden card and every undrawn
    flood card rearranged) gives the same observation, mask and text."""
    from inselflucht_env.games.inselflucht.render.text import render_ansi

    twin_rng = np.random.default_rng(99)
    decisions = other_cards = games_with_other_floods = changed_twins = 0
    for seed in range(15):
        kwargs = NO_LEAK_CONFIGS[seed % len(NO_LEAK_CONFIGS)]
        options = scripted_deal(kwargs, 500 + seed)
        env_a = InselfluchtEnv(**kwargs, reward="shaped", render_mode="ansi")
        actions = play_recorded(env_a, options, seed, heuristic=seed % 3 == 2)
        final = env_a.game_state
        # a place still hidden at the end was never face up: a revealed card stays revealed
        never_seen = [p for p in range(25) if final.status[p] == HIDDEN]
        other = twin_deal(options, final, never_seen)
        other_cards += len(actions) if other["layout"] != options["layout"] else 0
        games_with_other_floods += other["column_deck"] != options["column_deck"]

        env_a = InselfluchtEnv(**kwargs, reward="shaped", render_mode="ansi")
        env_b = InselfluchtEnv(**kwargs, reward="shaped", render_mode="ansi")
        out_a = env_a.reset(seed=seed, options=options)
        out_b = env_b.reset(seed=seed, options=other)
        for action in actions + [None]:
            obs_a, info_a = out_a[0], out_a[-1]
            np.testing.assert_array_equal(obs_a, out_b[0])
            assert out_a[1:-1] == out_b[1:-1]  # reward, terminated, truncated
            assert info_a.keys() == out_b[-1].keys()
            for key in info_a:
                assert np.array_equal(info_a[key], out_b[-1][key]), key
            assert env_a.render() == env_b.render()
            state = env_a.game_state
            t = twin(state, twin_rng)
            if action is None:  # the image at the end only: it costs 5 ms (test_render)
                image = render_rgb(state)
                assert np.array_equal(image, render_rgb(env_b.game_state))
                assert np.array_equal(image, render_rgb(t))
            changed_twins += t.card != state.card or t.col_deck != state.col_deck
            np.testing.assert_array_equal(encode_observation(t), obs_a)
            assert t.legal_mask() == info_a["action_mask"].astype(bool).tolist()
            assert render_ansi(t) == env_a.render()
            if action is None:
                assert "outcome" in info_a
                break
            decisions += 1
            out_a, out_b = env_a.step(action), env_b.step(action)
    assert decisions >= 500 and other_cards >= 150  # decisions with other face-down cards
    assert games_with_other_floods == 15
    assert changed_twins >= decisions * 0.9


def test_sb3_vec_envs_and_subprocess():
    """SB3's DummyVecEnv and SubprocVecEnv run the env: batched observations, masks through
    ``env_method``, a finished game reset within the same step with its last observation and
    outcome in ``info``; env i is seeded seed + i, so the subprocess replays env 0 exactly."""
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv

    end_turn = ACTION_NAMES.index("end_turn")
    runs = []
    # A subprocess starts fresh (forkserver): the module-path id imports the package there.
    # One is enough for that; each one imports torch with SB3 (about 1.5 s of CPU).
    for n_envs, kwargs in ((2, {}), (1, {"vec_env_cls": SubprocVecEnv})):
        venv = make_vec_env("inselflucht_env:Inselflucht-v0", n_envs=n_envs, seed=0, **kwargs)
        obs = venv.reset()
        assert obs.shape == (n_envs, 504) and obs.dtype == np.float32
        trace, ends = [obs[0].copy()], []
        for _ in range(50):
            masks = np.stack(venv.env_method("action_masks"))
            assert masks.shape == (n_envs, N_ACTIONS) and masks.any(axis=1).all()
            # every step ends a turn where it can, so the water rises fast and games end
            actions = [end_turn if m[end_turn] else int(np.flatnonzero(m)[0]) for m in masks]
            obs, rewards, dones, infos = venv.step(np.array(actions))
            assert rewards.tolist() == [0.0] * n_envs  # no win, no reward
            trace.append((obs[0].copy(), bool(dones[0])))
            for i in np.flatnonzero(dones):
                last = infos[i]["terminal_observation"]
                assert infos[i]["outcome"] in ("L1", "L2", "L3", "L4", "L5", "L6")
                assert last.shape == (504,) and not np.array_equal(last, obs[i])
                ends.append((int(i), infos[i]["outcome"], infos[i]["episode"]["l"]))
        venv.close()
        assert {i for i, _, _ in ends} == set(range(n_envs))
        runs.append((trace, [e for e in ends if e[0] == 0]))
    (dummy, dummy_ends), (sub, sub_ends) = runs
    assert len(dummy_ends) >= 2 and dummy_ends == sub_ends
    np.testing.assert_array_equal(dummy[0], sub[0])
    for (obs_d, done_d), (obs_s, done_s) in zip(dummy[1:], sub[1:]):
        np.testing.assert_array_equal(obs_d, obs_s)
        assert done_d == done_s


@pytest.mark.slow
def test_maskable_ppo_smoke_training():
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    venv = make_vec_env("Inselflucht-v0", n_envs=2, seed=0)
    model = MaskablePPO(
        "MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0, device="cpu"
    )
    model.learn(total_timesteps=256)
    env = InselfluchtEnv()
    obs, info = env.reset(seed=0)
    for _ in range(50):
        action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        assert env.action_masks()[int(action)]
        obs, _, terminated, _, info = env.step(int(action))
        if terminated:
            break
