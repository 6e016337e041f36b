"""Way planes (``inselflucht_env.learned.ways``): the decider's cheapest ways over the island,
computed inside the network from the observation alone, agree with the heuristic's own
shortest-way search (``agents.knowledge.paths_sea``, R4.2 moves and R4.3 swims)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
import torch
from conftest import P, put, sink

from inselflucht_env.agents import HeuristicAgent
from inselflucht_env.games.inselflucht.knowledge import paths_sea
from inselflucht_env.games.inselflucht.observation import OBSERVATION_SIZE, encode_observation
from inselflucht_env.games.inselflucht.rules.board import BEYOND, N_PLACES, NEIGHBOUR
from inselflucht_env.games.inselflucht.rules.cards import N_LAND
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from inselflucht_env.games.inselflucht.rules.engine import State, sea_mask
from inselflucht_env.learned.network import NetworkSpec, build_policy, policy_value
from inselflucht_env.learned.ways import N_WAY_PLANES, WAY_PLANES, way_planes
from train import grow
from train.exit_config import ConfigError

FIRST = {name: k for k, name in enumerate(WAY_PLANES)}


def _planes(state: State) -> np.ndarray:
    obs = torch.as_tensor(encode_observation(state))[None]
    return way_planes(obs)[0].numpy()


def _expected(state: State) -> np.ndarray:
    """The planes from ``paths_sea``: a first action starts a cheapest way to q when its own
    price plus the cheapest way on from where it lands is the cheapest way to q."""
    sea, sc = sea_mask(state.status), state.config.swim_cost
    start = state.pos[state.decider]
    best, _ = paths_sea(sea, start, sc)
    planes = np.zeros((N_WAY_PLANES, N_PLACES), np.float32)
    for q in range(N_PLACES):
        if q == start:
            planes[-1, q] = 1.0
        elif best[q] < 10**6:
            planes[-1, q] = 1.0 / (1.0 + best[q])
    for k in range(4):
        n, b = NEIGHBOUR[start][k], BEYOND[start][k]
        firsts = []
        if n >= 0 and not sea >> n & 1:
            firsts.append((k, 1, n))
        elif n >= 0 and b >= 0 and not sea >> b & 1:
            firsts.append((4 + k, sc, b))
        for a, price, landed in firsts:
            on, _ = paths_sea(sea, landed, sc)
            for q in range(N_PLACES):
                if q != start and planes[-1, q] > 0 and price + on[q] == best[q]:
                    planes[a, q] = 1.0
    return planes


def _states(config: GameConfig, seed: int, every: int = 7) -> list[State]:
    """Every ``every``-th state of a heuristic game of ``config``."""
    rng = np.random.default_rng(seed)
    state, out, agent = State.new(config, rng), [], HeuristicAgent()
    decisions = 0
    while state.outcome is None:
        if decisions % every == 0:
            out.append(state.clone())
        state.apply(agent.act(state, rng), rng)
        decisions += 1
    return out


def _island(sea: tuple[int, ...], taucher: bool = False) -> State:
    """A fresh 2-player deal with the decider on P(1,1) and the places ``sea`` sunk (the
    first deal whose cards there are land, so that they can sink)."""
    for seed in range(100):
        state = State.new(GameConfig.make(players=2, taucher=taucher), np.random.default_rng(seed))
        if all(state.card[p] < N_LAND and p not in state.pos for p in sea) and P(1, 1) not in sea:
            put(state, state.decider, P(1, 1))
            for p in sea:
                sink(state, p)
            return state
    raise AssertionError("no deal with land on all of those places")


@pytest.mark.parametrize(
    "config",
    [GameConfig.make(players=2), GameConfig.make(players=4), GameConfig.make(taucher=True)],
    ids=["2p", "4p", "taucher"],
)
def test_way_planes_are_the_heuristics_cheapest_ways_R4_2_R4_3(config):
    states = [s for seed in range(3) for s in _states(config, seed)]
    assert len(states) > 20
    batch = torch.stack([torch.as_tensor(encode_observation(s)) for s in states])
    for state, planes in zip(states, way_planes(batch).numpy(), strict=True):
        np.testing.assert_allclose(planes, _expected(state), atol=1e-6)


def test_a_swim_crosses_one_sea_place_and_costs_two_actions_R4_3():
    """The decider on P(1,1) with the sea at P(2,1): P(3,1) is one swim (2 actions) away
    rightwards, or a walk round the sea (down, right, right, up: 4 actions)."""
    planes = _planes(_island((P(2, 1),)))
    target = P(3, 1)
    assert planes[FIRST["closeness"], target] == pytest.approx(1 / 3)
    assert planes[FIRST["first_swim:right"], target] == 1.0
    assert planes[FIRST["first_move:down"], target] == 0.0


def test_with_taucher_a_swim_costs_one_action_R7_1():
    state = _island((P(2, 1),), taucher=True)
    assert _planes(state)[FIRST["closeness"], P(3, 1)] == pytest.approx(1 / 2)


def test_a_place_behind_two_sea_places_has_no_way_R4_3():
    """R4.3: a swim crosses exactly one sea place."""
    planes = _planes(_island((P(2, 1), P(1, 2), P(2, 2))))
    assert planes[FIRST["closeness"], P(1, 1)] == 1.0
    assert planes[FIRST["first_swim:right"], P(3, 1)] == 1.0  # across P(2,1)
    assert planes[:, P(2, 2)].sum() == 0.0  # sea: no way onto it


def test_a_network_with_way_planes_plays_and_grows_from_one_without():
    """``train.grow.grown``: the way planes are new input channels with zero weights, so
    the grown network computes what the trained one did until training moves them."""
    spec = NetworkSpec(OBSERVATION_SIZE, "centred_cnn", 4, 16, (16,), "win_probability")
    network = build_policy(spec)
    ways = grow.grown(network, spec, replace(spec, way_planes=True))
    obs = torch.stack(
        [torch.as_tensor(encode_observation(s)) for s in _states(GameConfig.make(), 1)]
    )
    with torch.no_grad():
        for a, b in zip(policy_value(network, obs), policy_value(ways, obs), strict=True):
            assert torch.allclose(a, b, atol=1e-6)
    first = next(m for m in ways.modules() if isinstance(m, torch.nn.Conv2d))
    assert (
        first.in_channels
        == next(m for m in network.modules() if isinstance(m, torch.nn.Conv2d)).in_channels
        + N_WAY_PLANES
    )
    with pytest.raises(ConfigError, match="way planes be added"):
        grow.grown(ways, replace(spec, way_planes=True), spec)


def test_way_planes_need_a_convolutional_extractor():
    with pytest.raises(ValueError, match="way_planes need a convolutional extractor"):
        NetworkSpec(OBSERVATION_SIZE, "mlp", way_planes=True)
    with pytest.raises(ValueError, match="way_planes must be true or false"):
        NetworkSpec(OBSERVATION_SIZE, "board_cnn", way_planes=1)  # type: ignore[arg-type]
