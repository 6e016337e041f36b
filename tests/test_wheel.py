"""The installed package works outside the repository: shipped policies by name, the CLIs.

Builds the wheel, installs it (without dependencies, which the test environment has) into a
scratch folder, and from a directory outside the checkout loads a shipped policy by name and
plays a game with it, through the Python API and the console scripts.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, dict[str, str], Path]:
    """(install folder, environment that imports from it, the wheel)."""
    scratch = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--quiet",
            "--wheel-dir",
            str(scratch / "dist"),
            str(ROOT),
        ],
        check=True,
    )
    wheel = next((scratch / "dist").glob("inselflucht_gym-*.whl"))
    target = scratch / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--quiet",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
    )
    env = dict(os.environ, PYTHONPATH=str(target))
    return target, env, wheel


def run_outside(installed, args: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    target, env, _ = installed
    return subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)


def test_wheel_holds_the_package_and_the_shipped_policies_but_no_train_package(installed):
    names = zipfile.ZipFile(installed[2]).namelist()
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"inselflucht_env"}
    assert "inselflucht_env/py.typed" in names
    assert "inselflucht_env/checkpoints/ppo_2p_normal/weights.safetensors" in names
    assert not [n for n in names if n.endswith((".zip", ".pkl", ".pt"))]


def test_installed_package_loads_a_shipped_policy_by_name_and_plays(installed, tmp_path):
    script = (
        "import inselflucht_env, numpy as np\n"
        "from inselflucht_env.learned import load_policy, shipped_names\n"
        "from inselflucht_env.games.inselflucht.rules.config import GameConfig\n"
        "from inselflucht_env.games.inselflucht.rules.engine import State\n"
        f"assert inselflucht_env.__file__.startswith({str(installed[0])!r})\n"
        "assert 'ppo_2p_normal' in shipped_names()\n"
        "policy = load_policy('ppo_2p_normal')\n"
        "rng = np.random.default_rng(0)\n"
        "state = State.new(GameConfig.make(players=2), rng)\n"
        "while state.outcome is None:\n"
        "    state.apply(policy.act(state), rng)\n"
        "print('outcome', state.outcome)\n"
    )
    done = run_outside(installed, [sys.executable, "-c", script], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("outcome ")


def test_console_scripts_enjoy_a_shipped_policy_by_name_and_name_a_bad_one(installed, tmp_path):
    bin_dir = installed[0] / "bin"
    done = run_outside(
        installed,
        [str(bin_dir / "inselflucht-enjoy"), "--agent", "ppo_2p_normal_noadvice", "--seed", "3"],
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "plays all 2 figure(s); seed 3" in done.stdout and "outcome: " in done.stdout
    done = run_outside(
        installed, [str(bin_dir / "inselflucht-evaluate"), "--agent", "no_such_policy"], tmp_path
    )
    assert done.returncode == 2 and done.stderr.startswith("error: no checkpoint")
    assert "ppo_2p_normal" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert (bin_dir / "inselflucht-play").is_file()


def test_the_wheel_holds_every_subpackage(installed):
    """Every package folder of the source tree is in the wheel (a folder missing from
    ``pyproject.toml``'s ``packages`` list would silently be left out)."""
    names = set(zipfile.ZipFile(installed[2]).namelist())
    source = sorted(
        str(p.relative_to(ROOT)) for p in (ROOT / "inselflucht_env").rglob("__init__.py")
    )
    missing = [p for p in source if p not in names]
    assert not missing, f"pyproject.toml's packages leave out {missing}"
