"""examples/friends.py runs as written: two players become friends by friend code, heartbeat, see each
other online with their status labels, and end gifting-ready."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "friends.py"


def test_friends_example_runs() -> None:
    # Without the key the example starts its own demo server.
    env = {k: v for k, v in os.environ.items() if k not in ("LIVECORE_CLIENT_KEY", "LIVECORE_URL")}
    result = subprocess.run(
        [sys.executable, str(EXAMPLE)], capture_output=True, text=True, timeout=120, check=False, env=env
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()

    registered = re.fullmatch(r"registered (ada-\w+) \(Ada\) and (bea-\w+) \(Bea\)", lines[0])
    assert registered, lines[0]
    code = re.fullmatch(r"Bea's friend code: ([A-HJ-NP-Z2-9]{6})", lines[1])
    assert code, lines[1]
    assert lines[2:] == [
        "Ada sent a friend request by code: pending",
        "Bea has a request from Ada",
        "Bea accepted: friends with Ada",
        "adding again is refused: already_friends",
        "Ada heartbeat: online=True status='in the hangar'",
        "Bea heartbeat: online=True status='racing'",
        "Ada's friends: Bea (online, 'racing')",
        "Bea's friends: Ada (online, 'in the hangar')",
        "Ada and Bea are friends: gifting-ready",
    ]
