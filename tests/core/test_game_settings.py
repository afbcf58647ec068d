"""A game's settings hold each area's by the key its package declares (``livecore/<area>/settings.py``):
read with ``GameSettings.of``, answering the area's default where the game's manifest has no section."""

from __future__ import annotations

import copy
import pickle

from livecore.crates.settings import CRATE_SETTINGS, CrateRow, CrateSettings
from livecore.games import GameSettings
from livecore.gifts.settings import GIFTING_SETTINGS, GiftingSettings
from livecore.guilds.settings import GUILD_SETTINGS, GuildSettings
from livecore.manifest import parse_manifest

BASE = 'studio = "s"\n[games.g]\nname = "G"\n'


def test_an_area_without_a_section_reads_its_default() -> None:
    settings = GameSettings()

    assert settings.of(GUILD_SETTINGS) == GuildSettings()
    assert settings.of(CRATE_SETTINGS) == {}
    assert parse_manifest(BASE).games["g"].settings().of(GIFTING_SETTINGS) == GiftingSettings()


def test_a_section_at_its_default_is_the_same_game_as_none() -> None:
    assert GameSettings(sections={GUILD_SETTINGS: GuildSettings(), CRATE_SETTINGS: {}}) == GameSettings()
    assert parse_manifest(BASE + "[games.g.guilds]\n").games["g"].settings() == GameSettings(
        exchange_rates={"USD": 1.0}
    )


def test_an_area_reads_its_section_and_with_sections_replaces_only_its_own() -> None:
    crates = {"box": CrateSettings(table=(CrateRow(1, ()),))}
    settings = GameSettings(sections={GUILD_SETTINGS: GuildSettings(enabled=True)})

    changed = settings.with_sections({CRATE_SETTINGS: crates})

    assert changed.of(CRATE_SETTINGS) == crates
    assert changed.of(GUILD_SETTINGS) == GuildSettings(enabled=True)
    assert settings.of(CRATE_SETTINGS) == {}


def test_the_manifest_reads_each_section_into_its_areas_key() -> None:
    text = BASE + "[games.g.guilds]\nenabled = true\nmax_members = 7\n[games.g.gifting]\nenabled = true\n"

    settings = parse_manifest(text).games["g"].settings()

    assert settings.of(GUILD_SETTINGS) == GuildSettings(enabled=True, max_members=7)
    assert settings.of(GIFTING_SETTINGS) == GiftingSettings(enabled=True)


def test_copied_or_unpickled_settings_still_read_their_sections() -> None:
    settings = GameSettings(sections={GUILD_SETTINGS: GuildSettings(enabled=True)})

    assert copy.deepcopy(settings).of(GUILD_SETTINGS) == GuildSettings(enabled=True)
    assert pickle.loads(pickle.dumps(settings)).of(GUILD_SETTINGS) == GuildSettings(enabled=True)
