"""Distillation: fit a fresh network of a chosen size to an expert-iteration run's decisions.

    python -m train.tools.distill runs/exit_4p_dagger-<stamp> --out runs/distill_4p_wide \\
        --features-dim 384 --net-arch 384 384 --steps 20000
    python -m train.tools.distill runs/exit_4p_dagger-<stamp> --out runs/grown_4p \
        --init checkpoints/exit_4p_normal_dagger --features-dim 384 --net-arch 384 384
    python -m train.tools.distill --resume runs/distill_4p_wide

Why: a DAgger run flattens when its network stops getting closer to the teacher. Whether
that is the network's size or its data shows when networks of other sizes are fitted to the
*same* labels and scored on decisions none of them trained on. The labels are the run's
resumable replay window (``state-NNNN/replay.npz`` of its last finished round, in the order
the games were played); its newest ``--held-out`` decisions -- the last round's games,
played after every other decision in the window -- are kept out and score the network every
``--eval-every`` steps with ``held_out_losses``: the cross-entropy against the teacher's
choices, the value error, and how often the network's choice is the teacher's.

The network starts from random weights, or with ``--init CHECKPOINT`` from a trained network
*grown* to the sizes asked for (Net2Net's idea, Chen et al. 2016, with zeros instead of
copies): every layer keeps its trained weights, new units get fresh incoming weights and
zero outgoing ones, and new convolutions start as the identity, so the grown network
computes exactly what the trained one did and the comparison with the trained network
continued at its own size (``--init`` without sizes), same steps, same data, isolates what
the extra size adds. Widths (``--features-dim``, ``--net-arch``) and the number of
convolutions (``--cnn-layers``: each one sees one cell further) can grow; the extractor,
the channels and the number of hidden layers stay.

Training is the run's own loss and minibatch (``train_network``: its ``batch_size``,
``value_coef``, ``value_mix``, ``weight_decay``, ``max_grad_norm``) from random weights, with
AdamW at ``--learning-rate`` on a cosine decay to zero over ``--steps``, held for each block
of ``--eval-every`` steps at its middle value. The network section defaults to the run's,
so a run without options measures what a fresh start of the same network reaches.

The folder ``--out`` holds ``network/`` (a checkpoint of the format of
``inselflucht_env.learned.checkpoint``, with the optimiser state: evaluate it with
``python -m train.evaluate --agent OUT/network``, or start a DAgger run from it with
``warm_start.init``) and ``progress.json`` (the options, the steps done, every evaluation).
Both are written after every block, so ``--resume OUT`` continues where a stopped run ended,
exactly as if it had not stopped. Nothing is unpickled.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
import yaml
from torch import nn

from inselflucht_env.cli.args import positive_float, positive_int, run
from inselflucht_env.learned.checkpoint import (
    CheckpointError,
    load_network,
    load_optimizer,
    read_metadata,
    save_checkpoint,
)
from inselflucht_env.learned.network import FEATURES, NetworkSpec, build_policy
from train import exit_config
from train.exit_config import ConfigError
from train.expert_iteration import held_out_losses, load_replay, network_spec, train_network
from train.grow import grown
from train.json_file import write_json

TRAIN_KEYS = ("batch_size", "value_coef", "value_mix", "weight_decay", "max_grad_norm")
NETWORK_OPTIONS = (
    "features",
    "cnn_channels",
    "cnn_layers",
    "features_dim",
    "net_arch",
    "way_planes",
)


def window_of(run_dir: Path) -> Path:
    """The replay window of the run's last finished round."""
    progress = run_dir / "progress.json"
    if not progress.is_file():
        raise ConfigError(f"{run_dir}: not an expert-iteration run folder (no progress.json)")
    state = json.loads(progress.read_text())["state"]
    window = run_dir / str(state) / "replay.npz"
    if not state or not window.is_file():
        raise ConfigError(f"{run_dir}: no replay window of a finished round ({window})")
    return window


def split(replay: dict[str, np.ndarray], held_out: int) -> tuple[dict, dict]:
    """The window without its newest ``held_out`` decisions, and those decisions."""
    n = len(replay["outcome"])
    if not 0 < held_out < n:
        raise ConfigError(f"--held-out {held_out}: the window holds {n} decisions")
    return {k: v[: n - held_out] for k, v in replay.items()}, {
        k: v[n - held_out :] for k, v in replay.items()
    }


def block_learning_rate(peak: float, first: int, steps: int, total: int) -> float:
    """The cosine decay from ``peak`` to zero over ``total`` steps, at the middle of the
    block of ``steps`` steps that starts after step ``first``."""
    return peak * 0.5 * (1 + math.cos(math.pi * (first + steps / 2) / total))


def _trained(init: str) -> tuple[nn.Module, NetworkSpec]:
    """The network of the checkpoint ``--init`` names."""
    try:
        network, spec, _ = load_network(init)
    except CheckpointError as err:
        raise ConfigError(f"--init: {err}") from None
    return network, spec


def _plan(args: argparse.Namespace) -> dict[str, Any]:
    """The whole recipe from the command line and the run's config: what progress.json keeps."""
    run_dir = Path(args.run)
    window = window_of(run_dir)
    # validated as a run's config is on resume: keys added since the run get their defaults
    conf = exit_config.validate(yaml.safe_load((run_dir / "config.yaml").read_text()))
    base = conf["network"] if args.init is None else _trained(args.init)[1].to_json()
    network = {
        key: base[key] if getattr(args, key) is None else getattr(args, key)
        for key in NETWORK_OPTIONS
    }
    network["net_arch"] = list(network["net_arch"])
    if args.eval_every > args.steps:
        raise ConfigError(f"--eval-every {args.eval_every} is more than --steps {args.steps}")
    return {
        "run": str(run_dir),
        "window": str(window),
        "env": conf["env"],
        "network": network,
        "init": args.init,
        "train": {key: conf["train"][key] for key in TRAIN_KEYS},
        "steps": args.steps,
        "eval_every": args.eval_every,
        "learning_rate": args.learning_rate,
        "held_out": args.held_out,
        "seed": args.seed,
        "torch_threads": args.torch_threads,
    }


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", nargs="?", help="the expert-iteration run folder to learn from")
    parser.add_argument("--out", help="the folder to write (must not exist)")
    parser.add_argument("--resume", metavar="OUT", help="continue this distillation")
    parser.add_argument(
        "--init", metavar="CHECKPOINT", help="grow this trained network instead of random weights"
    )
    parser.add_argument(
        "--features", choices=FEATURES, help="default: the run's (with --init: that network's)"
    )
    parser.add_argument(
        "--cnn-channels", type=positive_int, help="default: the run's (with --init: that network's)"
    )
    parser.add_argument(
        "--cnn-layers", type=positive_int, help="default: the run's (with --init: that network's)"
    )
    parser.add_argument(
        "--features-dim", type=positive_int, help="default: the run's (with --init: that network's)"
    )
    parser.add_argument(
        "--net-arch",
        type=positive_int,
        nargs="+",
        help="default: the run's (with --init: that network's)",
    )
    parser.add_argument(
        "--way-planes",
        action="store_true",
        default=None,
        help="add the decider's cheapest ways as input planes (default: as the run / --init)",
    )
    parser.add_argument("--steps", type=positive_int, default=20_000)
    parser.add_argument("--eval-every", type=positive_int, default=1_000, metavar="STEPS")
    parser.add_argument("--learning-rate", type=positive_float, default=3e-4, metavar="PEAK")
    parser.add_argument("--held-out", type=positive_int, default=200_000, metavar="DECISIONS")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--torch-threads", type=positive_int, default=2)
    args = parser.parse_args(argv)
    if bool(args.resume) == bool(args.run):
        parser.error("give a run folder to learn from, or --resume OUT")
    if args.run and not args.out:
        parser.error("--out is required with a run folder")
    return args


def main(argv: list[str] | None = None) -> Path:
    args = _arguments(argv)

    # 1. The plan (stored, or from the options) and the output folder.
    if args.resume:
        out = Path(args.resume)
        if not (out / "progress.json").is_file():
            raise ConfigError(f"--resume {args.resume!r}: no progress.json there")
        progress = json.loads((out / "progress.json").read_text())
        # The checkpoint is the truth: its metadata is written last, after its weights and
        # optimiser state; a stop between it and progress.json loses only a history line.
        _, meta = read_metadata(out / "network")
        progress["steps_done"] = meta["distill"]["steps_done"]
        progress["history"] = [
            h for h in progress["history"] if h["steps"] <= meta["distill"]["steps_done"]
        ]
        write_json(out / "progress.json", progress)
    else:
        out = Path(args.out)
        if out.exists():
            raise ConfigError(f"--out {args.out!r} exists: --resume it, or name a new folder")
        progress = {"plan": _plan(args), "steps_done": 0, "history": []}
    plan = progress["plan"]
    spec = network_spec(plan["network"])  # sizes checked by the options' types
    torch.set_num_threads(plan["torch_threads"])
    torch.manual_seed(plan["seed"])

    # 2. The network and optimiser: fresh, or as the last block left them.
    if progress["steps_done"]:
        network, _, _ = load_network(out / "network")
    elif plan["init"]:
        try:
            network = grown(*_trained(plan["init"]), spec)
        except ConfigError as err:
            raise ConfigError(f"--init {plan['init']}: {err}") from None
    else:
        network = build_policy(spec)
    optimizer = torch.optim.AdamW(
        network.parameters(), lr=plan["learning_rate"], weight_decay=plan["train"]["weight_decay"]
    )
    if progress["steps_done"]:
        load_optimizer(optimizer, out / "network")
    training, held_out = split(load_replay(Path(plan["window"])), plan["held_out"])
    out.mkdir(parents=True, exist_ok=True)
    print(
        f"{out}: {sum(p.numel() for p in network.parameters()):,} parameters, "
        f"{len(training['outcome']):,} decisions to learn, {plan['held_out']:,} held out",
        flush=True,
    )

    # 3. Blocks of training, each followed by the held-out score and a save.
    total, every = plan["steps"], plan["eval_every"]
    tr = {**plan["train"]}
    for block in range(math.ceil(progress["steps_done"] / every), math.ceil(total / every)):
        started = time.perf_counter()
        steps = min(every, total - block * every)
        lr = block_learning_rate(plan["learning_rate"], block * every, steps, total)
        for group in optimizer.param_groups:
            group["lr"] = lr
        generator = torch.Generator().manual_seed(plan["seed"] * 1_000_003 + block)
        losses = train_network(network, optimizer, training, steps, tr, generator)
        scores = held_out_losses(network, held_out, tr)
        progress["steps_done"] = block * every + steps
        record = {
            "steps": progress["steps_done"],
            "learning_rate": lr,
            **{f"train/{k}": v for k, v in losses.items()},
            **{f"held_out/{k}": v for k, v in scores.items()},
            "seconds": time.perf_counter() - started,
        }
        progress["history"].append({k: round(v, 6) for k, v in record.items()})
        meta = {
            "config": {"env": plan["env"], "network": plan["network"]},
            "trainer": "distill",
            "distill": {"plan": plan, "steps_done": progress["steps_done"], "held_out": scores},
        }
        save_checkpoint(network, out / "network", spec, meta, optimizer=optimizer)
        write_json(out / "progress.json", progress)
        print(
            f"steps {record['steps']}: "
            + ", ".join(f"{k} {v:.4g}" for k, v in record.items() if k != "steps"),
            flush=True,
        )
    return out


if __name__ == "__main__":
    run(main)
