"""Expert iteration (``train.expert_iteration``): config checks, a smoke run that writes
loadable safe checkpoints, and an exact resume."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import load_file

from inselflucht_env.learned import load_policy, read_metadata
from train import exit_config
from train.expert_iteration import _network_spec, load_replay, main

CONFIGS = Path(__file__).resolve().parent.parent / "configs"
SMOKE = str(CONFIGS / "exit_smoke.yaml")


def test_exit_configs_validate_and_fit_the_size_limit():
    from inselflucht_env.learned import build_policy

    for path in CONFIGS.glob("exit_*.yaml"):
        conf = exit_config.load(path)
        assert set(conf) == set(exit_config.SCHEMA)
        network = build_policy(_network_spec(conf["network"]))
        assert 4 * sum(p.numel() for p in network.parameters()) <= 5e6, path


@pytest.mark.parametrize(
    "text, message",
    [
        ("search: {simulatons: 10}", "unknown key search.simulatons"),
        ("optimizer: {}", "unknown section 'optimizer'"),
        ("train: {value_mix: 2}", "train.value_mix=2 must be within"),
        ("self_play: {games: 1.5}", "self_play.games=1.5 must be a whole number"),
        ("env: {players: 5}", "env.players=5"),
        ("warm_start: {teacher: oracle}", "warm_start.teacher"),
    ],
)
def test_bad_config_is_a_config_error(tmp_path, text, message):
    path = tmp_path / "c.yaml"
    path.write_text(text)
    with pytest.raises(exit_config.ConfigError, match=message):
        exit_config.load(path)


def test_bad_override_is_a_config_error():
    with pytest.raises(exit_config.ConfigError, match="unknown key"):
        exit_config.load(SMOKE, ["train.itrations=3"])
    with pytest.raises(exit_config.ConfigError, match="batch_size"):
        exit_config.load(SMOKE, ["train.batch_size=0"])
    assert exit_config.load(SMOKE, ["iterations=3", "learning_rate=1e-4"])["train"] == {
        **exit_config.load(SMOKE)["train"],
        "iterations": 3,
        "learning_rate": 1e-4,
    }


def _weights(folder: Path) -> dict[str, np.ndarray]:
    return load_file(str(folder / "weights.safetensors"))


def test_smoke_run_then_resume_continues_exactly(tmp_path):
    out = f"output.run_dir={tmp_path}"
    run = main(["--config", SMOKE, "--set", out])
    progress = json.loads((run / "progress.json").read_text())
    assert progress["iteration"] == 1 and len(progress["history"]) == 2
    for name in ("iterations/iter_0000", "iterations/iter_0001", "best"):
        _, meta = read_metadata(run / name)
        assert meta["network"]["value"] == "win_probability"
        assert (run / name / "weights.safetensors").stat().st_size <= 5e6
    policy = load_policy(run / "iterations" / "iter_0001")
    assert "network" in read_metadata(run / "iterations" / "iter_0001")[1]["evaluation"]
    assert policy.spec.value == "win_probability"
    replay = load_replay(run / progress["state"] / "replay.npz")
    assert replay["obs"].dtype == np.uint8 and len(replay["obs"]) == len(replay["outcome"])
    assert list((run / "tb").iterdir())

    resumed = main(["--resume", str(run), "--set", "train.iterations=2"])
    assert resumed == run
    progress = json.loads((run / "progress.json").read_text())
    assert progress["iteration"] == 2 and [h["iteration"] for h in progress["history"]] == [0, 1, 2]
    assert not (run / "state-0001").exists() and (run / "state-0002").is_dir()

    straight = main(
        [
            "--config",
            SMOKE,
            "--set",
            out,
            "--set",
            "train.iterations=2",
            "--set",
            "output.name=straight",
        ]
    )
    a, b = _weights(run / "iterations/iter_0002"), _weights(straight / "iterations/iter_0002")
    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def test_resume_needs_a_run_folder(tmp_path):
    with pytest.raises(exit_config.ConfigError, match="progress.json"):
        main(["--resume", str(tmp_path)])
