"""Train a MaskablePPO team policy on Inselflucht-v0.

    python -m train.train --config configs/ppo_2p_normal.yaml [--set total_timesteps=200000]
                          [--resume runs/<run>/checkpoints/model_100000_steps.zip]

One policy plays every figure: the observation is always from the deciding figure's seat.
Read top to bottom: config -> run folder -> environments -> model -> callbacks -> learn ->
save. Every run folder holds the resolved ``config.yaml``, TensorBoard logs (``tb/``),
resumable checkpoints, the best model of the periodic masked evaluation, the policy
right after behaviour cloning (``pretrained/``, if on) and the final policy, as checkpoint
folders that ``train.enjoy``, ``train.evaluate`` and ``train.ship`` load.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import platform
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import torch
import yaml
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.callbacks import MaskableEvalCallback
from stable_baselines3.common.callbacks import BaseCallback, CallbackList, CheckpointCallback
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.save_util import load_from_zip_file
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

import inselflucht_env  # noqa: F401  (registers Inselflucht-v0)
from inselflucht_env.advice import AdviceWrapper, observation_size
from inselflucht_env.config import GameConfig
from inselflucht_env.engine import OUTCOMES
from train import config as cfg
from train.checkpoint import save_checkpoint
from train.features import BoardCNN
from train.pretrain import behaviour_clone, collect, dagger_round

ENV_ID = "inselflucht_env:Inselflucht-v0"  # the module path also works in subprocesses
# Deals never overlap: reports use seeds 0+, teacher games 1,000,000+, DAgger 2,000,000+,
# ship's selection 5,000,000+ (train/pretrain.py, train/ship.py).
TRAIN_SEEDS = 3_000_000
EVAL_SEEDS = 4_000_000


class OutcomeLogger(BaseCallback):
    """Logs win rate, loss causes and episode length over the last 200 finished episodes."""

    def __init__(self, window: int = 200):
        super().__init__()
        self.outcomes: collections.deque[str] = collections.deque(maxlen=window)
        self.started = time.perf_counter()

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            if "outcome" in info:
                self.outcomes.append(info["outcome"])
        if self.outcomes and self.n_calls % 1000 == 0:
            n = len(self.outcomes)
            counts = collections.Counter(self.outcomes)
            self.logger.record("game/win_rate", counts["win"] / n)
            for cause in OUTCOMES[1:]:
                self.logger.record(f"game/loss_{cause}", counts[cause] / n)
            elapsed = time.perf_counter() - self.started
            self.logger.record("game/fps", self.num_timesteps / elapsed)
        return True


class Curriculum(BaseCallback):
    """Plays the configured meters in order until each stage's timestep, then the real one.

    The environments' game config is swapped (``set_config``); it takes effect at their next
    reset.
    """

    def __init__(self, stages: list[dict], env_kwargs: dict):
        super().__init__()
        self.stages = stages
        self.env_kwargs = env_kwargs
        self.current: object = None

    def _config_for(self, timesteps: int) -> GameConfig:
        meter = next((s["meter"] for s in self.stages if timesteps < s["until"]),
                     self.env_kwargs["meter"])
        kw = {k: self.env_kwargs[k] for k in ("players", "taucher", "short_game")}
        return GameConfig.make(meter=meter, **kw)

    def _on_step(self) -> bool:
        config = self._config_for(self.num_timesteps)
        if config != self.current:
            self.training_env.env_method("set_config", config)
            self.current = config
            self.logger.record("game/meter_cards", len(config.meter))
        return True


def _check_resumable(path: str, advice: str) -> None:
    """A ``ConfigError`` unless ``path`` is a model whose observations this config builds."""
    if not Path(path).is_file():
        raise cfg.ConfigError(f"--resume {path!r}: no such model file")
    try:
        data, _, _ = load_from_zip_file(path, device="cpu", load_data=True)
        shape = data["observation_space"].shape
    except Exception as err:  # not an SB3 archive
        raise cfg.ConfigError(f"--resume {path!r} is not a saved model: {err}") from None
    if shape != (observation_size(advice),):
        raise cfg.ConfigError(f"--resume {path!r} reads observations of shape {shape}, but "
                              f"policy.advice={advice!r} builds ({observation_size(advice)},)")


def _machine() -> str:
    return (f"{platform.machine()}, {platform.processor() or 'cpu'}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}")


def main(argv: list[str] | None = None) -> Path:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", default="configs/ppo_2p_normal.yaml", help="YAML file")
    parser.add_argument("--set", dest="overrides", action="append", default=[],
                        metavar="KEY=VALUE", help="override a key, e.g. total_timesteps=200000")
    parser.add_argument("--resume", help="model .zip of an earlier run to continue from")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)

    # 1. Configuration: fully validated before anything is built.
    conf = cfg.load(args.config, args.overrides)
    env_kw, tr, ppo, pol, ev, out = (conf[k] for k in
                                     ("env", "training", "ppo", "policy", "eval", "output"))
    if args.resume:
        _check_resumable(args.resume, pol["advice"])

    torch.set_num_threads(tr["torch_threads"])

    # 2. Run folder with the resolved config.
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    run_dir = Path(out["run_dir"]) / f"{out['name']}-{stamp}"
    run_dir.mkdir(parents=True, exist_ok=False)
    (run_dir / "config.yaml").write_text(yaml.safe_dump(conf, sort_keys=False))
    print(f"run folder: {run_dir}")

    # 3. Environments: training envs with the learning reward, eval env with the real game.
    #    With ``policy.advice`` the heuristic's choice is appended to every observation.
    vec_cls = SubprocVecEnv if tr["vec_env"] == "subproc" else DummyVecEnv
    advice = pol["advice"]
    wrap = {} if advice == "none" else {"wrapper_class": AdviceWrapper,
                                        "wrapper_kwargs": {"advisor": advice}}
    venv = make_vec_env(ENV_ID, n_envs=tr["n_envs"], seed=TRAIN_SEEDS + tr["seed"],
                        vec_env_cls=vec_cls,
                        env_kwargs=dict(env_kw), **wrap)
    eval_env = make_vec_env(ENV_ID, n_envs=1, seed=EVAL_SEEDS + tr["seed"],
                            env_kwargs=dict(env_kw, reward="win"), **wrap)

    # 4. Model: new, or resumed with its optimiser state and timestep count.
    if args.resume:
        model = MaskablePPO.load(args.resume, env=venv, device=tr["device"],
                                 tensorboard_log=str(run_dir / "tb"))
    else:
        policy_kwargs: dict = {"net_arch": list(pol["net_arch"])}
        if pol["features"] == "board_cnn":
            policy_kwargs.update(features_extractor_class=BoardCNN, features_extractor_kwargs={
                "features_dim": pol["features_dim"], "cnn_channels": pol["cnn_channels"]})
        model = MaskablePPO("MlpPolicy", venv, policy_kwargs=policy_kwargs, seed=tr["seed"],
                            device=tr["device"], tensorboard_log=str(run_dir / "tb"), verbose=0,
                            **ppo)

    # 4b. Optional behaviour cloning of a teacher before PPO (see train/pretrain.py); the
    #     cloned policy is kept as a checkpoint too (``pretrained/``).
    pre = conf["pretrain"]
    dagger_teacher = pre["teacher"] if pre["dagger_teacher"] == "same" else pre["dagger_teacher"]
    cloned = None
    if pre["games"] and not args.resume:
        started = time.perf_counter()
        data = collect(dict(env_kw), advice, pre["teacher"], pre["games"], ppo["gamma"],
                       pre["workers"])
        print(f"collected {len(data[2])} {pre['teacher']} decisions from {pre['games']} games "
              f"in {time.perf_counter() - started:.0f} s")
        cloned = behaviour_clone(model, data, pre["epochs"], pre["batch_size"],
                                 pre["learning_rate"], tr["seed"])
        for k in range(pre["dagger_rounds"]):
            round_started = time.perf_counter()
            extra = dagger_round(model, dict(env_kw), advice, dagger_teacher,
                                 pre["dagger_games"], pre["workers"],
                                 2_000_000 + k * pre["dagger_games"],
                                 str(run_dir / "dagger_student.zip"))
            data = tuple(np.concatenate([a, b]) for a, b in zip(data[:3], extra))
            print(f"DAgger round {k + 1}: {len(extra[2])} student states labelled by "
                  f"{dagger_teacher}, {len(data[2])} in all "
                  f"({time.perf_counter() - round_started:.0f} s)")
            cloned = behaviour_clone(model, data, pre["epochs"], pre["batch_size"],
                                     pre["learning_rate"], tr["seed"] + k + 1)
        cloned["seconds"] = round(time.perf_counter() - started, 1)
        del data
        save_checkpoint(model, run_dir / "pretrained", {
            "config": conf, "timesteps": 0, "train_wall_seconds": cloned["seconds"],
            "machine": _machine(), "behaviour_cloning": cloned}, advice)

    # 5. Callbacks: outcomes to TensorBoard, curriculum, resumable saves, masked evaluation.
    per_env = lambda steps: max(steps // tr["n_envs"], 1)  # noqa: E731 (callbacks count calls)
    callbacks = [OutcomeLogger(),
                 CheckpointCallback(per_env(out["checkpoint_freq"]), str(run_dir / "checkpoints"),
                                    name_prefix="model")]
    if conf["curriculum"]["stages"]:
        callbacks.append(Curriculum(conf["curriculum"]["stages"], env_kw))
    if ev["freq"]:
        callbacks.append(MaskableEvalCallback(
            eval_env, n_eval_episodes=ev["episodes"], eval_freq=per_env(ev["freq"]),
            best_model_save_path=str(run_dir / "best"), log_path=str(run_dir / "eval"),
            deterministic=True, verbose=0))

    # 6. Learn.
    started = time.perf_counter()
    model.learn(tr["total_timesteps"], callback=CallbackList(callbacks),
                progress_bar=not args.no_progress, reset_num_timesteps=not args.resume,
                tb_log_name="ppo")
    wall = time.perf_counter() - started

    # 7. Save the final policy as a checkpoint folder; a resumed run adds up its history.
    earlier = {}
    if args.resume and (Path(args.resume).parent / "metadata.json").is_file():
        earlier = json.loads((Path(args.resume).parent / "metadata.json").read_text())
    if earlier.get("behaviour_cloning") and cloned is None:
        cloned = earlier["behaviour_cloning"]
    wall_before = earlier.get("train_wall_seconds", 0.0)
    final = save_checkpoint(model, run_dir / "final", {
        "config": conf,
        "timesteps": int(model.num_timesteps),
        "train_wall_seconds": round(wall_before + wall + (
            cloned["seconds"] if cloned and not earlier else 0.0), 1),
        "ppo_wall_seconds": round(wall, 1),
        "train_fps": round(tr["total_timesteps"] / wall, 1),
        "machine": _machine(),
        "resumed_from": args.resume,
        "behaviour_cloning": cloned,
    }, advice)
    print(f"trained {model.num_timesteps} steps in {wall:.0f} s "
          f"({tr['total_timesteps'] / wall:.0f} steps/s); policy saved to {final}")
    venv.close()
    eval_env.close()
    return final


if __name__ == "__main__":
    main()
