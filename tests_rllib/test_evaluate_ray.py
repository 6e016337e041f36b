"""``--backend ray``: the same per-episode results as the process pool, no episode lost or
counted twice when a worker dies, one clear line for a bad address or flag."""

from __future__ import annotations

import json

import pytest
from conftest import cli

from inselflucht_env.evaluation import ray_backend as R
from inselflucht_env.evaluation.harness import run_episodes
from inselflucht_env.games.inselflucht.rules.config import GameConfig

ray = pytest.importorskip("ray")
TIMING = ("agent_seconds", "max_decision_seconds")  # wall-clock fields: never reproducible


def _records(episodes):
    """The reproducible part of each record (everything but the timings)."""
    rows = [e if isinstance(e, dict) else vars(e) for e in episodes]
    return [{k: v for k, v in r.items() if k not in TIMING} for r in rows]


def _address(ray_local) -> str:
    return ray_local.get_runtime_context().gcs_address


@pytest.mark.parametrize(
    "agent, extra",
    [
        ("heuristic", ["--players", "3", "--episodes", "24"]),
        # the search agent with a rollout budget and no clock (a clock makes it load-dependent)
        (
            "search",
            ["--players", "2", "--episodes", "3", "--simulations", "60", "--seconds", "1000"],
        ),
    ],
)
def test_cli_ray_matches_pool(ray_local, agent, extra):
    common = ["train.evaluate", "--agent", agent, *extra, "--json", "--details"]
    pool = cli(*common, "--workers", "2", "--no-progress")
    assert pool.returncode == 0, pool.stderr
    via_ray = cli(*common, "--backend", "ray", "--address", _address(ray_local))
    assert via_ray.returncode == 0, via_ray.stderr
    a, b = json.loads(pool.stdout), json.loads(via_ray.stdout)
    assert b["backend"] == "ray" and b["workers"] == 2
    assert _records(a["per_episode"]) == _records(b["per_episode"])
    assert a["wins"] == b["wins"] and a["loss_causes"] == b["loss_causes"]
    assert "game" in via_ray.stderr  # the progress bar (tqdm, on stderr)


def test_difficulty_ray_matches_pool(ray_local, tmp_path):
    def grid(*backend):
        out = tmp_path / f"d{len(backend)}"
        done = cli(
            "train.difficulty",
            "--heuristic-games",
            "3",
            "--novice-games",
            "2",
            "--search-games",
            "0",
            "--out",
            f"{out}.md",
            "--plot",
            "",
            "--json-out",
            f"{out}.json",
            *backend,
        )
        assert done.returncode == 0, done.stderr
        return json.loads((tmp_path / f"{out.name}.json").read_text())["agents"]

    pool, via_ray = (
        grid("--workers", "2"),
        grid("--backend", "ray", "--address", _address(ray_local)),
    )
    assert set(pool) == {"heuristic", "novice"} and len(pool["heuristic"]) == 36
    for agent, cells in pool.items():
        for key, cell in cells.items():
            assert via_ray[agent][key]["outcomes"] == cell["outcomes"], (agent, key)
            assert via_ray[agent][key]["mean_turns"] == cell["mean_turns"], (agent, key)


def test_a_worker_killed_mid_run_loses_and_doubles_nothing(ray_local, kill_marker):
    config = GameConfig.make(players=2)
    seeds = list(range(100, 130))
    reference = run_episodes("heuristic", config, seeds, workers=1, progress=False)
    kill_marker.touch()  # the first task to see it deletes it and kills its worker
    episodes = R.run_episodes_ray("heuristic", config, seeds, progress=False, chunk_size=3)
    assert not kill_marker.exists(), "no worker was killed"
    assert [e.seed for e in episodes] == seeds  # each seed once, in order
    assert _records(episodes) == _records(reference)


def test_bad_input_on_a_worker_is_one_clear_error(ray_local, tmp_path):
    from inselflucht_env.errors import InputError

    with pytest.raises(InputError, match=r"^on a Ray worker: no checkpoint .*gone"):
        R.run_episodes_ray(
            str(tmp_path / "gone"), GameConfig.make(players=2), range(3), progress=False
        )


def test_progress_bar_counts_games(ray_local, capsys):
    R.run_episodes_ray(
        "heuristic", GameConfig.make(players=2), range(12), desc="ray-test", chunk_size=4
    )
    err = capsys.readouterr().err
    assert "ray-test" in err and "12/12" in err


def test_connect_reuses_the_running_ray(ray_local):
    assert R.connect("127.0.0.1:1") == 2  # already connected: the address is not dialled


@pytest.mark.parametrize(
    "flags, message",
    [
        (
            ["--backend", "ray", "--address", "127.0.0.1:1"],
            "cannot reach a Ray cluster at --address '127.0.0.1:1'",
        ),
        (["--backend", "ray", "--address", "nonsense"], "is not auto, HOST:PORT or ray://"),
        (["--backend", "ray", "--workers", "2"], "--workers is for --backend pool"),
        (["--address", "auto"], "--address is for --backend ray"),
    ],
)
def test_bad_backend_input_is_one_line(flags, message):
    done = cli("train.evaluate", "--episodes", "2", *flags, timeout=60)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], lines
