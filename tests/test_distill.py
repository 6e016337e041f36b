"""Distillation (``train.tools.distill``): a fresh network of another size fitted to a run's replay
window, scored on the window's newest decisions, saved after every block and resumed
exactly."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch
from safetensors.numpy import load_file

import train.tools.distill as distill
from inselflucht_env.games.inselflucht.observation import OBSERVATION_SIZE
from inselflucht_env.learned import load_policy, read_metadata
from inselflucht_env.learned.checkpoint import load_network
from inselflucht_env.learned.network import NetworkSpec, build_policy, policy_value
from train import expert_iteration, grow
from train.exit_config import ConfigError

SMOKE = str(Path(__file__).resolve().parent.parent / "configs" / "exit_smoke.yaml")


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory) -> Path:
    """A finished two-round smoke run: its replay window holds a few hundred decisions."""
    out = tmp_path_factory.mktemp("runs")
    return expert_iteration.main(
        ["--config", SMOKE, "--set", f"output.run_dir={out}", "--set", "train.iterations=2"]
    )


def _options(run: Path, out: Path, *extra: str) -> list[str]:
    base = [str(run), "--out", str(out), "--steps", "5", "--eval-every", "2"]
    return [*base, "--held-out", "40", "--torch-threads", "1", *extra]


def _weights(folder: Path) -> dict[str, np.ndarray]:
    return load_file(str(folder / "network" / "weights.safetensors"))


def test_distill_fits_the_size_asked_for_and_scores_the_newest_decisions(run_folder, tmp_path):
    out = distill.main(_options(run_folder, tmp_path / "wide", "--net-arch", "24", "24"))
    progress = json.loads((out / "progress.json").read_text())
    assert progress["steps_done"] == 5
    assert [h["steps"] for h in progress["history"]] == [2, 4, 5]
    assert all(0 <= h["held_out/agreement"] <= 1 for h in progress["history"])
    policy = load_policy(out / "network")
    assert policy.spec.net_arch == (24, 24) and policy.spec.value == "win_probability"
    _, meta = read_metadata(out / "network")
    assert meta["trainer"] == "distill" and meta["config"]["env"]["players"] == 2
    assert meta["distill"]["plan"]["network"]["features"] == "mlp"  # the run's, not asked

    window = expert_iteration.load_replay(Path(progress["plan"]["window"]))
    training, held_out = distill.split(window, 40)
    assert len(held_out["outcome"]) == 40
    assert np.array_equal(held_out["obs"], window["obs"][-40:])
    assert len(training["outcome"]) + 40 == len(window["outcome"])
    last = expert_iteration.held_out_losses(policy.network, held_out, progress["plan"]["train"])
    assert last["policy_loss"] == pytest.approx(progress["history"][-1]["held_out/policy_loss"])


def test_a_grown_network_computes_what_the_trained_one_did(run_folder, tmp_path):
    """``--init``: the trained weights fill the leading blocks, new units add nothing until
    training moves their outgoing weights off zero."""
    trained = run_folder / "iterations" / "iter_0002"
    network, spec, _ = load_network(trained)
    wide = grow.grown(network, spec, replace(spec, features_dim=24, net_arch=(20,)))
    obs = torch.rand(50, spec.observation_size)
    with torch.no_grad():
        for a, b in zip(policy_value(network, obs), policy_value(wide, obs), strict=True):
            assert torch.allclose(a, b, atol=1e-6)
    assert sum(p.numel() for p in wide.parameters()) > sum(p.numel() for p in network.parameters())

    out = distill.main(_options(run_folder, tmp_path / "w", "--init", str(trained)))
    plan = json.loads((out / "progress.json").read_text())["plan"]
    assert plan["init"] == str(trained) and plan["network"]["net_arch"] == [16]  # its own size


def test_a_grown_convolution_starts_as_the_identity():
    """A convolution beyond the trained ones passes its input through: the ReLU before it
    left it non-negative, and a Dirac kernel copies each channel."""
    spec = NetworkSpec(OBSERVATION_SIZE, "centred_cnn", 4, 16, (16,), "win_probability")
    network = build_policy(spec)
    deeper = grow.grown(network, spec, replace(spec, cnn_layers=4, features_dim=20))
    obs = torch.rand(30, OBSERVATION_SIZE)
    with torch.no_grad():
        for a, b in zip(policy_value(network, obs), policy_value(deeper, obs), strict=True):
            assert torch.allclose(a, b, atol=1e-6)
    assert sum(isinstance(m, torch.nn.Conv2d) for m in deeper.modules()) == 4


@pytest.mark.parametrize(
    "change",
    [
        {"net_arch": (8,)},
        {"net_arch": (16, 16)},
        {"features": "board_cnn"},
        {"features_dim": 8},
        {"cnn_layers": 1},
    ],
)
def test_growing_only_grows_widths_and_convolutions(run_folder, change):
    network, spec, _ = load_network(run_folder / "iterations" / "iter_0002")
    with pytest.raises(
        ConfigError, match="only its features_dim and net_arch widths and its cnn_layers can grow"
    ):
        grow.grown(network, spec, replace(spec, **change))


def test_the_step_size_decays_on_a_cosine_held_at_each_blocks_middle():
    assert distill.block_learning_rate(1.0, 0, 10, 20) == pytest.approx(
        0.5 * (1 + np.cos(np.pi * 5 / 20))
    )
    assert distill.block_learning_rate(1.0, 10, 10, 20) == pytest.approx(
        0.5 * (1 + np.cos(np.pi * 15 / 20))
    )
    assert distill.block_learning_rate(2.0, 18, 2, 20) == pytest.approx(1 + np.cos(np.pi * 19 / 20))


def test_a_stopped_distillation_resumes_exactly(run_folder, tmp_path, monkeypatch):
    straight = distill.main(_options(run_folder, tmp_path / "straight"))

    scored = distill.held_out_losses
    calls = []

    def stop_in_the_second_block(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return scored(*args, **kwargs)

    monkeypatch.setattr(distill, "held_out_losses", stop_in_the_second_block)
    with pytest.raises(KeyboardInterrupt):
        distill.main(_options(run_folder, tmp_path / "stopped"))
    monkeypatch.setattr(distill, "held_out_losses", scored)
    stopped = json.loads((tmp_path / "stopped" / "progress.json").read_text())
    assert stopped["steps_done"] == 2

    resumed = distill.main(["--resume", str(tmp_path / "stopped")])
    a, b = _weights(straight), _weights(resumed)
    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    history = json.loads((resumed / "progress.json").read_text())["history"]
    assert [h["steps"] for h in history] == [2, 4, 5]


def test_a_resume_trusts_the_checkpoint_over_a_lagging_progress_file(run_folder, tmp_path):
    """A stop after the network's save but before progress.json's: the checkpoint's own
    step count decides, so no block trains twice."""
    out = distill.main(_options(run_folder, tmp_path / "lagging"))
    before = _weights(out)
    progress = json.loads((out / "progress.json").read_text())
    progress["steps_done"], progress["history"] = 4, progress["history"][:2]
    (out / "progress.json").write_text(json.dumps(progress))
    distill.main(["--resume", str(out)])
    after = _weights(out)
    assert all(np.array_equal(before[k], after[k]) for k in before)
    assert json.loads((out / "progress.json").read_text())["steps_done"] == 5


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--held-out", "100000"], "--held-out 100000: the window holds"),
        (["--eval-every", "9"], "--eval-every 9 is more than --steps 5"),
        (["--net-arch", "0"], None),  # argparse: not a positive integer
    ],
)
def test_bad_options_are_refused_before_a_folder_is_written(
    run_folder, tmp_path, capsys, extra, message
):
    out = tmp_path / "refused"
    with pytest.raises((ConfigError, SystemExit)) as err:
        distill.main(_options(run_folder, out, *extra))
    if message:
        assert message in str(err.value)
    assert not out.exists()


def test_distill_needs_a_run_with_a_finished_round_and_a_new_folder(run_folder, tmp_path):
    with pytest.raises(ConfigError, match="no progress.json"):
        distill.main([str(tmp_path), "--out", str(tmp_path / "x")])
    with pytest.raises(ConfigError, match="exists"):
        distill.main([str(run_folder), "--out", str(tmp_path)])
    with pytest.raises(ConfigError, match="--init"):
        distill.main([str(run_folder), "--out", str(tmp_path / "y"), "--init", str(tmp_path)])
    assert not (tmp_path / "y").exists()
    with pytest.raises(ConfigError, match="--resume"):
        distill.main(["--resume", str(tmp_path / "nothing")])
