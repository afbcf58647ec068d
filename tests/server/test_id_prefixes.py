"""Every id prefix the docs pin (docs/api.md#timestamps-and-ids and each area's "Ids"), read from what the
server answers for a record made through its routes: one test per prefix, named after it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from tests.conftest import World, start_world, webhook_manifest
from tests.server.admin_support import personal_key
from tests.server.event_support import SPRINT_OPENS, Arcade, start_event_world
from tests.server.guild_support import start_guild_world
from tests.server.test_lobbies_api import LOBBY_EVENTS, forming_id, players
from tests.server.test_teams_api import TEAM_EVENTS, put_ok


async def _player(world: World) -> str:
    status, body, _ = await world.call("POST", "/sdk/v1/players/ann/register", key="test-client")
    assert status == 201, body
    status, body, _ = await world.call("GET", "/server/v1/players/ann")
    assert status == 200, body
    return str(body["data"]["player"]["id"])


async def _friend_request(world: World) -> str:
    ann, bob = await world.register("ann"), await world.register("bob")
    status, body, _ = await world.call(
        "POST",
        "/sdk/v1/players/ann/friends/requests",
        key="test-client",
        secret=ann,
        json={"externalPlayerId": "bob"},
    )
    assert status == 201 and bob, body
    return str(body["data"]["request"]["requestId"])


async def _webhook_event(world: World) -> str:
    await world.register("ann")
    return str(world.events()[-1].id)


async def _studio(world: World) -> str:
    return str(world.applied["studio"]["id"])


async def _game(world: World) -> str:
    return str(world.applied["games"]["space-race"]["id"])


async def _webhook_endpoint(db: str) -> str:
    world = await start_world(
        db, manifest_extra=webhook_manifest(hook=("test", "https://example.test/h", '["grant.created"]'))
    )
    try:
        return str(world.applied["games"]["space-race"]["webhooks"]["hook"]["id"])
    finally:
        await world.client.close()


async def _personal_key(world: World) -> str:
    op = await personal_key(world, "olga")
    assert op.key is not None
    return op.key


async def _started(db: str, field: str) -> str:
    g = await start_event_world(db)
    try:
        await players(g, "ann")  # the sprint costs gems to enter
        await g.advance_to(SPRINT_OPENS)
        attempt: dict[str, Any] = await g.started("ann")
        return str(attempt[field])
    finally:
        await g.world.client.close()


async def _lobby(db: str) -> str:
    g = await start_event_world(db, events=LOBBY_EVENTS)
    try:
        await players(g, "ann")
        return await forming_id(g, "ann")
    finally:
        await g.world.client.close()


async def _team(db: str) -> str:
    g: Arcade = await start_event_world(db, events=TEAM_EVENTS)
    try:
        await g.register("ann", "bob")
        team: dict[str, Any] = await put_ok(g, "red", ["ann", "bob"])
        return str(team["teamId"])
    finally:
        await g.world.client.close()


async def _guild(db: str) -> str:
    games = await start_guild_world(db)
    game = next(iter(games.values()))
    try:
        await game.register("ann")
        guild: dict[str, Any] = await game.founded("ann", "Prefixes")
        return str(guild["guildId"])
    finally:
        await game.world.client.close()


def _in_world(made: Callable[[World], Awaitable[str]]) -> Callable[[str], Awaitable[str]]:
    async def run(db: str) -> str:
        world = await start_world(db)
        try:
            return await made(world)
        finally:
            await world.client.close()

    return run


#: What each prefix names, the prefix, and how a record of it is made.
PINNED: dict[str, tuple[str, Callable[[str], Awaitable[str]]]] = {
    "player": ("plr_", _in_world(_player)),
    "friend-request": ("frq_", _in_world(_friend_request)),
    "webhook-event": ("evt_", _in_world(_webhook_event)),
    "studio": ("std_", _in_world(_studio)),
    "game": ("gam_", _in_world(_game)),
    "webhook-endpoint": ("whe_", _webhook_endpoint),
    "personal-key": ("svc_pk_", _in_world(_personal_key)),
    "live-event": ("ev_", lambda db: _started(db, "eventId")),
    "window": ("win_", lambda db: _started(db, "windowId")),
    "attempt": ("att_", lambda db: _started(db, "attemptId")),
    "event-leaderboard": ("lb_", lambda db: _started(db, "leaderboardId")),
    "lobby": ("lob_", _lobby),
    "event-team": ("team_", _team),
    "guild": ("gld_", _guild),
}


@pytest.mark.parametrize("what", list(PINNED))
async def test_ids_carry_the_prefix_the_contract_pins(db_url: str, what: str) -> None:
    prefix, make = PINNED[what]
    made = await make(db_url)
    assert made.startswith(prefix), (what, made)
    assert len(made) > len(prefix)
