"""Ship a trained policy: evaluate it beside the heuristic and write ``checkpoints/<name>``.

    python -m train.ship runs/<run> --name ppo_2p_normal [--episodes 1000]
                         [--select-episodes 1000] [--workers 2]

Picks among the run's final policy, its best evaluation model and (if the run cloned a
teacher first) the cloned policy before PPO on *selection* seeds (5,000,000 onwards), then
evaluates the chosen one on the report seeds (0 .. episodes-1) beside the heuristic, so the
reported rate is not inflated by the choice. Writes ``checkpoints/<name>`` with a
``metadata.json`` holding the chosen policy's metadata plus the evaluation: win rate and 95%
Wilson interval, the heuristic's rate on the same seeds and the paired comparison (McNemar).
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from train.checkpoint import METADATA_FILE, MODEL_FILE, read_metadata
from train.compare import compare, format_comparison
from train.evaluate import evaluate, format_summary


SELECTION_SEED = 5_000_000  # candidates are compared on these seeds, reported on 0 onwards


def _save_without_optimiser_state(source: Path, target: Path) -> None:
    """Copy a model with a fresh optimiser: Adam's moments double the file and only matter
    for resuming (which then starts them anew)."""
    from sb3_contrib import MaskablePPO
    model = MaskablePPO.load(source, device="cpu")
    policy = model.policy
    policy.optimizer = policy.optimizer_class(policy.parameters(), lr=model.lr_schedule(1),
                                              **policy.optimizer_kwargs)
    model.save(target)


def _best_timesteps(run: Path) -> int | None:
    """When MaskableEvalCallback saved the best model: its first evaluation with the top mean
    reward (it saves on strict improvement only)."""
    log = run / "eval" / "evaluations.npz"
    if not log.is_file():
        return None
    data = np.load(log)
    return int(data["timesteps"][int(np.argmax(data["results"].mean(axis=1)))])


def _candidates(run: Path, scratch: Path) -> dict[str, Path]:
    """Checkpoint folders to compare: the final policy, the best evaluation model and the
    cloned policy before PPO."""
    final = run / "final"  # already checked by main
    found = {"final": final}
    if (run / "pretrained" / MODEL_FILE).is_file():
        found["pretrained"] = run / "pretrained"
    best = run / "best" / "best_model.zip"
    if best.is_file():
        folder = scratch / "best"
        folder.mkdir()
        shutil.copy(best, folder / MODEL_FILE)
        meta = json.loads((final / METADATA_FILE).read_text())
        meta["timesteps"] = _best_timesteps(run)  # the rest describes the whole run
        (folder / METADATA_FILE).write_text(json.dumps(meta))
        found["best"] = folder
    return found


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", help="run folder written by train.train")
    parser.add_argument("--name", required=True, help="checkpoints/<name> to write")
    parser.add_argument("--episodes", type=int, default=1000, help="report games")
    parser.add_argument("--select-episodes", type=int, default=1000,
                        help="games per candidate on the selection seeds")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", default="checkpoints", help="folder of shipped checkpoints")
    args = parser.parse_args(argv)

    run = Path(args.run)
    _, meta = read_metadata(run / "final")
    env = meta["config"]["env"]
    game = {"players": env["players"], "meter": env["meter"], "taucher": env["taucher"],
            "short_game": env["short_game"], "workers": args.workers}
    settings = dict(game, episodes=args.episodes, seed=0, details=True)
    with tempfile.TemporaryDirectory() as scratch:
        candidates = _candidates(run, Path(scratch))
        selection = {}
        for label, folder in candidates.items():
            selection[label] = evaluate(str(folder), **game, episodes=args.select_episodes,
                                        seed=SELECTION_SEED)
            print(f"[{label}, selection seeds] " + format_summary(selection[label]))
        label = max(selection, key=lambda k: selection[k]["wins"])
        folder = candidates[label]
        _, meta = read_metadata(folder)  # the chosen policy's own history
        heuristic = evaluate("heuristic", **settings)
        print(format_summary(heuristic))
        chosen = evaluate(str(folder), **settings)
        print(f"[{label}] " + format_summary(chosen))
        paired = compare(chosen, heuristic)
        print(format_comparison(paired))
        target = Path(args.out) / args.name
        target.mkdir(parents=True, exist_ok=True)
        _save_without_optimiser_state(folder / MODEL_FILE, target / MODEL_FILE)
    strip = lambda s: {k: v for k, v in s.items() if k != "per_episode"}  # noqa: E731
    meta["shipped_from"] = f"{run}/{'best/best_model.zip' if label == 'best' else label}"
    meta["evaluation"] = {
        "command": f"python -m train.ship {run} --name {args.name} --episodes {args.episodes}"
                   f" --select-episodes {args.select_episodes}",
        "selection": {k: {"seed": SELECTION_SEED, "episodes": v["episodes"], "wins": v["wins"]}
                      for k, v in selection.items()},
        "policy": strip(chosen),
        "heuristic_same_seeds": strip(heuristic),
        "paired_vs_heuristic": paired,
    }
    (target / METADATA_FILE).write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")
    print(f"shipped {label} policy to {target}")
    return meta


if __name__ == "__main__":
    main()
