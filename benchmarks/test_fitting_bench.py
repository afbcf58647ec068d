"""The fitting benchmark fits planted players (its timing is reported, never asserted)."""

from __future__ import annotations

from benchmarks.fitting import main, run


def test_a_small_fit_finds_the_planted_kinds() -> None:
    result = run(players=600, days=7)
    assert len(result["shares"]) == 3 and all(abs(s - 1 / 3) <= 0.05 for s in result["shares"])
    assert set(result["steps"]) == {"players", *(f"part-{n}" for n in range(1, 6)), "clusters", "segments"}


def test_cli_runs() -> None:
    assert main(["--players", "3000", "--days", "7"]) == 0
