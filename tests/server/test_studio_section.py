"""A studio's area declares a typed manifest section exactly as a built-in area does
(``Area(manifest=(Section(...),))``, docs/extending.md#the-manifest-section): the parser reads its table
beside the built-in ones with the same converter and rules (each problem by its path), the game's settings
hold its record under its key (``game.settings.of(KEY)``) embedded and served, a stored game reads it back,
and its key may be neither a built-in section's nor a field of the game's own."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from livecore.area import Area
from livecore.games import SettingsKey
from livecore.manifest import ManifestError, parse_manifest
from livecore.registry import AreaConflict
from livecore.registry import areas as registered
from livecore.section import Rules, Section, at_least
from livecore.simulation import Simulation
from livecore_server.area import ServerArea
from livecore_server.operators.apply import apply_manifest
from livecore_server.registry import installed, storage
from livecore_server.services import build_services
from tests.conftest import service_args


@attrs.frozen
class TournamentSettings:
    enabled: bool = False
    entry_fee: int = 0
    rounds: int = 3


TOURNAMENTS = SettingsKey("tournaments", TournamentSettings, TournamentSettings())


def _fee_under_a_thousand(table: object, path: str, problems: dict[str, str], game: object) -> None:
    fee = table.get("tournaments", {}).get("entry_fee") if isinstance(table, dict) else None
    if isinstance(fee, int) and fee >= 1000:
        problems[f"{path}.tournaments.entry_fee"] = "must be under 1,000"


SECTION = Section(
    "tournaments",
    TournamentSettings,
    default=TournamentSettings,
    holds=TOURNAMENTS,
    rules=Rules(fields={(TournamentSettings, "rounds"): at_least(1)}),
    check=_fee_under_a_thousand,
)
AREA = Area(
    name="tournaments", summary="Tournaments (a test's area).", page="tournaments", manifest=(SECTION,)
)
SERVER_AREA = ServerArea(AREA)

MANIFEST = """
studio = "acme"

[games.g]
name = "G"

[games.g.tournaments]
enabled = true
entry_fee = 50
rounds = 5
"""


def test_the_parser_reads_a_studio_areas_section_into_its_record() -> None:
    game = parse_manifest(MANIFEST, areas=[AREA]).games["g"].settings()
    assert game.of(TOURNAMENTS) == TournamentSettings(enabled=True, entry_fee=50, rounds=5)


def test_a_game_without_the_table_holds_the_sections_default() -> None:
    game = parse_manifest('studio = "acme"\n[games.g]\nname = "G"\n', areas=[AREA]).games["g"].settings()
    assert game.of(TOURNAMENTS) == TournamentSettings()


def test_each_problem_of_the_section_is_named_by_its_path() -> None:
    text = MANIFEST.replace("rounds = 5", 'rounds = 0\ncolour = "red"').replace("50", "5000")
    with pytest.raises(ManifestError) as refused:
        parse_manifest(text, areas=[AREA])
    assert refused.value.problems == {
        "games.g.tournaments.rounds": "must be at least 1",
        "games.g.tournaments.colour": "is not a known field",
        "games.g.tournaments.entry_fee": "must be under 1,000",
    }


def test_without_the_area_the_table_is_not_a_known_field() -> None:
    with pytest.raises(ManifestError) as refused:
        parse_manifest(MANIFEST)
    assert "games.g.tournaments" in refused.value.problems


def test_a_simulation_holds_the_sections_settings() -> None:
    sim = Simulation.from_manifest(MANIFEST, areas=[AREA])
    assert sim.game.settings.of(TOURNAMENTS).rounds == 5


@pytest.mark.parametrize("key", ["gifting", "webhooks", "areas"])
def test_a_section_may_take_neither_a_built_in_sections_key_nor_a_games_own_field(key: str) -> None:
    taken = Area(name="taken", summary="-", page="taken", manifest=(Section(key, TournamentSettings),))
    with pytest.raises(AreaConflict, match=f"manifest section 'game.{key}'"):
        registered([taken])


def test_a_stored_game_reads_the_sections_settings_back(tmp_path: Path) -> None:
    services = build_services(
        *service_args(tmp_path / "s.db"), served=(*installed(), SERVER_AREA), storage=storage((SERVER_AREA,))
    )
    try:
        apply_manifest(
            services.store, services.keys, services.runtime, parse_manifest(MANIFEST, areas=[AREA])
        )
        (game,) = services.store.run(lambda tx: tx.games.every())
    finally:
        services.close()
    assert game.settings.of(TOURNAMENTS) == TournamentSettings(enabled=True, entry_fee=50, rounds=5)
