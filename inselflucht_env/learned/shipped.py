"""The policies shipped with the package, found by name.

In a source checkout they live in ``checkpoints/`` beside the package; a wheel installs the
same folders as package data in ``inselflucht_env/checkpoints/``. ``resolve("ppo_2p_normal")``
finds either, so ``--agent ppo_2p_normal`` works from any directory.
"""

from __future__ import annotations

from pathlib import Path

from inselflucht_env.learned.checkpoint import METADATA_FILE, CheckpointError

_PACKAGE = Path(__file__).resolve().parent.parent
_CANDIDATES = (
    _PACKAGE / "checkpoints",  # installed wheel: package data
    _PACKAGE.parent / "checkpoints",
)  # source checkout: the repository's folder


def shipped_folder() -> Path | None:
    """The folder holding the shipped checkpoints, or None if there is none."""
    return next((p for p in _CANDIDATES if p.is_dir()), None)


def shipped_names() -> list[str]:
    """Names of the shipped checkpoints (folders with a metadata file), sorted."""
    folder = shipped_folder()
    if folder is None:
        return []
    return sorted(p.name for p in folder.iterdir() if (p / METADATA_FILE).is_file())


def resolve(spec: str | Path) -> Path:
    """A checkpoint folder from a path or a shipped name (``ppo_2p_normal``,
    ``checkpoints/ppo_2p_normal``); ``CheckpointError`` listing the names if neither."""
    path = Path(spec)
    if path.exists():
        return path
    name = path.name if path.parent in (Path("."), Path("checkpoints")) else None
    folder = shipped_folder()
    if name and folder is not None and (folder / name / METADATA_FILE).is_file():
        return folder / name
    raise CheckpointError(
        f"no checkpoint {str(spec)!r}: not a folder, and not a shipped "
        f"policy (shipped: {', '.join(shipped_names()) or 'none'})"
    )
