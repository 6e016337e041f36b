"""Properties of seeded random legal play over many games (R1-R6 invariants).

Every step of every game checks: all 24 island cards and the joker are somewhere (places,
salvage, under kings, set aside, box); the 10 flood cards are in decks or discards; the meter
only shrinks; no figure stands on sea; the public counts (``remaining``) match the cards.
Every flood is logged: each pass hits each column and each row exactly once, a phase has as
many floods as the level at its start (R5.1), and every game ends, win or loss, within
``config.total_floods`` floods. Illegal actions raise and change nothing; replays are
deterministic; clones are independent.
"""

from __future__ import annotations

from contextlib import contextmanager
from unittest import mock

import numpy as np
from conftest import island_cards, snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inselflucht_env.games.inselflucht.rules import actions as A
from inselflucht_env.games.inselflucht.rules.board import NEIGHBOUR
from inselflucht_env.games.inselflucht.rules.cards import KING, is_land, suit_of
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from inselflucht_env.games.inselflucht.rules.engine import (
    OUTCOMES,
    SEA,
    Escape,
    IllegalActionError,
    Lift,
    State,
)

CONFIGS = st.fixed_dictionaries(
    {
        "players": st.integers(1, 4),
        "taucher": st.booleans(),
        "short_game": st.booleans(),
        "meter": st.sampled_from(["normal", "leicht", "schwer", (2, 3), (1, 5, 2)]),
    }
)
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def policy(s: State, rng: np.random.Generator, care: float) -> int:
    """A random legal action; with probability ``care`` the most useful kind that is legal
    (take off or lift; shore up a king or the helicopter; salvage; any shore up), so that
    games last long enough to reach every kind of end."""
    legal = s.legal_actions()
    if s.pending is None and rng.random() < care:
        here = s.pos[s.active]

        def target(a: int) -> int:
            return here if a == A.SHORE_HERE else NEIGHBOUR[here][a - A.SHORE]

        shores = [a for a in legal if A.SHORE_HERE <= a < A.SALVAGE]
        for group in (
            [a for a in legal if a in (A.TAKE_OFF, A.LIFT)],
            [a for a in shores if s.card[target(a)] >= KING],
            [a for a in legal if A.SALVAGE <= a < A.GIVE],
            shores,
        ):
            if group:
                legal = group
                break
    return legal[int(rng.integers(len(legal)))]


@contextmanager
def flood_log(target_of):
    """Log (turn, floods_left at the start of this flood, column, row) of every flood drawn by
    the state ``target_of()`` returns; other states (clones) are not logged."""
    log = []
    original = State._flood

    def recording(self):
        if self is target_of():
            log.append((self.turn, self.floods_left, self.col_deck[-1], self.row_deck[-1]))
        original(self)

    with mock.patch.object(State, "_flood", recording):
        yield log


def check_invariants(s: State, prev_meter: list[int]) -> None:
    assert sorted(island_cards(s)) == list(range(25))  # R1.2, R4.5, R4.7, R5.5
    assert sorted(s.col_deck + s.col_discard) == [1, 2, 3, 4, 5]  # R5.2, R5.3
    assert sorted(s.row_deck + s.row_discard) == [1, 2, 3, 4, 5]
    assert len(s.col_discard) == len(s.row_discard)
    meter = s.meter
    assert meter and meter == prev_meter[len(prev_meter) - len(meter) :]  # R5.3: only shrinks
    assert tuple(meter) == s.config.meter[len(s.config.meter) - len(meter) :]
    for suit in range(4):  # R6.2: 5 minus sunk and used, public
        gone = sum(1 for c in s.box if is_land(c) and suit_of(c) == suit)
        gone += sum(1 for h in s.under_king for c in h if suit_of(c) == suit)
        assert s.remaining[suit] == 5 - gone
        lifting = isinstance(s.pending, Lift) and s.pending.suit == suit
        if not lifting:  # R4.7: n cards, or n + 1 for a short suit
            assert s.lifted[suit] == (len(s.under_king[suit]) >= s.config.cards_per_treasure)
    waiting = {f for f, _ in s.escapes}
    if isinstance(s.pending, Escape):
        waiting.add(s.pending.figure)
    for f, p in enumerate(s.pos):
        if s.outcome is None and f not in waiting:
            assert s.status[p] != SEA  # R3.2: figures stand on fields
    if s.outcome is None:
        legal = s.legal_actions()
        assert legal and legal == sorted(legal)
        assert s.legal_mask() == [a in legal for a in range(A.N_ACTIONS)]
        if s.pending is None:
            assert 1 <= s.actions_left <= 4 and A.END_TURN in legal  # R4.1
        assert 0 <= s.decider < len(s.pos)
    else:
        assert s.outcome in OUTCOMES and s.legal_actions() == []


def play(seed: int, cfg: dict, care: float, probe: bool = True):
    """One game of seeded random legal play with every check; returns the final state, the
    actions, the flood log and the water level at the start of each turn."""
    rng = np.random.default_rng(seed)
    config = GameConfig.make(**cfg)
    s = State.new(config, rng)
    state = [s]
    levels = {s.turn: s.water_level}
    actions = []
    with flood_log(lambda: state[0]) as log:
        prev_meter = s.meter[:]
        while s.outcome is None:
            check_invariants(s, prev_meter)
            prev_meter = s.meter[:]
            legal = s.legal_actions()
            if probe and len(actions) % 7 == 0:
                # an illegal action raises and leaves everything as it was
                illegal = [a for a in range(A.N_ACTIONS) if a not in legal]
                before = snapshot(s)
                for a in illegal[:: max(1, len(illegal) // 5)] + [-1, A.N_ACTIONS]:
                    try:
                        s.apply(a, rng)
                    except IllegalActionError:
                        pass
                    else:
                        raise AssertionError(f"illegal {a} was applied")
                    assert snapshot(s) == before
                # every legal action applies (on a clone; the original is untouched)
                for a in legal:
                    c = s.clone()
                    c.apply(a, np.random.default_rng(0))
                    check_invariants(c, prev_meter)
                assert snapshot(s) == before
            a = policy(s, rng, care)
            actions.append(a)
            s.apply(a, rng)
            levels.setdefault(s.turn, s.water_level)
        check_invariants(s, prev_meter)
    return s, actions, log, levels


def check_floods(s: State, log: list, levels: dict) -> None:
    config = s.config
    assert len(log) <= config.total_floods  # R5.4
    if s.outcome == "L6":
        assert len(log) == config.total_floods
    for k in range(0, len(log), 5):  # each pass hits each column and row exactly once
        chunk = log[k : k + 5]
        cols = [c for _, _, c, _ in chunk]
        rows = [r for _, _, _, r in chunk]
        assert len(set(cols)) == len(cols) and len(set(rows)) == len(rows)
        if len(chunk) == 5:
            assert sorted(cols) == sorted(rows) == [1, 2, 3, 4, 5]
    by_turn: dict[int, list[int]] = {}
    for turn, left, _, _ in log:
        by_turn.setdefault(turn, []).append(left)
    last = max(by_turn) if by_turn else None
    for turn, lefts in by_turn.items():  # R5.1: k fixed at the phase's start
        k = levels[turn]
        assert lefts[0] == k and lefts == list(range(k, k - len(lefts), -1))
        if turn != last:
            assert len(lefts) == k


@FAST
@given(seed=st.integers(0, 2**32 - 1), cfg=CONFIGS, care=st.sampled_from([0.0, 0.5, 0.9]))
def test_random_play_keeps_every_invariant(seed, cfg, care):
    """R1-R6 invariants hold at every step of random legal play; every game ends in a win
    or a loss within config.total_floods floods."""
    s, actions, log, levels = play(seed, cfg, care)
    assert s.outcome in ("win", "L1", "L2", "L3", "L4", "L5", "L6")
    check_floods(s, log, levels)


def test_many_quick_games_reach_varied_ends():
    """Many careful random games (no probing): every end arises, all invariants hold."""
    ends = {}
    for seed in range(300):
        cfg = {
            "players": 1 + seed % 4,
            "taucher": seed % 3 == 0,
            "short_game": seed % 5 == 0,
            "meter": ["normal", "leicht", "schwer"][seed % 3],
        }
        s, actions, log, levels = play(seed, cfg, care=0.97, probe=False)
        check_floods(s, log, levels)
        ends[s.outcome] = ends.get(s.outcome, 0) + 1
    assert {"L1", "L2", "L4", "L6"} <= set(ends), ends  # L3, L5 and wins: see the rule tests


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cfg=CONFIGS)
def test_determinism_same_seed_and_actions_same_trajectory(seed, cfg):
    """A seed plus the actions replays a game exactly, deal and reshuffles included."""
    s, actions, _, _ = play(seed, cfg, care=0.8, probe=False)
    # play() drew the policy's numbers from the game's generator: replay both the same way
    rng = np.random.default_rng(seed)
    replay = State.new(GameConfig.make(**cfg), rng)
    trail = []
    for a in actions:
        assert policy(replay, rng, 0.8) == a
        replay.apply(a, rng)
        trail.append(snapshot(replay))
    assert snapshot(replay) == snapshot(s)
    # and a second replay gives the same snapshots step by step
    rng = np.random.default_rng(seed)
    again = State.new(GameConfig.make(**cfg), rng)
    for a, snap in zip(actions, trail):
        policy(again, rng, 0.8)
        again.apply(a, rng)
        assert snapshot(again) == snap


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cfg=CONFIGS, at=st.integers(0, 60))
def test_clone_is_independent(seed, cfg, at):
    """clone() is an independent copy: playing either leaves the other unchanged, and a
    clone played with the same generator follows the original exactly."""

    def start():
        rng = np.random.default_rng(seed)
        return State.new(GameConfig.make(**cfg), rng), rng

    s, rng = start()  # find how far the game goes, then stop before its end
    played = []
    while s.outcome is None and len(played) <= at:
        played.append(policy(s, rng, 0.8))
        s.apply(played[-1], rng)
    s, rng = start()
    for a in played[: min(at, len(played) - 1)]:
        policy(s, rng, 0.8)  # the same draws as above
        s.apply(a, rng)
    assert s.outcome is None
    c = s.clone()
    before = snapshot(s)
    assert snapshot(c) == before
    crng = np.random.default_rng(seed + 1)
    while c.outcome is None:
        c.apply(policy(c, crng, 0.5), crng)
    assert snapshot(s) == before  # the original is untouched
    c2 = s.clone()
    r1, r2 = np.random.default_rng(7), np.random.default_rng(7)
    for _ in range(40):
        if s.outcome:
            break
        a = policy(s, r1, 0.5)
        assert policy(c2, r2, 0.5) == a
        s.apply(a, r1)
        c2.apply(a, r2)
        assert snapshot(s) == snapshot(c2)
