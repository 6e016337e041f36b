"""Shipped policies: a folder with ``model.zip`` (MaskablePPO) and ``metadata.json``.

The metadata records the environment signature the policy was trained against (observation
layout, action names, package version). Loading checks it first, so a stale, missing or
corrupt checkpoint is a ``CheckpointError`` that says which, not a stack trace from torch.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

import inselflucht_env
from inselflucht_env.actions import ACTION_NAMES, N_ACTIONS
from inselflucht_env.observation import OBSERVATION_SIZE, describe_observation

MODEL_FILE = "model.zip"
METADATA_FILE = "metadata.json"


class CheckpointError(ValueError):
    """A checkpoint that cannot be used: missing, corrupt, or for another environment."""


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]


def env_signature() -> dict[str, Any]:
    """What a policy depends on: observation layout and size, action names and count."""
    return {
        "observation_size": OBSERVATION_SIZE,
        "observation_layout": _digest(describe_observation()),
        "n_actions": N_ACTIONS,
        "action_names": _digest(list(ACTION_NAMES)),
    }


def save_checkpoint(model, folder: str | Path, metadata: dict[str, Any]) -> Path:
    """Write ``model.zip`` and ``metadata.json`` (signature and version added) to a folder."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    model.save(folder / MODEL_FILE)
    meta = dict(metadata)
    meta["package_version"] = inselflucht_env.__version__
    meta["signature"] = env_signature()
    (folder / METADATA_FILE).write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")
    return folder


def read_metadata(path: str | Path) -> tuple[Path, dict[str, Any]]:
    """The model file and the checked metadata of a checkpoint folder (or its model.zip)."""
    path = Path(path)
    folder = path.parent if path.suffix == ".zip" else path
    model_file = path if path.suffix == ".zip" else folder / MODEL_FILE
    if not folder.exists():
        raise CheckpointError(f"checkpoint {str(path)!r} does not exist")
    if not model_file.is_file():
        raise CheckpointError(f"checkpoint {str(folder)!r} has no {model_file.name}")
    meta_file = folder / METADATA_FILE
    if not meta_file.is_file():
        raise CheckpointError(f"checkpoint {str(folder)!r} has no {METADATA_FILE}")
    try:
        meta = json.loads(meta_file.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise CheckpointError(f"{meta_file} is corrupt (not JSON): {err}") from None
    if not isinstance(meta, dict) or not isinstance(meta.get("signature"), dict):
        raise CheckpointError(f"{meta_file} has no environment 'signature'")
    current = env_signature()
    for key, value in current.items():
        if meta["signature"].get(key) != value:
            raise CheckpointError(
                f"checkpoint {str(folder)!r} was trained for another environment: {key} is "
                f"{meta['signature'].get(key)!r} there and {value!r} here (package "
                f"{meta.get('package_version')} vs {inselflucht_env.__version__}); retrain it")
    return model_file, meta


class Policy:
    """A loaded MaskablePPO policy that picks legal actions from observation and mask."""

    def __init__(self, model, metadata: dict[str, Any]):
        self.model = model
        self.metadata = metadata

    def predict_action(self, obs: np.ndarray, mask: np.ndarray, deterministic: bool = True) -> int:
        action, _ = self.model.predict(obs, action_masks=np.asarray(mask, dtype=bool),
                                       deterministic=deterministic)
        return int(action)


def load_policy(path: str | Path, device: str = "cpu") -> Policy:
    """Load a checkpoint after checking it; ``CheckpointError`` for anything unusable."""
    model_file, meta = read_metadata(path)
    if not zipfile.is_zipfile(model_file):
        raise CheckpointError(f"{model_file} is corrupt: not a zip archive")
    from sb3_contrib import MaskablePPO
    try:
        model = MaskablePPO.load(model_file, device=device)
    except Exception as err:  # torch/zip/pickle errors of a damaged file
        raise CheckpointError(f"{model_file} is corrupt: {type(err).__name__}: {err}") from None
    if model.observation_space.shape != (OBSERVATION_SIZE,) or model.action_space.n != N_ACTIONS:
        raise CheckpointError(f"{model_file}: its spaces {model.observation_space} / "
                              f"{model.action_space} do not match the environment")
    return Policy(model, meta)
