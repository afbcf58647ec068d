"""A season's report is made of the areas' parts (livecore_server/simulate/section.py): the report's own
modules name no area, and a studio's area that declares a part has its section, its warnings, its
comparison rows and its place on the page, after the built-in ones."""

from __future__ import annotations

import ast
from pathlib import Path

import attrs
import pytest
from studio_quests.area import AREA
from studio_quests.report import REPORT
from studio_quests.server import SERVER_AREA
from studio_quests.simulation import Quests

from livecore.simulation import Simulation
from livecore.simulation.population import parse_population
from livecore.simulation.season import Season
from livecore_server.simulate.compare import differences
from livecore_server.simulate.gather import gather, parts
from livecore_server.simulate.render import to_html, write
from livecore_server.simulate.section import ReportPart, table

ROOT = Path(__file__).resolve().parents[2]
AREAS = {p.parent.name for p in (ROOT / "livecore").glob("*/area.py")}

MANIFEST = """
studio = "q"

[plugins]
areas = ["studio_quests"]

[games.g]
name = "Q"

[games.g.resources.gold]
type = "currency"

[games.g.areas.quests]
reward_resource = "gold"
reward_amount = 50
"""


def _imported(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_the_reports_modules_name_no_area() -> None:
    for path in sorted((ROOT / "livecore_server" / "simulate").glob("*.py")):
        for module in _imported(path):
            parts_ = module.split(".")
            named = parts_[1] if len(parts_) > 1 and parts_[0] in ("livecore", "livecore_server") else None
            assert named not in AREAS, f"{path.name} imports {module}"


def test_a_studios_area_has_its_part_of_the_report() -> None:
    # Without its part of the season, the players check in only as the test has them.
    sim = Simulation.from_manifest(MANIFEST, areas=[attrs.evolve(AREA, season=None)])
    season = Season(sim, parse_population(""), players=12, days=1, seed=3)
    season.play()
    checked = sorted(season.segment_of)[:4]
    for external_id in checked:
        Quests(sim.player(external_id)).check_in()
    served = [SERVER_AREA]
    assert SERVER_AREA.report is REPORT

    report = gather(sim, season, run={"manifest": "q.toml", "population": "default", "seed": 3}, areas=served)

    assert list(report)[-4:] == ["grants", "quests", "refusals", "warnings"]
    assert report["quests"]["players"] == len(checked)
    assert report["quests"]["check_ins"] == len(checked)
    # Nobody came back (one check-in each): the part's warning, after the built-in sections' ones.
    assert report["warnings"][-1] == {
        "area": "quests",
        "subject": "came_back",
        "message": "Only 0% of the players who checked in came back.",
    }
    rows = differences(report, report, parts(served))
    assert [r["metric"] for r in rows if r["section"] == "quests"] == ["players", "check_ins"]
    page = to_html(report, parts(served))
    assert '<h2 id="quests">quests</h2>' in page
    assert '"check_ins": 4' in page
    # Its figure per segment, in the segments section: the check-ins of each segment's players.
    per_player = report["segments"]["figures"]["quests"]["check-ins per player"]
    players = report["segments"]["players"]
    assert sum(v * players[s] for s, v in per_player.items() if v is not None) == len(checked)


def test_a_studios_part_declares_its_tables_for_the_page_and_the_csv_files(tmp_path: Path) -> None:
    sim = Simulation.from_manifest(MANIFEST, areas=[AREA])
    season = Season(sim, parse_population(""), players=4, days=1, seed=3)
    season.play()

    def tables(section: dict[str, int]) -> dict[str, object]:
        return {"quests": table(["Players", "Check-ins"], [[section["players"], section["check_ins"]]])}

    served = [attrs.evolve(SERVER_AREA, report=attrs.evolve(REPORT, tables=tables))]
    report = gather(sim, season, run={"manifest": "q.toml", "population": "default", "seed": 3}, areas=served)

    write(report, tmp_path, parts(served))
    quests = report["quests"]
    assert (
        tmp_path / "quests.csv"
    ).read_text() == f"Players,Check-ins\n{quests['players']},{quests['check_ins']}\n"
    page = (tmp_path / "report.html").read_text()
    assert '<table data-table="quests">' in page and '<a href="quests.csv">quests.csv</a>' in page


@pytest.mark.parametrize(("name", "refusal"), [("refusals", "two tables"), ("../quests", "not a file name")])
def test_a_table_named_as_another_or_as_no_file_of_its_own_is_refused(
    tmp_path: Path, name: str, refusal: str
) -> None:
    sim = Simulation.from_manifest(MANIFEST, areas=[AREA])
    season = Season(sim, parse_population(""), players=4, days=1, seed=3)
    season.play()
    made = table(["Players"], [[0]])
    served = [attrs.evolve(SERVER_AREA, report=attrs.evolve(REPORT, tables=lambda section: {name: made}))]
    report = gather(sim, season, run={}, areas=served)
    with pytest.raises(ValueError, match=refusal):
        write(report, tmp_path / "out", parts(served))
    assert not (tmp_path / "out").exists()  # refused before a file is written


def test_without_its_part_the_report_is_the_built_in_one() -> None:
    sim = Simulation.from_manifest(MANIFEST, areas=[AREA])
    season = Season(sim, parse_population(""), players=4, days=1, seed=3)
    season.play()
    report = gather(sim, season, run={}, areas=[attrs.evolve(SERVER_AREA, report=None)])
    assert "quests" not in report
    assert list(report)[-3:] == ["grants", "refusals", "warnings"]


def test_a_part_within_another_adds_its_fields_to_that_section_before_the_field_it_names() -> None:
    """The crates' count stands in the grants' section (before ``pending_by_source``, its
    ``parts_before``); a studio's part within the grants' adds its own there too, after it."""
    sim = Simulation.from_manifest(MANIFEST, areas=[AREA])
    season = Season(sim, parse_population(""), players=4, days=1, seed=3)
    season.play()
    added = ReportPart(within="grants", gather=lambda at: {"quest_grants": 0})
    served = [attrs.evolve(SERVER_AREA, report=added)]

    report = gather(sim, season, run={}, areas=served)

    assert "quests" not in report
    assert list(report["grants"]) == [
        "issued",
        "pending_at_end",
        "pending_crates",
        "crates_by_default",
        "quest_grants",
        "pending_by_source",
        "expired_by_source",
        "offers",
    ]
