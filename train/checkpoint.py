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
from inselflucht_env.advice import Advisor, observation_size
from inselflucht_env.engine import State
from inselflucht_env.observation import describe_observation

MODEL_FILE = "model.zip"
METADATA_FILE = "metadata.json"


class CheckpointError(ValueError):
    """A checkpoint that cannot be used: missing, corrupt, or for another environment."""


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]


def env_signature(advice: str = "none") -> dict[str, Any]:
    """What a policy depends on: observation layout and size, the advice appended to the
    observation (``inselflucht_env.advice``), action names and count."""
    return {
        "observation_size": observation_size(advice),
        "advice": advice,
        "observation_layout": _digest(describe_observation()),
        "n_actions": N_ACTIONS,
        "action_names": _digest(list(ACTION_NAMES)),
    }


def save_checkpoint(model, folder: str | Path, metadata: dict[str, Any],
                    advice: str = "none") -> Path:
    """Write ``model.zip`` and ``metadata.json`` (signature and version added) to a folder."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    model.save(folder / MODEL_FILE)
    meta = dict(metadata)
    meta["package_version"] = inselflucht_env.__version__
    meta["signature"] = env_signature(advice)
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
    signature = {"advice": "none", **meta["signature"]}  # no key: saved before advice
    advice = signature["advice"]
    try:
        current = env_signature(advice)
    except ValueError as err:
        raise CheckpointError(f"checkpoint {str(folder)!r}: {err}") from None
    for key, value in current.items():
        if signature.get(key) != value:
            raise CheckpointError(
                f"checkpoint {str(folder)!r} was trained for another environment: {key} is "
                f"{signature.get(key)!r} there and {value!r} here (package "
                f"{meta.get('package_version')} vs {inselflucht_env.__version__}); retrain it")
    return model_file, meta


class Policy:
    """A loaded MaskablePPO policy that picks legal actions for the deciding figure.

    ``act(state)`` builds the policy's own observation (with its advice, if it was trained
    with one) from an engine state such as ``env.unwrapped.game_state``;
    ``predict_action(obs, mask)`` takes an observation already in that form.
    """

    def __init__(self, model, metadata: dict[str, Any]):
        self.model = model
        self.metadata = metadata
        self.advisor = Advisor(metadata["signature"].get("advice", "none"))  # checked on load
        self.observation_size = observation_size(self.advisor.name)

    def observe(self, state: State) -> np.ndarray:
        """The observation this policy reads for ``state.decider``."""
        return self.advisor.observe(state)

    def act(self, state: State, deterministic: bool = True) -> int:
        """The policy's (legal) action for the deciding figure of ``state``."""
        mask = np.asarray(state.legal_mask(), dtype=bool)
        return self.predict_action(self.observe(state), mask, deterministic)

    def predict_action(self, obs: np.ndarray, mask: np.ndarray, deterministic: bool = True) -> int:
        if np.shape(obs) != (self.observation_size,):
            raise ValueError(f"observation of shape {np.shape(obs)}: this policy reads "
                             f"({self.observation_size},) (advice {self.advisor.name!r}); "
                             "use act(state), which builds it")
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
    size = meta["signature"]["observation_size"]
    if model.observation_space.shape != (size,) or model.action_space.n != N_ACTIONS:
        raise CheckpointError(f"{model_file}: its spaces {model.observation_space} / "
                              f"{model.action_space} do not match the environment")
    return Policy(model, meta)
