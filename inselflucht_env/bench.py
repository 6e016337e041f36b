"""Speed benchmark: the Python and the compiled paths side by side, beside references.

    python -m inselflucht_env.bench [--seconds 3] [--repeats 3] [--json] [--one-core]
        [--no-compiled] [--ppo]

Rows, each a rate per second: "engine" is the bare rules engine playing uniformly random
legal actions (legal actions + apply); "Inselflucht-v0" is ``gymnasium.make`` (step, int8
mask in ``info``, observation); the compiled rows are the batched engine on 1,024 games
(mask + apply), the native vector env on 1,024 envs (``make_vec(...,
vectorization_mode="vector_entry_point")``: step, observation, mask, autoreset; the random
actions drawn by a compiled sampler), and heuristic decisions and search labels (100
rollouts) in Python and compiled; Forbidden Island's engine and ``ForbiddenIsland-v0`` (2
players, novice, random play) are Python rows too. ``--ppo`` adds MaskablePPO's training
steps on the compiled ``VecEnv`` against 8 ``DummyVecEnv`` envs. Below the table: the
compiled core's first use after install, cold (an empty Numba cache) and cached.

The references are Gymnasium's ``Blackjack-v1`` and PettingZoo's ``connect_four_v3`` (with
its action mask), measured in the same run, so the comparison holds on whatever machine
runs it: absolute figures differ by machine and load, ratios carry over. The rows take
turns (one measurement of each per round), so a change of load hits every row alike; each
figure is the median over the rounds, each ratio the median of the ratios within a round.
Python rows use one core; compiled rows use every core Numba is given (``--one-core``
pins the whole run to one).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np

import inselflucht_env  # noqa: F401  (registers Inselflucht-v0)
from inselflucht_env.game import get_game
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from inselflucht_env.games.inselflucht.rules.engine import State


def _timed(run: Callable[[float], int], seconds: float) -> float:
    start = time.perf_counter()
    steps = run(start + seconds)
    return steps / (time.perf_counter() - start)


def engine_steps(deadline: float, game: str = "inselflucht") -> int:
    """Random play on a game's engine (2 players, its default settings)."""
    rules = get_game(game)
    config = rules.make_config(players=2)
    rng = np.random.default_rng(0)
    pick = random.Random(0).choice
    steps = 0
    while time.perf_counter() < deadline:
        state = rules.new_state(config, rng)
        while state.outcome is None:
            state.apply(pick(state.legal_actions()), rng)
            steps += 1
    return steps


def gymnasium_steps(deadline: float, env_id: str = "Inselflucht-v0") -> int:
    env = gym.make(env_id, players=2)
    pick = random.Random(0).choice
    steps, episode = 0, 0
    while time.perf_counter() < deadline:
        _, info = env.reset(seed=episode)
        episode += 1
        done = False
        while not done:
            action = pick(np.flatnonzero(info["action_mask"]))
            _, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
            steps += 1
    return steps


def blackjack_steps(deadline: float) -> int:
    env = gym.make("Blackjack-v1")
    pick = random.Random(0).randrange
    steps, episode = 0, 0
    while time.perf_counter() < deadline:
        env.reset(seed=episode)
        episode += 1
        done = False
        while not done:
            _, _, terminated, truncated, _ = env.step(pick(2))
            done = terminated or truncated
            steps += 1
    return steps


def connect_four_steps(deadline: float) -> int:
    from pettingzoo.classic import connect_four_v3

    env = connect_four_v3.env()
    pick = random.Random(0).choice
    steps, episode = 0, 0
    while time.perf_counter() < deadline:
        env.reset(seed=episode)
        episode += 1
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            action = None if terminated or truncated else pick(np.flatnonzero(obs["action_mask"]))
            env.step(action)
            steps += 1
    return steps


BATCH = 1_024  # games in the compiled rows


def compiled_engine_steps(deadline: float) -> int:
    from inselflucht_env.compiled import kernels
    from inselflucht_env.compiled.batch import Batch

    batch = Batch(BATCH, GameConfig.make(players=2), seed=0)
    steps = 0
    while time.perf_counter() < deadline:
        kernels.step_random(batch.states, batch.template, batch.layout, batch.rng)
        steps += BATCH
    return steps


def vector_env_steps(deadline: float) -> int:
    from inselflucht_env.compiled import kernels
    from inselflucht_env.compiled.batch import seed_states

    envs = gym.make_vec(
        "Inselflucht-v0", num_envs=BATCH, vectorization_mode="vector_entry_point", players=2
    )
    _, info = envs.reset(seed=0)
    actions = np.zeros(BATCH, dtype=np.int64)
    rng = seed_states(1, BATCH)
    steps = 0
    while time.perf_counter() < deadline:
        kernels.sample_masks(info["action_mask"], rng, actions)
        _, _, _, _, info = envs.step(actions)
        steps += BATCH
    return steps


SEARCH_STATES = 4_000  # decision states the search rows label, made once per run


@functools.cache
def _heuristic_states() -> list[State]:
    """Decision states of heuristic games at 2p normal (for the search rows), made once,
    by the untimed warm-up, so that no measurement includes making them."""
    from inselflucht_env.games.inselflucht.heuristic import HeuristicAgent

    agent, rng = HeuristicAgent(), np.random.default_rng(0)
    states: list[State] = []
    count = SEARCH_STATES
    while len(states) < count:
        state = State.new(GameConfig.make(players=2), rng)
        while state.outcome is None and len(states) < count:
            if len(state.legal_actions()) > 1 and state.pending is None:
                states.append(state.clone())
            state.apply(agent.act(state, rng), rng)
    return states


def heuristic_decisions(deadline: float) -> int:
    from inselflucht_env.games.inselflucht.heuristic import HeuristicAgent

    agent, rng, decisions = HeuristicAgent(), np.random.default_rng(0), 0
    while time.perf_counter() < deadline:
        state = State.new(GameConfig.make(players=2), rng)
        while state.outcome is None:
            state.apply(agent.act(state, rng), rng)
            decisions += 1
    return decisions


def compiled_heuristic_decisions(deadline: float) -> int:
    from inselflucht_env.compiled import play
    from inselflucht_env.compiled.batch import Batch

    batch = Batch(BATCH, GameConfig.make(players=2), seed=0)
    decisions = 0
    while time.perf_counter() < deadline:
        decisions += play.heuristic_steps(batch, 1)
    return decisions


def search_labels(deadline: float) -> int:
    from inselflucht_env.agents.search import SearchAgent

    agent, rng, labels = SearchAgent(simulations=100, seconds=60.0), np.random.default_rng(0), 0
    for state in _heuristic_states():
        if time.perf_counter() >= deadline:
            break
        agent.act(state, rng)
        labels += 1
    return labels


def compiled_search_labels(deadline: float) -> int:
    from inselflucht_env.compiled.search import CompiledSearch

    agent, rng, labels = CompiledSearch(simulations=100), np.random.default_rng(0), 0
    states = _heuristic_states()
    while time.perf_counter() < deadline:
        at = labels % (SEARCH_STATES - 64)
        labels += len(agent.act_many(states[at : at + 64], rng))
    return labels


def _ppo_steps(deadline: float, compiled: bool) -> int:
    from sb3_contrib import MaskablePPO

    if compiled:
        from inselflucht_env.compiled.sb3 import CompiledVecEnv

        venv: Any = CompiledVecEnv(64, seed=0)
        n_steps = 32
    else:
        from stable_baselines3.common.env_util import make_vec_env

        venv = make_vec_env("Inselflucht-v0", n_envs=8, seed=0)
        n_steps = 256
    model = MaskablePPO("MlpPolicy", venv, n_steps=n_steps, batch_size=256, n_epochs=1, seed=0)
    chunk = n_steps * venv.num_envs
    while time.perf_counter() < deadline:
        model.learn(chunk, reset_num_timesteps=False)
    return model.num_timesteps


def ppo_compiled_steps(deadline: float) -> int:
    return _ppo_steps(deadline, compiled=True)


def ppo_dummy_steps(deadline: float) -> int:
    return _ppo_steps(deadline, compiled=False)


PYTHON_ROWS: dict[str, Callable[[float], int]] = {
    "Inselflucht engine (legal actions + apply)": engine_steps,
    "Inselflucht-v0 Gymnasium (step + mask + observation)": gymnasium_steps,
    "Python heuristic (decisions, engine included)": heuristic_decisions,
    "Python search, 100 rollouts (labels)": search_labels,
    "Forbidden Island engine (legal actions + apply)": functools.partial(
        engine_steps, game="forbidden_island"
    ),
    "ForbiddenIsland-v0 Gymnasium (step + mask + observation)": functools.partial(
        gymnasium_steps, env_id="ForbiddenIsland-v0"
    ),
}
COMPILED_ROWS: dict[str, Callable[[float], int]] = {
    f"compiled engine, batch of {BATCH:,} (mask + apply)": compiled_engine_steps,
    f"native vector env, {BATCH:,} envs (step + obs + mask + autoreset)": vector_env_steps,
    f"compiled heuristic, batch of {BATCH:,} (decisions, engine included)": (
        compiled_heuristic_decisions
    ),
    "compiled search, 100 rollouts (labels)": compiled_search_labels,
}
PPO_ROWS: dict[str, Callable[[float], int]] = {
    "MaskablePPO on 8 DummyVecEnv envs (training steps)": ppo_dummy_steps,
    "MaskablePPO on the compiled VecEnv, 64 envs (training steps)": ppo_compiled_steps,
}
REFERENCE_ROWS: dict[str, Callable[[float], int]] = {
    "Gymnasium Blackjack-v1": blackjack_steps,
    "PettingZoo connect_four_v3 (AEC + mask)": connect_four_steps,
}
BENCHMARKS: dict[str, Callable[[float], int]] = {
    **PYTHON_ROWS,
    **COMPILED_ROWS,
    **REFERENCE_ROWS,
}
# Each compiled row against the Python row it replaces, as the targets of issue 38 read.
SPEED_UPS = {
    f"compiled engine, batch of {BATCH:,} (mask + apply)": (
        "Inselflucht engine (legal actions + apply)"
    ),
    f"native vector env, {BATCH:,} envs (step + obs + mask + autoreset)": (
        "Inselflucht-v0 Gymnasium (step + mask + observation)"
    ),
    f"compiled heuristic, batch of {BATCH:,} (decisions, engine included)": (
        "Python heuristic (decisions, engine included)"
    ),
    "compiled search, 100 rollouts (labels)": "Python search, 100 rollouts (labels)",
    "MaskablePPO on the compiled VecEnv, 64 envs (training steps)": (
        "MaskablePPO on 8 DummyVecEnv envs (training steps)"
    ),
}

_FIRST_USE = (
    "import time; t = time.perf_counter()\n"
    "import gymnasium as gym, numpy as np, inselflucht_env\n"
    "envs = gym.make_vec('Inselflucht-v0', num_envs=4, vectorization_mode='vector_entry_point')\n"
    "envs.reset(seed=0); envs.step(np.full(4, 18))\n"
    "print(time.perf_counter() - t)\n"
)


def first_use_seconds() -> dict[str, float]:
    """Seconds from a fresh interpreter to the first vector-env step: with an empty Numba
    cache (compiling everything) and then with the cache that run left."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        times = {}
        for kind in ("cold", "cached"):
            out = subprocess.run(
                [sys.executable, "-c", _FIRST_USE],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            times[kind] = float(out.split()[-1])
    return times


REFERENCES = {
    "connect_four_v3": "PettingZoo connect_four_v3 (AEC + mask)",
    "Blackjack-v1": "Gymnasium Blackjack-v1",
}


def measure(
    seconds: float, rounds: int, rows: dict[str, Callable[[float], int]] | None = None
) -> tuple[dict[str, float | None], dict[str, dict[str, float | None]]]:
    """Rate per second of every row (median over the rounds) and each row's ratio to each
    reference and to the Python row it replaces (``SPEED_UPS``; median of the per-round
    ratios); None where a row could not run."""
    rows = BENCHMARKS if rows is None else rows
    samples: dict[str, list[float] | None] = {name: [] for name in rows}
    for name, run in rows.items():  # warm-up, untimed: imports, compiling, first calls
        try:
            run(time.perf_counter() + min(seconds, 0.2))
        except ImportError as err:  # pettingzoo (and pygame for its classic games) is optional
            samples[name] = None
            print(f"skipped {name}: {err}")
    for _ in range(rounds):
        for name, run in rows.items():
            taken = samples[name]
            if taken is not None:
                taken.append(_timed(run, seconds))
    rates = {name: None if s is None else statistics.median(s) for name, s in samples.items()}
    versus = {**{ref: name for ref, name in REFERENCES.items()}, "python": None}
    ratios: dict[str, dict[str, float | None]] = {}
    for name, s in samples.items():
        ratios[name] = {}
        for ref, ref_name in versus.items():
            if ref == "python":
                ref_name = SPEED_UPS.get(name)
            r = samples.get(ref_name) if ref_name else None
            ratios[name][ref] = (
                None if s is None or r is None else statistics.median(a / b for a, b in zip(s, r))
            )
    return rates, ratios


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--repeats", type=int, default=3, help="rounds of measurements (median)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--one-core", action="store_true", help="pin the run to one core")
    parser.add_argument("--no-compiled", action="store_true", help="only the Python rows")
    parser.add_argument("--ppo", action="store_true", help="add the MaskablePPO rows")
    args = parser.parse_args(argv)
    if args.one_core and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    rows = {**PYTHON_ROWS, **({} if args.no_compiled else COMPILED_ROWS)}
    rows.update({**(PPO_ROWS if args.ppo else {}), **REFERENCE_ROWS})
    rates, ratios = measure(args.seconds, args.repeats, rows)
    first_use = None if args.no_compiled else first_use_seconds()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if args.json:
        print(
            json.dumps(
                {"per_second": rates, "ratios": ratios, "first_use_s": first_use, "cores": cores}
            )
        )
        return

    def ratio(value: float | None) -> str:
        return "" if value is None else f"{value:,.2f}x"

    print(
        f"| row (per second: median of {args.repeats} x {args.seconds:g} s, {cores} core(s)) "
        "| rate | vs connect_four_v3 | vs Blackjack-v1 | vs its Python row |"
    )
    print("|---|---:|---:|---:|---:|")
    for name, rate in rates.items():
        r = ratios[name]
        print(
            f"| {name} | {'n/a' if rate is None else f'{rate:,.0f}'} "
            f"| {ratio(r['connect_four_v3'])} | {ratio(r['Blackjack-v1'])} "
            f"| {ratio(r['python'])} |"
        )
    if first_use:
        print(
            f"\nfirst vector-env step in a fresh process: {first_use['cold']:.1f} s with an "
            f"empty Numba cache (compiling), {first_use['cached']:.1f} s cached"
        )


if __name__ == "__main__":
    main()
