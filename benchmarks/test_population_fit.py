"""The population-fitting benchmark builds a history the command fits (its timing is reported, never
asserted)."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.population_fit import main
from livecore.simulation.population import parse_population


def test_a_small_history_is_built_and_fitted(tmp_path: Path) -> None:
    out = tmp_path / "fit.json"
    assert main(["--players", "300", "--days", "3", "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["rows"]["players"] == 300
    assert min(result["rows"].values()) > 0
    assert "players: 300, segments: 3" in result["file"]
    assert len(parse_population(result["file"]).segments) == 3
