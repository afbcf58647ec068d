"""The demo game (``livecore_server/demo.toml``) as ``livecore-server demo`` applies it, played through
the real app on SQLite and PostgreSQL with the manual clock: every area it declares works as its comments
say, from the moment the demo starts.

The clock starts at ``START`` (Monday 2026-03-02 12:00 UTC): the time trial's window of the day is open
(00:00 to 23:00), a duel window (12:00 to 13:00) and a relay window (12:00 to 12:00 the next day) have
just opened, and the weekly league's week began at 00:00. ``alice`` is the player the demo registers.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import attrs
import pytest
from aiohttp.test_utils import TestClient, TestServer

from livecore.clock import format_ts
from livecore_server.demo import DEMO_PLAYER, apply_demo
from livecore_server.services import SERVICES
from tests.conftest import START, World, keep_every_event_of, make_app
from tests.secrets_scan import secrets_in_clear
from tests.server.gift_support import Game


@attrs.define
class Demo(Game):
    """The demo's game, acting through the demo's two test keys."""

    async def ok(self, method: str, who: str, path: str, json: Any = None, status: int = 200) -> Any:
        """A player's call that must answer ``status``; its ``data``."""
        got, body, _ = await self.sdk(method, who, path, json)
        assert got == status, body
        return body["data"]

    async def refused(self, method: str, who: str, path: str, json: Any = None) -> tuple[int, str]:
        got, body, _ = await self.sdk(method, who, path, json)
        return got, body["error"]["code"]

    async def grants(self, who: str) -> list[tuple[str, list[tuple[str, int]]]]:
        """The player's pending grants: (sourceKind, [(resource, amount)]), oldest first."""
        rows = await self.pending_grants(who)
        return sorted(
            ((g["sourceKind"], [(e["key"], e["amount"]) for e in g["entries"]]) for g in rows),
            key=str,
        )

    async def league(self, query: str = "") -> dict[str, Any]:
        status, body, _ = await self.world.call(
            "GET", f"/sdk/v1/leaderboards/weekly-league{query}", key=self.api_key(self.client_key)
        )
        assert status == 200, body
        data: dict[str, Any] = body["data"]
        return data

    async def lap(self, who: str, lap_ms: int, top_speed: int = 300) -> dict[str, Any]:
        """One finished time-trial attempt of ``lap_ms``."""
        attempt = await self.ok("POST", who, "/events/time-trial/start", status=201)
        done = await self.ok(
            "POST",
            who,
            f"/events/time-trial/attempts/{attempt['attempt']['attemptId']}/progress",
            {"metrics": {"lap_ms": lap_ms, "top_speed": top_speed}, "complete": True},
        )
        result: dict[str, Any] = done["attempt"]
        return result


@pytest.fixture
async def demo(db_url: str) -> AsyncIterator[Demo]:
    app = make_app(db_url)
    client = TestClient(TestServer(app))
    await client.start_server()
    services = app[SERVICES]
    applied, secret = await asyncio.to_thread(apply_demo, services)
    await asyncio.to_thread(
        keep_every_event_of, services
    )  # the tests read what the demo's writes emit from the outbox
    world = World(services=services, client=client, keys={}, other_keys={}, applied=applied)
    game = Demo(world, "space-race", client_key="demo-client", server_key="demo-server")
    assert secret is not None
    game.secrets[DEMO_PLAYER] = secret
    try:
        yield game
        assert secrets_in_clear(world) == {}, "a secret is stored in clear (tests/secrets_scan.py)"
    finally:
        await client.close()


async def test_every_event_is_open_when_the_demo_starts(demo: Demo) -> None:
    listed = await demo.ok("GET", DEMO_PLAYER, "/events")
    events = {e["key"]: e for e in listed["events"]}
    assert {key: (e["state"], e["lobby"]) for key, e in events.items()} == {
        "duel": ("open", True),
        "relay": ("open", False),
        "time-trial": ("open", False),
    }
    assert events["duel"]["window"]["endsAt"] == "2026-03-02T13:00:00.000Z"
    assert events["relay"]["window"]["endsAt"] == "2026-03-03T12:00:00.000Z"
    assert all(e["entryCost"] == [] for e in events.values())  # a studio-managed game charges none
    league = (await demo.league())["leaderboard"]
    assert (league["name"], league["order"], league["period"]) == ("Weekly Lap League", "asc", "weekly")
    assert (league["periodStartsAt"], league["periodEndsAt"]) == (
        "2026-03-02T00:00:00.000Z",
        "2026-03-09T00:00:00.000Z",
    )
    catalog = await demo.catalog(DEMO_PLAYER)
    assert catalog["enabled"] is True
    assert {r["key"] for r in catalog["resources"]} == {"coins", "gems", "xp", "energy-potion"}


async def test_the_time_trial_feeds_the_weekly_league_whose_week_pays_and_promotes(demo: Demo) -> None:
    await demo.register("bob")
    fast = await demo.lap(DEMO_PLAYER, 58_000)
    slow = await demo.lap("bob", 61_500, top_speed=450)  # over the top-speed check: applied, flagged
    assert (fast["status"], fast["milestones"], fast["flagged"]) == ("completed", ["under-a-minute"], False)
    assert (slow["status"], slow["milestones"], slow["flagged"]) == ("completed", [], True)
    assert await demo.grants(DEMO_PLAYER) == [
        ("event_completion", [("coins", 10)]),
        ("event_milestone", [("xp", 25)]),
    ]

    # Each finished attempt fed the league: one bronze division, the best lap first.
    league = await demo.league()
    assert league["leaderboard"]["division"]["tier"] == "bronze"
    assert [(e["rank"], e["externalPlayerId"], e["score"]) for e in league["entries"]] == [
        (1, DEMO_PLAYER, 58_000),
        (2, "bob", 61_500),
    ]

    status, body, _ = await demo.server("POST", "/dev/leaderboards/weekly-league/rollover-now")
    assert status == 200 and body["data"]["rolledOver"] is True, body
    assert ("leaderboard_rank", [("gems", 10)]) in await demo.grants(DEMO_PLAYER)
    assert ("leaderboard_rank", [("gems", 5)]) in await demo.grants("bob")

    # A division of two sends its best up (min(5, 2 // 2)) and, the lowest tier, nobody down.
    await demo.advance(60)
    await demo.lap(DEMO_PLAYER, 59_000)
    await demo.lap("bob", 60_000)
    assert (await demo.league(f"?around={DEMO_PLAYER}"))["leaderboard"]["division"]["tier"] == "silver"
    assert (await demo.league("?around=bob"))["leaderboard"]["division"]["tier"] == "bronze"


async def test_a_duel_lobby_fills_with_bots_and_the_first_to_1000_ends_it(demo: Demo) -> None:
    got, body, _ = await demo.sdk("POST", DEMO_PLAYER, "/events/duel/start")
    assert (got, body["error"]["code"]) == (202, "lobby_forming"), body
    forming = body["error"]["details"]
    assert (forming["participantCount"], forming["capacity"]) == (1, 8)
    assert forming["fillBy"] == format_ts(START.replace(minute=1))

    await demo.advance(60)  # fill_by: bots take the seven empty seats
    lobby_path = f"/sdk/v1/lobbies/{forming['lobbyId']}"
    status, read, _ = await demo.world.call("GET", lobby_path, key=demo.api_key("demo-client"))
    assert status == 200, read
    lobby = read["data"]["lobby"]
    assert (lobby["status"], lobby["promotionReason"], lobby["botCount"]) == ("active", "timeout", 7)

    attempt = (await demo.ok("POST", DEMO_PLAYER, "/events/duel/start", status=201))["attempt"]
    assert attempt["lobbyId"] == forming["lobbyId"]
    progress = f"/events/duel/attempts/{attempt['attemptId']}/progress"
    # 900 points within a second of the start: over 20 points a second, refused whole.
    assert await demo.refused("POST", DEMO_PLAYER, progress, {"metrics": {"points": 900}}) == (
        422,
        "anti_cheat_rejected",
    )
    await demo.advance(60)
    await demo.ok("POST", DEMO_PLAYER, progress, {"metrics": {"points": 1000}})

    # Sudden death: the lobby closed at once and paid its ranks; the bots, still low, rank below.
    status, read, _ = await demo.world.call("GET", lobby_path, key=demo.api_key("demo-client"))
    assert read["data"]["lobby"]["status"] == "closed"
    assert "session.terminated" in demo.kinds()
    assert ("event_rank", [("gems", 3)]) in await demo.grants(DEMO_PLAYER)
    entries = await demo.world.call(
        "GET", f"/sdk/v1/event-leaderboards/{attempt['leaderboardId']}", key=demo.api_key("demo-client")
    )
    ranked = entries[1]["data"]["entries"]
    assert (len(ranked), ranked[0]["externalPlayerId"], sum(e["isBot"] for e in ranked)) == (
        8,
        DEMO_PLAYER,
        7,
    )


async def test_a_relay_pair_reaches_its_goal_and_tops_the_team_board(demo: Demo) -> None:
    await demo.register("bob")
    await demo.befriend(DEMO_PLAYER, "bob")
    invite = await demo.ok(
        "POST", DEMO_PLAYER, "/events/relay/partner-invites", {"externalPlayerId": "bob"}, status=201
    )
    team = (
        await demo.ok("POST", "bob", f"/events/relay/partner-invites/{invite['invite']['inviteId']}/accept")
    )["team"]
    assert (team["formation"], team["goal"], len(team["members"])) == ("partner", 10_000, 2)

    async def run(who: str, *distances: int) -> list[tuple[int, str | None]]:
        """One run of ``who``, reporting ``distances`` in turn: each write's status and error code."""
        attempt = (await demo.ok("POST", who, "/events/relay/start", status=201))["attempt"]
        path = f"/events/relay/attempts/{attempt['attemptId']}/progress"
        answers = []
        for distance in distances:
            got, body, _ = await demo.sdk("POST", who, path, {"metrics": {"distance": distance}})
            answers.append((got, body["error"]["code"] if got != 200 else None))
        return answers

    # One run covers at most 6,000 m: the pair needs both partners.
    assert await run(DEMO_PLAYER, 7_000, 5_500) == [(422, "anti_cheat_rejected"), (200, None)]
    assert await run("bob", 4_500) == [(200, None)]
    mine = (await demo.ok("GET", DEMO_PLAYER, "/events/relay/team"))["team"]
    assert (mine["score"], mine["completed"]) == (10_000, True)
    assert demo.kinds().count("event_team.milestone_unlocked") == 2

    status, body, _ = await demo.server("POST", "/dev/events/relay/end-now")
    assert status == 200 and len(body["data"]["closedWindows"]) == 1, body
    for who in (DEMO_PLAYER, "bob"):
        grants = await demo.grants(who)
        assert ("event_team_milestone", [("coins", 20)]) in grants
        assert ("event_team_milestone", [("gems", 2)]) in grants
        assert ("event_team_rank", [("gems", 5)]) in grants


async def test_guild_help_crates_and_gifts_are_on(demo: Demo) -> None:
    await demo.register("bob")
    guild = (await demo.ok("POST", DEMO_PLAYER, "/guilds", {"name": "Star Pilots", "joinType": "open"}, 201))[
        "guild"
    ]
    await demo.ok("POST", "bob", f"/guilds/{guild['guildId']}/join")
    ask = {"type": "item", "resourceKey": "energy-potion", "amount": 3}
    request = (await demo.ok("POST", "bob", "/guild/help-requests", ask, status=201))["helpRequest"]
    await demo.ok("POST", DEMO_PLAYER, f"/guild/help-requests/{request['requestId']}/donate", {"amount": 3})
    assert ("guild_help", [("energy-potion", 3)]) in await demo.grants("bob")
    assert ("guild_help_reward", [("xp", 5)]) in await demo.grants(DEMO_PLAYER)

    crate = {
        "idempotencyKey": "c1",
        "kind": "crate",
        "entries": [{"type": "crate", "key": "gem-box", "amount": 1}],
    }
    status, body, _ = await demo.server("POST", f"/players/{DEMO_PLAYER}/grants", crate)
    assert status == 201, body
    opened = await demo.ok("POST", DEMO_PLAYER, f"/crates/{body['data']['grant']['grantId']}/open")
    assert opened["contents"]["sourceKind"] == "crate"

    await demo.befriend(DEMO_PLAYER, "bob")
    gift = await demo.sent_gift(DEMO_PLAYER, "bob", resource="coins", amount=100)
    status, body, _ = await demo.claim("bob", gift["giftId"])
    assert status == 200, body
