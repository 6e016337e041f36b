"""The speed caches change nothing: the incrementally kept ``BoardView`` (``State._view``,
steered by ``State._touched``), the memoized observation blocks, the legal-action bit sets
and the env's mask memo give exactly what a fresh computation gives, after random play,
after ``clone`` with both copies played on, after ``with_hidden`` and after direct edits."""

from __future__ import annotations

import numpy as np
from conftest import Game, hand, set_status, sink
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inselflucht_env.envs.inselflucht import InselfluchtEnv
from inselflucht_env.games.inselflucht.observation import encode_observation, kings_seen
from inselflucht_env.games.inselflucht.rules import actions as A
from inselflucht_env.games.inselflucht.rules.board import N_PLACES
from inselflucht_env.games.inselflucht.rules.cards import N_LAND, code
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from inselflucht_env.games.inselflucht.rules.engine import DRY, HIDDEN, SEA, State, sea_mask
from inselflucht_env.games.inselflucht.rules.public import unseen_by_suit

CONFIGS = st.fixed_dictionaries(
    {
        "players": st.integers(1, 4),
        "taucher": st.booleans(),
        "short_game": st.booleans(),
        "meter": st.sampled_from(["normal", "leicht", "schwer"]),
    }
)
FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def fresh(s: State, seat: int | None = None) -> np.ndarray:
    """The observation derived from nothing cached: a clone without the state's view."""
    t = s.clone()
    t._view, t._touched = None, 0
    return encode_observation(t, seat)


def assert_views_fresh(s: State) -> None:
    for seat in (None, *range(len(s.pos))):
        got = encode_observation(s, seat)
        assert got.dtype == np.float32 and got.flags.writeable
        np.testing.assert_array_equal(got, fresh(s, seat))
    _, king_unseen = unseen_by_suit(s)
    assert kings_seen(s) == sum(1 << k for k in range(4) if not king_unseen[k])


def step(s: State, rng: np.random.Generator) -> None:
    legal = s.legal_actions()
    s.apply(legal[int(rng.integers(len(legal)))], rng)


@FAST
@given(CONFIGS, st.integers(0, 2**32 - 1))
def test_kept_observation_equals_a_fresh_one_through_play_clones_and_hidden_swaps(cfg, seed):
    rng = np.random.default_rng(seed)
    s = State.new(GameConfig.make(**cfg), rng)
    k = 0
    while s.outcome is None:
        assert_views_fresh(s)
        if k % 7 == 3:  # clone, then play both copies on, differently
            c = s.clone()
            before = encode_observation(s)
            step(c, np.random.default_rng([seed, k, 2]))
            assert_views_fresh(c)
            np.testing.assert_array_equal(encode_observation(s), before)  # the original unhurt
            if c.outcome is None:
                step(c, np.random.default_rng([seed, k, 3]))
                assert_views_fresh(c)
        if k % 5 == 1:  # other hidden cards and flood order: the same public view
            hidden = [p for p in range(N_PLACES) if s.status[p] == HIDDEN]
            cards = [s.card[p] for p in hidden]
            t = s.with_hidden(cards[::-1], s.col_deck, s.row_deck)
            np.testing.assert_array_equal(encode_observation(t), encode_observation(s))
            assert_views_fresh(t)
            if t.outcome is None:
                step(t, np.random.default_rng([seed, k, 1]))
                assert_views_fresh(t)
        step(s, rng)
        k += 1
    assert_views_fresh(s)


def test_edits_behind_the_engines_back_are_seen():
    """Test set-ups write the lists directly, noting nothing in ``_touched``."""
    g = Game(seed=3)
    s = g.s
    encode_observation(s)
    land = [
        p
        for p in range(N_PLACES)
        if s.status[p] == HIDDEN and p not in s.pos and s.card[p] < N_LAND
    ]
    set_status(s, {land[0]: "flooded", land[1]: "dry"})
    assert_views_fresh(s)
    sink(s, land[1])
    assert_views_fresh(s)
    hand(s, 0, [code(s.card[land[2]])])
    assert_views_fresh(s)
    a, b = land[3], land[4]  # two face-down cards swapped: nothing public changes
    s.card[a], s.card[b] = s.card[b], s.card[a]
    assert_views_fresh(s)
    s.status[a] = DRY  # and one turned face up behind the engine's back
    assert_views_fresh(s)
    s.lifted[0] = True
    assert_views_fresh(s)
    s.meter = [4, 4, 5]
    s.actions_left = 1
    assert_views_fresh(s)


def test_sea_mask_fast_path_matches_the_loop():
    rng = np.random.default_rng(0)
    for _ in range(200):
        status = [int(v) for v in rng.integers(0, 4, N_PLACES)]
        loop = sum(1 << p for p in range(N_PLACES) if status[p] == SEA)
        assert sea_mask(status) == loop == sea_mask(tuple(status))
    assert sea_mask([SEA] * N_PLACES) == (1 << N_PLACES) - 1
    assert sea_mask([300] + [SEA] * (N_PLACES - 1)) == (1 << N_PLACES) - 2  # out of byte range


def test_legal_lists_are_not_shared_between_states():
    a = State.new(GameConfig.make(), np.random.default_rng(1))
    b = State.new(GameConfig.make(), np.random.default_rng(2))
    la = a.legal_actions()
    assert la == b.legal_actions() and la is not b.legal_actions()
    la.append(99)
    assert 99 not in b.legal_actions()


def test_env_masks_are_fresh_writeable_copies():
    env = InselfluchtEnv()
    _, info = env.reset(seed=0)
    mask = info["action_mask"]
    assert mask.dtype == np.int8 and mask.flags.writeable
    mask[:] = 0
    _, info = env.reset(seed=0)
    assert info["action_mask"].sum() > 0
    bools = env.action_masks()
    assert bools.dtype == bool and bools.flags.writeable
    np.testing.assert_array_equal(bools, info["action_mask"].astype(bool))
    bools[:] = False
    assert env.action_masks().any()
    assert env.legal_action_names() == [A.ACTION_NAMES[i] for i in env.game_state.legal_actions()]


def test_bench_reports_ratios_measured_in_the_same_rounds(monkeypatch):
    from inselflucht_env import bench

    monkeypatch.setattr(
        bench,
        "BENCHMARKS",
        {
            "engine": bench.engine_steps,
            bench.REFERENCES["Blackjack-v1"]: bench.blackjack_steps,
            bench.REFERENCES["connect_four_v3"]: bench.connect_four_steps,
        },
    )
    rates, ratios = bench.measure(0.05, 2)
    c4 = bench.REFERENCES["connect_four_v3"]
    if rates[c4] is None:  # pettingzoo's classic games (pygame) not installed
        assert ratios["engine"]["connect_four_v3"] is None
    else:
        assert ratios[c4]["connect_four_v3"] == 1.0 and ratios["engine"]["connect_four_v3"] > 0
    assert rates["engine"] > 0 and ratios["engine"]["Blackjack-v1"] > 0
