"""One evaluation episode, and what every backend shares: the task it runs and how it
reports progress.

Episode i of an evaluation is dealt with seed ``seed + i``: that seed drives the deal and
every reshuffle (``Game.new_state`` and ``State.apply``), and a separate generator derived
from it is the agent's own, so every agent plays exactly the same deals as long as the game
goes the same way, and where (which process, which Ray node) a seed is played does not
matter.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from inselflucht_env.game import get_game

AGENT_STREAM = 0x5EED_A6E7  # mixed into the seed for the agent's generator
MAX_DECISIONS = 5000  # a safety net: no legal game is anywhere near this long
LOSS_CAUSES = get_game("inselflucht").losses  # R6.3, for tables of Inselflucht results


@dataclass
class Episode:
    """One game's result."""

    seed: int
    outcome: str
    turns: int
    lifted: int
    salvaged: int
    decisions: int
    agent_seconds: float
    max_decision_seconds: float = 0.0


def play_episode(agent: Any, config: Any, seed: int, game: str = "inselflucht") -> Episode:
    """Play one game of ``game`` with ``agent`` deciding for every figure."""
    rules = get_game(game)
    deal_rng = np.random.default_rng(seed)
    agent_rng = np.random.default_rng([seed, AGENT_STREAM])
    state = rules.new_state(config, deal_rng)
    decisions = salvaged = 0
    think = longest = 0.0
    clock = time.perf_counter
    while state.outcome is None:
        t0 = clock()
        action = agent.act(state, agent_rng)
        dt = clock() - t0
        think += dt
        if dt > longest:
            longest = dt
        if rules.is_salvage(state, action):
            salvaged += 1
        state.apply(action, deal_rng)
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise RuntimeError(f"seed {seed}: no end after {MAX_DECISIONS} decisions")
    return Episode(
        seed,
        state.outcome,
        state.turn,
        rules.treasures(state),
        salvaged,
        decisions,
        think,
        longest,
    )


@dataclass(frozen=True)
class EpisodeTask:
    """What a backend plays: agent ``spec`` (``agents.make_agent``) with its keyword
    arguments, on ``config`` of ``game``, one episode per seed."""

    spec: str
    config: Any
    agent_kwargs: dict[str, Any] = field(default_factory=dict)
    game: str = "inselflucht"


class Backend(Protocol):
    """Where episodes run: ``pool`` (processes here) or ``ray`` (a Ray cluster). Every
    backend returns the same ``Episode`` list, sorted by seed, for the same task."""

    name: str

    def cpus(self) -> int:
        """The number of episodes it plays at once (reported as ``workers``)."""
        ...

    def run(
        self, task: EpisodeTask, seeds: Iterable[int], progress: bool, desc: str | None
    ) -> list[Episode]: ...


def chunks(seeds: list[int], size: int) -> list[list[int]]:
    """``seeds`` cut into consecutive chunks of ``size``."""
    return [seeds[i : i + size] for i in range(0, len(seeds), size)]


def chunk_size(n_seeds: int, workers: int) -> int:
    """Eight chunks a worker, at most 50 episodes each: even load, little overhead."""
    return max(1, min(50, n_seeds // (workers * 8)))


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(total: int, desc: str, enabled: bool) -> Any:
    """A tqdm bar on stderr counting games, or one that shows nothing (disabled, no tqdm)."""
    if not enabled:
        return _NoBar()
    try:
        from tqdm import tqdm
    except ImportError:  # tqdm is in the [train] extra only
        return _NoBar()
    return tqdm(total=total, desc=desc, unit="game", file=sys.stderr, dynamic_ncols=True)
