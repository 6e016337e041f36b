"""Behaviour cloning and DAgger: start PPO from a policy that imitates a teacher agent.

Sparse wins over a 22-turn horizon are a hard start for PPO from random weights, so the
``pretrain`` config section can first fit the policy to a teacher (the heuristic): the
actor by masked cross-entropy on the teacher's decisions, the critic on the discounted
returns of the teacher's games under the training reward. A cloned policy drifts into
states the teacher never visits, so DAgger rounds then play the *student* and label the
states it reaches with the teacher's choice (Ross et al., 2011). PPO then fine-tunes.
Switch it off with ``pretrain.games: 0``.

The DAgger labels may come from another, stronger agent (``pretrain.dagger_teacher``): the
search agent is too slow to play thousands of games, but labelling a few hundred student
games is affordable. With ``policy.advice: heuristic`` the observation holds the heuristic's
choice, so cloning the heuristic is nearly exact and the search labels teach where to
deviate from it.
"""

from __future__ import annotations

import multiprocessing as mp
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch

from inselflucht_env.agents import make_agent
from inselflucht_env.envs.advice import AdviceWrapper
from inselflucht_env.learned.checkpoint import save_checkpoint
from inselflucht_env.learned.network import NetworkSpec
from inselflucht_env.learned.policy import load_policy
from train.seeds import TEACHER_SEEDS

# Each game's env id (the module path also works in subprocesses); ``train.train`` uses it too.
ENV_IDS = {
    "inselflucht": "inselflucht_env:Inselflucht-v0",
    "forbidden_island": "inselflucht_env:ForbiddenIsland-v0",
}


def _game(env_kwargs: dict) -> str:
    """The game an env section names (``game``; Inselflucht when absent)."""
    return env_kwargs.get("game", "inselflucht")


def make_env(env_kwargs: dict, advice: str = "none"):
    """The training environment of the game ``env_kwargs`` names, with the advice appended
    if any (Inselflucht only)."""
    kwargs = {k: v for k, v in env_kwargs.items() if k != "game"}
    env = gym.make(ENV_IDS[_game(env_kwargs)], **kwargs).unwrapped
    return env if advice == "none" else AdviceWrapper(env, advice)


def make_teacher(name: str, simulations: int | None = None, game: str = "inselflucht"):
    """The teacher agent for ``game``; the search agent without its per-decision clock, so
    that its labels depend on the seeds only, not on how busy the machine is
    (``simulations``: its rollout budget, else the agent's default)."""
    if name != "search":
        return make_agent(name, game=game)
    budget: dict[str, Any] = {} if simulations is None else {"simulations": simulations}
    return make_agent(name, game=game, seconds=1e9, **budget)


def _play(job: tuple[dict, str, str, int, int, float]) -> tuple[np.ndarray, ...]:
    """Teacher games on seeds [start, stop): observations, masks, actions, returns."""
    env_kwargs, advice, teacher, start, stop, gamma = job
    agent = make_teacher(teacher, game=_game(env_kwargs))
    env = make_env(env_kwargs, advice)
    obs_l, mask_l, act_l, ret_l = [], [], [], []
    for seed in range(start, stop):
        rng = np.random.default_rng([seed, 1])
        obs, info = env.reset(seed=seed)
        rewards = []
        done = False
        while not done:
            action = agent.act(env.unwrapped.game_state, rng)
            obs_l.append(obs)
            mask_l.append(info["action_mask"].astype(bool))
            act_l.append(action)
            obs, reward, done, _, info = env.step(action)
            rewards.append(reward)
        ret, returns = 0.0, []
        for r in reversed(rewards):
            ret = r + gamma * ret
            returns.append(ret)
        ret_l += reversed(returns)
    return (
        np.asarray(obs_l, np.float32),
        np.asarray(mask_l, bool),
        np.asarray(act_l, np.int64),
        np.asarray(ret_l, np.float32),
    )


def collect(
    env_kwargs: dict,
    advice: str,
    teacher: str,
    games: int,
    gamma: float,
    workers: int,
    seed_offset: int = TEACHER_SEEDS,
) -> tuple[np.ndarray, ...]:
    """Play ``games`` teacher games (seeds apart from evaluation seeds) in parallel."""
    chunk = max(1, games // (workers * 4))
    jobs = [
        (env_kwargs, advice, teacher, seed_offset + s, seed_offset + min(s + chunk, games), gamma)
        for s in range(0, games, chunk)
    ]
    if workers > 1:
        with mp.get_context("spawn").Pool(workers) as pool:
            parts = pool.map(_play, jobs)
    else:
        parts = [_play(job) for job in jobs]
    return tuple(np.concatenate(arrays) for arrays in zip(*parts))


def _student_games(job: tuple[str, dict, str, str, int, int]) -> tuple[np.ndarray, ...]:
    """Play the student policy on seeds [start, stop); label each state with the teacher."""
    student_path, env_kwargs, advice, teacher, start, stop = job
    torch.set_num_threads(1)
    student = load_policy(student_path)
    agent = make_teacher(teacher, game=_game(env_kwargs))
    env = make_env(env_kwargs, advice)
    obs_l, mask_l, act_l = [], [], []
    for seed in range(start, stop):
        rng = np.random.default_rng([seed, 2])
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            mask = info["action_mask"].astype(bool)
            obs_l.append(obs)
            mask_l.append(mask)
            act_l.append(agent.act(env.unwrapped.game_state, rng))
            obs, _, done, _, info = env.step(student.predict_action(obs, mask))
    return np.asarray(obs_l, np.float32), np.asarray(mask_l, bool), np.asarray(act_l, np.int64)


def dagger_round(
    network: torch.nn.Module,
    spec: NetworkSpec,
    env_kwargs: dict,
    advice: str,
    teacher: str,
    games: int,
    workers: int,
    seed_offset: int,
    scratch: Path,
) -> tuple[np.ndarray, ...]:
    """States the current student reaches in ``games`` games, with the teacher's labels.

    The student travels to the worker processes as a checkpoint folder ``scratch``."""
    save_checkpoint(
        network, scratch, spec, {"purpose": "DAgger student"}, advice, game=_game(env_kwargs)
    )
    chunk = max(1, games // (workers * 4))
    jobs = [
        (
            str(scratch),
            env_kwargs,
            advice,
            teacher,
            seed_offset + s,
            seed_offset + min(s + chunk, games),
        )
        for s in range(0, games, chunk)
    ]
    with mp.get_context("spawn").Pool(workers) as pool:
        parts = pool.map(_student_games, jobs)
    return tuple(np.concatenate(arrays) for arrays in zip(*parts))


def behaviour_clone(
    model,
    data: tuple[np.ndarray, ...],
    epochs: int,
    batch_size: int,
    learning_rate: float,
    seed: int,
    log=print,
) -> dict[str, float]:
    """Fit the actor (masked cross-entropy) and the critic (MSE to returns) of ``model``."""
    obs, masks, acts = (torch.as_tensor(a) for a in data[:3])
    returns = torch.as_tensor(data[3]) if len(data) > 3 else None  # DAgger data has none
    policy = model.policy
    optimiser = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    gen = torch.Generator().manual_seed(seed)
    n = len(acts)
    stats: dict[str, float] = {}
    policy.set_training_mode(True)
    for epoch in range(epochs):
        started = time.perf_counter()
        order = torch.randperm(n, generator=gen)
        total_nll = total_v = correct = 0.0
        for i in range(0, n, batch_size):
            idx = order[i : i + batch_size]
            values, log_prob, _ = policy.evaluate_actions(
                obs[idx], acts[idx], action_masks=masks[idx].numpy()
            )
            nll = -log_prob.mean()
            v_loss = (
                torch.nn.functional.mse_loss(values.flatten(), returns[idx])
                if returns is not None
                else torch.zeros(())
            )
            optimiser.zero_grad()
            (nll + 0.5 * v_loss).backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            optimiser.step()
            total_nll += float(nll.detach()) * len(idx)
            total_v += float(v_loss.detach()) * len(idx)
            with torch.no_grad():
                dist = policy.get_distribution(obs[idx], action_masks=masks[idx].numpy())
                correct += float((dist.distribution.probs.argmax(1) == acts[idx]).sum())
        stats = {"nll": total_nll / n, "value_mse": total_v / n, "accuracy": correct / n}
        log(
            f"behaviour cloning epoch {epoch + 1}/{epochs}: nll {stats['nll']:.3f}, "
            f"value mse {stats['value_mse']:.3f}, accuracy {stats['accuracy']:.3f} "
            f"({time.perf_counter() - started:.0f} s)"
        )
    policy.set_training_mode(False)
    return stats
