"""The checkpoint format: a folder of plain data that loading can never execute.

    <folder>/metadata.json          network spec, environment signature, results (JSON)
    <folder>/weights.safetensors    the network's tensors (safetensors: no code, no pickle)
    <folder>/optimizer.safetensors  optional, for resuming training: the optimiser's tensors
    <folder>/optimizer.json         ... and its hyper-parameters (JSON)

Stable-Baselines3's own ``model.zip`` stores pickles (spaces, schedules, policy class) that
``load`` runs; a folder holding one, or any file that is not one of the above, is refused
with a ``CheckpointError`` naming the file. Everything a loader needs -- the spaces, the
network architecture -- is rebuilt from ``metadata.json`` (``network.NetworkSpec``), and the
environment signature is checked before any tensor is read, so a stale, corrupt, tampered or
foreign checkpoint is a clear error, not a stack trace or a silent misfit.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import torch
from safetensors import SafetensorError
from safetensors.torch import load_file, load_model, save_file, save_model
from torch import nn

from inselflucht_env import __version__
from inselflucht_env.envs.advice import observation_size
from inselflucht_env.errors import InputError
from inselflucht_env.games.forbidden_island import observation as fi_observation
from inselflucht_env.games.forbidden_island.rules import actions as fi_actions
from inselflucht_env.games.inselflucht.observation import describe_observation
from inselflucht_env.games.inselflucht.rules.actions import ACTION_NAMES, N_ACTIONS
from inselflucht_env.learned.network import NetworkSpec, build_policy, parameter_shapes

FORMAT = "inselflucht-checkpoint"
FORMAT_VERSION = 1
METADATA_FILE = "metadata.json"
WEIGHTS_FILE = "weights.safetensors"
OPTIMIZER_FILE = "optimizer.safetensors"
OPTIMIZER_CONFIG_FILE = "optimizer.json"
KNOWN_FILES = frozenset({METADATA_FILE, WEIGHTS_FILE, OPTIMIZER_FILE, OPTIMIZER_CONFIG_FILE})
RESERVED_KEYS = frozenset({"format", "format_version", "package_version", "network", "signature"})
SHOWN_FILES = 5  # a foreign folder (say /etc) is named by its first few files, not all
HEADER_LIMIT = 1 << 24  # bytes: a safetensors header longer than this is corrupt


class CheckpointError(InputError):
    """A checkpoint that cannot be used: missing, corrupt, tampered, or for another env."""


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]


GAMES = ("inselflucht", "forbidden_island")


def env_signature(advice: str = "none", game: str = "inselflucht") -> dict[str, Any]:
    """What a policy depends on: observation layout and size, the advice appended to the
    observation (``inselflucht_env.envs.advice``), action names and count; for a game other
    than Inselflucht also its name (Inselflucht's checkpoints predate the key)."""
    if game == "inselflucht":
        return {
            "observation_size": observation_size(advice),
            "advice": advice,
            "observation_layout": _layout_digest(describe_observation()),
            "n_actions": N_ACTIONS,
            "action_names": _digest(list(ACTION_NAMES)),
        }
    if game != "forbidden_island":
        raise ValueError(f"game {game!r}: expected one of {list(GAMES)}")
    if advice != "none":
        raise ValueError(f"advice {advice!r}: forbidden_island has none")
    return {
        "game": game,
        "observation_size": fi_observation.OBSERVATION_SIZE,
        "advice": advice,
        "observation_layout": _layout_digest(fi_observation.describe_observation()),
        "n_actions": fi_actions.N_ACTIONS,
        "action_names": _digest(list(fi_actions.ACTION_NAMES)),
    }


def _layout_digest(table: list[dict[str, object]]) -> str:
    return _digest([[e["name"], e["start"], e["stop"]] for e in table])  # not the prose


def save_checkpoint(
    network: nn.Module,
    folder: str | Path,
    spec: NetworkSpec,
    metadata: dict[str, Any],
    advice: str = "none",
    optimizer: torch.optim.Optimizer | None = None,
    game: str = "inselflucht",
) -> Path:
    """Write ``network`` (built by ``network.build_policy(spec)``) as a checkpoint folder.

    ``metadata`` is any JSON-able record (config, results); the format, network spec,
    signature and package version are added. With ``optimizer`` its state is saved too, so
    that training can resume (``load_optimizer``). ``game``: what the network plays.
    """
    signature = env_signature(advice, game)
    if (spec.observation_size, spec.n_actions) != (
        signature["observation_size"],
        signature["n_actions"],
    ):
        raise ValueError(
            f"network reads {spec.observation_size} inputs for {spec.n_actions} actions, "
            f"{game} with advice {advice!r} has {signature['observation_size']} and "
            f"{signature['n_actions']}"
        )
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.iterdir():  # an older save in the same folder must not linger
        if stale.name in KNOWN_FILES:
            stale.unlink()
    save_model(network, str(folder / WEIGHTS_FILE))
    if optimizer is not None:
        tensors, config = _flatten_optimizer(optimizer.state_dict())
        save_file(tensors, str(folder / OPTIMIZER_FILE))
        (folder / OPTIMIZER_CONFIG_FILE).write_text(json.dumps(config, indent=1) + "\n")
    meta = {
        **metadata,
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "package_version": __version__,
        "network": spec.to_json(),
        "signature": signature,
    }
    _write_metadata(folder, meta)
    return folder


def _write_metadata(folder: Path, meta: dict[str, Any]) -> None:
    """Write ``metadata.json`` so that a crash mid-write leaves the previous one."""
    tmp = folder / (METADATA_FILE + ".tmp")
    tmp.write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")
    tmp.replace(folder / METADATA_FILE)


def record_result(path: str | Path, key: str, record: dict[str, Any]) -> Path:
    """Store ``record`` (JSON-able results measured after shipping) under ``key`` in a
    checkpoint's metadata, replacing an older record of that key; the weights and the
    format's own keys are untouched. ``CheckpointError`` if the checkpoint is unusable."""
    if key in RESERVED_KEYS:
        raise ValueError(f"metadata key {key!r} belongs to the checkpoint format")
    folder, meta = read_metadata(path)
    _write_metadata(folder, {**meta, key: record})
    return folder


def _folder_of(path: str | Path) -> Path:
    path = Path(path)
    if path.is_file():
        raise CheckpointError(
            f"checkpoint {str(path)!r} is a file: give its folder "
            f"(holding {METADATA_FILE} and {WEIGHTS_FILE})"
        )
    if not path.is_dir():
        raise CheckpointError(f"checkpoint {str(path)!r} does not exist")
    return path


def _check_files(folder: Path) -> None:
    """Refuse anything but the format's own files: nothing else is ever read."""
    foreign = sorted(p.name for p in folder.iterdir() if p.name not in KNOWN_FILES)
    if "model.zip" in foreign:
        raise CheckpointError(
            f"checkpoint {str(folder)!r} holds model.zip, Stable-Baselines3's pickle-based "
            "format, which can run code when loaded: refused. Convert it once with "
            f"`python -m train.tools.convert_checkpoint {folder}`"
        )
    if foreign:
        shown = foreign[:SHOWN_FILES]
        more = f" and {len(foreign) - len(shown)} more" if len(foreign) > len(shown) else ""
        raise CheckpointError(
            f"checkpoint {str(folder)!r} holds files that are not part of "
            f"the checkpoint format: {shown}{more}; refused"
        )
    for name in (METADATA_FILE, WEIGHTS_FILE):
        if not (folder / name).is_file():
            raise CheckpointError(f"checkpoint {str(folder)!r} has no {name}")


def read_metadata(path: str | Path) -> tuple[Path, dict[str, Any]]:
    """The folder and the checked metadata of a checkpoint; no tensor is read yet."""
    folder = _folder_of(path)
    _check_files(folder)
    meta_file = folder / METADATA_FILE
    try:
        meta = json.loads(meta_file.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise CheckpointError(f"{meta_file} is corrupt (not JSON): {err}") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise CheckpointError(f"{meta_file} is not an {FORMAT} metadata file")
    if meta.get("format_version") != FORMAT_VERSION:
        raise CheckpointError(
            f"{meta_file}: format version {meta.get('format_version')!r}, "
            f"this package reads {FORMAT_VERSION}"
        )
    signature = meta.get("signature")
    if not isinstance(signature, dict):
        raise CheckpointError(f"{meta_file} has no environment 'signature'")
    try:
        current = env_signature(
            signature.get("advice", "none"), signature.get("game", "inselflucht")
        )
    except ValueError as err:
        raise CheckpointError(f"{meta_file}: {err}") from None
    for key, value in current.items():
        if signature.get(key) != value:
            raise CheckpointError(
                f"checkpoint {str(folder)!r} was trained for another environment: {key} is "
                f"{signature.get(key)!r} there and {value!r} here (package "
                f"{meta.get('package_version')} vs {__version__}); retrain it"
            )
    try:
        spec = NetworkSpec.from_json(meta.get("network"))
    except (TypeError, ValueError) as err:
        raise CheckpointError(f"{meta_file}: bad network spec: {err}") from None
    if spec.observation_size != current["observation_size"]:
        raise CheckpointError(
            f"{meta_file}: the network reads {spec.observation_size} inputs, "
            f"the signature says {current['observation_size']}"
        )
    if spec.n_actions != current["n_actions"]:
        raise CheckpointError(
            f"{meta_file}: the network has {spec.n_actions} actions, "
            f"the signature says {current['n_actions']}"
        )
    return folder, meta


def load_network(path: str | Path) -> tuple[nn.Module, NetworkSpec, dict[str, Any]]:
    """The network of a checkpoint folder (evaluation mode, CPU), its spec and metadata."""
    folder, meta = read_metadata(path)
    spec = NetworkSpec.from_json(meta["network"])
    weights = folder / WEIGHTS_FILE
    _check_shapes(weights, spec)  # before building: a declared size is never trusted
    network = build_policy(spec)
    try:
        load_model(network, str(weights), strict=True)
    except (SafetensorError, RuntimeError, OSError, ValueError) as err:
        raise CheckpointError(
            f"{weights} is corrupt or does not fit the network in "
            f"{METADATA_FILE}: {str(err).splitlines()[0]}"
        ) from None
    network.set_training_mode(False)
    return network, spec, meta


def tensor_shapes(weights: Path) -> dict[str, list[int]]:
    """Every tensor's shape as the safetensors header declares it; nothing else is read.

    The format starts with the header's length (8 bytes, little-endian) and the header, a
    JSON object mapping each tensor's name to its dtype, shape and byte offsets.
    """
    with weights.open("rb") as file:
        prefix = file.read(8)
        length = int.from_bytes(prefix, "little") if len(prefix) == 8 else -1
        if not 0 < length <= HEADER_LIMIT:
            raise CheckpointError(f"{weights} is corrupt: no safetensors header")
        raw = file.read(length)
    try:
        header = json.loads(raw)
        return {
            name: [int(n) for n in entry["shape"]]
            for name, entry in header.items()
            if name != "__metadata__"
        }
    except (json.JSONDecodeError, UnicodeDecodeError, AttributeError, KeyError, TypeError) as err:
        raise CheckpointError(f"{weights} is corrupt: bad safetensors header ({err})") from None


def _check_shapes(weights: Path, spec: NetworkSpec) -> None:
    """The network ``spec`` declares must be the one the weights file holds, tensor by
    tensor; a tensor shared by two modules is stored once, under either name."""
    stored = tensor_shapes(weights)
    expected = parameter_shapes(spec)
    for names, shape in expected:
        found = [n for n in names if n in stored]
        if not found:
            raise CheckpointError(
                f"{weights} does not fit the network in {METADATA_FILE}: it has no tensor "
                f"{names[0]!r} (expected shape {shape})"
            )
        if stored[found[0]] != shape:
            raise CheckpointError(
                f"{weights} does not fit the network in {METADATA_FILE}: tensor "
                f"{found[0]!r} has shape {stored[found[0]]} there, the metadata's network "
                f"needs {shape}"
            )
    extra = sorted(set(stored) - {n for names, _ in expected for n in names})
    if extra:
        raise CheckpointError(
            f"{weights} does not fit the network in {METADATA_FILE}: unexpected tensors "
            f"{extra[:SHOWN_FILES]}"
        )


def load_optimizer(optimizer: torch.optim.Optimizer, path: str | Path) -> None:
    """Restore the optimiser state saved beside a checkpoint (for resuming training)."""
    folder = _folder_of(path)
    tensors_file, config_file = folder / OPTIMIZER_FILE, folder / OPTIMIZER_CONFIG_FILE
    if not tensors_file.is_file() or not config_file.is_file():
        raise CheckpointError(
            f"checkpoint {str(folder)!r} has no optimiser state "
            f"({OPTIMIZER_FILE}, {OPTIMIZER_CONFIG_FILE}): it cannot resume"
        )
    try:
        tensors = load_file(str(tensors_file))
        config = json.loads(config_file.read_text())
        optimizer.load_state_dict(_unflatten_optimizer(tensors, config))
    except (
        SafetensorError,
        json.JSONDecodeError,
        KeyError,
        TypeError,
        ValueError,
        RuntimeError,
    ) as err:
        raise CheckpointError(
            f"optimiser state in {str(folder)!r} is corrupt or does not fit: "
            f"{str(err).splitlines()[0]}"
        ) from None


def _flatten_optimizer(state: dict[str, Any]) -> tuple[dict[str, torch.Tensor], dict[str, Any]]:
    """Tensors keyed ``state.<param>.<name>``; the rest (hyper-parameters) as JSON."""
    tensors: dict[str, torch.Tensor] = {}
    scalars: dict[str, dict[str, Any]] = {}
    for param, entries in state["state"].items():
        for name, value in entries.items():
            if isinstance(value, torch.Tensor):
                tensors[f"state.{param}.{name}"] = value.detach().cpu().contiguous()
            else:
                scalars.setdefault(str(param), {})[name] = value
    return tensors, {"param_groups": state["param_groups"], "scalars": scalars}


def _unflatten_optimizer(
    tensors: dict[str, torch.Tensor], config: dict[str, Any]
) -> dict[str, Any]:
    state: dict[int, dict[str, Any]] = {}
    for key, value in tensors.items():
        _, param, name = key.split(".", 2)
        state.setdefault(int(param), {})[name] = value
    for param, entries in config.get("scalars", {}).items():
        state.setdefault(int(param), {}).update(entries)
    return {"state": state, "param_groups": config["param_groups"]}
