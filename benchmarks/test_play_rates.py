"""The play rates' measurement runs (its figures are printed, never asserted). In a process of its own: it
wraps the live events' driver to count its decisions."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_small_season_is_measured_and_fitted() -> None:
    command = [sys.executable, "-m", "benchmarks.play_rates", "--players", "100", "--days", "2"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert "decided/open" in done.stdout and "fitted, 3 segments:" in done.stdout
