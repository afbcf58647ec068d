"""Seasons played from Python (docs/simulation.md#in-a-notebook): a report's tables are its CSV files,
by name and row for row; a season played by hand gives the same report as the notebook's; a comparison
gives its differences; a table is a frame, or an error naming the package to install."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from livecore import Simulation
from livecore.simulation.season import Season
from livecore_server.cli import main
from livecore_server.simulate import notebook
from livecore_server.simulate.run import population_of
from tests.season_support import MONDAY, POPULATION, SEASON

SIZE = {"players": 40, "days": 2, "seed": 3, "start": "2026-03-02"}


@pytest.fixture(scope="module")
def report() -> notebook.Report:
    return notebook.play(SEASON, POPULATION, **SIZE)  # type: ignore[arg-type]


def written(value: Any) -> str:
    """A value as the CSV files write it (docs/simulation.md#csv-files)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value) if isinstance(value, int | float) else str(value)


def test_the_tables_are_the_csv_files_the_command_writes(report: notebook.Report, tmp_path: Path) -> None:
    (tmp_path / "season.toml").write_text(SEASON)
    (tmp_path / "population.toml").write_text(POPULATION)
    command = ["simulate", str(tmp_path / "season.toml"), "--population", str(tmp_path / "population.toml")]
    command += ["--out", str(tmp_path / "out"), *(f"--{k}={v}" for k, v in SIZE.items())]
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 0, result.output

    files = {p.name.removesuffix(".csv"): p for p in (tmp_path / "out").glob("*.csv")}
    assert set(report.tables) == set(files)
    assert "economy.coins.daily" in report.tables
    for name, found in report.tables.items():
        with files[name].open(encoding="utf-8", newline="") as fh:
            header, *rows = csv.reader(fh)
        assert found.headings == header, name
        assert [[written(v) for v in row.values()] for row in found.rows] == rows, name
        assert all(list(row) == header for row in found.rows), name
    on_disk = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report.json == {
        **on_disk,
        "run": {**on_disk["run"], "manifest": "manifest", "population": "population"},
    }


def test_a_season_played_by_hand_gives_the_notebooks_report(report: notebook.Report) -> None:
    sim = Simulation.from_manifest(SEASON, seed=3, start=MONDAY)
    season = Season(sim, population_of(POPULATION), players=40, days=2, seed=3)
    season.play(days=1)
    with pytest.raises(ValueError, match="1 of its 2 days are played"):
        notebook.Report.of(season)
    season.play()
    assert notebook.Report.of(season).json == report.json


def test_a_comparison_gives_its_differences(tmp_path: Path) -> None:
    cheaper = SEASON.replace("threshold = 500", "threshold = 300")
    compared = notebook.compare(SEASON, cheaper, population=POPULATION, **SIZE)  # type: ignore[arg-type]
    assert list(compared.tables) == ["differences", "warnings"]
    half = next(
        row
        for row in compared.tables["differences"].rows
        if (row["Section"], row["Subject"], row["Metric"]) == ("events", "sprint", "milestone half rate")
    )
    assert half["Other"] > half["Base"] and half["Change"] > 0
    compared.write(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "differences.csv",
        "report.html",
        "report.json",
        "warnings.csv",
    ]
    with pytest.raises(ValueError, match="another manifest, another population or both"):
        notebook.compare(SEASON)


def test_a_table_is_a_frame_with_its_headings_as_columns(report: notebook.Report) -> None:
    daily = report.tables["economy.coins.daily"]
    frame = daily.to_pandas()
    assert list(frame.columns) == daily.headings
    assert frame["Minted"].tolist() == [row["Minted"] for row in daily.rows]
    assert frame["Minted"].dtype.kind == "i" and frame["Held mean"].dtype.kind == "f"
    assert list(daily.frame().columns) == daily.headings
    assert "<table" in (daily._repr_html_() or "")  # what a notebook shows of it
    assert repr(report).startswith("Report(tables: segments, players, ") and len(repr(report)) < 1000


def test_a_table_as_a_polars_frame_types_each_column_from_all_its_values(report: notebook.Report) -> None:
    pytest.importorskip("polars")
    segments = report.tables["segments"]
    frame = segments.to_polars()
    assert frame.columns == segments.headings
    assert frame.rows() == [tuple(row.values()) for row in segments.rows]


def test_a_frame_without_its_package_names_the_package(
    report: notebook.Report, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)
    table = report.tables["refusals"]
    with pytest.raises(ImportError, match="needs pandas, which is not installed: pip install pandas"):
        table.to_pandas()
    monkeypatch.setitem(sys.modules, "polars", None)
    with pytest.raises(ImportError, match="pandas or polars, and neither is installed: pip install pandas"):
        table.frame()
    assert table._repr_html_() is None  # a notebook shows its repr
