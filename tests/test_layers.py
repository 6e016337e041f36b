"""The layers of the code: each module imports only from its own layer or the ones below.

    rules (errors, the game interface, each game's engine)  <  game knowledge (encodings,
    heuristic, renderers)  <  the compiled core  <  agents  <  envs (and the compiled
    vector envs)  <  replays, evaluation, PettingZoo  <  learned  <  cli  <  train/

A module's layer is that of the longest dotted prefix in ``LAYERS`` (``games.inselflucht``
is the game's ``__init__``; ``games.inselflucht.heuristic`` sits above it). Read from the
source with ``ast`` (imports inside functions count too), so a cycle cannot hide behind a
late import. The rules, the game knowledge, the compiled core and the agents also import
without gymnasium.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "inselflucht_env"

GAME_KNOWLEDGE = ("observation", "knowledge", "determinize", "heuristic", "render", "reward")
LAYERS = [  # (name, module prefixes); a module may import its own layer and the ones before
    (
        "rules",
        {
            "__init__",
            "errors",
            "game",
            "games",
            "games.inselflucht",
            "games.inselflucht.rules",
            "games.forbidden_island",
            "games.forbidden_island.rules",
        },
    ),
    (
        "game knowledge",
        {f"games.{g}.{m}" for g in ("inselflucht", "forbidden_island") for m in GAME_KNOWLEDGE},
    ),
    ("compiled core", {"compiled"}),
    ("agents", {"agents", "games.forbidden_island.search"}),  # the latter: agents.search's loop
    (
        "envs",
        {
            "envs",
            "envs.arguments",
            "envs.inselflucht",
            "envs.forbidden_island",
            "envs.dict_observation",
            "envs.advice",
            "compiled.vector_env",
            "compiled.sb3",
        },
    ),
    ("replays and evaluation", {"replay", "evaluation", "envs.pettingzoo", "pettingzoo", "bench"}),
    ("learned", {"learned"}),
    ("cli", {"cli"}),
]
NO_FRAMEWORK_LAYERS = 4  # rules, game knowledge, the compiled core and agents: no framework
FRAMEWORKS = {
    "gymnasium",
    "pettingzoo",
    "torch",
    "stable_baselines3",
    "sb3_contrib",
    "ray",
    "safetensors",
}


def layer_of(module: str) -> int:
    """The layer of a module given by its name inside the package (``""``: the package)."""
    parts = module.split(".") if module else ["__init__"]
    if (
        len(parts) == 1
        and not (PACKAGE / parts[0]).exists()
        and not (PACKAGE / f"{parts[0]}.py").exists()
    ):
        parts = ["__init__"]  # `from inselflucht_env import __version__`: the package's own
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]  # a sub-package's __init__ is that sub-package
    for n in range(len(parts), 0, -1):
        prefix = ".".join(parts[:n])
        for i, (_, members) in enumerate(LAYERS):
            if prefix in members:
                return i
    raise AssertionError(f"module {module!r} is in no layer: add it to LAYERS")


def imports_of(path: Path) -> list[str]:
    """Absolute names this file imports (package-relative imports resolved)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # the package of a module (or of an __init__) is parts[:-1]
                package = list(parts[:-1])
                base = package[: len(package) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
                names += [module] if node.module else [f"{module}.{a.name}" for a in node.names]
            else:
                names.append(node.module or "")
    return names


def package_files() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


@pytest.mark.parametrize("path", package_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_each_module_imports_only_its_layer_and_below(path):
    own = layer_of(".".join(path.relative_to(PACKAGE).with_suffix("").parts))
    for name in imports_of(path):
        assert not name.startswith("train"), (
            f"{path.name} imports {name}: the package never imports train/"
        )
        if name == "inselflucht_env" or name.startswith("inselflucht_env."):
            target = layer_of(name.removeprefix("inselflucht_env").removeprefix("."))
            assert target <= own, (
                f"{path.relative_to(ROOT)} ({LAYERS[own][0]}) imports "
                f"{name} ({LAYERS[target][0]}), a higher layer"
            )


@pytest.mark.parametrize(
    "path",
    [
        p
        for p in package_files()  # not the package's __init__,
        if p != PACKAGE / "__init__.py"  # whose registration is
        and layer_of(".".join(p.relative_to(PACKAGE).with_suffix("").parts)) < NO_FRAMEWORK_LAYERS
    ],  # skipped without one
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_engine_and_agents_import_no_framework(path):
    frameworks = {n.split(".")[0] for n in imports_of(path)} & FRAMEWORKS
    assert not frameworks, f"{path.relative_to(ROOT)} imports {sorted(frameworks)}"


def test_engine_and_agents_work_without_gymnasium():
    script = (
        "import sys; sys.modules['gymnasium'] = None\n"
        "import numpy as np\n"
        "from inselflucht_env import GameConfig, State\n"
        "from inselflucht_env.agents import make_agent\n"
        "rng = np.random.default_rng(1)\n"
        "state = State.new(GameConfig.make(players=2, short_game=True), rng)\n"
        "agent = make_agent('heuristic')\n"
        "while state.outcome is None:\n"
        "    state.apply(agent.act(state, rng), rng)\n"
        "print(state.outcome)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() in ("win", "L1", "L2", "L3", "L4", "L5", "L6")
