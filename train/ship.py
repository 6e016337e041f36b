"""Ship a trained policy: evaluate it beside the heuristic and write ``checkpoints/<name>``.

    python -m train.ship runs/<run> --name ppo_2p_normal [--episodes 1000]
                         [--select-episodes 1000] [--workers 2] [--iterations N ...]

Picks among the run's final policy, its best evaluation model, its newest resumable
checkpoint and (if the run cloned a teacher first) the cloned policy before PPO -- or, for a
``train.expert_iteration`` run, its ``best/`` network, its last iteration and any iterations
named with ``--iterations`` (``best/`` is chosen by a small, noisy evaluation, so late
iterations deserve a look) -- on *selection* seeds (``train.seeds``), then evaluates the
chosen one on the report seeds (0 .. episodes-1) beside the heuristic, so the reported rate
is not inflated by the choice. Writes ``checkpoints/<name>`` with a
``metadata.json`` holding the chosen policy's metadata plus the evaluation: win rate and 95%
Wilson interval, the heuristic's rate on the same seeds and the paired comparison (McNemar).
The shipped folder holds the weights without the optimiser state (only resuming needs it).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from inselflucht_env.cli.args import natural_int, positive_int, run
from inselflucht_env.evaluation.harness import evaluate, format_summary
from inselflucht_env.learned.checkpoint import (
    METADATA_FILE,
    CheckpointError,
    load_network,
    read_metadata,
    save_checkpoint,
)
from train.compare import compare, format_comparison
from train.expert_iteration import iteration_folder
from train.seeds import SELECTION_SEEDS

CANDIDATES = ("final", "best", "pretrained")  # checkpoint folders a train.train run writes


def _candidates(run: Path, iterations: list[int]) -> dict[str, Path]:
    """The run's checkpoint folders to compare: the final policy, the best one of the
    periodic evaluation, the newest resumable checkpoint (``checkpoints/step_<N>``: all a
    stopped run has besides ``best``) and the cloned policy before PPO, those present; for an
    expert-iteration run (``progress.json``) its best network, its last iteration and the
    named ``iterations`` (each must exist)."""
    progress = run / "progress.json"
    if progress.is_file():
        last = json.loads(progress.read_text())["iteration"]
        folders = {"best": run / "best"}
        for i in sorted({*iterations, last}):
            folder = iteration_folder(run, i)
            if i != last and not (folder / METADATA_FILE).is_file():
                raise CheckpointError(f"--iterations: {run} has no iteration {i} ({folder})")
            folders[folder.name] = folder
    elif iterations:
        raise CheckpointError(f"--iterations: {run} is not an expert-iteration run")
    else:
        folders = {label: run / label for label in CANDIDATES}
        steps = sorted(
            (f for f in (run / "checkpoints").glob("step_*") if f.name[5:].isdigit()),
            key=lambda f: int(f.name[5:]),
        )
        if steps:
            folders[steps[-1].name] = steps[-1]
    found = {label: f for label, f in folders.items() if (f / METADATA_FILE).is_file()}
    if not found:
        raise CheckpointError(f"{run}: no checkpoint of a train.train or expert-iteration run")
    return found


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", help="run folder written by train.train or train.expert_iteration")
    parser.add_argument("--name", required=True, help="checkpoints/<name> to write")
    parser.add_argument("--episodes", type=positive_int, default=1000, help="report games")
    parser.add_argument(
        "--select-episodes",
        type=positive_int,
        default=1000,
        help="games per candidate on the selection seeds",
    )
    parser.add_argument("--workers", type=positive_int, default=2)
    parser.add_argument(
        "--iterations",
        type=natural_int,
        nargs="+",
        default=[],
        metavar="N",
        help="more candidates: these iterations of an expert-iteration run",
    )
    parser.add_argument("--out", default="checkpoints", help="folder of shipped checkpoints")
    args = parser.parse_args(argv)
    return run(lambda: ship(args))


def ship(args: argparse.Namespace) -> dict[str, Any]:
    run_dir = Path(args.run)
    candidates = _candidates(run_dir, args.iterations)
    _, meta = read_metadata(next(iter(candidates.values())))
    env = meta["config"]["env"]
    game = {
        "players": env["players"],
        "meter": env["meter"],
        "taucher": env["taucher"],
        "short_game": env["short_game"],
        "workers": args.workers,
    }
    settings = dict(game, episodes=args.episodes, seed=0, details=True)
    selection = {}
    for label, folder in candidates.items():
        selection[label] = evaluate(
            str(folder), **game, episodes=args.select_episodes, seed=SELECTION_SEEDS
        )
        print(f"[{label}, selection seeds] " + format_summary(selection[label]))
    label = max(selection, key=lambda k: selection[k]["wins"])
    network, spec, meta = load_network(candidates[label])  # the chosen policy's own history
    heuristic = evaluate("heuristic", **settings)
    print(format_summary(heuristic))
    chosen = evaluate(str(candidates[label]), **settings)
    print(f"[{label}] " + format_summary(chosen))
    paired = compare(chosen, heuristic)
    print(format_comparison(paired))
    strip = lambda s: {k: v for k, v in s.items() if k != "per_episode"}  # noqa: E731
    meta["shipped_from"] = str(candidates[label])
    command = (
        f"python -m train.ship {run_dir} --name {args.name} --episodes {args.episodes} "
        f"--select-episodes {args.select_episodes}"
    )
    if args.iterations:
        command += " --iterations " + " ".join(map(str, args.iterations))
    meta["evaluation"] = {
        "command": command,
        "selection": {
            k: {"seed": SELECTION_SEEDS, "episodes": v["episodes"], "wins": v["wins"]}
            for k, v in selection.items()
        },
        "policy": strip(chosen),
        "heuristic_same_seeds": strip(heuristic),
        "paired_vs_heuristic": paired,
    }
    target = Path(args.out) / args.name  # weights only: the optimiser state is for resuming
    save_checkpoint(network, target, spec, meta, meta["signature"]["advice"])
    print(f"shipped {label} policy to {target}")
    return meta


if __name__ == "__main__":
    main()
