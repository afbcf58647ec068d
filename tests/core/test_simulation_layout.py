"""Each area's simulation actions (``livecore/<area>/simulation.py``) load on their own: a script or a
studio's test may import one before :mod:`livecore.simulation`, which lists them all."""

from __future__ import annotations

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
