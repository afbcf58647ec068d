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


def test_live_event_example_runs_a_whole_window() -> None:
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / "live_event.py")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    # The refusals: over the anti-cheat cap, and a second start the player cannot pay for.
    assert "fox  progress: refused, anti_cheat_rejected" in out
    assert "fox   1100: completed, flagged=True" in out
    assert "ada  start: refused, insufficient_entry_cost" in out
    assert "around cy: 4. eli, 5. ada, 6. cy" in out
    # The closed window's board: best first, unfinished attempts expired, the top three paid.
    board = out[out.index("final board (finalized):") :].splitlines()[1:7]
    assert board == [
        "  1. fox   1100  completed  +500 coins",
        "  2. dee    710  expired  +200 coins",
        "  3. bo     685  expired  +200 coins",
        "  4. eli    520  expired",
        "  5. ada    368  completed",
        "  6. cy     324  expired",
    ]
    assert "leaderboard.finalized x1" in out
