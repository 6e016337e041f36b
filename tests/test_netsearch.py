"""The network-guided search (``inselflucht_env.learned.netsearch``): legal play, budget,
PUCT selection, one-choice decisions, and no use of hidden information (R9)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import STANDARD, Game, midgame, play_agent

from inselflucht_env.agents import make_agent
from inselflucht_env.games.inselflucht.observation import OBSERVATION_SIZE
from inselflucht_env.games.inselflucht.rules import actions as A
from inselflucht_env.games.inselflucht.rules.board import N_PLACES
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from inselflucht_env.games.inselflucht.rules.engine import HIDDEN
from inselflucht_env.learned import NetSearchAgent, NetworkSpec, build_policy
from inselflucht_env.learned.netsearch import Node, puct_select


def test_make_agent_builds_netsearch(win_net):
    agent = make_agent(f"netsearch:{win_net}", simulations=7)
    assert isinstance(agent, NetSearchAgent) and agent.simulations == 7
    with pytest.raises(ValueError, match="win probability"):
        make_agent("netsearch:ppo_2p_normal")  # a PPO value head is a discounted return


def test_a_ppo_critic_of_the_win_reward_with_gamma_1_is_a_win_probability():
    """PPO's critic trained on the win reward without discount estimates the team's win
    probability, so the guided searches take it; one of the shaped reward does not."""
    agent = make_agent("netsearch:ppo_4p_normal_from_best", simulations=3)
    assert isinstance(agent, NetSearchAgent)
    with pytest.raises(ValueError, match="env.reward 'shaped', ppo.gamma 0.995"):
        make_agent("netflat:ppo_2p_normal_scratch")


def test_plays_legal_actions_to_the_end(win_net):
    agent = NetSearchAgent(win_net, simulations=6, batch=3, rollout_depth=2, heuristic_prior=0.5)
    play_agent(agent, GameConfig.make(players=2, meter="schwer"), 0)
    assert agent.stats["searched"] > 0


@pytest.mark.parametrize("simulations, batch", [(1, 8), (10, 4), (13, 5)])
def test_budget_is_exact(win_net, simulations, batch):
    agent = NetSearchAgent(win_net, simulations=simulations, batch=batch)
    result = agent.search(midgame(), np.random.default_rng(0))
    assert result.simulations == simulations == int(result.visits.sum())
    assert agent.stats["simulations"] == simulations
    assert 0.0 <= result.value <= 1.0
    legal = midgame().legal_actions()
    assert set(np.flatnonzero(result.visits)) <= set(legal)


def test_seconds_budget_stops_the_search(win_net):
    agent = NetSearchAgent(win_net, simulations=10_000_000, seconds=0.05, batch=4)
    result = agent.search(midgame(), np.random.default_rng(0))
    assert 4 <= result.simulations < 10_000_000


def test_twin_deals_give_the_same_decision(win_net):
    """Two states with the same public history, differing only in the hidden cards and
    the undrawn flood order (R9), get the same search for the same generator."""
    state = midgame()
    hidden = [p for p in range(N_PLACES) if state.status[p] == HIDDEN]
    cards = [state.card[p] for p in hidden]
    assert len(hidden) > 2 and len(state.row_deck) > 1
    # with_hidden takes the decks next card first; the engine keeps them next card last
    twin = state.with_hidden(cards[1:] + cards[:1], state.col_deck[::-1], state.row_deck)
    assert twin.card != state.card and twin.row_deck != state.row_deck
    for kwargs in ({}, {"rollout_depth": 4, "heuristic_prior": 0.3, "dirichlet_alpha": 0.3}):
        agent = NetSearchAgent(win_net, simulations=24, batch=4, **kwargs)
        a = agent.search(state, np.random.default_rng(9))
        b = agent.search(twin, np.random.default_rng(9))
        assert np.array_equal(a.visits, b.visits) and a.value == b.value


def test_puct_prefers_prior_then_value():
    node = Node()
    node.prior = [0.0] * A.N_ACTIONS
    node.prior[1], node.prior[2] = 0.7, 0.3
    node.visits = 1
    assert puct_select(node, [1, 2], c_puct=1.0) == 1  # unvisited: the higher prior
    # action 1 visited 3 times and always lost, action 2 never: exploration moves on
    node.n[1], node.w[1], node.visits = 3, 0.0, 4
    node.total = 0.5
    assert puct_select(node, [1, 2], c_puct=1.0) == 2
    # action 1 wins every time: Q = 1 + 0.5 * 0.7 * 2 / 4 beats 0.75 + 0.5 * 0.3 * 2 / 1
    node.w[1], node.total = 3.0, 3.0
    assert puct_select(node, [1, 2], c_puct=0.5) == 1
    # an action that was not legal when the node was expanded gets the prior 1 / #legal
    assert puct_select(node, [5, 2], c_puct=1.0) == 5


def test_one_legal_action_is_immediate(win_net):
    """A figure in a corner cut off by sea with one action left can only end its turn."""
    g = Game(STANDARD).put(0, 1, 1).sink((2, 1), (1, 2))
    g.s.actions_left = 1
    assert g.legal() == {"end_turn"}
    agent = NetSearchAgent(win_net, simulations=50)
    assert agent.act(g.s, np.random.default_rng(0)) == A.END_TURN
    assert agent.stats["searched"] == 0 and agent._policy is None  # no network loaded


def test_evaluate_command_runs_netsearch(win_net, capsys):
    from inselflucht_env.cli.evaluate import main

    main(
        [
            "--agent",
            f"netsearch:{win_net}",
            "--simulations",
            "2",
            "--episodes",
            "1",
            "--meter",
            "schwer",
            "--workers",
            "1",
            "--no-progress",
            "--json",
        ]
    )
    summary = json.loads(capsys.readouterr().out)
    assert summary["episodes"] == 1 and summary["agent_kwargs"] == {"simulations": 2}


def test_evaluate_command_passes_the_search_options_to_netsearch(win_net, capsys):
    from inselflucht_env.cli.evaluate import main

    flags = ["--simulations", "2", "--c-puct", "2.5", "--heuristic-prior", "0.5"]
    flags += ["--rollout-depth", "3", "--episodes", "1", "--workers", "1"]
    main(["--agent", f"netsearch:{win_net}", *flags, "--no-progress", "--json"])
    summary = json.loads(capsys.readouterr().out)
    assert summary["agent_kwargs"] == {
        "simulations": 2,
        "c_puct": 2.5,
        "heuristic_prior": 0.5,
        "rollout_depth": 3,
    }


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--agent", "search", "--c-puct", "2"], "takes none of ['--c-puct']"),
        (["--agent", "netsearch:x", "--c-puct", "0"], "must be a finite number > 0"),
        (["--agent", "netsearch:x", "--heuristic-prior", "1.5"], "within [0, 1]"),
    ],
)
def test_evaluate_command_refuses_a_bad_netsearch_option(flags, message, capsys):
    from inselflucht_env.cli.evaluate import main

    with pytest.raises(SystemExit) as err:
        main([*flags, "--episodes", "1", "--no-progress"])
    assert err.value.code == 2 and message in capsys.readouterr().err


def test_centred_board_puts_the_decider_in_the_middle():
    """``centred_cnn`` moves the grid onto a 9 x 9 canvas centred on the deciding figure."""
    import torch

    from inselflucht_env.games.inselflucht.observation import encode_observation
    from inselflucht_env.learned.network import _DECIDER_PLANE, N_PLANES

    g = Game(STANDARD).put(0, 1, 1)  # the decider in the top left corner, (1, 1)
    network = build_policy(
        NetworkSpec(OBSERVATION_SIZE, "centred_cnn", 4, 8, (8,), value="win_probability")
    )
    obs = torch.as_tensor(encode_observation(g.s))[None]
    grid = network.features_extractor.grid(obs)[0]
    assert grid.shape == (N_PLANES + 1, 9, 9)
    assert grid[_DECIDER_PLANE, 4, 4] == 1 and grid[_DECIDER_PLANE].sum() == 1
    assert grid[-1, :4].sum() == 36 and grid[-1, 4:, :4].sum() == 20  # off the grid
    assert grid[-1, 4:, 4:].sum() == 0  # the grid itself: rows and columns 1-5
    plain = build_policy(NetworkSpec(OBSERVATION_SIZE, "board_cnn", 4, 8, (8,)))
    assert torch.equal(grid[:N_PLANES, 4:, 4:], plain.features_extractor.grid(obs)[0])
