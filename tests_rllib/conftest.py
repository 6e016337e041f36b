"""The second test environment: Ray, RLlib and TorchRL (``.ci/rllib``, its own virtualenv,
because ``ray[rllib]`` pins ``gymnasium==1.2.2``). Run from the repository root:
``python -m pytest tests_rllib``. Ray is kept small: 2 CPUs, stopped at the end."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RAY_CPUS = 2
KILL_MARKER = Path(tempfile.mkdtemp(prefix="inselflucht-kill-")) / "kill-one-worker"
os.environ["INSELFLUCHT_KILL_ONE_WORKER"] = str(KILL_MARKER)  # before Ray: workers inherit it


@pytest.fixture(scope="session")
def ray_local():
    """One local Ray for the in-process tests (``evaluate_ray.connect`` reuses it)."""
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=RAY_CPUS, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def cli(
    *args: str, timeout: float = 300, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    """``python -m <args>`` from the repository root, output captured."""
    return subprocess.run(
        [sys.executable, "-m", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


@pytest.fixture(scope="session")
def kill_marker() -> Path:
    """The file whose existence makes one Ray task kill its own worker (``evaluate_ray``)."""
    return KILL_MARKER
