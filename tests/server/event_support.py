"""A game with live events, and helpers for the live-event API tests.

The manifest below is added to the shared test manifest (``tests/conftest.py``); the world's manual clock
starts at ``START`` (2026-03-02 12:00 UTC). ``arcade`` is platform-managed (``gems``, ``coins``, the
``badge`` item) and has two events:

- ``sprint``: windows of an hour from 13:00, every two hours (13:00-14:00, 15:00-16:00, ...); attempts of
  10 minutes, at most 2 per window; desc by ``score``, target 1000; costs 5 gems; completing pays 20
  coins; milestones ``bronze`` (100: a badge) and ``silver`` (500: 5 coins); rank 1 gets 500 coins, ranks
  2-3 100; a score above 5000 is rejected (``score-cap``), a ``combo`` rising faster than 10 a second is
  flagged (``combo-rate``);
- ``golf``: one window of a day from 00:00 (open at ``START``), attempts of an hour, asc by ``strokes``,
  one board per ``country``.

Guilds are on in ``arcade`` (for tests/server/test_embedded_equivalence.py): at most 3 members, founding
costs 50 coins, ``rogue`` is filtered, help with up to 5 ``gems`` (the donor rewarded with 2 coins).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import attrs

from tests.conftest import START, World, start_world
from tests.server.gift_support import FAST_KEYS, Game

SPRINT_OPENS = START + timedelta(hours=1)

EVENT_GAME = """
[games.arcade]
name = "Arcade"
economy = "platform"

[games.arcade.resources.gems]
type = "currency"

[games.arcade.resources.coins]
type = "currency"

[games.arcade.resources.badge]
type = "item"

# One row: every chest gives the same, so both sides of a comparison draw the same whatever their sources.
[games.arcade.crates.chest]
rolls = 2
table = [{ weight = 1, rewards = [{ type = "currency", key = "gems", amount = 3 }] }]

[games.arcade.guilds]
enabled = true
max_members = 3
create_cost = [{ type = "currency", key = "coins", amount = 50 }]
name_filter = ["rogue"]

[games.arcade.guilds.help]
resources = ["gems"]
max_amount = 5
donor_reward = [{ type = "currency", key = "coins", amount = 2 }]

[games.arcade.events.sprint]
name = "Sprint"
starts_at = "2026-03-02T13:00:00Z"
window_seconds = 3600
repeat_every_seconds = 7200
attempt_seconds = 600
max_attempts = 2
score_metric = "score"
target = 1000
entry_cost = [{ type = "currency", key = "gems", amount = 5 }]
completion_rewards = [{ type = "currency", key = "coins", amount = 20 }]

[[games.arcade.events.sprint.milestones]]
key = "bronze"
threshold = 100
rewards = [{ type = "item", key = "badge", amount = 1 }]

[[games.arcade.events.sprint.milestones]]
key = "silver"
threshold = 500
rewards = [{ type = "currency", key = "coins", amount = 5 }]

[[games.arcade.events.sprint.rank_rewards]]
from = 1
to = 1
rewards = [{ type = "currency", key = "coins", amount = 500 }]

[[games.arcade.events.sprint.rank_rewards]]
from = 2
to = 3
rewards = [{ type = "currency", key = "coins", amount = 100 }]

[[games.arcade.events.sprint.anti_cheat]]
key = "score-cap"
kind = "max_value"
metric = "score"
limit = 5000
verdict = "reject"

[[games.arcade.events.sprint.anti_cheat]]
key = "combo-rate"
kind = "max_rate"
metric = "combo"
limit = 10
verdict = "flag"

[games.arcade.events.golf]
name = "Golf"
starts_at = "2026-03-02T00:00:00Z"
window_seconds = 86400
attempt_seconds = 3600
score_metric = "strokes"
order = "asc"
segments = ["country"]

[games.arcade.api_keys.live-client]
env = "live"
permission = "client_sdk"

[games.arcade.api_keys.live-server]
env = "live"
permission = "server_integration"
"""


@attrs.define
class Arcade(Game):
    """The ``arcade`` game, acting through its test keys."""

    async def start(
        self, who: str, event: str = "sprint", context: dict[str, Any] | None = None, **kw: Any
    ) -> tuple[int, Any, Any]:
        body = None if context is None else {"playerContext": context}
        return await self.sdk("POST", who, f"/events/{event}/start", body, **kw)

    async def started(self, who: str, event: str = "sprint", **kw: Any) -> dict[str, Any]:
        """Start an attempt that must start; its wire view."""
        status, body, _ = await self.start(who, event, **kw)
        assert status == 201, body
        attempt: dict[str, Any] = body["data"]["attempt"]
        return attempt

    async def progress(
        self, who: str, attempt: str, metrics: dict[str, Any], *, event: str = "sprint", **extra: Any
    ) -> tuple[int, Any, Any]:
        return await self.sdk(
            "POST", who, f"/events/{event}/attempts/{attempt}/progress", {"metrics": metrics, **extra}
        )

    async def progressed(self, who: str, attempt: str, metrics: dict[str, Any], **kw: Any) -> dict[str, Any]:
        status, body, _ = await self.progress(who, attempt, metrics, **kw)
        assert status == 200, body
        data: dict[str, Any] = body["data"]
        return data

    async def events_of(self, who: str, *, secret: str | None = None, **kw: Any) -> tuple[int, Any, Any]:
        """The events list, with ``secret`` (default: none) as the player's secret."""
        return await self.world.call(
            "GET", f"/sdk/v1/players/{who}/events", key=self.api_key(self.client_key), secret=secret, **kw
        )

    async def listed(self, who: str, *, secret: str | None = None) -> dict[str, dict[str, Any]]:
        status, body, _ = await self.events_of(who, secret=secret)
        assert status == 200, body
        return {e["key"]: e for e in body["data"]["events"]}

    async def board(self, board_id: str, query: str = "", *, key: str | None = None) -> tuple[int, Any, Any]:
        """A page of the board, read with this game's client key or ``key`` (a raw secret)."""
        return await self.world.call(
            "GET", f"/sdk/v1/event-leaderboards/{board_id}{query}", key=key or self.api_key(self.client_key)
        )

    async def entries(self, board_id: str, query: str = "") -> list[tuple[int, str, float]]:
        """(rank, external id, score) of a page of the board."""
        status, body, _ = await self.board(board_id, query)
        assert status == 200, body
        return [(e["rank"], e["externalPlayerId"], e["score"]) for e in body["data"]["entries"]]

    async def end_now(self, event: str = "sprint", *, key: str | None = None) -> tuple[int, Any, Any]:
        return await self.world.call(
            "POST", f"/server/v1/dev/events/{event}/end-now", key=self.api_key(key or self.server_key)
        )

    async def advance_to(self, when: Any) -> None:
        seconds = (when - self.world.clock.now()).total_seconds()
        assert seconds > 0, f"the clock is past {when}"
        await self.advance(seconds)

    def grants(self, source_kind: str) -> list[Any]:
        """Grants of this game with ``source_kind``, from the store."""
        rows = self.world.rows(
            "SELECT id, player_id, source_ref_id FROM grants WHERE game_id = ? AND source_kind = ?"
            " ORDER BY id",
            (self.id, source_kind),
        )
        return rows

    def kinds_in(self, env: str) -> list[str]:
        return [e.kind for e in self.events() if e.env.value == env]


def event_manifest() -> str:
    return EVENT_GAME + FAST_KEYS.format(game="arcade", prefix="")


async def start_event_world(db_url: str, *, events: str = "", **config: Any) -> Arcade:
    """A world with the event game; ``events``: more of the game's manifest (lobby or team events);
    ``config``: other ``Config`` values."""
    world: World = await start_world(db_url, manifest_extra=event_manifest() + events, **config)
    return Arcade(world, "arcade")


def error(body: Any) -> str:
    """An answer's error code."""
    return str(body["error"]["code"])
