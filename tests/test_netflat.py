"""The network-judged flat search (``inselflucht_env.learned.netflat``): the plain search's
comparison of candidates in shared worlds, with rollouts cut after ``rollout_depth``
heuristic decisions and the value head scoring the world there (R9: public facts only)."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from conftest import STANDARD, Game, midgame, play_agent, tiny_win_network_spec

from inselflucht_env.agents import make_agent
from inselflucht_env.games.inselflucht.heuristic import HeuristicAgent
from inselflucht_env.games.inselflucht.rules import actions as A
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from inselflucht_env.learned import NetFlatAgent, build_policy, load_policy, save_checkpoint


def constant_value(tmp_path, value: float) -> str:
    """A network whose value head says ``value`` for every observation."""
    spec = tiny_win_network_spec()
    net = build_policy(spec)
    with torch.no_grad():
        for name, p in net.named_parameters():
            if "value" in name:
                p.zero_()
                if name.endswith("bias"):
                    p.fill_(value)
    folder = tmp_path / f"value_{value}"
    save_checkpoint(net, folder, spec, {})
    return str(folder)


def test_make_agent_builds_netflat(win_net):
    agent = make_agent(f"netflat:{win_net}", simulations=7, rollout_depth=3)
    assert isinstance(agent, NetFlatAgent)
    assert (agent.simulations, agent.rollout_depth) == (7, 3)
    with pytest.raises(ValueError, match="netflat needs a network whose value head"):
        make_agent("netflat:ppo_2p_normal")  # a PPO value head is a discounted return
    with pytest.raises(ValueError, match="rollout_depth"):
        make_agent(f"netflat:{win_net}", rollout_depth=-1)


def test_plays_legal_actions_to_the_end(win_net):
    agent = NetFlatAgent(win_net, simulations=12, probe=2, rollout_depth=2)
    play_agent(agent, GameConfig.make(players=2, meter="schwer"), 0)
    assert agent.stats["rollouts"] > 0


def test_a_cut_rollout_is_scored_by_the_value_head(tmp_path):
    """Where the game goes on after ``rollout_depth`` decisions, the score is the value
    head's (clipped to [0, 1]), not the outcome of playing on."""
    state = midgame()
    action = HeuristicAgent().act(state)
    for value, score in ((0.3, 0.3), (1.7, 1.0), (-0.5, 0.0)):
        agent = NetFlatAgent(load_policy(constant_value(tmp_path, value)), rollout_depth=2)
        assert agent._rollout(state, action, seed=5) == pytest.approx(score)
    assert state.outcome is None and state.turn == midgame().turn  # the world is untouched


def test_a_rollout_that_ends_in_time_scores_the_outcome(tmp_path):
    """A game decided within ``rollout_depth`` decisions scores 1 for a win, 0 for a loss,
    whatever the value head says (here 0.5): 400 decisions end every game (R7)."""
    agent = NetFlatAgent(load_policy(constant_value(tmp_path, 0.5)), rollout_depth=400)
    state = midgame()
    assert agent._rollout(state, HeuristicAgent().act(state), seed=5) in (0.0, 1.0)


def test_one_legal_action_is_immediate(win_net):
    """A figure in a corner cut off by sea with one action left can only end its turn."""
    g = Game(STANDARD).put(0, 1, 1).sink((2, 1), (1, 2))
    g.s.actions_left = 1
    assert g.legal() == {"end_turn"}
    agent = NetFlatAgent(win_net, simulations=50)
    assert agent.act(g.s, np.random.default_rng(0)) == A.END_TURN
    assert agent._policy is None  # no network loaded


def test_evaluate_command_passes_the_search_options_to_netflat(win_net, capsys):
    from inselflucht_env.cli.evaluate import main

    flags = ["--simulations", "6", "--probe", "2", "--max-candidates", "3"]
    flags += ["--rollout-depth", "3", "--episodes", "1", "--workers", "1"]
    main(["--agent", f"netflat:{win_net}", *flags, "--no-progress", "--json"])
    summary = json.loads(capsys.readouterr().out)
    assert summary["episodes"] == 1
    assert summary["agent_kwargs"] == {
        "simulations": 6,
        "probe": 2,
        "max_candidates": 3,
        "rollout_depth": 3,
    }


def test_evaluate_command_refuses_a_netsearch_option_for_netflat(capsys):
    from inselflucht_env.cli.evaluate import main

    with pytest.raises(SystemExit) as err:
        main(["--agent", "netflat:x", "--c-puct", "2", "--episodes", "1", "--no-progress"])
    assert err.value.code == 2 and "takes none of ['--c-puct']" in capsys.readouterr().err
