"""The embedded benchmark runs its simulation correctly (its timing is reported, never asserted)."""

from __future__ import annotations

from benchmarks.embedded import main, run


def test_every_simulated_send_succeeds_with_its_two_events() -> None:
    result = run(players=20, friends=4, days=2)
    assert [d["sends"] for d in result["days"]] == [80, 80]
    assert result["bestCpuPerSecond"] > 0


def test_cli_writes_json(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "embedded.json"
    assert main(["--players", "10", "--friends", "2", "--days", "1", "--json", str(out)]) == 0
    assert '"scenario": "embedded_send_gift"' in out.read_text()
