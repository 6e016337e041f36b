"""Speed benchmark: random legal play, steps per second, beside reference environments.

    python -m inselflucht_env.bench [--seconds 3] [--repeats 3] [--json]

Every row plays uniformly random legal actions in one process. "engine" is the bare rules
engine (legal actions + apply); "gymnasium" is ``gymnasium.make("Inselflucht-v0")`` (step,
int8 mask in ``info`` and the observation tensor). The references are Gymnasium's
``Blackjack-v1`` and PettingZoo's ``connect_four_v3`` (with its action mask), measured in
the same run, so the comparison holds on whatever machine runs it: absolute figures differ
by machine and load, ratios carry over. The rows take turns (one measurement of each per
round), so a change of load hits every row alike; each figure is the median over the
rounds, each ratio the median of the ratios within a round.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections.abc import Callable

import gymnasium as gym
import numpy as np

import inselflucht_env  # noqa: F401  (registers Inselflucht-v0)
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from inselflucht_env.games.inselflucht.rules.engine import State


def _timed(run: Callable[[float], int], seconds: float) -> float:
    start = time.perf_counter()
    steps = run(start + seconds)
    return steps / (time.perf_counter() - start)


def engine_steps(deadline: float) -> int:
    config = GameConfig.make(players=2)
    rng = np.random.default_rng(0)
    pick = random.Random(0).choice
    steps = 0
    while time.perf_counter() < deadline:
        state = State.new(config, rng)
        while state.outcome is None:
            state.apply(pick(state.legal_actions()), rng)
            steps += 1
    return steps


def gymnasium_steps(deadline: float) -> int:
    env = gym.make("Inselflucht-v0", players=2)
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


BENCHMARKS: dict[str, Callable[[float], int]] = {
    "Inselflucht engine (legal actions + apply)": engine_steps,
    "Inselflucht-v0 Gymnasium (step + mask + observation)": gymnasium_steps,
    "Gymnasium Blackjack-v1": blackjack_steps,
    "PettingZoo connect_four_v3 (AEC + mask)": connect_four_steps,
}


REFERENCES = {
    "connect_four_v3": "PettingZoo connect_four_v3 (AEC + mask)",
    "Blackjack-v1": "Gymnasium Blackjack-v1",
}


def measure(
    seconds: float, rounds: int
) -> tuple[dict[str, float | None], dict[str, dict[str, float | None]]]:
    """Steps per second of every row (median over the rounds) and each row's ratio to each
    reference (median of the per-round ratios); None where a row could not run."""
    samples: dict[str, list[float] | None] = {name: [] for name in BENCHMARKS}
    for name, run in BENCHMARKS.items():  # warm-up, untimed: imports and first-call costs
        try:
            run(time.perf_counter() + min(seconds, 0.2))
        except ImportError as err:  # pettingzoo (and pygame for its classic games) is optional
            samples[name] = None
            print(f"skipped {name}: {err}")
    for _ in range(rounds):
        for name, run in BENCHMARKS.items():
            taken = samples[name]
            if taken is not None:
                taken.append(_timed(run, seconds))
    rates = {name: None if s is None else statistics.median(s) for name, s in samples.items()}
    ratios: dict[str, dict[str, float | None]] = {}
    for name, s in samples.items():
        ratios[name] = {}
        for ref, ref_name in REFERENCES.items():
            r = samples[ref_name]
            ratios[name][ref] = (
                None if s is None or r is None else statistics.median(a / b for a, b in zip(s, r))
            )
    return rates, ratios


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--repeats", type=int, default=3, help="rounds of measurements (median)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, as the targets say
    rates, ratios = measure(args.seconds, args.repeats)
    if args.json:
        print(json.dumps({"steps_per_second": rates, "ratios": ratios}))
        return

    def ratio(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.2f}x"

    print(
        f"| environment | steps/s (median of {args.repeats} x {args.seconds:g} s, one core) "
        f"| vs connect_four_v3 | vs Blackjack-v1 |"
    )
    print("|---|---:|---:|---:|")
    for name, rate in rates.items():
        versus = ratios[name]
        print(
            f"| {name} | {'n/a' if rate is None else f'{rate:,.0f}'} "
            f"| {ratio(versus['connect_four_v3'])} | {ratio(versus['Blackjack-v1'])} |"
        )


if __name__ == "__main__":
    main()
