"""The heuristic (and the novice, which shares its code) plays exactly as recorded.

``tests/data/heuristic_games.json`` holds complete games, each with its settings, seed,
agent keyword arguments and every decision, played by ``make_agent(...)`` deciding for
every figure the way the evaluation harness's ``play_episode`` plays them (deal and flood
generator from the seed, the agent's own generator from ``[seed, AGENT_STREAM]``). The
games cover 1-4 players, the three meters, Taucher and the short game, the novice, and for
every heuristic weight a game in which changing that weight changes the play, so a weight
wired to the wrong place shows too (all but ``salvage_short``, which decides next to
nothing: no such game within the probe's seeds). A refactor of ``heuristic.py`` must
replay them all.

Re-record only when the heuristic's play is *meant* to change:

    python -m tests.test_heuristic_unchanged --record
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from inselflucht_env.agents import make_agent
from inselflucht_env.games.inselflucht.heuristic import DEFAULT_WEIGHTS
from inselflucht_env.games.inselflucht.rules import actions as A
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from inselflucht_env.games.inselflucht.rules.engine import State

DATA = Path(__file__).resolve().parent / "data" / "heuristic_games.json"
# the harness's values, fixed here: the recording depends on them
AGENT_STREAM = 0x5EED_A6E7  # mixed into the seed for the agent's generator
MAX_DECISIONS = 5000  # a safety net: no legal game is anywhere near this long

PLAYERS = (1, 2, 3, 4)
METERS = ("leicht", "normal", "schwer")
VARIANTS = ((False, False), (True, False), (False, True), (True, True))  # (taucher, short_game)
SEEDS_PER_SETTING = 2  # heuristic games per players x meter x variant
NOVICE_GAMES = 12  # the first settings again, played by the novice
PROBE_FACTORS = (2, 0.5, 0, 10)  # changes tried per weight for a game where it changes play
PROBE_SEEDS = 60  # ... on this many seeds each


def _settings(
    agent: str,
    players: int,
    meter: str,
    taucher: bool,
    short_game: bool,
    seed: int,
    kwargs: dict[str, float] | None = None,
) -> dict[str, Any]:
    return {
        "agent": agent,
        "kwargs": dict(kwargs or {}),
        "players": players,
        "meter": meter,
        "taucher": taucher,
        "short_game": short_game,
        "seed": seed,
    }


def _config(game: dict[str, Any]) -> GameConfig:
    return GameConfig.make(
        players=game["players"],
        meter=game["meter"],
        taucher=game["taucher"],
        short_game=game["short_game"],
    )


def _label(game: dict[str, Any]) -> str:
    variant = "".join(f"-{v}" for v in ("taucher", "short_game") if game[v])
    kwargs = "".join(f"-{k}={v:g}" for k, v in sorted(game["kwargs"].items()))
    return f"{game['agent']}{kwargs}-{game['players']}p-{game['meter']}{variant}-seed{game['seed']}"


def _play(game: dict[str, Any], expected: list[int] | None = None) -> tuple[list[int], str]:
    """Play ``game`` to the end; return its decisions and outcome. With ``expected``, fail
    at the first decision that differs from it, saying where."""
    seed = game["seed"]
    agent = make_agent(game["agent"], **game["kwargs"])
    deal_rng = np.random.default_rng(seed)
    agent_rng = np.random.default_rng([seed, AGENT_STREAM])
    state = State.new(_config(game), deal_rng)
    played: list[int] = []
    while state.outcome is None:
        action = int(agent.act(state, agent_rng))
        if expected is not None:
            i = len(played)
            if i >= len(expected) or action != expected[i]:
                was = A.action_name(expected[i]) if i < len(expected) else "(the game's end)"
                pytest.fail(
                    f"{_label(game)}: decision {i} (turn {state.turn}, figure {state.active}, "
                    f"{state.actions_left} actions left, pending {state.pending!r}) is now "
                    f"{A.action_name(action)}, recorded {was}; the first {i} decisions agree",
                    pytrace=False,
                )
        played.append(action)
        state.apply(action, deal_rng)
        if len(played) > MAX_DECISIONS:
            raise RuntimeError(f"{_label(game)}: no end after {MAX_DECISIONS} decisions")
    return played, state.outcome


def _probe(name: str, index: int) -> dict[str, Any] | None:
    """The first game (settings cycling with ``index``) where changing weight ``name`` (by
    each of ``PROBE_FACTORS`` in turn; a zero weight becomes the factor) changes the play,
    or None if there is none within ``PROBE_SEEDS`` seeds."""
    value = DEFAULT_WEIGHTS[name]
    for factor in PROBE_FACTORS:
        kwargs = {name: value * factor if value else float(factor)}
        for k in range(PROBE_SEEDS):
            players = PLAYERS[(index + k) % len(PLAYERS)]
            meter = METERS[(index + k) % len(METERS)]
            taucher, short_game = VARIANTS[(index + 2 * k) % len(VARIANTS)]
            seed = 1000 + 100 * index + k
            base = _settings("heuristic", players, meter, taucher, short_game, seed)
            probe = _settings("heuristic", players, meter, taucher, short_game, seed, kwargs)
            if _play(base)[0] != _play(probe)[0]:
                return probe
    print(f"weight {name}: no game in {PROBE_SEEDS} seeds where it matters", file=sys.stderr)
    return None


def _games_to_record() -> list[dict[str, Any]]:
    games = [
        _settings("heuristic", players, meter, taucher, short_game, 100 * i + k)
        for i, (players, meter, (taucher, short_game)) in enumerate(
            (p, m, v) for p in PLAYERS for m in METERS for v in VARIANTS
        )
        for k in range(SEEDS_PER_SETTING)
    ]
    games += [{**g, "agent": "novice", "seed": g["seed"] + 50} for g in games[:NOVICE_GAMES]]
    probes = (_probe(name, i) for i, name in enumerate(sorted(DEFAULT_WEIGHTS)))
    games += [g for g in probes if g is not None]
    return games


def record(path: Path = DATA) -> None:
    """Play every game of ``_games_to_record`` and write them to ``path``, one per line."""
    lines = []
    decisions = 0
    for game in _games_to_record():
        actions, outcome = _play(game)
        decisions += len(actions)
        lines.append(
            json.dumps({**game, "outcome": outcome, "actions": actions}, separators=(",", ":"))
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("[\n" + ",\n".join(lines) + "\n]\n")
    print(f"{path}: {len(lines)} games, {decisions} decisions, {path.stat().st_size} bytes")


def _recorded() -> list[dict[str, Any] | None]:
    """The recorded games; ``[None]`` (one failing test) while the file is missing."""
    return json.loads(DATA.read_text()) if DATA.exists() else [None]


@pytest.mark.parametrize("game", _recorded(), ids=lambda g: _label(g) if g else "missing")
def test_heuristic_replays_the_recorded_game(game):
    assert game is not None, f"{DATA} is missing: python -m tests.test_heuristic_unchanged --record"
    settings = {k: v for k, v in game.items() if k not in ("outcome", "actions")}
    actions, outcome = _play(settings, expected=game["actions"])
    assert len(actions) == len(game["actions"]), (
        f"{_label(game)}: the game ended after {len(actions)} decisions, "
        f"recorded {len(game['actions'])}"
    )
    assert outcome == game["outcome"]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--record", action="store_true", help=f"play the games anew and overwrite {DATA.name}"
    )
    if not parser.parse_args().record:
        parser.print_help()
        sys.exit(2)
    record()
