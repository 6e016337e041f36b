"""Train RLlib PPO (new API stack, action masking) on the multi-agent Inselflucht game.

    python -m train.rllib --config configs/rllib_ppo_4p_normal.yaml [--address auto]
                          [--set env_runners.num_env_runners=8 --set iterations=50]
    python -m train.rllib --config configs/rllib_smoke.yaml      # 2 short iterations
    python -m train.rllib --config ... --resume runs/<run>/checkpoints/iter_000020

Needs the ``rllib`` extra, which pins ``gymnasium==1.2.2``: use a virtualenv of its own
(docs/scaling.md). The PettingZoo env (one agent per figure) is played by one shared policy,
``inselflucht_env.learned.rllib.InselfluchtRLModule``, whose network is exactly the
``NetworkSpec`` network that ``train.train`` trains. Without ``--address`` a local Ray
starts on this machine; with it the driver joins a running cluster (``ray start --head``)
and RLlib spreads the ``env_runners`` over its CPUs.

Read top to bottom: config -> Ray -> PPOConfig -> train loop -> export. The run folder
``runs/<name>-<stamp>/`` holds the resolved ``config.yaml``, ``metrics.jsonl`` (RLlib's
result of every iteration, with ``inselflucht/win_rate``, ``loss_L1``.., ``illegal``),
RLlib's own checkpoints ``rllib/iter_<N>/`` (for RLlib's tools; RLlib's format pickles, so
nothing here ever loads one), the same moments in our safe checkpoint format
``checkpoints/iter_<N>/`` and ``final/``: ``python -m train.evaluate --agent runs/<run>/final``
plays it without RLlib, and ``--resume`` continues from such a folder (the network's weights;
the optimiser and RLlib's connector state start afresh).
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from inselflucht_env.cli.args import run
from inselflucht_env.errors import InputError
from inselflucht_env.games.inselflucht.observation import OBSERVATION_SIZE
from inselflucht_env.learned.network import NetworkSpec
from train import rllib_config as cfg
from train.config import ConfigError, add_config_arguments

RLLIB_HINT = (
    "pip install 'inselflucht-gym[rllib]' in a virtualenv of its own (ray[rllib] "
    "pins gymnasium 1.2.2; docs/scaling.md)"
)


def network_spec(conf: dict[str, Any]) -> NetworkSpec:
    pol = conf["policy"]
    return NetworkSpec(
        observation_size=OBSERVATION_SIZE,
        features=pol["features"],
        cnn_channels=pol["cnn_channels"],
        features_dim=pol["features_dim"],
        net_arch=tuple(pol["net_arch"]),
    )


def ppo_config(conf: dict[str, Any]) -> Any:
    """The RLlib ``PPOConfig`` of a validated config."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from inselflucht_env.learned.rllib import (
        ENV_NAME,
        POLICY_ID,
        InselfluchtRLModule,
        OutcomeCallback,
        shared_policy,
    )

    ppo, runners = conf["ppo"], conf["env_runners"]
    module = RLModuleSpec(
        module_class=InselfluchtRLModule, model_config={"network": network_spec(conf).to_json()}
    )
    return (
        PPOConfig()
        # RLlib's env checker steps random *unmasked* actions, which end our game as
        # illegal and print PettingZoo's warning; the wrappers pass api_test instead.
        .environment(ENV_NAME, env_config=dict(conf["env"]), disable_env_checking=True)
        .env_runners(
            num_env_runners=runners["num_env_runners"],
            num_envs_per_env_runner=runners["num_envs_per_env_runner"],
        )
        .learners(num_learners=0)  # the learner runs in the driver
        .training(
            lr=ppo["lr"],
            gamma=ppo["gamma"],
            lambda_=ppo["lambda"],
            clip_param=ppo["clip_param"],
            entropy_coeff=ppo["entropy_coeff"],
            vf_loss_coeff=ppo["vf_loss_coeff"],
            vf_clip_param=ppo["vf_clip_param"],
            grad_clip=ppo["grad_clip"],
            num_epochs=ppo["num_epochs"],
            train_batch_size_per_learner=ppo["train_batch_size_per_learner"],
            minibatch_size=ppo["minibatch_size"],
        )
        .multi_agent(policies={POLICY_ID}, policy_mapping_fn=shared_policy)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={POLICY_ID: module}))
        .callbacks(OutcomeCallback)
        .debugging(seed=conf["training"]["seed"])
    )


def check_resources(conf: dict[str, Any], cpus: int, address: str | None) -> None:
    """RLlib waits forever for CPUs a cluster does not have: say so instead."""
    wanted = conf["env_runners"]["num_env_runners"]
    if wanted > cpus:
        where = f"the Ray cluster at {address}" if address else "the local Ray"
        raise ConfigError(
            f"env_runners.num_env_runners={wanted} needs {wanted} CPUs, {where} "
            f"has {cpus}: lower it (--set num_env_runners={max(cpus - 1, 0)}) "
            "or join a bigger cluster with --address"
        )


def export_policy(algo: Any, folder: Path, spec: NetworkSpec, metadata: dict[str, Any]) -> Path:
    """The learner's weights (the authoritative copy) in our safe checkpoint format."""
    import torch

    from inselflucht_env.learned.checkpoint import save_checkpoint
    from inselflucht_env.learned.network import build_policy
    from inselflucht_env.learned.rllib import POLICY_ID

    weights = algo.learner_group.get_weights(module_ids=[POLICY_ID])[POLICY_ID]
    network = build_policy(spec)
    network.load_state_dict(
        {k.removeprefix("network."): torch.as_tensor(v) for k, v in weights.items()}, strict=True
    )
    return save_checkpoint(network, folder, spec, metadata)


def _resumable_network(path: str, spec: NetworkSpec) -> dict[str, Any]:
    """The weights of a safe checkpoint folder whose network is this config's; a
    ``ConfigError`` naming the difference (or the checkpoint's problem) otherwise."""
    from inselflucht_env.learned.checkpoint import CheckpointError, load_network

    try:
        network, saved, _ = load_network(path)
    except CheckpointError as err:
        raise ConfigError(f"--resume: {err}") from None
    if saved != spec:
        raise ConfigError(
            f"--resume {path!r} holds another network than this config's "
            f"(saved {saved.to_json()}, config {spec.to_json()})"
        )
    return network.state_dict()


def load_weights(algo: Any, state: dict[str, Any]) -> None:
    """Put a network's weights into the learners' module and sync it to the env runners."""
    from inselflucht_env.learned.rllib import POLICY_ID

    algo.learner_group.set_weights({POLICY_ID: {f"network.{k}": v for k, v in state.items()}})
    algo.env_runner_group.sync_weights(
        from_worker_or_learner_group=algo.learner_group, inference_only=True
    )


def _plain(value: Any) -> Any:
    """RLlib's result dict as JSON: numpy scalars as numbers, NaN as null, the rest as str."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "item") and getattr(value, "ndim", 1) == 0:
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def summary_line(i: int, result: dict[str, Any], seconds: float) -> str:
    runners = result.get("env_runners", {})
    steps = runners.get("num_env_steps_sampled_lifetime", 0)
    ret = runners.get("episode_return_mean", float("nan"))
    win = runners.get("inselflucht/win_rate", float("nan"))
    episodes = int(runners.get("num_episodes", 0))
    return (
        f"iter {i:4d}  env steps {int(steps):9d}  episodes {episodes:4d}"
        f"  return {float(ret):7.3f}  win rate {float(win):6.1%}  illegal "
        f"{int(runners.get('inselflucht/illegal', 0))}  {seconds:6.1f} s"
    )


def train(args: argparse.Namespace) -> Path:
    conf = cfg.load(args.config, args.overrides)  # a bad config fails before Ray starts
    spec = network_spec(conf)
    resumed = _resumable_network(args.resume, spec) if args.resume else None
    try:
        import ray
        from ray.tune.registry import register_env
    except ImportError:
        raise InputError(f"train.rllib needs RLlib, which is not installed: {RLLIB_HINT}") from None
    from inselflucht_env.evaluation.ray_backend import cluster_summary, connect
    from inselflucht_env.learned.rllib import ENV_NAME, make_env

    cpus = connect(args.address)
    check_resources(conf, cpus, args.address)
    out = conf["output"]
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    run_dir = Path(out["run_dir"]) / f"{out['name']}-{stamp}"
    run_dir.mkdir(parents=True, exist_ok=False)
    (run_dir / "config.yaml").write_text(yaml.safe_dump(conf, sort_keys=False))
    print(f"run folder: {run_dir}  (Ray: {cluster_summary()})", flush=True)

    register_env(ENV_NAME, make_env)
    algo = ppo_config(conf).build_algo()
    if resumed is not None:
        load_weights(algo, resumed)
        print(f"resumed from {args.resume}", flush=True)
    tr = conf["training"]
    illegal = 0
    result: dict[str, Any] = {}
    started = time.perf_counter()
    try:
        with open(run_dir / "metrics.jsonl", "a", encoding="utf-8") as metrics:
            for i in range(1, tr["iterations"] + 1):
                t0 = time.perf_counter()
                result = algo.train()
                seconds = time.perf_counter() - t0
                illegal += int(result.get("env_runners", {}).get("inselflucht/illegal", 0))
                metrics.write(
                    json.dumps({"iteration": i, "seconds": seconds, "result": _plain(result)})
                    + "\n"
                )
                metrics.flush()
                print(summary_line(i, result, seconds), flush=True)
                if i % tr["checkpoint_every"] == 0 or i == tr["iterations"]:
                    algo.save_to_path(str((run_dir / "rllib" / f"iter_{i:06d}").resolve()))
                    export_policy(
                        algo,
                        run_dir / "checkpoints" / f"iter_{i:06d}",
                        spec,
                        {"config": conf, "iteration": i, "resumed_from": args.resume},
                    )
        runners = result.get("env_runners", {})
        final = export_policy(
            algo,
            run_dir / "final",
            spec,
            {
                "trainer": "train.rllib (RLlib PPO, new API stack)",
                "ray_version": ray.__version__,
                "config": conf,
                "iterations": tr["iterations"],
                "env_steps": _plain(runners.get("num_env_steps_sampled_lifetime")),
                "train_win_rate": _plain(runners.get("inselflucht/win_rate")),
                "illegal_actions": illegal,
                "seconds": time.perf_counter() - started,
                "created": stamp,
            },
        )
    finally:
        logdir = Path(getattr(algo, "logdir", "") or "")
        algo.stop()
        if logdir.is_dir() and not any(logdir.iterdir()):  # Trainable's empty ~/ray_results dir
            shutil.rmtree(logdir, ignore_errors=True)
    print(
        f"exported {final}: python -m train.evaluate --agent {final}"
        + (f"  ({illegal} illegal actions: masking failed!)" if illegal else "")
    )
    return final


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m train.rllib", description=__doc__.split("\n")[0])
    add_config_arguments(p, None, "--set iterations=2 --set ppo.lr=1e-4", "train/rllib_config.py")
    p.add_argument(
        "--address",
        default=None,
        help="Ray cluster to join (auto, HEAD_IP:6379); default: a local Ray",
    )
    p.add_argument(
        "--resume",
        default=None,
        metavar="CHECKPOINT",
        help="continue from a safe checkpoint folder of an earlier run "
        "(runs/<run>/checkpoints/iter_<N> or final) for training.iterations "
        "more",
    )
    return p


def main(argv: list[str] | None = None) -> Path:
    args = build_parser().parse_args(argv)
    return run(lambda: train(args))


if __name__ == "__main__":
    main()
