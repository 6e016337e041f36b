"""Train a MaskablePPO team policy on Inselflucht-v0.

    python -m train.train --config configs/ppo_2p_normal.yaml [--set total_timesteps=200000]
                          [--resume runs/<run>/checkpoints/step_100000]
    python -m train.train --config configs/ppo_quick.yaml        # half a minute, no cloning

One policy plays every figure: the observation is always from the deciding figure's seat.
Read top to bottom: config -> run folder -> environments -> model -> callbacks -> learn ->
save. Every run folder holds the resolved ``config.yaml``, TensorBoard logs (``tb/``),
resumable checkpoints (``checkpoints/step_<N>/``, with the optimiser state), the best policy
of the periodic masked evaluation (``best/``), the policy right after behaviour cloning
(``pretrained/``, if on) and the final policy (``final/``): all in the safe checkpoint format
(``inselflucht_env.learned.checkpoint``: safetensors + JSON, nothing is ever unpickled), so
``train.enjoy``, ``train.evaluate``, ``train.ship`` and ``--resume`` load them safely.
"""

from __future__ import annotations

import argparse
import collections
import os
import platform
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import torch
import yaml
from safetensors.torch import load_model
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.callbacks import MaskableEvalCallback
from stable_baselines3.common.callbacks import BaseCallback, CallbackList
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

import inselflucht_env  # noqa: F401  (registers Inselflucht-v0)
from inselflucht_env.cli.args import run
from inselflucht_env.compiled.sb3 import CompiledVecEnv
from inselflucht_env.envs.advice import AdviceWrapper
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from inselflucht_env.games.inselflucht.rules.engine import OUTCOMES
from inselflucht_env.learned.checkpoint import (
    WEIGHTS_FILE,
    CheckpointError,
    env_signature,
    load_network,
    load_optimizer,
    read_metadata,
    save_checkpoint,
)
from inselflucht_env.learned.network import NetworkSpec, policy_kwargs
from train import config as cfg
from train.pretrain import ENV_IDS, behaviour_clone, collect, dagger_round
from train.seeds import DAGGER_SEEDS, EVAL_SEEDS, TRAIN_SEEDS

ENV_KEYS = {  # the env section's keys each game's env takes
    "inselflucht": ("players", "taucher", "short_game", "meter", "reward"),
    "forbidden_island": ("players", "difficulty", "roles", "reward"),
}


def env_kwargs(env_section: dict) -> dict:
    """The keyword arguments of the env section's game's env."""
    return {k: env_section[k] for k in ENV_KEYS[env_section["game"]]}


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
    """Plays a ladder of games: stage ``i`` until its ``until`` timestep, then the env section.

    A stage names any of ``players``, ``taucher``, ``short_game`` and ``meter``; the ones it
    leaves out are the env section's. The environments' game config is swapped with
    ``set_config`` (reached through any wrappers by ``env_method``) and takes effect at each
    environment's next reset, so a game in progress ends under its old rules. The observation
    is 504 numbers for any player count, so one network plays every stage. At the start of
    training the environments are reset once more if stage 0 differs from the game they were
    built with, so the first games already belong to stage 0. TensorBoard gets the stage index
    (``curriculum/stage``; ``len(stages)`` = the env section), its player count and meter cards
    at every rollout. The periodic evaluation always plays the env section (the target).
    """

    GAME_KEYS = ("players", "taucher", "short_game", "meter")

    def __init__(self, stages: list[dict], env_kwargs: dict):
        super().__init__()
        self.stages = stages
        self.env_kwargs = env_kwargs
        self.current: GameConfig | None = None
        self.stage = -1

    def stage_at(self, timesteps: int) -> int:
        """Index of the stage played at ``timesteps`` (``len(stages)``: the env section)."""
        return next(
            (i for i, s in enumerate(self.stages) if timesteps < s["until"]), len(self.stages)
        )

    def game_of(self, stage: int) -> dict:
        """The game keys of ``stage``, the env section's where the stage leaves one out."""
        game = self.stages[stage] if stage < len(self.stages) else {}
        return {k: game.get(k, self.env_kwargs[k]) for k in self.GAME_KEYS}

    def config_of(self, stage: int) -> GameConfig:
        return GameConfig.make(**self.game_of(stage))

    def _config_for(self, timesteps: int) -> GameConfig:
        return self.config_of(self.stage_at(timesteps))

    def _switch(self) -> bool:
        """Send the current stage's config to the environments; True if it changed."""
        stage = self.stage_at(self.num_timesteps)
        config = self.config_of(stage)
        changed = config != self.current
        if changed:
            self.training_env.env_method("set_config", config)
            self.current = config
        if stage != self.stage:
            game = ", ".join(f"{k} {v}" for k, v in self.game_of(stage).items())
            print(
                f"curriculum: stage {stage} ({game}) from timestep {self.num_timesteps}", flush=True
            )
            self.stage = stage
        return changed

    def _on_training_start(self) -> None:
        built = self.training_env.get_attr("config")[0]
        if self._switch() and self.current != built:
            # the first games: stage 0 (SB3 types _last_obs narrower than VecEnv.reset)
            self.model._last_obs = self.training_env.reset()  # type: ignore[assignment]

    def _on_step(self) -> bool:
        self._switch()
        return True

    def _on_rollout_end(self) -> None:
        assert self.current is not None, "on_step or on_training_start comes first"
        self.logger.record("curriculum/stage", self.stage)
        self.logger.record("curriculum/players", self.current.players)
        self.logger.record("game/meter_cards", len(self.current.meter))


def network_spec(policy: dict, game: str = "inselflucht") -> NetworkSpec:
    """The network a config's ``policy`` section describes for ``game`` (PPO's value: its
    return)."""
    signature = env_signature(policy["advice"], game)
    return NetworkSpec(
        observation_size=signature["observation_size"],
        n_actions=signature["n_actions"],
        features=policy["features"],
        cnn_channels=policy["cnn_channels"],
        features_dim=policy["features_dim"],
        net_arch=tuple(policy["net_arch"]),
    )


def _check_same_network(
    option: str, path: str, saved: NetworkSpec, spec: NetworkSpec, ignore: tuple[str, ...] = ()
) -> None:
    """Raise a ``ConfigError`` naming ``option`` and each field (but ``ignore``) in which the
    checkpoint's network ``saved`` differs from this config's ``spec``."""
    wanted = spec.to_json()
    diff = {
        k: (v, wanted[k]) for k, v in saved.to_json().items() if k not in ignore and wanted[k] != v
    }
    if diff:
        raise cfg.ConfigError(
            f"{option} {path!r} holds another network than this config's "
            f"policy section (saved vs config: {diff})"
        )


def _check_resumable(path: str, spec: NetworkSpec) -> dict:
    """The metadata of ``path``, a checkpoint folder this config's network can continue;
    a ``ConfigError`` naming the difference otherwise."""
    try:
        _, meta = read_metadata(path)
    except CheckpointError as err:
        raise cfg.ConfigError(f"--resume: {err}") from None
    _check_same_network("--resume", path, NetworkSpec.from_json(meta["network"]), spec)
    return meta


def _initial_network(path: str, spec: NetworkSpec) -> torch.nn.Module:
    """The network of ``path`` (``policy.init``) if it is this config's, the kind of value
    head aside (PPO trains it on as its return); a ``ConfigError`` naming the difference or
    what is wrong with the checkpoint otherwise."""
    try:
        network, saved, _ = load_network(path)
    except CheckpointError as err:
        raise cfg.ConfigError(f"policy.init: {err}") from None
    _check_same_network("policy.init", path, saved, spec, ignore=("value",))
    return network


class SafeCheckpoint(BaseCallback):
    """Saves a resumable checkpoint folder (weights and optimiser) every ``every`` steps.

    Also serves as MaskableEvalCallback's ``callback_on_new_best`` (``every=0``): SB3's own
    savers write pickle-based ``.zip`` files, which this project never loads.
    """

    def __init__(
        self,
        folder: Path,
        spec: NetworkSpec,
        metadata: dict,
        advice: str,
        every: int = 0,
        game: str = "inselflucht",
    ):
        super().__init__()
        self.folder, self.spec, self.metadata, self.advice = folder, spec, metadata, advice
        self.every, self.game = every, game
        self.saved_at = -1

    def save(self, folder: Path) -> None:
        save_checkpoint(
            self.model.policy,
            folder,
            self.spec,
            {**self.metadata, "timesteps": int(self.model.num_timesteps)},
            self.advice,
            optimizer=self.model.policy.optimizer,
            game=self.game,
        )

    def _on_step(self) -> bool:
        if not self.every:  # called by the eval callback on a new best
            self.save(self.folder)
        elif self.model.num_timesteps // self.every > self.saved_at:
            self.saved_at = self.model.num_timesteps // self.every
            if self.saved_at:
                self.save(self.folder / f"step_{self.model.num_timesteps}")
        return True


def _machine() -> str:
    return (
        f"{platform.machine()}, {platform.processor() or 'cpu'}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}"
    )


def main(argv: list[str] | None = None) -> Path:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    cfg.add_config_arguments(
        parser, "configs/ppo_2p_normal.yaml", "total_timesteps=200000", "train/config.py"
    )
    parser.add_argument(
        "--resume",
        help="checkpoint folder of an earlier run to continue "
        "from (runs/<run>/checkpoints/step_<N>, best or final)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    return run(lambda: train(args))


def train(args: argparse.Namespace) -> Path:
    # 1. Configuration: fully validated before anything is built.
    conf = cfg.load(args.config, args.overrides)
    tr, ppo, pol, ev, out = (conf[k] for k in ("training", "ppo", "policy", "eval", "output"))
    game = conf["env"]["game"]
    env_kw = env_kwargs(conf["env"])
    spec = network_spec(pol, game)
    if tr["vec_env"] == "compiled" and pol["advice"] != "none":
        raise cfg.ConfigError(
            "training.vec_env=compiled plays the plain observation: policy.advice must be "
            f"none, not {pol['advice']!r}"
        )
    earlier = _check_resumable(args.resume, spec) if args.resume else {}
    init = None if args.resume or not pol["init"] else _initial_network(pol["init"], spec)
    if init is not None:
        if conf["pretrain"]["games"]:
            raise cfg.ConfigError(
                "policy.init starts PPO from a trained network: pretrain.games must be 0, "
                f"not {conf['pretrain']['games']}"
            )
    if earlier.get("timesteps", 0) >= tr["total_timesteps"]:
        raise cfg.ConfigError(
            f"--resume {args.resume!r} has already trained {earlier['timesteps']} steps, "
            f"not fewer than total_timesteps={tr['total_timesteps']}; raise total_timesteps "
            "with --set to train on"
        )

    torch.set_num_threads(tr["torch_threads"])

    # 2. Run folder with the resolved config.
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    run_dir = Path(out["run_dir"]) / f"{out['name']}-{stamp}"
    run_dir.mkdir(parents=True, exist_ok=False)
    (run_dir / "config.yaml").write_text(yaml.safe_dump(conf, sort_keys=False))
    print(f"run folder: {run_dir}")

    # 3. Environments: training envs with the learning reward, eval env with the real game.
    #    With ``policy.advice`` the heuristic's choice is appended to every observation.
    #    ``training.vec_env: compiled`` steps all training envs in one compiled batch.
    advice = pol["advice"]
    wrap: dict[str, Any] = (
        {}
        if advice == "none"
        else {"wrapper_class": AdviceWrapper, "wrapper_kwargs": {"advisor": advice}}
    )
    venv: Any
    if tr["vec_env"] == "compiled":
        venv = VecMonitor(CompiledVecEnv(tr["n_envs"], seed=TRAIN_SEEDS + tr["seed"], **env_kw))
    else:
        venv = make_vec_env(
            ENV_IDS[game],
            n_envs=tr["n_envs"],
            seed=TRAIN_SEEDS + tr["seed"],
            vec_env_cls=SubprocVecEnv if tr["vec_env"] == "subproc" else DummyVecEnv,
            env_kwargs=dict(env_kw),
            **wrap,
        )
    eval_env: Any
    if tr["vec_env"] == "compiled":
        eval_env = VecMonitor(
            CompiledVecEnv(1, seed=EVAL_SEEDS + tr["seed"], **dict(env_kw, reward="win"))
        )
    else:
        eval_env = make_vec_env(
            ENV_IDS[game],
            n_envs=1,
            seed=EVAL_SEEDS + tr["seed"],
            env_kwargs=dict(env_kw, reward="win"),
            **wrap,
        )

    # 4. Model: new (random weights, or ``policy.init``'s with a fresh optimiser), or resumed
    #    with its weights, optimiser state and timestep count (the architecture always comes
    #    from the config; a checkpoint only holds tensors).
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        policy_kwargs=policy_kwargs(spec),
        seed=tr["seed"],
        device=tr["device"],
        tensorboard_log=str(run_dir / "tb"),
        verbose=0,
        **ppo,
    )
    if args.resume:
        load_model(model.policy, str(Path(args.resume) / WEIGHTS_FILE), strict=True)
        load_optimizer(model.policy.optimizer, args.resume)
        model.num_timesteps = int(earlier.get("timesteps", 0))
    elif init is not None:
        model.policy.load_state_dict(init.state_dict(), strict=True)

    # 4b. Optional behaviour cloning of a teacher before PPO (see train/pretrain.py); the
    #     cloned policy is kept as a checkpoint too (``pretrained/``).
    pre = conf["pretrain"]
    dagger_teacher = pre["teacher"] if pre["dagger_teacher"] == "same" else pre["dagger_teacher"]
    cloned = None
    if pre["games"] and not args.resume:
        started = time.perf_counter()
        data = collect(
            dict(env_kw, game=game),
            advice,
            pre["teacher"],
            pre["games"],
            ppo["gamma"],
            pre["workers"],
        )
        print(
            f"collected {len(data[2])} {pre['teacher']} decisions from {pre['games']} games "
            f"in {time.perf_counter() - started:.0f} s"
        )
        cloned = behaviour_clone(
            model, data, pre["epochs"], pre["batch_size"], pre["learning_rate"], tr["seed"]
        )
        for k in range(pre["dagger_rounds"]):
            round_started = time.perf_counter()
            extra = dagger_round(
                model.policy,
                spec,
                dict(env_kw, game=game),
                advice,
                dagger_teacher,
                pre["dagger_games"],
                pre["workers"],
                DAGGER_SEEDS + k * pre["dagger_games"],
                run_dir / "dagger_student",
            )
            data = tuple(np.concatenate([a, b]) for a, b in zip(data[:3], extra))
            print(
                f"DAgger round {k + 1}: {len(extra[2])} student states labelled by "
                f"{dagger_teacher}, {len(data[2])} in all "
                f"({time.perf_counter() - round_started:.0f} s)"
            )
            cloned = behaviour_clone(
                model,
                data,
                pre["epochs"],
                pre["batch_size"],
                pre["learning_rate"],
                tr["seed"] + k + 1,
            )
        cloned["seconds"] = round(time.perf_counter() - started, 1)
        del data
        save_checkpoint(
            model.policy,
            run_dir / "pretrained",
            spec,
            {
                "config": conf,
                "timesteps": 0,
                "train_wall_seconds": cloned["seconds"],
                "machine": _machine(),
                "behaviour_cloning": cloned,
            },
            advice,
            game=game,
        )

    # 5. Callbacks: outcomes to TensorBoard, curriculum, resumable saves, masked evaluation.
    per_env = lambda steps: max(steps // tr["n_envs"], 1)  # noqa: E731 (callbacks count calls)
    saved = {"config": conf, "machine": _machine(), "resumed_from": args.resume}
    callbacks = [
        OutcomeLogger(),
        SafeCheckpoint(
            run_dir / "checkpoints", spec, saved, advice, every=out["checkpoint_freq"], game=game
        ),
    ]
    if conf["curriculum"]["stages"]:
        callbacks.append(Curriculum(conf["curriculum"]["stages"], env_kw))
    if ev["freq"]:
        callbacks.append(
            MaskableEvalCallback(
                eval_env,
                n_eval_episodes=ev["episodes"],
                eval_freq=per_env(ev["freq"]),
                callback_on_new_best=SafeCheckpoint(
                    run_dir / "best", spec, saved, advice, game=game
                ),
                log_path=str(run_dir / "eval"),
                deterministic=True,
                verbose=0,
            )
        )

    # 6. Learn. SB3 counts ``total_timesteps`` on top of a resumed count, so a resumed run
    #    asks only for the steps left to the config's total.
    to_go = tr["total_timesteps"] - model.num_timesteps
    started = time.perf_counter()
    model.learn(
        to_go,
        callback=CallbackList(callbacks),
        progress_bar=not args.no_progress,
        reset_num_timesteps=not args.resume,
        tb_log_name="ppo",
    )
    wall = time.perf_counter() - started

    # 7. Save the final policy as a checkpoint folder; a resumed run adds up its history.
    if earlier.get("behaviour_cloning") and cloned is None:
        cloned = earlier["behaviour_cloning"]
    wall_before = earlier.get("train_wall_seconds", 0.0)
    final = save_checkpoint(
        model.policy,
        run_dir / "final",
        spec,
        {
            "config": conf,
            "timesteps": int(model.num_timesteps),
            "train_wall_seconds": round(
                wall_before + wall + (cloned["seconds"] if cloned and not earlier else 0.0), 1
            ),
            "ppo_wall_seconds": round(wall, 1),
            "train_fps": round(to_go / wall, 1),
            "machine": _machine(),
            "resumed_from": args.resume,
            "behaviour_cloning": cloned,
        },
        advice,
        optimizer=model.policy.optimizer,
        game=game,
    )
    print(
        f"trained {model.num_timesteps} steps in {wall:.0f} s "
        f"({to_go / wall:.0f} steps/s); policy saved to {final}"
    )
    venv.close()
    eval_env.close()
    return final


if __name__ == "__main__":
    main()
