"""The manifest's parser is the core's and is built from the areas' sections (docs/architecture.md,
"Areas"): every field of a game's settings is the parser's own or one area's section, and the core reads
the same manifest text the server applies."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from livecore import areas
from livecore.area import Area
from livecore.games import GameSettings
from livecore.manifest import ManifestError, parse_manifest

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
    area = Area("quests", "", "quests", settings=lambda section: {} if section else {"": "must not be empty"})
    text = 'studio = "acme"\n[games.g]\nname = "G"\n[games.g.areas.quests]\n'
    with pytest.raises(ManifestError) as refused:
        parse_manifest(text)
    assert list(refused.value.problems) == ["games.g.areas.quests"]
    with pytest.raises(ManifestError, match="must not be empty"):
        parse_manifest(text, areas=[area])
    assert parse_manifest(text + "day = 1\n", areas=[area]).games["g"].areas == {"quests": {"day": 1}}
