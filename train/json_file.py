"""JSON files of the training tools: written so that a crash mid-write leaves the previous
one (a run's progress, a report's data), and ``train.evaluate --json`` outputs read back
with an error that names the file."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from inselflucht_env.errors import InputError


def write_json(path: Path, data: Any) -> None:
    """Write ``data`` to ``path`` atomically (parent folders made as needed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    os.replace(tmp, path)


def read_evaluation(path: str | Path, label: str) -> dict[str, Any]:
    """The ``train.evaluate --json`` output in ``path``; ``InputError`` starting with
    ``label`` if it is not JSON or not an object (an unreadable file stays an ``OSError``)."""
    try:
        data = json.loads(Path(path).read_text())
    except json.JSONDecodeError as err:
        raise InputError(f"{label}: not JSON ({err})") from None
    if not isinstance(data, dict):
        raise InputError(f"{label}: not a train.evaluate --json output")
    return data
