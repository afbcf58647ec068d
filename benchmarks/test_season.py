"""The season benchmark plays and gathers a real season (its timing is reported, never asserted)."""

from __future__ import annotations

from benchmarks.season import main, run


def test_a_small_season_is_played_and_reported() -> None:
    result = run(players=40, days=2)
    assert result["windows"] > 0 and result["giftsSent"] > 0
    assert result["cpuSeconds"] > 0 and result["peakResidentMB"] > 0


def test_cli_writes_json(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "season.json"
    assert main(["--players", "20", "--days", "1", "--json", str(out)]) == 0
    assert '"scenario": "season_demo"' in out.read_text()
