"""The manifest's parser is the core's and is built from the areas' sections (docs/architecture.md,
"Areas"): every field of a game's settings is the parser's own or one area's section, and the core reads
the same manifest text the server applies."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import pytest

from livecore import areas
from livecore.area import Area
from livecore.games import GameSettings
from livecore.manifest import ManifestError, parse_manifest
from livecore.section import resource_refusal

ROOT = Path(__file__).resolve().parents[2]
# What the parser reads itself: the game's economy, its platforms, its exchange rates and a studio's areas.
PARSERS_OWN = {"economy", "exchange_rates", "platforms", "areas"}


def test_each_settings_field_is_the_parsers_or_one_areas_section() -> None:
    game_sections = [section.key for section in areas.sections() if section.within is None]
    assert len(game_sections) == len(set(game_sections))
    assert {f.name for f in attrs.fields(GameSettings)} == PARSERS_OWN | set(game_sections)


def test_the_core_reads_the_demo_manifest_text() -> None:
    text = (ROOT / "livecore_server" / "demo.toml").read_text(encoding="utf-8")
    game = parse_manifest(text).games["space-race"]
    settings = game.settings()
    assert settings.guilds == game.guilds and settings.guilds.enabled
    assert set(settings.crates) == {"bronze-chest", "gem-box"}
    assert settings.exchange_rates["USD"] == 1.0


def test_a_studio_area_given_to_the_core_parser_checks_its_section() -> None:
    area = Area(
        "quests", "", "quests", settings=lambda section, _game: {} if section else {"": "must not be empty"}
    )
    text = 'studio = "acme"\n[games.g]\nname = "G"\n[games.g.areas.quests]\n'
    with pytest.raises(ManifestError) as refused:
        parse_manifest(text)
    assert list(refused.value.problems) == ["games.g.areas.quests"]
    with pytest.raises(ManifestError, match="must not be empty"):
        parse_manifest(text, areas=[area])
    assert parse_manifest(text + "day = 1\n", areas=[area]).games["g"].areas == {"quests": {"day": 1}}


STUDIO_GAME = """studio = "acme"
[games.g]
name = "G"
[games.g.resources.gold]
type = "currency"
[games.g.areas.quests]
reward = "silver"
"""


def _names_a_resource(section: Mapping[str, Any], game: Mapping[str, Any]) -> dict[str, str]:
    refusal = resource_refusal(section.get("reward", ""), game)
    return {} if refusal is None else {"reward": refusal}


def test_a_studio_areas_settings_check_sees_the_whole_game_as_a_built_in_check_does() -> None:
    seen: list[Mapping[str, Any]] = []
    area = Area("quests", "", "quests", settings=lambda section, game: seen.append(game) or {})
    parse_manifest(STUDIO_GAME, areas=[area])
    assert seen == [
        {"name": "G", "resources": {"gold": {"type": "currency"}}, "areas": {"quests": {"reward": "silver"}}}
    ]
    area = Area("quests", "", "quests", settings=_names_a_resource)
    with pytest.raises(ManifestError) as refused:
        parse_manifest(STUDIO_GAME, areas=[area])
    assert refused.value.problems == {
        "games.g.areas.quests.reward": "no resource named silver is declared in this game's resources"
    }
    parse_manifest(STUDIO_GAME.replace('"silver"', '"gold"'), areas=[area])


def test_a_studio_areas_section_is_checked_in_the_same_run_as_the_rest_of_the_manifest() -> None:
    """A problem elsewhere (a field of the wrong type) does not hide the area's: each is named at once."""
    area = Area("quests", "", "quests", settings=_names_a_resource)
    with pytest.raises(ManifestError) as refused:
        parse_manifest(STUDIO_GAME.replace('name = "G"', "name = 1"), areas=[area])
    assert set(refused.value.problems) == {"games.g.name", "games.g.areas.quests.reward"}
