"""The code blocks of docs/scaling.md run as written (a user pastes them)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ROOT

DOC = ROOT / "docs" / "scaling.md"
RAY_RESULTS = Path("~/ray_results").expanduser()


def _blocks() -> dict[str, str]:
    """The ``python`` blocks by what they import first: dict_observation, ray, torchrl."""
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    named = {}
    for code in blocks:
        name = "rllib" if "ray.rllib" in code else "torchrl" if "torchrl" in code else "wrappers"
        assert name not in named, f"two {name} blocks in {DOC}"
        named[name] = code
    return named


def test_doc_has_the_three_examples():
    assert set(_blocks()) == {"wrappers", "rllib", "torchrl"}


@pytest.mark.parametrize("name", ["wrappers", "torchrl", "rllib"])
def test_doc_example_runs(name, tmp_path, monkeypatch, request):
    if name == "torchrl":
        pytest.importorskip("torchrl")
    if name == "rllib":
        request.getfixturevalue("ray_local")  # the session's small Ray, not a new one
    monkeypatch.chdir(tmp_path)  # the RLlib example writes its export here
    before = set(RAY_RESULTS.glob("*"))
    try:
        exec(compile(_blocks()[name], f"{DOC}:{name}", "exec"), {"__name__": "__doc_example__"})
    finally:  # RLlib's Algorithm leaves an empty log folder in ~/ray_results
        for folder in set(RAY_RESULTS.glob("*")) - before:
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
    if name == "rllib":
        from inselflucht_env.learned.policy import load_policy

        assert load_policy(str(tmp_path / "my_rllib_policy")).spec.net_arch == (64, 64)
