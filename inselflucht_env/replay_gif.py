"""``write_gif``: rendered frames (``render_mode="rgb_array"``) as an animated GIF."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import numpy as np


def write_gif(
    frames: Iterable[np.ndarray], path: str | os.PathLike, fps: float = 2.0, loop: int = 0
) -> Path:
    """Write RGB frames (uint8 H x W x 3, all one size) as an animated GIF with Pillow.

    Identical consecutive frames are merged by Pillow (their time adds up).
    """
    from PIL import Image

    frames = list(frames)
    if not frames:
        raise ValueError("write_gif needs at least one frame")
    if not fps > 0:
        raise ValueError(f"fps must be positive, got {fps!r}")
    shape = None
    images = []
    for k, frame in enumerate(frames):
        arr = np.asarray(frame)
        if arr.ndim != 3 or arr.shape[2] != 3 or arr.dtype != np.uint8:
            raise ValueError(
                f"frame {k} must be a uint8 array of shape (H, W, 3), got {arr.dtype} {arr.shape}"
            )
        if shape is None:
            shape = arr.shape
        elif arr.shape != shape:
            raise ValueError(f"frame {k} has shape {arr.shape}, frame 0 has {shape}")
        images.append(Image.fromarray(arr, "RGB"))
    path = Path(path)
    images[0].save(
        path,
        format="GIF",
        save_all=True,
        append_images=images[1:],
        duration=max(int(round(1000 / fps)), 20),
        loop=loop,
    )
    return path
