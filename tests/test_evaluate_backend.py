"""``--backend`` / ``--address`` of the evaluation harness without Ray: the pool is the
default and unchanged, and every Ray-only request is one clear line (the Ray backend
itself is tested in ``tests_rllib/``, in the Ray virtualenv)."""

from __future__ import annotations

import importlib.util

import pytest

from inselflucht_env.cli.evaluate import main as evaluate_main
from inselflucht_env.errors import InputError
from inselflucht_env.evaluation import harness as E
from inselflucht_env.games.inselflucht.rules.config import GameConfig
from train import difficulty

NO_RAY = importlib.util.find_spec("ray") is None


def _one_line_error(capsys, main, argv) -> str:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    return lines[0]


def test_pool_is_the_default_and_same_as_sequential():
    config = GameConfig.make(players=2)
    a = E.run_episodes("heuristic", config, range(6), workers=1, progress=False)
    b = E.run_episodes("heuristic", config, range(6), workers=2, progress=False, backend="pool")
    assert [(e.seed, e.outcome, e.turns, e.decisions) for e in a] == [
        (e.seed, e.outcome, e.turns, e.decisions) for e in b
    ]


def test_unknown_backend_and_address_without_ray_backend():
    config = GameConfig.make(players=2)
    with pytest.raises(InputError, match="backend 'dask'"):
        E.run_episodes("heuristic", config, range(2), backend="dask")
    with pytest.raises(InputError, match="--address is for --backend ray"):
        E.run_episodes("heuristic", config, range(2), address="auto")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--address", "auto"], "--address is for --backend ray"),
        (["--backend", "ray", "--workers", "2"], "--workers is for --backend pool"),
    ],
)
def test_cli_flag_combinations_are_one_line(capsys, argv, message):
    assert message in _one_line_error(capsys, evaluate_main, ["--episodes", "2", *argv])


@pytest.mark.skipif(not NO_RAY, reason="Ray is installed here (tests_rllib covers it)")
@pytest.mark.parametrize("main", [evaluate_main, difficulty.main], ids=["evaluate", "difficulty"])
def test_missing_ray_is_one_line_saying_how_to_install(capsys, main, tmp_path):
    line = _one_line_error(
        capsys,
        main,
        ["--backend", "ray", "--out", str(tmp_path / "d.md")]
        if main is difficulty.main
        else ["--backend", "ray"],
    )
    assert "needs Ray" in line and "inselflucht-gym[rllib]" in line
