"""examples/ run as written."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize(
    ("script", "expect"),
    [
        ("embedded_simulation.py", "ada  sessions=7 streak=7 best=7"),
        ("quickstart.py", "second register refused: player_already_registered"),
    ],
)
def test_example_runs(script: str, expect: str) -> None:
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / script)], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert expect in result.stdout
