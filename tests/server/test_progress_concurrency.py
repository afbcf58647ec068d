"""Which progress writes run beside their game's other writes on PostgreSQL (docs/architecture.md,
"Concurrency"): an event whose progress changes its player's rows, its board's and the shared leaderboards'
its attempts feed as they finish (the store holds a period as the write reaches it) runs beside them,
holding its player; one whose window changes rows other players share that no such hold covers (a team's
score, a lobby: ``SHARED_ROWS``) holds its game alone. The declaration reads the event's settings from the
manifest; the window, which keeps the settings it opened with, has the last word: a write whose declaration
missed that runs again, holding its game alone, and applies once."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from livecore.live_events import handlers
from livecore_server.live_events import sdk
from livecore_server.storage import postgres
from tests.server.leaderboard_support import League, start_league_world


@pytest.fixture
def backend() -> str:
    return "postgres"  # SQLite runs one write at a time


@pytest.fixture
async def league(db_url: str) -> AsyncIterator[League]:
    game = await start_league_world(db_url)
    try:
        yield game
    finally:
        await game.world.client.close()


async def _finish_an_attempt(g: League, who: str, score: int) -> None:
    """An attempt of ``dash`` reaching its target: completed, its score fed to the boards ``dash`` feeds."""
    status, body, _ = await g.sdk("POST", who, "/events/dash/start")
    assert status == 201, body
    attempt_id = body["data"]["attempt"]["attemptId"]
    status, body, _ = await g.sdk(
        "POST", who, f"/events/dash/attempts/{attempt_id}/progress", {"metrics": {"score": score}}
    )
    assert status == 200, body


def _ran_again(g: League) -> dict[str, Any]:
    return dict(g.world.services.store.write_counts.retried)  # type: ignore[attr-defined]


async def test_a_progress_write_that_feeds_shared_boards_runs_beside_its_games_others(
    league: League, monkeypatch: pytest.MonkeyPatch
) -> None:
    held_alone: list[bool] = []  # by each concurrent write, whether it held its game alone

    def lock(*args: Any) -> bool:
        held_alone.append(locked(*args))
        return held_alone[-1]

    g = league
    await g.register("ann")
    locked = postgres._lock
    monkeypatch.setattr(postgres, "_lock", lock)
    await _finish_an_attempt(g, "ann", 100)
    assert await g.entries("weekly-xp") == [(1, "ann", 100)]
    # The start's and the progress write's: neither held the game alone, or ran again to.
    assert held_alone == [False, False]
    assert "GameAloneNeeded" not in _ran_again(g)


async def test_a_progress_write_whose_window_shares_rows_its_declaration_missed_runs_again_alone(
    league: League, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The window says the event shares rows (as a team event's would) while the manifest says (wrongly,
    # as after a change since the window opened) that it shares nothing.
    monkeypatch.setattr(handlers, "shares_rows", lambda rt, event: False)
    monkeypatch.setattr(sdk, "shares_rows", lambda rt, event: True)
    g = league
    await g.register("ann")
    await _finish_an_attempt(g, "ann", 100)
    assert _ran_again(g).get("GameAloneNeeded") == 1
    # Applied once, as it ran the second time: one entry, one completion.
    assert await g.entries("weekly-xp") == [(1, "ann", 100)]
    assert await g.entries("forever") == [(1, "ann", 100)]
    assert len(g.events("event.completed")) == 1
