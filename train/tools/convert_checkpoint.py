"""Convert a checkpoint of the old format (SB3 ``model.zip``) into the safe one, in place.

    python -m train.tools.convert_checkpoint checkpoints/ppo_2p_normal [more folders ...]

Nothing is unpickled: the network's tensors come from the archive's ``policy.pth`` through
``torch.load(weights_only=True)`` (which refuses any object but tensors and plain
containers), the architecture from the ``config.policy`` section of ``metadata.json``. The
zip's pickled ``data`` entry is never read. The result is checked by loading it back.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import zipfile
from pathlib import Path

import torch
from safetensors.torch import save_model

from inselflucht_env.learned.checkpoint import (
    FORMAT,
    FORMAT_VERSION,
    METADATA_FILE,
    WEIGHTS_FILE,
    CheckpointError,
    load_network,
)
from inselflucht_env.learned.network import NetworkSpec, build_policy

OLD_MODEL = "model.zip"


def convert(folder: Path) -> Path:
    """Rewrite ``folder`` (model.zip + metadata.json) as weights.safetensors + metadata.json."""
    meta = json.loads((folder / METADATA_FILE).read_text())
    policy = meta["config"]["policy"]
    spec = NetworkSpec(
        observation_size=meta["signature"]["observation_size"],
        features=policy["features"],
        cnn_channels=policy["cnn_channels"],
        features_dim=policy["features_dim"],
        net_arch=tuple(policy["net_arch"]),
    )
    with zipfile.ZipFile(folder / OLD_MODEL) as archive:
        weights = torch.load(
            io.BytesIO(archive.read("policy.pth")), map_location="cpu", weights_only=True
        )
    network = build_policy(spec)
    network.load_state_dict(weights, strict=True)
    save_model(network, str(folder / WEIGHTS_FILE))
    meta.update(
        format=FORMAT,
        format_version=FORMAT_VERSION,
        network=spec.to_json(),
        converted_from=OLD_MODEL,
    )
    (folder / METADATA_FILE).write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")
    (folder / OLD_MODEL).unlink()
    load_network(folder)  # the converted checkpoint must load
    return folder


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path, help="checkpoint folders to convert")
    args = parser.parse_args(argv)
    for folder in args.folders:
        if not (folder / OLD_MODEL).is_file():
            sys.exit(f"error: {folder} has no {OLD_MODEL} to convert")
        try:
            print(f"converted {convert(folder)}")
        except (
            KeyError,
            OSError,
            RuntimeError,
            zipfile.BadZipFile,
            CheckpointError,
            ValueError,
        ) as err:
            sys.exit(f"error: cannot convert {folder}: {type(err).__name__}: {err}")


if __name__ == "__main__":
    main()
