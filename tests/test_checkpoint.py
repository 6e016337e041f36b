"""The checkpoint format: loading is safe (nothing is unpickled) and bad files are clear errors.

Tampered checkpoints are built here, at test time: a pickle payload that would create a
marker folder if anything ever unpickled it, placed in a known key of an SB3 archive, in a
new key, in the weights file, in the metadata and beside the checkpoint. Every route that
loads a checkpoint must refuse (or ignore) it without running it.
"""

from __future__ import annotations

import base64
import io
import json
import os
import pickle
import shutil
import zipfile
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch

from inselflucht_env.agents import make_agent
from inselflucht_env.learned import (
    CheckpointError,
    NetworkSpec,
    build_policy,
    load_policy,
    read_metadata,
    save_checkpoint,
    shipped_names,
)
from inselflucht_env.learned.checkpoint import env_signature, load_optimizer

SPEC = NetworkSpec(observation_size=504, features="mlp", net_arch=(16,))


class Payload:
    """Unpickling this creates the folder ``marker``: proof that code from a file ran."""

    def __init__(self, marker: Path):
        self.marker = str(marker)

    def __reduce__(self):
        return os.mkdir, (self.marker,)


def serialized(marker: Path) -> dict[str, str]:
    """An SB3 ``data`` entry carrying the payload, as SB3 writes its pickled values."""
    return {
        ":type:": "<class 'gymnasium.spaces.box.Box'>",
        ":serialized:": base64.b64encode(pickle.dumps(Payload(marker))).decode(),
    }


@pytest.fixture
def good(tmp_path) -> Path:
    return save_checkpoint(build_policy(SPEC), tmp_path / "good", SPEC, {"note": "test"})


def old_format(folder: Path, data: dict, policy_pth: bytes) -> Path:
    """A checkpoint folder in the old SB3 format (``model.zip`` + metadata with config)."""
    folder.mkdir()
    with zipfile.ZipFile(folder / "model.zip", "w") as archive:
        archive.writestr("data", json.dumps(data))
        archive.writestr("policy.pth", policy_pth)
    meta = {
        "config": {
            "policy": {
                "features": SPEC.features,
                "cnn_channels": 32,
                "features_dim": 256,
                "net_arch": list(SPEC.net_arch),
            }
        },
        "signature": env_signature("none"),
    }
    (folder / "metadata.json").write_text(json.dumps(meta))
    return folder


def state_dict_bytes() -> bytes:
    buffer = io.BytesIO()
    torch.save(build_policy(SPEC).state_dict(), buffer)
    return buffer.getvalue()


@pytest.mark.parametrize("key", ["observation_space", "a_key_of_its_own"])
def test_sb3_archive_with_a_payload_is_refused_and_nothing_runs(tmp_path, key):
    marker = tmp_path / "ran"
    folder = old_format(tmp_path / "old", {key: serialized(marker)}, state_dict_bytes())
    for load in (
        load_policy,
        lambda p: make_agent(str(p)),
        read_metadata,
        lambda p: make_agent(f"checkpoint:{p}"),
    ):
        with pytest.raises(CheckpointError, match="model.zip.*pickle.*refused"):
            load(folder)
    with pytest.raises(CheckpointError, match="is a file"):
        load_policy(folder / "model.zip")
    assert not marker.exists()


def test_weights_file_holding_a_pickle_is_refused_and_nothing_runs(good, tmp_path):
    marker = tmp_path / "ran"
    torch.save({"weights": Payload(marker)}, good / "weights.safetensors")
    with pytest.raises(CheckpointError, match="weights.safetensors is corrupt"):
        load_policy(good)
    assert not marker.exists()


def test_a_pickle_in_the_metadata_is_never_unpickled(good, tmp_path):
    marker = tmp_path / "ran"
    meta = json.loads((good / "metadata.json").read_text())
    meta["observation_space"] = serialized(marker)
    (good / "metadata.json").write_text(json.dumps(meta))
    assert load_policy(good).metadata["note"] == "test"  # the metadata is only read as JSON
    assert not marker.exists()


def test_a_foreign_file_beside_the_checkpoint_is_refused(good, tmp_path):
    (good / "extra.pkl").write_bytes(pickle.dumps(Payload(tmp_path / "ran")))
    with pytest.raises(
        CheckpointError, match=r"not part of the checkpoint format: \['extra.pkl'\]"
    ):
        load_policy(good)
    assert not (tmp_path / "ran").exists()


def test_converting_an_old_checkpoint_reads_tensors_only(tmp_path):
    from train.tools.convert_checkpoint import convert

    marker = tmp_path / "ran"
    folder = old_format(
        tmp_path / "old", {"observation_space": serialized(marker)}, state_dict_bytes()
    )
    convert(folder)
    assert sorted(p.name for p in folder.iterdir()) == ["metadata.json", "weights.safetensors"]
    assert load_policy(folder).spec == SPEC and not marker.exists()
    buffer = io.BytesIO()
    torch.save({"w": Payload(marker)}, buffer)
    poisoned = old_format(tmp_path / "poisoned", {}, buffer.getvalue())
    with pytest.raises(pickle.UnpicklingError, match="Weights only load failed"):
        convert(poisoned)
    assert not marker.exists()


def test_missing_empty_and_corrupt_checkpoints_are_clear_errors(good, tmp_path):
    with pytest.raises(CheckpointError, match="no checkpoint .*nothing'.*not a folder"):
        load_policy(tmp_path / "nothing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(CheckpointError, match="has no metadata.json"):
        load_policy(tmp_path / "empty")
    (good / "weights.safetensors").write_bytes(b"not tensors at all")
    with pytest.raises(CheckpointError, match="corrupt"):
        load_policy(good)
    (good / "metadata.json").write_text("{not json")
    with pytest.raises(CheckpointError, match="corrupt"):
        load_policy(good)


def test_weights_that_do_not_fit_the_declared_network_are_refused(good, tmp_path):
    other = NetworkSpec(observation_size=504, features="mlp", net_arch=(32,))
    save_checkpoint(build_policy(other), tmp_path / "other", other, {})
    shutil.copy(tmp_path / "other" / "weights.safetensors", good / "weights.safetensors")
    with pytest.raises(CheckpointError, match="does not fit the network"):
        load_policy(good)


def test_a_huge_declared_network_is_refused_before_anything_is_allocated(good):
    """The metadata's sizes are checked against bounds and against the shapes the weights
    file's header declares before a network is built (issue 37: 1e6 x 1e6 asked for 5.5 GB)."""
    meta = json.loads((good / "metadata.json").read_text())
    meta["network"]["net_arch"] = [1_000_000, 1_000_000]
    (good / "metadata.json").write_text(json.dumps(meta))
    with pytest.raises(CheckpointError, match="bad network spec.*1000000 is over the bound"):
        load_policy(good)


def test_declared_sizes_within_bounds_must_match_the_weights_header(good, monkeypatch):
    meta = json.loads((good / "metadata.json").read_text())
    meta["network"]["net_arch"] = [4096, 4096]
    (good / "metadata.json").write_text(json.dumps(meta))

    def no_building(*_):
        raise AssertionError("the network was built before its shapes were checked")

    monkeypatch.setattr("inselflucht_env.learned.checkpoint.load_model", no_building)
    with pytest.raises(CheckpointError, match=r"has shape \[16, 504\] there.*needs \[4096, 504\]"):
        load_policy(good)


def test_a_truncated_safetensors_header_is_corrupt(good):
    (good / "weights.safetensors").write_bytes((10**9).to_bytes(8, "little") + b"{")
    with pytest.raises(CheckpointError, match="corrupt: no safetensors header"):
        load_policy(good)


def test_a_folder_full_of_foreign_files_is_named_by_its_first_five(tmp_path):
    for i in range(40):
        (tmp_path / f"file{i:02d}").write_text("x")
    with pytest.raises(CheckpointError) as err:
        read_metadata(tmp_path)
    assert "['file00', 'file01', 'file02', 'file03', 'file04'] and 35 more" in str(err.value)
    assert "file05" not in str(err.value)


@pytest.mark.parametrize(
    "key, value, message",
    [
        ("observation_size", 123, "observation_size is 123 there and 504 here"),
        ("action_names", "x", "action_names"),
    ],
)
def test_mismatched_signature_names_the_difference(good, key, value, message):
    meta = json.loads((good / "metadata.json").read_text())
    meta["signature"][key] = value
    (good / "metadata.json").write_text(json.dumps(meta))
    with pytest.raises(CheckpointError, match=message):
        load_policy(good)


def test_bad_network_spec_is_a_clear_error(good):
    meta = json.loads((good / "metadata.json").read_text())
    meta["network"]["features"] = "transformer"
    (good / "metadata.json").write_text(json.dumps(meta))
    with pytest.raises(CheckpointError, match="bad network spec.*transformer"):
        load_policy(good)


def test_a_network_of_more_convolutions_round_trips_and_older_specs_read_two(tmp_path):
    """``cnn_layers`` came after the first checkpoints: a spec without it is the two
    convolutions those were trained with."""
    spec = replace(SPEC, features="centred_cnn", cnn_channels=4, cnn_layers=3)
    network = build_policy(spec)
    assert sum(isinstance(m, torch.nn.Conv2d) for m in network.modules()) == 3
    save_checkpoint(network, tmp_path / "ck", spec, {})
    assert load_policy(tmp_path / "ck").spec == spec
    old = {k: v for k, v in SPEC.to_json().items() if k != "cnn_layers"}
    assert NetworkSpec.from_json(old).cnn_layers == 2


def test_saved_network_loads_with_identical_outputs_and_optimizer_state(tmp_path):
    network = build_policy(SPEC)
    optimizer = torch.optim.Adam(network.parameters(), lr=1e-3)
    obs = torch.rand(4, 504)
    loss = network.evaluate_actions(obs, torch.zeros(4), action_masks=np.ones((4, 36), bool))[0]
    loss.sum().backward()
    optimizer.step()
    save_checkpoint(network, tmp_path / "ck", SPEC, {}, optimizer=optimizer)
    policy = load_policy(tmp_path / "ck")
    masks = np.ones((4, 36), bool)
    probs, values = policy.evaluate(obs.numpy(), masks)
    with torch.no_grad():
        expected = network.get_distribution(obs, action_masks=masks).distribution.probs
        expected_values = network.predict_values(obs).squeeze(-1)
    assert np.allclose(probs, expected.numpy(), atol=1e-6)
    assert np.allclose(values, expected_values.numpy(), atol=1e-6)
    fresh = torch.optim.Adam(build_policy(SPEC).parameters(), lr=1e-3)
    load_optimizer(fresh, tmp_path / "ck")
    saved, loaded = optimizer.state_dict(), fresh.state_dict()
    assert saved["param_groups"][0]["lr"] == loaded["param_groups"][0]["lr"]
    for i, entries in saved["state"].items():
        assert torch.equal(entries["exp_avg"], loaded["state"][i]["exp_avg"])


def test_shipped_policies_are_found_by_name_from_any_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert {"ppo_2p_normal", "ppo_2p_normal_noadvice", "exit_2p_normal"} <= set(shipped_names())
    assert load_policy("ppo_2p_normal").metadata["signature"]["advice"] == "heuristic"
    assert make_agent("checkpoints/ppo_2p_normal_noadvice").path.endswith("ppo_2p_normal_noadvice")
    with pytest.raises(CheckpointError, match="shipped: .*ppo_2p_normal"):
        load_policy("ppo_9p_nothing")


def test_evaluate_prints_one_line_for_a_tampered_checkpoint(tmp_path, capsys):
    from inselflucht_env.cli.evaluate import main

    marker = tmp_path / "ran"
    folder = old_format(
        tmp_path / "old", {"observation_space": serialized(marker)}, state_dict_bytes()
    )
    with pytest.raises(SystemExit) as exit_info:
        main(["--agent", str(folder), "--episodes", "2", "--workers", "2", "--no-progress"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: checkpoint") and "model.zip" in err[0]
    assert not marker.exists()
