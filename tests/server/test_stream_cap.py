"""Open event-board streams per API key (docs/events.md#the-live-stream, livecore_server/stream_slots.py): at
most 5,000 or the key's manifest ``rate_limits.open_streams``, across processes; one more is 429
``rate_limited`` in the envelope before any stream starts; a stream that ends frees its slot."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer

from livecore.ratelimit import OPEN_STREAMS_PER_KEY, BucketName
from livecore_server.live_events.streams import BOARD_HUBS
from livecore_server.services import SERVICES, Services
from tests.conftest import make_app
from tests.server.event_support import SPRINT_OPENS, Arcade, start_event_world
from tests.waiting import until

CAPPED = """
[games.arcade.api_keys.capped-client]
env = "test"
permission = "client_sdk"
rate_limits = { open_streams = 2 }
"""


@pytest.fixture
async def arcade(db_url: str) -> AsyncIterator[Arcade]:
    game = await start_event_world(db_url, events=CAPPED)
    try:
        yield game
    finally:
        await game.world.client.close()


async def open_board(g: Arcade) -> str:
    await g.register("ann")
    await g.credit("ann", "gems", 5)
    await g.advance_to(SPRINT_OPENS)
    return str((await g.started("ann"))["leaderboardId"])


def stream_path(board: str) -> str:
    return f"/sdk/v1/event-leaderboards/{board}/stream"


def capped(g: Arcade) -> dict[str, str]:
    return {"Authorization": f"Bearer {g.api_key('capped-client')}"}


async def opened(
    client: TestClient[aiohttp.web.Request, aiohttp.web.Application], g: Arcade, board: str
) -> aiohttp.ClientResponse:
    response = await client.get(stream_path(board), headers=capped(g))
    assert response.status == 200, await response.text()
    await response.content.readuntil(b"\n\n")  # its ready: the stream is open
    return response


async def ended(services: Services, key_id: str, left: int) -> None:
    """Wait for the server to notice the streams whose clients went away (the next ping's write fails)."""

    def done() -> bool:
        services.of(BOARD_HUBS).ping()
        return services.stream_slots.open.get(key_id, 0) == left

    await until(done, lambda: f"{left} open streams, got {services.stream_slots.open}")


def key_id(g: Arcade) -> str:
    return str(g.world.applied["games"]["arcade"]["apiKeys"]["capped-client"]["id"])


async def open_streams_metric(g: Arcade) -> str:
    response = await g.world.client.get("/metrics")
    assert response.content_type == "text/plain"
    text = await response.text()
    return next(line for line in text.splitlines() if line.startswith("livecore_open_streams "))


async def test_a_stream_beyond_the_keys_cap_is_429_and_closing_one_frees_a_slot(arcade: Arcade) -> None:
    g = arcade
    board = await open_board(g)
    client = g.world.client
    assert await open_streams_metric(g) == "livecore_open_streams 0"
    first, _second = await opened(client, g, board), await opened(client, g, board)
    assert await open_streams_metric(g) == "livecore_open_streams 2"
    status, body, headers = await g.world.call("GET", stream_path(board), key=g.api_key("capped-client"))
    assert (status, body["error"]["code"]) == (429, "rate_limited")
    assert body["error"]["details"] == {"openStreams": 2}
    assert headers["Retry-After"] == "15" and headers["RateLimit-Limit"]
    # Another key of the game is not held to this one's cap.
    status, _, _ = await g.world.call("GET", stream_path("lb_unknown"), key=g.api_key(g.client_key))
    assert status == 404
    first.close()
    await ended(g.world.services, key_id(g), 1)
    assert await open_streams_metric(g) == "livecore_open_streams 1"
    await opened(client, g, board)


async def test_a_refused_or_failed_stream_takes_no_slot(arcade: Arcade) -> None:
    g = arcade
    board = await open_board(g)
    for _ in range(3):  # an unknown board: 404, and no slot kept
        status, _, _ = await g.world.call("GET", stream_path("lb_unknown"), key=g.api_key("capped-client"))
        assert status == 404
    assert g.world.services.stream_slots.open == {}
    await opened(g.world.client, g, board)
    await opened(g.world.client, g, board)
    assert g.world.services.stream_slots.total() == 2


def test_the_default_cap_is_5000_and_the_manifest_may_change_it() -> None:
    assert OPEN_STREAMS_PER_KEY == 5_000
    assert BucketName.OPEN_STREAMS.value == "open_streams"


async def synced(here: Services, there: Services) -> None:
    """Each process has written its counts and read the other's since."""
    await here.stream_slots.sync()
    await there.stream_slots.sync()
    await here.stream_slots.sync()


async def test_two_processes_on_one_postgresql_database_share_the_cap(pg_url: str) -> None:
    g = await start_event_world(pg_url, events=CAPPED)
    second = TestClient(TestServer(make_app(pg_url)))
    await second.start_server()
    try:
        board = await open_board(g)
        here, there = g.world.services, second.app[SERVICES]
        first = await opened(g.world.client, g, board)
        await opened(second, g, board)
        await synced(here, there)
        for client in (g.world.client, second):
            response = await client.get(stream_path(board), headers=capped(g))
            status = response.status
            response.close()  # not read: a stream opened by mistake would not end
            assert status == 429
        first.close()
        await ended(here, key_id(g), 0)
        await synced(here, there)
        await opened(second, g, board)
        # A process that stops takes its streams off the count at once.
        await there.stream_slots.sync()
        await second.close()
        await here.stream_slots.sync()
        assert here.stream_slots.others == {}
    finally:
        await second.close()
        await g.world.client.close()
