"""A game's settings are stored as JSON (the games table's ``settings``): the areas hold their settings in
their own packages, but the JSON keeps its shape, so a database the previous version wrote still loads.
``settings_as_stored.json`` is the demo manifest's settings as that version wrote them, every area's
section a key of one object; it loads into the settings the demo manifest gives today, and is written back
as the same JSON, through the converter and through each store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from livecore.games import GameSettings
from livecore_server.manifest import demo_manifest
from livecore_server.operators.apply import apply_manifest
from livecore_server.storage.records import settings_converter
from tests.conftest import make_services

STORED = (Path(__file__).parent / "settings_as_stored.json").read_text().strip()


def _demo_settings() -> GameSettings:
    return demo_manifest().games["space-race"].settings()


def test_settings_stored_by_the_previous_version_load_and_are_written_back_alike() -> None:
    loaded = settings_converter.structure(orjson.loads(STORED), GameSettings)

    assert loaded == _demo_settings()
    assert settings_converter.unstructure(loaded) == orjson.loads(STORED)
    assert settings_converter.unstructure(_demo_settings()) == orjson.loads(STORED)


def test_settings_the_previous_version_stored_load_from_the_database(db_url: str) -> None:
    """The row as the previous version wrote it, read by a process that never cached the game; an apply
    of the same manifest writes the same JSON back."""
    services = make_services(db_url)
    try:
        result = apply_manifest(services.store, services.keys, services.runtime, demo_manifest())
        game_id = result["games"]["space-race"]["id"]
        services.store.run(
            lambda tx: tx.manifest.update_game(game_id, "Space Race", STORED, 0, enabled={"gifting"})
        )
    finally:
        services.close()
    services = make_services(db_url)
    try:
        game = services.store.run(lambda tx: tx.games.get(game_id), write=False)
        assert game is not None and game.settings == _demo_settings()
        apply_manifest(services.store, services.keys, services.runtime, demo_manifest())
        row = services.store.run(
            lambda tx: tx.manifest.db.read("SELECT settings FROM games WHERE id = ?", (game_id,)).fetchone(),
            write=False,
        )
    finally:
        services.close()
    stored: Any = row[0]
    assert (orjson.loads(stored) if isinstance(stored, str | bytes) else stored) == orjson.loads(STORED)
