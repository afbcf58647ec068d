"""examples/gifts.py runs as written: a gift is sent, a retry answers the same gift, the cooldown refuses a
second one and matches the friends list, the recipient claims from the inbox, and a gift goes back."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "gifts.py"


def test_gifts_example_runs() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("LIVECORE_CLIENT_KEY", "LIVECORE_URL")}
    result = subprocess.run(
        [sys.executable, str(EXAMPLE)], capture_output=True, text=True, timeout=120, check=False, env=env
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "Bea adds Ada back: accepted",
        "giftable: coins (up to 100), energy-potion (up to 3), gems (up to 10), xp (up to 50)",
        "cooldown per friend: 86400 s, daily limit: 10",
        "Ada sent 25 coins: pending",
        "the retried send answers the same gift: True",
        "another gift to Bea now: gift_cooldown",
        "the friends list shows the same time: True",
        "Ada sent today: 1",
        "Bea's inbox: 25 coins from Ada",
        "  message: 'good luck in the race!'",
        "Bea claimed it: claimed",
        "pending gifts left: 0",
        "Bea sent Ada 1 energy-potion",
    ]
