"""Replays: any episode as a small JSON file of seed, options and action names.

The engine draws every random card from the env's seeded generator, so the env's keyword
arguments, the ``reset`` seed and options, and the action names replay a game exactly.

* ``Replay``: the record, with ``save(path)`` / ``Replay.load(path)`` (JSON).
* ``ReplayRecorder``: a Gymnasium wrapper that records what the env does (the seed and
  options at ``reset``, the action name at every ``step``); ``recorder.replay`` is the
  episode so far. It always resets with an explicit seed: when none is given it draws one
  (from the env's generator once that is seeded, else from fresh entropy).
* ``record_episode``: play one episode with agents (``act(state, rng) -> int``) and return it.
* ``Replay.from_engine_game``: the record of a game played on the engine directly with
  ``np.random.default_rng(seed)`` (as the evaluation harness does).
* ``replay(rep)``: re-run a record, check every step and the outcome, collect frames.
* ``write_gif(frames, path, fps)``: ``render_mode="rgb_array"`` frames as an animated GIF.

Command line::

    python -m inselflucht_env.replay game.json [--ansi] [--colour] [--gif game.gif] [--fps 2]

A malformed or corrupt file raises ``ValueError`` saying what is wrong and where.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import gymnasium as gym
import numpy as np

from . import __version__
from .actions import ACTION_NAMES, action_index, action_name
from .config import GameConfig
from .engine import OUTCOMES
from .env import ILLEGAL_ACTION_MODES, REWARD_SCHEMES, InselfluchtEnv
from .scenario import OPTION_KEYS, parse_options

FORMAT = "inselflucht-replay"
FORMAT_VERSION = 1
ENV_KEYS = ("players", "taucher", "short_game", "meter", "reward", "illegal_action")
SEED_LIMIT = 2 ** 63


class ReplayMismatchError(ValueError):
    """Re-running a replay did not give the recorded game (illegal step or other outcome)."""


# ---------------------------------------------------------------------------- the record
@dataclass
class Replay:
    """One episode: how to build the env, how it was reset, and what was played.

    ``env_kwargs``: ``InselfluchtEnv`` keyword arguments (``players``, ``taucher``,
    ``short_game``, ``meter`` as the resolved list of levels, ``reward``,
    ``illegal_action``). ``seed`` and ``options``: the ``reset`` arguments. ``actions``:
    action names, one per step. ``outcome``: ``"win"``, ``"L1"``-``"L6"``, ``"illegal"``,
    or ``None`` for an unfinished episode. ``version``: the package version that wrote it.
    ``meta``: free JSON data (who played, where it came from).
    """

    env_kwargs: dict[str, Any]
    seed: int
    options: dict[str, Any] | None = None
    actions: list[str] = field(default_factory=list)
    outcome: str | None = None
    version: str = __version__
    meta: dict[str, Any] = field(default_factory=dict)

    # -- JSON
    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "format_version": FORMAT_VERSION, "version": self.version,
                "env": copy.deepcopy(self.env_kwargs), "seed": self.seed,
                "options": copy.deepcopy(self.options), "actions": list(self.actions),
                "outcome": self.outcome, "meta": copy.deepcopy(self.meta)}

    def to_json(self) -> str:
        """Readable JSON: objects indented, short lists on one line, actions ten a line."""
        return _dump(self.to_dict(), 0) + "\n"

    @classmethod
    def from_dict(cls, data: Any, source: str = "replay") -> "Replay":
        """Validated record from parsed JSON; ``ValueError`` naming the bad field."""
        def bad(msg: str) -> ValueError:
            return ValueError(f"{source}: {msg}")

        if not isinstance(data, Mapping):
            raise bad(f"expected a JSON object, got {type(data).__name__}")
        if data.get("format") != FORMAT:
            raise bad(f"not an Inselflucht replay (field 'format' must be {FORMAT!r}, "
                      f"got {data.get('format')!r})")
        fv = data.get("format_version")
        if fv != FORMAT_VERSION:
            raise bad(f"unsupported format_version {fv!r} (this version reads {FORMAT_VERSION})")
        for key in ("env", "seed", "actions"):
            if key not in data:
                raise bad(f"missing field {key!r}")
        unknown = sorted(set(data) - {"format", "format_version", "version", "env", "seed",
                                      "options", "actions", "outcome", "meta"})
        if unknown:
            raise bad(f"unknown field(s) {unknown}")
        env_kwargs = data["env"]
        if not isinstance(env_kwargs, Mapping):
            raise bad(f"'env' must be an object of env arguments, got {env_kwargs!r}")
        extra = sorted(set(env_kwargs) - set(ENV_KEYS))
        if extra:
            raise bad(f"'env' has unknown argument(s) {extra}; allowed: {list(ENV_KEYS)}")
        env_kwargs = dict(env_kwargs)
        try:
            GameConfig.make(**{k: env_kwargs[k] for k in ("players", "taucher", "short_game",
                                                           "meter") if k in env_kwargs})
        except (TypeError, ValueError) as err:
            raise bad(f"'env': {err}") from None
        if env_kwargs.get("reward", "win") not in REWARD_SCHEMES:
            raise bad(f"'env'.reward must be one of {list(REWARD_SCHEMES)}")
        if env_kwargs.get("illegal_action", "terminate") not in ILLEGAL_ACTION_MODES:
            raise bad(f"'env'.illegal_action must be one of {list(ILLEGAL_ACTION_MODES)}")
        seed = data["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
            raise bad(f"'seed' must be an integer 0 <= seed < 2**63, got {seed!r}")
        options = data.get("options")
        try:
            parse_options(options)
        except ValueError as err:
            raise bad(f"'options': {err}") from None
        actions = data["actions"]
        if not isinstance(actions, list):
            raise bad(f"'actions' must be a list of action names, got {type(actions).__name__}")
        for i, name in enumerate(actions):
            if not isinstance(name, str) or name not in ACTION_NAMES:
                raise bad(f"'actions'[{i}] = {name!r} is not an action name")
        outcome = data.get("outcome")
        if outcome is not None and outcome not in OUTCOMES:
            raise bad(f"'outcome' must be null or one of {list(OUTCOMES)}, got {outcome!r}")
        version = data.get("version", "unknown")
        if not isinstance(version, str):
            raise bad(f"'version' must be a string, got {version!r}")
        meta = data.get("meta") or {}
        if not isinstance(meta, Mapping):
            raise bad(f"'meta' must be an object, got {meta!r}")
        return cls(env_kwargs=env_kwargs, seed=seed,
                   options=None if options is None else dict(options), actions=list(actions),
                   outcome=outcome, version=version, meta=dict(meta))

    @classmethod
    def from_json(cls, text: str, source: str = "replay") -> "Replay":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise ValueError(f"{source}: not valid JSON ({err.msg} at line {err.lineno} "
                             f"column {err.colno})") from None
        return cls.from_dict(data, source)

    def save(self, path: str | os.PathLike) -> Path:
        """Write the record as JSON (UTF-8); returns the path."""
        path = Path(path)
        path.write_text(self.to_json(), encoding="utf-8")
        return path

    @classmethod
    def load(cls, path: str | os.PathLike) -> "Replay":
        """Read a record; ``ValueError`` for a corrupt or malformed file (``OSError`` if unreadable)."""
        path = Path(path)
        raw = path.read_bytes()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            raise ValueError(f"replay file {str(path)!r}: not UTF-8 text (byte {err.start})") from None
        return cls.from_json(text, f"replay file {str(path)!r}")

    @classmethod
    def from_engine_game(cls, config: GameConfig, seed: int, actions: Iterable[int | str],
                         outcome: str | None = None, options: Mapping[str, Any] | None = None,
                         reward: str = "win", meta: Mapping[str, Any] | None = None) -> "Replay":
        """The record of a game played on the engine directly (as an evaluation harness does).

        Valid when the game was set up as ``State.new(config, np.random.default_rng(seed),
        **parse_options(options))`` and every action applied with that same generator: that
        is exactly what ``InselfluchtEnv.reset(seed=seed, options=options)`` and ``step`` do.
        """
        names = [a if isinstance(a, str) else action_name(int(a)) for a in actions]
        env_kwargs = {"players": config.players, "taucher": config.taucher,
                      "short_game": config.short_game, "meter": list(config.meter),
                      "reward": reward, "illegal_action": "terminate"}
        return cls(env_kwargs=env_kwargs, seed=int(seed), options=normalise_options(options),
                   actions=names, outcome=outcome, meta=dict(meta or {}))

    # -- convenience
    def make_env(self, render_mode: str | None = None) -> InselfluchtEnv:
        return InselfluchtEnv(**self.env_kwargs, render_mode=render_mode)

    def action_indices(self) -> list[int]:
        return [action_index(a) for a in self.actions]


def _dump(obj: Any, level: int) -> str:
    pad = "  " * (level + 1)
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        items = [f"{pad}{json.dumps(str(k))}: {_dump(v, level + 1)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * level + "}"
    if isinstance(obj, list) and obj:
        if any(isinstance(v, (dict, list)) for v in obj):
            return "[\n" + ",\n".join(pad + _dump(v, level + 1) for v in obj) + "\n" \
                + "  " * level + "]"
        per_line = 10
        if len(obj) <= per_line:
            return "[" + ", ".join(json.dumps(v, ensure_ascii=False) for v in obj) + "]"
        lines = [", ".join(json.dumps(v, ensure_ascii=False) for v in obj[k:k + per_line])
                 for k in range(0, len(obj), per_line)]
        return "[\n" + pad + (",\n" + pad).join(lines) + "\n" + "  " * level + "]"
    return json.dumps(obj, ensure_ascii=False)


def env_kwargs_of(env: InselfluchtEnv) -> dict[str, Any]:
    """The keyword arguments that rebuild ``env`` (meter as its resolved levels)."""
    cfg = env.config
    return {"players": cfg.players, "taucher": cfg.taucher, "short_game": cfg.short_game,
            "meter": list(cfg.meter), "reward": env.reward_scheme,
            "illegal_action": env.illegal_action}


def normalise_options(options: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """Reset options as plain JSON data (validated; numpy ints and tuples become ints and lists)."""
    if options is None:
        return None
    parse_options(options)
    out: dict[str, Any] = {}
    for key in OPTION_KEYS:
        if key not in options:
            continue
        value = options[key]
        if value is None:
            out[key] = None
        elif key == "layout":
            out[key] = [str(line) for line in value]
        else:
            out[key] = [int(v) for v in value]
    return out


def _fresh_seed() -> int:
    return int(np.random.default_rng().integers(2 ** 31 - 1))


# ---------------------------------------------------------------------------- recording
class ReplayRecorder(gym.Wrapper):
    """Records every episode of an ``InselfluchtEnv`` (or a wrapper around one).

    ``replay``: the current (or just finished) episode; ``replays``: the finished ones,
    newest last (at most ``keep``). With ``directory`` each finished episode is also
    saved there as ``{name_prefix}-{n}.json``. ``meta`` is copied into every record.
    """

    def __init__(self, env: gym.Env, directory: str | os.PathLike | None = None,
                 name_prefix: str = "episode", meta: Mapping[str, Any] | None = None,
                 keep: int = 100):
        super().__init__(env)
        if not isinstance(env.unwrapped, InselfluchtEnv):
            raise ValueError("ReplayRecorder needs an InselfluchtEnv inside, got "
                             f"{type(env.unwrapped).__name__}")
        self.directory = None if directory is None else Path(directory)
        if self.directory is not None:
            self.directory.mkdir(parents=True, exist_ok=True)
        self.name_prefix = name_prefix
        self.meta = dict(meta or {})
        self.keep = keep
        self.replays: list[Replay] = []
        self.episode_count = 0
        self._current: Replay | None = None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        if seed is None:
            inner = self.env.unwrapped
            seeded = getattr(inner, "_np_random", None) is not None
            seed = int(inner.np_random.integers(2 ** 31 - 1)) if seeded else _fresh_seed()
        elif isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) \
                or not 0 <= int(seed) < SEED_LIMIT:
            raise ValueError(f"seed={seed!r} must be an integer 0 <= seed < 2**63 to be replayable")
        seed = int(seed)
        stored = normalise_options(options)
        obs, info = self.env.reset(seed=seed, options=options)
        self._current = Replay(env_kwargs=env_kwargs_of(self.env.unwrapped), seed=seed,
                               options=stored, meta=copy.deepcopy(self.meta))
        return obs, info

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        rep = self._current
        if rep is not None:
            rep.actions.append(action_name(int(action)))
            if terminated or truncated:
                rep.outcome = info.get("outcome")
                self._finish(rep)
        return obs, reward, terminated, truncated, info

    def _finish(self, rep: Replay) -> None:
        self.episode_count += 1
        self.replays.append(copy.deepcopy(rep))
        del self.replays[:-self.keep]
        if self.directory is not None:
            rep.save(self.directory / f"{self.name_prefix}-{self.episode_count}.json")

    @property
    def replay(self) -> Replay:
        """The current episode so far (a copy); ``RuntimeError`` before the first reset."""
        if self._current is None:
            raise RuntimeError("nothing recorded yet: call reset() first")
        return copy.deepcopy(self._current)


def _agent_for(agents: Any, figure: int) -> Any:
    if hasattr(agents, "act"):
        return agents
    return agents[figure]


def record_episode(agents: Any, *, seed: int | None = None,
                   options: Mapping[str, Any] | None = None,
                   agent_rng: np.random.Generator | None = None,
                   meta: Mapping[str, Any] | None = None, max_steps: int = 100_000,
                   **env_kwargs: Any) -> Replay:
    """Play one episode and return its record.

    ``agents``: one agent for every figure, or a sequence with one per figure; an agent
    has ``act(state, rng) -> int`` (a legal action of ``state.decider``). ``env_kwargs``
    go to ``InselfluchtEnv``. ``agent_rng`` drives the agents (default: from ``seed``).
    """
    env = ReplayRecorder(InselfluchtEnv(**env_kwargs), meta=meta)
    env.reset(seed=seed, options=dict(options) if options is not None else None)
    rng = agent_rng if agent_rng is not None else np.random.default_rng(
        [env.replay.seed, 1])
    state = env.unwrapped.game_state
    for _ in range(max_steps):
        action = _agent_for(agents, state.decider).act(state, rng)
        _, _, terminated, truncated, _ = env.step(int(action))
        if terminated or truncated:
            break
    return env.replay


# ---------------------------------------------------------------------------- replaying
@dataclass
class ReplayResult:
    """What re-running a record gave: the outcome, steps, frames and the final public state.

    ``frames``: one per state (after reset, after every step) for ``render_mode``
    ``"ansi"`` (text) or ``"rgb_array"`` (images); empty otherwise. ``deciders``: the
    figure that chose each action.
    """

    outcome: str | None
    steps: int
    frames: list[Any]
    final: dict[str, Any]
    deciders: list[int]


def replay(rep: Replay, render_mode: str | None = None, verify: bool = True) -> ReplayResult:
    """Re-run a record exactly; with ``verify`` raise ``ReplayMismatchError`` on any difference.

    Checked: every action is playable at its step (an illegal one only as the recorded
    last step of an ``"illegal"`` outcome), no actions follow the end, and the outcome
    is the recorded one (``None``: the game must still be running).
    """
    env = rep.make_env(render_mode)
    frames: list[Any] = []
    deciders: list[int] = []
    collect = render_mode in ("ansi", "rgb_array")
    env.reset(seed=rep.seed, options=rep.options)
    if collect:
        frames.append(env.render())
    outcome = None
    for i, name in enumerate(rep.actions):
        if outcome is not None:
            raise ReplayMismatchError(
                f"replay: the game ended ({outcome}) after step {i}, but "
                f"{len(rep.actions) - i} more action(s) are recorded")
        index = action_index(name)
        state = env.game_state
        if verify and index not in state.legal_actions() and not (
                rep.outcome == "illegal" and i == len(rep.actions) - 1):
            legal = ", ".join(ACTION_NAMES[a] for a in state.legal_actions())
            raise ReplayMismatchError(
                f"replay: step {i + 1} {name!r} is not legal in the replayed game "
                f"(legal: {legal}); the file does not match this version of the rules")
        deciders.append(state.decider)
        try:
            _, _, terminated, truncated, info = env.step(index)
        except ValueError as err:  # illegal_action="raise" in the record
            raise ReplayMismatchError(f"replay: step {i + 1} {name!r}: {err}") from None
        if collect:
            frames.append(env.render())
        if terminated or truncated:
            outcome = info.get("outcome")
    if verify and outcome != rep.outcome:
        raise ReplayMismatchError(
            f"replay: recorded outcome {rep.outcome!r} but the replayed game gave {outcome!r}")
    final = env.describe()
    env.close()
    return ReplayResult(outcome=outcome, steps=len(rep.actions), frames=frames, final=final,
                        deciders=deciders)


def write_gif(frames: Iterable[np.ndarray], path: str | os.PathLike, fps: float = 2.0,
              loop: int = 0) -> Path:
    """Write RGB frames (uint8 H x W x 3, all one size) as an animated GIF with Pillow.

    Identical consecutive frames are merged by Pillow (their time adds up).
    """
    from PIL import Image

    frames = list(frames)
    if not frames:
        raise ValueError("write_gif needs at least one frame")
    if not fps > 0:
        raise ValueError(f"fps must be positive, got {fps!r}")
    shape = None
    images = []
    for k, frame in enumerate(frames):
        arr = np.asarray(frame)
        if arr.ndim != 3 or arr.shape[2] != 3 or arr.dtype != np.uint8:
            raise ValueError(f"frame {k} must be a uint8 array of shape (H, W, 3), "
                             f"got {arr.dtype} {arr.shape}")
        if shape is None:
            shape = arr.shape
        elif arr.shape != shape:
            raise ValueError(f"frame {k} has shape {arr.shape}, frame 0 has {shape}")
        images.append(Image.fromarray(arr, "RGB"))
    path = Path(path)
    images[0].save(path, format="GIF", save_all=True, append_images=images[1:],
                   duration=max(int(round(1000 / fps)), 20), loop=loop)
    return path


# ---------------------------------------------------------------------------- CLI
def main(argv: Sequence[str] | None = None, stdout=None) -> int:
    out = stdout or sys.stdout
    parser = argparse.ArgumentParser(
        prog="python -m inselflucht_env.replay",
        description="Check an Inselflucht replay file, show it as text or write it as a GIF.")
    parser.add_argument("file", help="replay JSON file")
    parser.add_argument("--ansi", action="store_true", help="print the game step by step")
    parser.add_argument("--colour", "--color", action="store_true",
                        help="with --ansi: ANSI colours")
    parser.add_argument("--gif", metavar="OUT", help="write the game as an animated GIF")
    parser.add_argument("--fps", type=float, default=2.0, help="GIF frames per second (2)")
    args = parser.parse_args(argv)
    try:
        rep = Replay.load(args.file)
        result = replay(rep)  # verify first, without rendering
        kw = ", ".join(f"{k}={v}" for k, v in rep.env_kwargs.items())
        print(f"{args.file}: {kw}; seed {rep.seed}; {len(rep.actions)} action(s); "
              f"outcome {result.outcome or 'unfinished'}: replayed exactly", file=out)
        if args.ansi:
            _print_ansi(rep, result.deciders, args.colour, out)
        if args.gif:
            frames = replay(rep, render_mode="rgb_array").frames
            write_gif(frames, args.gif, fps=args.fps)
            print(f"wrote {args.gif} ({len(frames)} frames)", file=out)
    except (OSError, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0


def _print_ansi(rep: Replay, deciders: list[int], colour: bool, out) -> None:
    from .render_text import render_ansi

    env = rep.make_env()
    env.reset(seed=rep.seed, options=rep.options)
    print(render_ansi(env.game_state, colour=colour), file=out)
    for i, (name, fig) in enumerate(zip(rep.actions, deciders), start=1):
        env.step(action_index(name))
        print(f"\n--- step {i}: figure {fig} plays {name}", file=out)
        print(render_ansi(env.game_state, colour=colour), file=out)


if __name__ == "__main__":
    raise SystemExit(main())
