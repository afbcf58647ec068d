"""The fitting benchmark fits planted players (its timing is reported, never asserted)."""

from __future__ import annotations

from benchmarks.fitting import main, run
from livecore import registry


def test_a_small_fit_finds_the_planted_kinds() -> None:
    result = run(players=600, days=7)
    assert len(result["shares"]) == 3 and all(abs(s - 1 / 3) <= 0.05 for s in result["shares"])
    fitted = sum(
        1 for area in registry.installed() if area.season is not None and area.season.fit is not None
    )
    parts = {f"part-{n}" for n in range(1, fitted + 1)}
    assert set(result["steps"]) == {"players", "tables", *parts, "clusters", "segments"}


def test_cli_runs() -> None:
    assert main(["--players", "3000", "--days", "7"]) == 0
