"""The season benchmark plays and gathers a real season (its timing is reported, never asserted)."""

from __future__ import annotations

import json

from benchmarks.season import main, run


def test_a_small_season_is_played_and_reported() -> None:
    result = run(players=40, days=2)
    assert result["windows"] > 0 and result["giftsSent"] > 0
    assert result["cpuSeconds"] > 0 and result["peakResidentMB"] > 0


def test_cli_writes_json(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "season.json"
    small = ["--players", "20", "--days", "1", "--compare-players", "20", "--compare-days", "1"]
    assert main([*small, "--compare-seeds", "2", "--json", str(out)]) == 0
    found = json.loads(out.read_text())
    assert found["scenario"] == "season_demo" and found["tickMicros"] > 0
    assert found["check"]["players"] == 20 and found["check"]["ratio"] > 0
    assert found["compare"]["seeds"] == 2 and found["compare"]["wallSeconds"] > 0
