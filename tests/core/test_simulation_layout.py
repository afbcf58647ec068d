"""Each area's simulation actions (``livecore/<area>/simulation.py``) load on their own: a script or a
studio's test may import one before :mod:`livecore.simulation`, which lists them all."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
AREAS = sorted(p.parent.name for p in (ROOT / "livecore").glob("*/simulation.py"))


def test_the_areas_with_actions_are_found() -> None:
    assert {"guilds", "teams", "lobbies", "purchases", "players"} <= set(AREAS)


@pytest.mark.parametrize("area", AREAS)
def test_an_areas_actions_import_first(area: str) -> None:
    # A fresh interpreter: this one has loaded livecore.simulation already.
    code = f"import livecore.{area}.simulation; from livecore.simulation import Simulation"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def _imported(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


#: What an area's actions may import of the simulation: no module that lists the areas.
LOW = {"livecore.simulation.calls", "livecore.simulation.handle"}


@pytest.mark.parametrize("area", AREAS)
def test_an_areas_actions_import_only_the_low_modules_of_the_simulation(area: str) -> None:
    found = {
        m
        for m in _imported(ROOT / "livecore" / area / "simulation.py")
        if m.startswith("livecore.simulation")
    }
    assert found <= LOW


def test_the_low_modules_of_the_simulation_import_no_area() -> None:
    areas = {p.parent.name for p in (ROOT / "livecore").glob("*/area.py")}
    # The players' record is the one type they name: what a player's action acts as.
    allowed = {"livecore.players.rules"}
    for module in LOW:
        path = ROOT / (module.replace(".", "/") + ".py")
        named = {m for m in _imported(path) if m.split(".")[:2][-1] in areas and m not in allowed}
        assert not named, f"{module} imports {sorted(named)}"


@pytest.mark.parametrize("area", AREAS)
def test_an_areas_actions_extend_no_other_areas(area: str) -> None:
    """A group of actions another area adds to (``player.grants`` with the crates' ``open_crate``) is
    composed of each area's part by the simulation's player (:mod:`livecore.simulation.player`), as the
    clients compose their resources; no area's actions extend another's."""
    module = f"livecore.{area}.simulation"
    loaded = importlib.import_module(module)
    found = [
        f"{name} extends {base.__module__}.{base.__qualname__}"
        for name, cls in vars(loaded).items()
        if isinstance(cls, type) and cls.__module__ == module
        for base in cls.__mro__[1:]
        if base.__module__.endswith(".simulation") and base.__module__ != module
    ]
    assert not found, "\n".join(found)
