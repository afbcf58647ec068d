"""apply (docs/reference/manifest-and-cli.md#manifest) stores a game's live events with its settings, on
SQLite and PostgreSQL; an event left out of a later manifest leaves the settings, and apply keeps working."""

from __future__ import annotations

from datetime import UTC, datetime

from livecore.games import Game
from livecore.live_events.settings import EVENT_SETTINGS
from livecore_server.manifest import parse_manifest
from tests.conftest import TEST_MANIFEST, apply_test_manifest, make_services

EVENT = """
[games.space-race.events.time-trial]
name = "Time Trial"
starts_at = 2026-12-01T01:00:00+01:00
window_seconds = 3600
repeat_every_seconds = 86400
attempt_seconds = 600
score_metric = "score"
order = "asc"
segments = ["country"]
completion_rewards = [{ type = "currency", key = "coins", amount = 20 }]

[[games.space-race.events.time-trial.milestones]]
key = "bronze"
threshold = 100.5
rewards = [{ type = "currency", key = "coins", amount = 1 }]

[[games.space-race.events.time-trial.rank_rewards]]
from = 1
to = 3
rewards = [{ type = "currency", key = "coins", amount = 500 }]

[[games.space-race.events.time-trial.anti_cheat]]
key = "score-rate"
kind = "max_rate"
metric = "score"
limit = 50
verdict = "flag"
"""


def _stored_game(db_url: str, game_id: str) -> Game:
    """The game as a process that never cached it reads it."""
    services = make_services(db_url)
    try:
        game = services.store.run(lambda tx: tx.games.get(game_id), write=False)
    finally:
        services.close()
    assert game is not None
    return game


def test_apply_stores_events_and_a_removed_event_leaves_the_settings(db_url: str) -> None:
    services = make_services(db_url)
    try:
        game_id = apply_test_manifest(services, EVENT)["games"]["space-race"]["id"]
        stored = _stored_game(db_url, game_id).settings
        expected = parse_manifest(TEST_MANIFEST + EVENT).games["space-race"].settings()
        assert stored == expected
        assert stored.of(EVENT_SETTINGS)["time-trial"].starts_at == datetime(2026, 12, 1, tzinfo=UTC)

        again = apply_test_manifest(services)  # the event left out
        assert again["games"]["space-race"]["id"] == game_id
        assert _stored_game(db_url, game_id).settings.of(EVENT_SETTINGS) == {}

        assert apply_test_manifest(services, EVENT)["games"]["space-race"]["id"] == game_id
        assert _stored_game(db_url, game_id).settings.of(EVENT_SETTINGS) == expected.of(EVENT_SETTINGS)
    finally:
        services.close()
