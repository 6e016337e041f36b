"""The differential check: the compiled engine against the reference, action by action.

    python -m inselflucht_env.compiled.verify --games 1000000 --workers 2

Each game is dealt by the reference (``State.new``, every pass of flood decks scripted so
that neither engine draws randomness of its own), copied into a row (``convert.to_row``),
and then both engines take the same actions: a uniformly random legal action, or the
heuristic's, with a per-game mix so that games run long enough to lift, give, pay short
suits, escape and win. After every action the legal actions and the observation (bit for
bit) must agree; the whole state (public and hidden, as ``to_row`` writes it) is compared
after every action with ``full=True`` (the tests) or at the end of each game (the long run).
Settings cycle over players 1-4, every meter preset, Taucher and Kurzes Spiel.
"""

from __future__ import annotations

import argparse
import itertools
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from inselflucht_env.compiled import observe, rules
from inselflucht_env.compiled.convert import from_row, to_row
from inselflucht_env.games.inselflucht.heuristic import HeuristicAgent
from inselflucht_env.games.inselflucht.observation import OBSERVATION_SIZE, encode_observation
from inselflucht_env.games.inselflucht.rules.actions import ACTION_NAMES, N_ACTIONS
from inselflucht_env.games.inselflucht.rules.config import METER_PRESETS, GameConfig
from inselflucht_env.games.inselflucht.rules.engine import State

SETTINGS = tuple(
    GameConfig.make(players, taucher, short_game, meter)
    for players, meter, taucher, short_game in itertools.product(
        (1, 2, 3, 4), sorted(METER_PRESETS), (False, True), (False, True)
    )
)
HEURISTIC_SHARES = (0.0, 0.7, 0.95)  # per game: how often the heuristic picks the action


class Mismatch(AssertionError):
    """The engines disagree; the message names the game, the step and what differs."""


@dataclass
class Report:
    games: int = 0
    actions: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)

    def add(self, other: Report) -> None:
        self.games += other.games
        self.actions += other.actions
        for k, v in other.outcomes.items():
            self.outcomes[k] = self.outcomes.get(k, 0) + v


def _compare(game: int, step: int, state: State, row: np.ndarray, full: bool) -> None:
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    mask = np.zeros(N_ACTIONS, dtype=np.int8)
    observe.encode(row, obs)
    observe.write_mask(row, mask)
    legal = state.legal_actions()
    if np.flatnonzero(mask).tolist() != legal:
        names = [ACTION_NAMES[a] for a in np.flatnonzero(mask)]
        raise Mismatch(f"game {game} step {step}: legal {names}, reference {legal}")
    reference = encode_observation(state)
    if not np.array_equal(reference.view(np.uint32), obs.view(np.uint32)):
        raise Mismatch(
            f"game {game} step {step}: observation entries {np.flatnonzero(reference != obs)}"
        )
    if full or state.outcome is not None:
        mine = to_row(from_row(row, state.config))
        if not np.array_equal(mine, to_row(state)):
            raise Mismatch(
                f"game {game} step {step}: state fields at {np.flatnonzero(mine != to_row(state))}"
            )


def check_games(first: int, count: int, full: bool = True) -> Report:
    """Play games ``first`` .. ``first + count - 1`` in both engines; ``Mismatch`` on the
    first disagreement."""
    report = Report()
    heuristic = HeuristicAgent()
    no_rng = np.zeros(1, dtype=np.uint64)  # every pass is scripted: never drawn from
    for game in range(first, first + count):
        rng = np.random.default_rng(game)
        config = SETTINGS[game % len(SETTINGS)]
        share = HEURISTIC_SHARES[game // len(SETTINGS) % len(HEURISTIC_SHARES)]
        passes = len(config.meter)
        decks = [[(rng.permutation(5) + 1).tolist() for _ in range(passes)] for _ in "cr"]
        state = State.new(config, rng, column_deck=decks[0], row_deck=decks[1])
        row = to_row(state)
        step = 0
        while True:
            _compare(game, step, state, row, full)
            if state.outcome is not None:
                break
            legal = state.legal_actions()
            if rng.random() < share:
                action = heuristic.act(state, rng)
            else:
                action = legal[int(rng.integers(len(legal)))]
            state.apply(action, rng)
            rules.apply(row, action, no_rng)
            step += 1
        report.games += 1
        report.actions += step
        report.outcomes[state.outcome] = report.outcomes.get(state.outcome, 0) + 1
    return report


def _chunk(args: tuple[int, int]) -> Report:
    return check_games(*args, full=False)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--first", type=int, default=0, help="first game number (its seed)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=5_000)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    total = Report()
    chunks = [
        (start, min(args.chunk, args.first + args.games - start))
        for start in range(args.first, args.first + args.games, args.chunk)
    ]
    with ProcessPoolExecutor(args.workers) as pool:
        for done, report in enumerate(pool.map(_chunk, chunks), 1):
            total.add(report)
            print(
                f"{total.games:>9} games {total.actions:>11} actions equal "
                f"({time.perf_counter() - started:.0f} s) [{done}/{len(chunks)}]",
                flush=True,
            )
    print(f"all equal: {total.games} games, {total.actions} actions, outcomes {total.outcomes}")


if __name__ == "__main__":
    main()
