"""examples/studio_backend_grants.py runs as written: one grant, credited once, acked, and a retried job
answered with the same grant and not credited again."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "studio_backend_grants.py"


def test_studio_backend_example_runs() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("LIVECORE_SERVER_KEY", "LIVECORE_URL")}
    result = subprocess.run(
        [sys.executable, str(EXAMPLE)], capture_output=True, text=True, timeout=120, check=False, env=env
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()

    assert lines[0] == "ping: test"
    grants = [re.fullmatch(r"grant (\S+) for season-reward:(player-\w+):3: pending", line) for line in lines]
    first, second = (m for m in grants if m)
    assert first.group(1) == second.group(1)  # the retried create is the same grant
    player = first.group(2)

    assert lines.count("credited in the studio database: coins +100, energy-potion +2") == 1
    assert lines.count("already credited in the studio database: skipped") == 1
    assert lines.count("acked: status=claimed ackedBy=server_api") == 2
    assert "retried create returned the same grant: True" in lines
    assert lines[-1] == f"studio balances for {player}: coins=100 energy-potion=2"
    # The steps come in order: create, credit, ack; then create, skip, ack.
    assert [line.split(" ")[0] for line in lines[1:4]] == ["grant", "credited", "acked:"]
    assert [line.split(" ")[0] for line in lines[5:8]] == ["grant", "already", "acked:"]
