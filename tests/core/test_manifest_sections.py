"""The manifest's parser is the core's and is built from the areas' sections (docs/architecture.md,
"Areas"): every field of a game's settings is the parser's own or one area's section, and the core reads
the same manifest text the server applies."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import pytest

from livecore import registry
from livecore.area import Area
from livecore.crates.settings import CRATE_SETTINGS
from livecore.games import GameSettings
from livecore.gifts.settings import GIFT_RESOURCE, GiftResource
from livecore.guilds.settings import GUILD_SETTINGS
from livecore.manifest import ManifestError, parse_manifest
from livecore.section import Section, resource_refusal

ROOT = Path(__file__).resolve().parents[2]
# What the parser reads itself: the game's economy, its platforms, its exchange rates and a studio's areas,
# beside the areas' settings, each held under its area's key.
PARSERS_OWN = {"economy", "exchange_rates", "platforms", "areas", "sections"}


def test_each_settings_field_is_the_parsers_or_one_areas_section() -> None:
    """A game's section is held under its area's key of the same name (stored under it), or is a field of
    the game's own (its resources); the settings record names no other area."""
    game_sections = [section for section in registry.sections(registry.installed()) if section.within is None]
    assert len(game_sections) == len({section.key for section in game_sections})
    held = [section for section in game_sections if section.holds is not None]
    assert [section.holds.name for section in held if section.holds] == [section.key for section in held]
    own = {section.key for section in game_sections if section.holds is None}
    assert {f.name for f in attrs.fields(GameSettings)} == PARSERS_OWN | own


def test_the_core_reads_the_demo_manifest_text() -> None:
    text = (ROOT / "livecore_server" / "demo.toml").read_text(encoding="utf-8")
    game = parse_manifest(text).games["space-race"]
    settings = game.settings()
    assert settings.of(GUILD_SETTINGS) == game.guilds and settings.of(GUILD_SETTINGS).enabled
    assert set(settings.of(CRATE_SETTINGS)) == {"bronze-chest", "gem-box"}
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


BASE_GAME = 'studio = "acme"\n[games.g]\nname = "G"\n[games.g.resources.gold]\ntype = "currency"\n'


def test_a_flat_section_reads_its_fields_from_the_table_it_sits_in_into_its_part() -> None:
    text = BASE_GAME + 'giftable = true\nmax_per_gift = 5\n[games.g.resources.wood]\ntype = "item"\n'
    resources = parse_manifest(text).games["g"].settings().resources
    assert resources["gold"].of(GIFT_RESOURCE) == GiftResource(giftable=True, max_per_gift=5)
    assert resources["gold"].parts == {GIFT_RESOURCE: GiftResource(giftable=True, max_per_gift=5)}
    assert resources["wood"].parts == {}  # at its default: the same resource as one without it
    with pytest.raises(ManifestError) as refused:
        parse_manifest(BASE_GAME + "max_per_gift = 0\ncolour = 1\n")
    assert refused.value.problems == {
        "games.g.resources.gold.max_per_gift": "must be a whole number from 1 to 1,000,000,000,000",
        "games.g.resources.gold.colour": "is not a known field",
    }


def test_two_areas_adding_the_same_field_to_a_table_are_refused() -> None:
    clash = Section(key="sale", within="resources", record=GiftResource, holds=GIFT_RESOURCE, flat=True)
    with pytest.raises(
        registry.AreaConflict, match=r"manifest field 'resources\.giftable' is taken by gifts"
    ):
        registry.areas([Area("shop", "", "shop", manifest=(clash,))])
