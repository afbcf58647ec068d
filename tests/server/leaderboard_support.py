"""A game with shared leaderboards, and helpers for their API tests.

The manifest below is added to the shared test manifest (``tests/conftest.py``); the world's manual clock
starts at ``START`` (Monday 2026-03-02 12:00 UTC), so the first weekly period runs from ``WEEK``
(Monday 00:00) for seven days. ``league`` (platform-managed, ``coins``) has:

- ``weekly-xp``: weekly, scores summed, divisions of 3 in tiers bronze < silver < gold, the best of each
  promoted and the last relegated; rank 1 of each division gets 100 coins, rank 2 50;
- ``cups``: monthly, the best score, divisions of 2 in tiers low < high (another board's divisions);
- ``daily-best``: daily, the best score, no divisions; ranks 1-2 get 10 coins;
- ``forever``: all-time, the latest score;
- the event ``dash``: a window a day, always open; attempts of 10 minutes, target 100 of ``score``; its
  attempts feed ``weekly-xp`` and ``forever``.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

import attrs

from tests.conftest import START, World, start_world
from tests.server.gift_support import FAST_KEYS, Game

WEEK = START.replace(hour=0)  # Monday 2026-03-02 00:00 UTC: the first weekly period starts here

LEAGUE_GAME = """
[games.league]
name = "League"
economy = "platform"

[games.league.resources.coins]
type = "currency"

[games.league.leaderboards.weekly-xp]
name = "Weekly XP"
period = "weekly"
aggregation = "sum"
divisions = { size = 3, tiers = ["bronze", "silver", "gold"], promote = 1, relegate = 1 }

[[games.league.leaderboards.weekly-xp.rank_rewards]]
from = 1
to = 1
rewards = [{ type = "currency", key = "coins", amount = 100 }]

[[games.league.leaderboards.weekly-xp.rank_rewards]]
from = 2
to = 2
rewards = [{ type = "currency", key = "coins", amount = 50 }]

[games.league.leaderboards.cups]
name = "Cups"
period = "monthly"
aggregation = "best"
divisions = { size = 2, tiers = ["low", "high"], promote = 1, relegate = 0 }

[games.league.leaderboards.daily-best]
name = "Daily best"
period = "daily"
aggregation = "best"

[[games.league.leaderboards.daily-best.rank_rewards]]
from = 1
to = 2
rewards = [{ type = "currency", key = "coins", amount = 10 }]

[games.league.leaderboards.forever]
name = "Forever"
aggregation = "latest"

[games.league.events.dash]
name = "Dash"
starts_at = "2026-03-02T00:00:00Z"
window_seconds = 86400
repeat_every_seconds = 86400
attempt_seconds = 600
score_metric = "score"
target = 100
feeds = ["weekly-xp", "forever"]

[games.league.api_keys.live-server]
env = "live"
permission = "server_integration"
"""


@attrs.define
class League(Game):
    """The ``league`` game, acting through its test keys."""

    async def submit(
        self,
        who: str,
        score: Any,
        board: str = "weekly-xp",
        *,
        idem: str | None = None,
        key: str | None = None,
    ) -> tuple[int, Any, Any]:
        body = {"externalPlayerId": who, "score": score, "idempotencyKey": idem or str(uuid.uuid4())}
        return await self.world.call(
            "POST",
            f"/server/v1/leaderboards/{board}/scores",
            key=self.api_key(key or self.server_key),
            json=body,
        )

    async def submitted(self, who: str, score: int, board: str = "weekly-xp", **kw: Any) -> dict[str, Any]:
        """Submit a score that must be taken; the entry answered."""
        status, body, _ = await self.submit(who, score, board, **kw)
        assert status == 200, body
        entry: dict[str, Any] = body["data"]["entry"]
        return entry

    async def read(self, board: str = "weekly-xp", query: str = "") -> tuple[int, Any, Any]:
        return await self.world.call(
            "GET", f"/sdk/v1/leaderboards/{board}{query}", key=self.api_key(self.client_key)
        )

    async def page(self, board: str = "weekly-xp", query: str = "") -> dict[str, Any]:
        status, body, _ = await self.read(board, query)
        assert status == 200, body
        data: dict[str, Any] = body["data"]
        return data

    async def entries(self, board: str = "weekly-xp", query: str = "") -> list[tuple[int, str, float]]:
        """(rank, external id, score) of a page of the board."""
        page = await self.page(board, query)
        return [(e["rank"], e["externalPlayerId"], e["score"]) for e in page["entries"]]

    async def tier(self, who: str, board: str = "weekly-xp", query: str = "") -> str:
        """The tier of the division ``who`` plays in, in the period read."""
        division = (await self.page(board, f"?around={who}{query}"))["leaderboard"]["division"]
        assert division is not None
        return str(division["tier"])

    async def rollover_now(self, board: str = "weekly-xp", *, key: str | None = None) -> tuple[int, Any, Any]:
        return await self.world.call(
            "POST",
            f"/server/v1/dev/leaderboards/{board}/rollover-now",
            key=self.api_key(key or self.server_key),
        )

    async def advance_to(self, when: datetime) -> None:
        seconds = (when - self.world.clock.now()).total_seconds()
        assert seconds > 0, f"the clock is past {when}"
        await self.advance(seconds)

    def rank_grants(self) -> list[tuple[str, str]]:
        """(external id, period id) of every rank reward of this game, in the order they were made."""
        rows = self.world.rows(
            "SELECT external_player_id, source_ref_id FROM grants"
            " WHERE game_id = ? AND source_kind = 'leaderboard_rank' ORDER BY id",
            (self.id,),
        )
        return [(str(a), str(b)) for a, b in rows]

    def paid(self, period_id: str) -> dict[str, int]:
        """How many rank rewards each player (external id) got for the period."""
        paid: dict[str, int] = {}
        for who, ref in self.rank_grants():
            if ref == period_id:
                paid[who] = paid.get(who, 0) + 1
        return paid


def league_manifest() -> str:
    return LEAGUE_GAME + FAST_KEYS.format(game="league", prefix="")


async def start_league_world(db_url: str, **config: Any) -> League:
    world: World = await start_world(db_url, manifest_extra=league_manifest(), **config)
    return League(world, "league")


def weeks(n: int) -> datetime:
    """The start of the ``n``-th weekly period after the first."""
    return WEEK + timedelta(weeks=n)
