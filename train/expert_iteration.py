"""Expert iteration: a policy-value network trained on the choices of a search it guides.

    python -m train.expert_iteration --config configs/exit_2p_normal.yaml [--set key=value]
    python -m train.expert_iteration --resume runs/exit_4p_normal-<stamp> [--set key=value]

The expert is ``inselflucht_env.learned.netsearch`` (determinized PUCT over the network's
prior, optionally mixed with the heuristic's choice, ``search.heuristic_prior``; the value
head at the leaves); the apprentice is the network (Anthony et al. 2017, "Thinking fast
and slow"; AlphaZero's loop). Read top to bottom: config -> run folder ->
network -> worker pool -> warm start (iteration 0) -> per iteration: self-play, train,
checkpoint, evaluate, save the resumable state.

* **Warm start** (iteration 0): ``warm_start.games`` games of a teacher (the heuristic),
  its choices as one-hot policy targets and the outcomes as value targets, cloned for
  ``warm_start.epochs`` passes. Plain observation, no advice. The network starts from
  random weights, or from the checkpoint ``warm_start.init`` (the same network, trained on
  another setting: the observation is the same for every player count).
* **DAgger rounds** (iterations 1 .. ``warm_start.dagger_iterations``): the raw network
  plays ``warm_start.dagger_games`` games alone and the teacher labels every decision
  (Ross et al. 2011): a clone that only ever saw the teacher's states drifts off them and
  walks in circles; these rounds teach it the way back from its own mistakes.
* **Self-play** (the iterations after those): ``self_play.games`` games of the search guided by
  the previous iteration's network, in ``self_play.workers`` processes with one torch
  thread each; root Dirichlet noise, and the first ``search.sample_decisions`` decisions
  of a game sampled from the visit counts (the rest take the most visited action). With
  ``self_play.network_moves`` a share of the decisions plays the raw network's own choice
  instead, still labelled by the search (DAgger, Ross et al. 2011): a network that only
  ever saw the expert's states drifts off them when it plays alone. Each decision with
  more than one legal action becomes a sample: the observation of the deciding seat, the
  legal mask, the root visit distribution and the root value. ``self_play.expert`` may
  instead name a fixed teacher (``heuristic``, or ``search``: the plain rollout search with
  ``search.simulations`` rollouts): its choice is the one-hot target and the outcome the
  value target. With ``network_moves: 1`` that is DAgger proper: the network plays every
  decision, the teacher only labels them. ``anchored_search`` labels with the network's
  own choice unless the compiled search beats it on its paired test
  (``CompiledSearch.improve``): an improvement of the network's policy, where ``search``
  replaces it with the heuristic's wherever no candidate clearly beats the heuristic.
  ``self_play/overruled`` logs the share of decisions where the search beat the network.
* **Training**: ``train.steps`` minibatches from the replay window plus the new samples
  (afterwards the window keeps the newest ``train.replay_samples``; the warm start's data
  trains in full, then drops out as self-play data comes in) with

      loss = CE(visits, masked softmax(logits)) + value_coef * (v - z')^2,
      z' = (1 - value_mix) * outcome + value_mix * root value,

  ``outcome`` 1 for a won game and 0 for a lost one, the same for every seat (the game is
  cooperative). AdamW with ``weight_decay`` and gradient clipping.
* **Schedule**: ``schedule.changes`` sets keys from a given iteration on (the step size,
  the steps, the replay window, the rounds, the expert ...). ``--resume RUN --set ...`` of
  such a key is recorded there as a change from the next iteration, so the run folder's
  ``config.yaml`` is its whole recipe, and a config with that schedule trains the same
  network from scratch, bit for bit on the same machine and thread count.
* **Evaluation** after every iteration on fixed seeds: the raw network (argmax of the
  policy, ``checkpoint`` agent) on ``eval.network_games`` games, the guided search on
  ``eval.search_games``, exactly as ``python -m train.evaluate --seed 11000000`` plays them.
  Before a round trains, ``held_out/*`` scores the network that played it on the round's
  new samples (loss, agreement with the targets): the window's training loss also falls by
  memorising, this one only by what carries over to states not yet trained on.

Deal seeds: the blocks of ``train/seeds.py`` (warm start 10,000,000 + i, evaluation after
every iteration 11,000,000 + i, self-play 20,000,000 + 100,000 * iteration + i), apart from
the report seeds and every other job's.

The search's own generator in self-play is ``default_rng([deal seed, SEARCH_STREAM,
train.seed])``; minibatches come from ``torch.Generator`` seeded by ``train.seed`` and the
iteration, so a resumed run continues exactly as an uninterrupted one.

The run folder ``runs/<name>-<stamp>/`` holds ``config.yaml`` (resolved), ``tb/``
(TensorBoard), ``iterations/iter_NNNN/`` (a checkpoint per iteration, the format of
``inselflucht_env.learned.checkpoint``), ``best/`` (best raw-network evaluation win rate),
``state-NNNN/`` (network + optimiser checkpoint and ``replay.npz``, plain arrays read with
``allow_pickle=False``) and ``progress.json`` (the last finished iteration, the state
folder, the best score and the history). ``--resume`` reads them; no file is unpickled.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import shutil
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import torch
import yaml
from torch import nn
from torch.utils.tensorboard import SummaryWriter
from tqdm import tqdm

from inselflucht_env.agents import make_agent
from inselflucht_env.compiled.search import CompiledSearch
from inselflucht_env.evaluation import play_episode, summarize
from inselflucht_env.games.inselflucht.observation import OBSERVATION_SIZE, encode_observation
from inselflucht_env.games.inselflucht.rules.actions import N_ACTIONS
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from inselflucht_env.games.inselflucht.rules.engine import State
from inselflucht_env.learned.checkpoint import (
    CheckpointError,
    load_network,
    load_optimizer,
    save_checkpoint,
)
from inselflucht_env.learned.netsearch import NetSearchAgent
from inselflucht_env.learned.network import NetworkSpec, build_policy, policy_value
from inselflucht_env.learned.policy import (
    Policy,
    estimates_win_probability,
    load_policy,
    trained_reward,
)
from train import exit_config
from train.config import add_config_arguments
from train.grow import grown
from train.json_file import write_json
from train.pretrain import make_teacher
from train.seeds import EXIT_EVAL_SEEDS, SEEDS_PER_ITERATION, SELF_PLAY_SEEDS, WARM_START_SEEDS

SEARCH_STREAM = 0x5E1F_5EA7
OBS_SCALE = 60  # every observation entry is a multiple of 1/60: stored exactly as uint8
SAMPLE_FIELDS = ("obs", "mask", "target", "outcome", "root_value")
HELD_OUT_SAMPLES = 20_000  # of each round's new samples, for the held-out losses
SEARCH_KEYS = (  # the search section's keys that the self-play search takes
    "simulations",
    "c_puct",
    "batch",
    "dirichlet_alpha",
    "noise_fraction",
    "heuristic_prior",
    "rollout_depth",
)


# ----------------------------------------------------------------------- samples, replay
def _samples(
    obs: list, masks: list, targets: list, root_values: list, outcome: float
) -> dict[str, np.ndarray]:
    """One game's decisions as arrays (observations quantised to uint8, exactly)."""
    scaled = np.asarray(obs, dtype=np.float32).reshape(-1, OBSERVATION_SIZE) * OBS_SCALE
    quantised = np.rint(scaled)
    if np.abs(scaled - quantised).max(initial=0.0) > 1e-3:
        raise ValueError(f"an observation entry is not a multiple of 1/{OBS_SCALE}")
    n = len(quantised)
    return {
        "obs": quantised.astype(np.uint8),
        "mask": np.asarray(masks, dtype=bool).reshape(n, N_ACTIONS),
        "target": np.asarray(targets, dtype=np.float16).reshape(n, N_ACTIONS),
        "outcome": np.full(n, outcome, dtype=np.float32),
        "root_value": np.asarray(root_values, dtype=np.float32).reshape(n),
    }


def _concat(parts: Iterable[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    parts = list(parts)
    return {k: np.concatenate([p[k] for p in parts]) for k in SAMPLE_FIELDS}


def trim(replay: dict[str, np.ndarray], limit: int) -> dict[str, np.ndarray]:
    """The newest ``limit`` samples of the replay window."""
    return {k: v[-limit:] for k, v in replay.items()}


def save_replay(replay: dict[str, np.ndarray], path: Path) -> None:
    arrays: dict[str, Any] = dict(replay)  # numpy's stub would match allow_pickle by name
    np.savez(path, **arrays)


def load_replay(path: Path) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as data:
        return {k: data[k] for k in SAMPLE_FIELDS}


# ----------------------------------------------------------------------- worker side
_POLICIES: dict[str, Policy] = {}


def _init_worker() -> None:
    torch.set_num_threads(1)


def _policy(folder: str) -> Policy:
    """The network of a checkpoint folder, loaded once per process (folders never change)."""
    if folder not in _POLICIES:
        _POLICIES.clear()
        _POLICIES[folder] = load_policy(folder)
    return _POLICIES[folder]


class _Label(NamedTuple):
    """The expert's answer at one decision: a distribution over the actions, a value (NaN
    when the expert gives none: the game's outcome stands in), the action it plays and the
    network's own choice where the expert asked the network (-1 where it did not)."""

    target: np.ndarray
    value: float
    best: int
    network: int = -1


_Labeller = Callable[[State, np.random.Generator, np.ndarray, np.ndarray], _Label]
"""A labelling function: the state, the search's generator, its encoded observation and
legal mask (encoded once by ``self_play``, which stores them)."""


def _expert(name: str, policy: Policy, search_kw: dict) -> _Labeller:
    """The labelling function of ``self_play.expert``: the guided search's visit counts, a
    fixed agent's choice as a one-hot target (DAgger with that agent as the teacher), or the
    network's own choice unless the compiled search beats it (``anchored_search``)."""
    if name == "netsearch":
        agent = NetSearchAgent(policy, **search_kw)

        def searched(
            state: State, rng: np.random.Generator, obs: np.ndarray, mask: np.ndarray
        ) -> _Label:
            result = agent.search(state, rng)
            return _Label(result.visits / result.visits.sum(), result.value, result.best())

        return searched
    one_hot = np.eye(N_ACTIONS, dtype=np.float32)
    if name == "anchored_search":
        improver = CompiledSearch(simulations=search_kw["simulations"])

        def improved(
            state: State, rng: np.random.Generator, obs: np.ndarray, mask: np.ndarray
        ) -> _Label:
            own = policy.predict_action(obs, mask)
            action = improver.improve(state, rng, own)
            return _Label(one_hot[action], math.nan, action, own)

        return improved
    teacher = make_teacher(name, search_kw["simulations"])

    def chosen(state: State, rng: np.random.Generator, obs: np.ndarray, mask: np.ndarray) -> _Label:
        action = teacher.act(state, rng)
        return _Label(one_hot[action], math.nan, action)

    return chosen


def self_play(job: tuple[str, dict, str, dict, int, float, int, list[int]]) -> dict[str, Any]:
    """Games on ``seeds`` labelled by the expert (``_expert``): samples and statistics."""
    folder, game, expert, search_kw, sample_decisions, network_moves, train_seed, seeds = job
    config = GameConfig.make(**game)
    policy = _policy(folder)
    label = _expert(expert, policy, search_kw)
    parts, wins, entropy, seconds, searched, overruled = [], 0, 0.0, 0.0, 0, 0
    for seed in seeds:
        deal_rng = np.random.default_rng(seed)
        rng = np.random.default_rng([seed, SEARCH_STREAM, train_seed])
        state = State.new(config, deal_rng)
        obs, masks, targets, values = [], [], [], []
        while state.outcome is None:
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply(legal[0], deal_rng)
                continue
            obs.append(encode_observation(state))
            masks.append(np.asarray(state.legal_mask()))
            started = time.perf_counter()
            result = label(state, rng, obs[-1], masks[-1])
            seconds += time.perf_counter() - started
            searched += 1
            overruled += int(0 <= result.network != result.best)
            targets.append(result.target)
            values.append(result.value)
            nz = result.target[result.target > 0]
            entropy -= float((nz * np.log(nz)).sum())
            if network_moves and rng.random() < network_moves:
                action = result.network
                if action < 0:
                    action = policy.predict_action(obs[-1], masks[-1])
            elif len(obs) <= sample_decisions:
                action = int(rng.choice(N_ACTIONS, p=result.target))
            else:
                action = result.best
            state.apply(action, deal_rng)
        won = float(state.outcome == "win")
        wins += int(won)
        values = [won if math.isnan(v) else v for v in values]
        parts.append(_samples(obs, masks, targets, values, won))
    return {
        "samples": _concat(parts),
        "games": len(seeds),
        "wins": wins,
        "entropy_sum": entropy,
        "seconds": seconds,
        "searched": searched,
        "overruled": overruled,
    }


def teacher_games(job: tuple[str, dict, list[int]]) -> dict[str, Any]:
    """Games of a teacher agent: its choices as one-hot targets, the outcome as value."""
    teacher, game, seeds = job
    config = GameConfig.make(**game)
    agent = make_teacher(teacher)
    parts, wins = [], 0
    for seed in seeds:
        deal_rng = np.random.default_rng(seed)
        rng = np.random.default_rng([seed, SEARCH_STREAM])
        state = State.new(config, deal_rng)
        obs, masks, targets = [], [], []
        while state.outcome is None:
            legal = state.legal_actions()
            action = agent.act(state, rng)
            if len(legal) > 1:
                obs.append(encode_observation(state))
                masks.append(state.legal_mask())
                targets.append(np.eye(N_ACTIONS, dtype=np.float32)[action])
            state.apply(action, deal_rng)
        won = state.outcome == "win"
        wins += won
        parts.append(_samples(obs, masks, targets, [float(won)] * len(obs), float(won)))
    return {"samples": _concat(parts), "games": len(seeds), "wins": wins}


def evaluation_games(job: tuple[str, dict, dict, list[int]]) -> list:
    """Harness episodes (``inselflucht_env.evaluation.harness.play_episode``) of an agent spec."""
    spec, kwargs, game, seeds = job
    agent = make_agent(spec, **kwargs)
    config = GameConfig.make(**game)
    return [play_episode(agent, config, s) for s in seeds]


# ----------------------------------------------------------------------- main side
def run_jobs(pool, fn: Callable, jobs: list[tuple[Any, ...]], desc: str) -> list:
    """``fn`` over ``jobs`` in the pool (in this process without one), with a progress bar
    counting the games (every job's last element is its list of seeds)."""
    out = []
    with tqdm(
        total=sum(len(j[-1]) for j in jobs), desc=desc, unit="game", dynamic_ncols=True, leave=False
    ) as bar:
        results = pool.imap(fn, jobs) if pool is not None else map(fn, jobs)
        for job, result in zip(jobs, results):
            out.append(result)
            bar.update(len(job[-1]))
    return out


def _chunks(seeds: list[int], workers: int) -> list[list[int]]:
    size = max(1, math.ceil(len(seeds) / (workers * 4)))
    return [seeds[i : i + size] for i in range(0, len(seeds), size)]


class _Losses(NamedTuple):
    policy: torch.Tensor  # mean cross-entropy against the targets
    value: torch.Tensor  # mean squared error against z'
    log_p: torch.Tensor  # the masked log-policy of every sample
    target: torch.Tensor  # the normalised targets


def _losses(network, replay: dict[str, np.ndarray], idx: np.ndarray, tr: dict) -> _Losses:
    """The loss in the module docstring on the samples ``idx`` of ``replay``."""
    obs = torch.from_numpy(replay["obs"][idx].astype(np.float32) / OBS_SCALE)
    mask = torch.from_numpy(replay["mask"][idx])
    target = torch.from_numpy(replay["target"][idx].astype(np.float32))
    target = target / target.sum(1, keepdim=True)
    z = torch.from_numpy(
        (1 - tr["value_mix"]) * replay["outcome"][idx] + tr["value_mix"] * replay["root_value"][idx]
    )
    logits, values = policy_value(network, obs)
    log_p = torch.log_softmax(logits.masked_fill(~mask, -1e9), dim=1)
    policy_loss = -(target * log_p).sum(1).mean()
    return _Losses(policy_loss, torch.nn.functional.mse_loss(values, z), log_p, target)


def train_network(
    network,
    optimizer: torch.optim.Optimizer,
    replay: dict[str, np.ndarray],
    steps: int,
    tr: dict[str, Any],
    generator: torch.Generator,
) -> dict[str, float]:
    """``steps`` minibatches of the loss in the module docstring; mean losses."""
    network.set_training_mode(True)
    n = len(replay["outcome"])
    totals = {"policy_loss": 0.0, "value_loss": 0.0, "target_entropy": 0.0}
    for _ in tqdm(range(steps), desc="training", unit="step", dynamic_ncols=True, leave=False):
        idx = torch.randint(n, (min(tr["batch_size"], n),), generator=generator).numpy()
        loss = _losses(network, replay, idx, tr)
        optimizer.zero_grad()
        (loss.policy + tr["value_coef"] * loss.value).backward()
        torch.nn.utils.clip_grad_norm_(network.parameters(), tr["max_grad_norm"])
        optimizer.step()
        with torch.no_grad():
            t_log = torch.log(loss.target.clamp_min(1e-12))
            totals["target_entropy"] += float(-(loss.target * t_log).sum(1).mean())
        totals["policy_loss"] += float(loss.policy.detach())
        totals["value_loss"] += float(loss.value.detach())
    network.set_training_mode(False)
    return {k: v / steps for k, v in totals.items()}


def held_out_losses(
    network, new: dict[str, np.ndarray], tr: dict[str, Any], limit: int = HELD_OUT_SAMPLES
) -> dict[str, float]:
    """The network's losses on this round's samples before it trains on them, and how often
    its argmax is the target's: the loss on the replay window falls also by memorising it,
    this one only by learning what carries over to the states the next games reach. At most
    ``limit`` evenly spaced samples (no random draw: the run stays reproducible)."""
    n = len(new["outcome"])
    idx = np.unique(np.linspace(0, n - 1, min(n, limit)).astype(np.int64))
    with torch.no_grad():
        loss = _losses(network, new, idx, tr)
    agree = (loss.log_p.argmax(1) == loss.target.argmax(1)).float().mean()
    return {
        "policy_loss": float(loss.policy),
        "value_loss": float(loss.value),
        "agreement": float(agree),
    }


def evaluate_iteration(pool, folder: Path, conf: dict[str, Any], workers: int) -> dict:
    """Win rates of the raw network and of the guided search on the evaluation seeds."""
    ev, se = conf["eval"], conf["search"]
    search_kw = {
        "simulations": ev["search_simulations"],
        **{k: se[k] for k in ("c_puct", "batch", "heuristic_prior", "rollout_depth")},
    }
    results = {}
    for key, spec, kwargs, games in (
        ("network", str(folder), {}, ev["network_games"]),
        ("search", f"netsearch:{folder}", search_kw, ev["search_games"]),
    ):
        if not games:
            continue
        seeds = list(range(EXIT_EVAL_SEEDS, EXIT_EVAL_SEEDS + games))
        started = time.perf_counter()
        jobs = [(spec, kwargs, conf["env"], chunk) for chunk in _chunks(seeds, workers)]
        episodes = [
            e for part in run_jobs(pool, evaluation_games, jobs, f"eval {key}") for e in part
        ]
        results[key] = summarize(episodes, time.perf_counter() - started)
    return results


def network_spec(net: dict[str, Any]) -> NetworkSpec:
    """The network a config's (validated) ``network`` section describes."""
    try:
        return NetworkSpec(
            OBSERVATION_SIZE,
            net["features"],
            net["cnn_channels"],
            net["features_dim"],
            tuple(net["net_arch"]),
            "win_probability",
            net["cnn_layers"],
            net.get("way_planes", False),  # distillations planned before the key
        )
    except ValueError as err:
        raise exit_config.ConfigError(f"network: {err}") from None


def initial_network(spec: NetworkSpec, init: str) -> nn.Module:
    """The network a run starts from: random weights (torch's seed), or the weights of the
    checkpoint folder ``init``: its network, or that network grown into ``spec``
    (``train.grow``: wider, deeper, with way planes) when the config asks for more."""
    if not init:
        return build_policy(spec)
    try:
        network, found, meta = load_network(init)
    except CheckpointError as err:
        raise exit_config.ConfigError(f"warm_start.init: {err}") from None
    if found.value != spec.value:
        found = replace(found, value=_value_kind_of(init, found, meta, spec.value))
    if found == spec:
        return network
    try:
        return grown(network, found, spec)
    except exit_config.ConfigError as err:
        raise exit_config.ConfigError(
            f"warm_start.init {init!r} holds a different network than the config's network "
            f"section: {err}"
        ) from None


def _value_kind_of(init: str, found: NetworkSpec, meta: dict, wanted: str) -> str:
    """``wanted`` if the value head of checkpoint ``init`` estimates it: a PPO network
    trained on the win reward (1 for a win, else 0) with gamma 1 estimates the team's win
    probability, as expert iteration's value head does. Any other kind is an error."""
    if wanted == "win_probability" and estimates_win_probability(meta):
        return wanted
    reward, gamma = trained_reward(meta)
    raise exit_config.ConfigError(
        f"warm_start.init {init!r}: its value head estimates {found.value!r} "
        f"(env.reward {reward!r}, ppo.gamma {gamma!r}), not {wanted!r}; only a PPO network "
        "of the win reward with gamma 1 estimates a win probability"
    )


def iteration_folder(run_dir: Path, iteration: int) -> Path:
    """The checkpoint folder of one iteration of a run."""
    return run_dir / "iterations" / f"iter_{iteration:04d}"


def main(argv: list[str] | None = None) -> Path:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_config_arguments(
        parser,
        "configs/experiments/exit_4p_normal.yaml",
        "train.iterations=40",
        "train/exit_config.py",
    )
    parser.add_argument("--resume", metavar="RUN_FOLDER", help="continue this run")
    args = parser.parse_args(argv)

    # 1. Configuration and run folder (a resumed run keeps its folder and its config).
    if args.resume:
        run_dir = Path(args.resume)
        progress_file = run_dir / "progress.json"
        if not progress_file.is_file():
            raise exit_config.ConfigError(f"--resume {args.resume!r}: no progress.json there")
        progress = json.loads(progress_file.read_text())
        stored = yaml.safe_load((run_dir / "config.yaml").read_text())
        conf = exit_config.resumed(
            stored, args.overrides, progress["iteration"] + 1, str(run_dir / "config.yaml")
        )
    else:
        conf = exit_config.load(args.config, args.overrides)
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        run_dir = Path(conf["output"]["run_dir"]) / f"{conf['output']['name']}-{stamp}"
        progress = {"iteration": -1, "state": None, "best": None, "history": []}
    game, tr = conf["env"], conf["train"]  # what a schedule cannot change

    # 2. Network and optimiser: fresh, or the saved state of the last finished iteration
    # (before the run folder exists: a bad warm_start.init leaves no folder behind).
    torch.set_num_threads(tr["torch_threads"])
    torch.manual_seed(tr["seed"])
    spec = network_spec(conf["network"])
    if progress["state"]:
        state_dir = run_dir / progress["state"]
        network, spec, _ = load_network(state_dir / "network")
        replay = load_replay(state_dir / "replay.npz")
    else:
        network = initial_network(spec, conf["warm_start"]["init"])
        replay = _samples([], [], [], [], 0.0)  # empty: the warm start fills it
    run_dir.mkdir(parents=True, exist_ok=bool(args.resume))
    (run_dir / "config.yaml").write_text(yaml.safe_dump(conf, sort_keys=False))
    print(f"run folder: {run_dir}", flush=True)
    optimizer = torch.optim.AdamW(
        network.parameters(), lr=tr["learning_rate"], weight_decay=tr["weight_decay"]
    )
    if progress["state"]:
        load_optimizer(optimizer, run_dir / progress["state"] / "network")

    # 3. Worker processes (spawned: no torch state is forked), TensorBoard.
    workers = conf["self_play"]["workers"]
    pool = mp.get_context("spawn").Pool(workers, _init_worker) if workers > 1 else None
    writer = SummaryWriter(str(run_dir / "tb"))
    try:
        for iteration in range(progress["iteration"] + 1, tr["iterations"] + 1):
            started = time.perf_counter()
            generator = torch.Generator().manual_seed(tr["seed"] * 1_000_003 + iteration)
            scalars: dict[str, float] = {}
            # This iteration's keys: the config with its schedule's changes so far (a
            # --set on resume is one); the optimiser takes the step size and decay they give.
            now = exit_config.at_iteration(conf, iteration)
            se, sp, ws, tr_now = (now[k] for k in ("search", "self_play", "warm_start", "train"))
            for group in optimizer.param_groups:
                group.update(lr=tr_now["learning_rate"], weight_decay=tr_now["weight_decay"])
            search_kw = {k: se[k] for k in SEARCH_KEYS}

            # 4. Data: the teacher's games (iteration 0) or self-play of the last network.
            jobs: list[tuple[Any, ...]]
            if iteration == 0:
                seeds = list(range(WARM_START_SEEDS, WARM_START_SEEDS + ws["games"]))
                jobs = [(ws["teacher"], game, chunk) for chunk in _chunks(seeds, workers)]
                parts = run_jobs(pool, teacher_games, jobs, f"warm start ({ws['teacher']})")
            else:
                dagger = iteration <= ws["dagger_iterations"]
                expert, network_moves, n_games = (
                    (ws["teacher"], 1.0, ws["dagger_games"])
                    if dagger
                    else (sp["expert"], sp["network_moves"], sp["games"])
                )
                start = SELF_PLAY_SEEDS + SEEDS_PER_ITERATION * iteration
                seeds = list(range(start, start + n_games))
                previous = str(iteration_folder(run_dir, iteration - 1))
                jobs = [
                    (
                        previous,
                        game,
                        expert,
                        search_kw,
                        se["sample_decisions"],
                        network_moves,
                        tr["seed"],
                        chunk,
                    )
                    for chunk in _chunks(seeds, workers)
                ]
                parts = run_jobs(pool, self_play, jobs, f"iteration {iteration} self-play")
                searched = sum(p["searched"] for p in parts)
                scalars["self_play/visit_entropy"] = sum(p["entropy_sum"] for p in parts) / max(
                    1, searched
                )
                scalars["self_play/ms_per_decision"] = (
                    1000 * sum(p["seconds"] for p in parts) / max(1, searched)
                )
                if expert == "anchored_search":  # how often the search beat the network
                    overruled = sum(p["overruled"] for p in parts)
                    scalars["self_play/overruled"] = overruled / max(1, searched)
            play_seconds = time.perf_counter() - started
            games = sum(p["games"] for p in parts)
            if games:
                new = _concat(p["samples"] for p in parts)
                replay = _concat([replay, new])
                scalars["self_play/games"] = games
                scalars["self_play/win_rate"] = sum(p["wins"] for p in parts) / games
                scalars["self_play/games_per_second"] = games / play_seconds
                scalars["self_play/samples"] = len(new["outcome"])
                if iteration:  # iteration 0's network never played: nothing is held out
                    held_out = held_out_losses(network, new, tr_now)
                    scalars.update({f"held_out/{k}": v for k, v in held_out.items()})
            scalars["replay/samples"] = len(replay["outcome"])

            # 5. Train on the replay window.
            if len(replay["outcome"]):  # none with warm_start.games 0 at iteration 0
                steps = (
                    tr_now["steps"]
                    if iteration
                    else max(1, ws["epochs"] * len(replay["outcome"]) // tr_now["batch_size"])
                )
                train_started = time.perf_counter()
                losses = train_network(network, optimizer, replay, steps, tr_now, generator)
                scalars.update({f"train/{k}": v for k, v in losses.items()})
                scalars["train/seconds"] = time.perf_counter() - train_started
                replay = trim(replay, tr_now["replay_samples"])

            # 6. Checkpoint of this iteration, its evaluation, best/ by the raw network.
            folder = iteration_folder(run_dir, iteration)
            meta = {"config": conf, "iteration": iteration, "trainer": "expert_iteration"}
            save_checkpoint(network, folder, spec, meta)
            results = evaluate_iteration(pool, folder, now, workers)
            for key, summary in results.items():
                scalars[f"eval/{key}_win_rate"] = summary["win_rate"]
                scalars[f"eval/{key}_ms_per_decision"] = (
                    1000 * summary["agent_seconds_per_decision"]
                )
            save_checkpoint(network, folder, spec, {**meta, "evaluation": results})
            score = results.get("network", {}).get("win_rate")
            if score is not None and (progress["best"] is None or score > progress["best"]):
                progress["best"] = score
                save_checkpoint(network, run_dir / "best", spec, {**meta, "evaluation": results})
            scalars["time/iteration_seconds"] = time.perf_counter() - started
            for key, value in scalars.items():
                writer.add_scalar(key, value, iteration)
            writer.flush()

            # 7. Resumable state: network + optimiser, replay window, then progress.json.
            state_name = f"state-{iteration:04d}"
            save_checkpoint(
                network, run_dir / state_name / "network", spec, meta, optimizer=optimizer
            )
            save_replay(replay, run_dir / state_name / "replay.npz")
            old_state = progress["state"]
            progress.update(iteration=iteration, state=state_name)
            progress["history"].append(
                {"iteration": iteration, **{k: round(v, 5) for k, v in scalars.items()}}
            )
            write_json(run_dir / "progress.json", progress)
            if old_state and old_state != state_name:
                shutil.rmtree(run_dir / old_state, ignore_errors=True)
            line = ", ".join(f"{k} {v:.4g}" for k, v in scalars.items())
            print(f"iteration {iteration}: {line}", flush=True)
    finally:
        writer.close()
        if pool is not None:
            pool.close()
            pool.join()
    return run_dir


if __name__ == "__main__":
    try:
        main()
    except exit_config.ConfigError as err:  # a bad config or --resume: one line, exit 2
        raise SystemExit(f"error: {err}") from None
