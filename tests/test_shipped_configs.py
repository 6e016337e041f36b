"""``configs/``: the recipes at the top, experiments in ``configs/experiments/`` with their
result in the header, and every shipped checkpoint naming the recipe that reproduces it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("yaml")

from train import config as ppo_config  # noqa: E402
from train import exit_config  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CHECKPOINTS = sorted(p.parent for p in (ROOT / "checkpoints").glob("*/metadata.json"))


def _header(path: Path) -> str:
    lines = []
    for line in path.read_text().splitlines():
        if not line.startswith("#"):
            break
        lines.append(line)
    return "\n".join(lines)


@pytest.mark.parametrize("folder", CHECKPOINTS, ids=lambda p: p.name)
def test_each_shipped_checkpoint_names_a_recipe_that_exists_and_validates(folder):
    meta = json.loads((folder / "metadata.json").read_text())
    name = meta.get("config_file")
    assert name, f"{folder.name}/metadata.json has no config_file"
    path = ROOT / name
    assert path.parent == ROOT / "configs", f"{name}: a shipped recipe sits at the top of configs/"
    assert path.exists(), f"{folder.name}: {name} does not exist"
    if "warm_start" in meta["config"]:  # an expert-iteration run
        conf = exit_config.load(path)
        assert conf["env"] == meta["config"]["env"], f"{name} is for another setting"
    else:
        conf = ppo_config.load(path)
        assert conf["env"]["players"] == meta["config"]["env"]["players"]
        assert conf["env"]["meter"] == meta["config"]["env"]["meter"]


@pytest.mark.parametrize(
    "path", sorted((ROOT / "configs" / "experiments").glob("*.yaml")), ids=lambda p: p.name
)
def test_each_experiment_states_its_result_in_its_header(path):
    header = _header(path)
    assert header, f"{path.name} has no comment header"
    words = ("result", "measured", "won", "wins", "%")
    assert any(w in header.lower() for w in words), f"{path.name}: no result in its header"
