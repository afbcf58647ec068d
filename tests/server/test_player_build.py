"""The platform and app version the SDK reports (``X-Svc-Platform``, ``X-Svc-App-Version``;
docs/reference/players-and-identity.md#platform-and-app-version): kept on the player, the last of each,
written with the presence board's flush only when they change, so that a request reporting what is
already kept costs no write; shown raw on the profile, the admin look-up, the portal and the export,
with whether the key is built in or declared by the game's manifest."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from livecore.platforms import ClientBuild
from livecore.scope import Environment, Scope
from livecore_server.manifest import parse_manifest
from livecore_server.operators.apply import apply_manifest
from livecore_server.players.cache import PLAYER_CACHE
from livecore_server.players.presence import PRESENCE_BOARD
from livecore_server.players.sql_presence import SqlPresence
from tests.conftest import TEST_MANIFEST, World, make_services, start_world
from tests.server.admin_support import STUDIO, admin, ok, sign_in
from tests.waiting import until

SPACE_RACE = f"{STUDIO}/games/space-race"


@pytest.fixture
async def world(db_url: str) -> AsyncIterator[World]:
    # The presence board flushes only when the test says so, so that every write can be counted.
    w = await start_world(db_url, flush_every=3600)
    try:
        yield w
    finally:
        await w.client.close()


@pytest.fixture
def written(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ClientBuild]]:
    """Every player build the presence board's flushes write, in order."""
    rows: list[tuple[str, ClientBuild]] = []
    original = SqlPresence.builds

    def counting(self: SqlPresence, builds: list[tuple[str, ClientBuild]]) -> None:
        rows.extend(builds)
        original(self, builds)

    monkeypatch.setattr(SqlPresence, "builds", counting)
    return rows


def reports(platform: str | None = None, app_version: str | None = None) -> dict[str, str]:
    headers = {}
    if platform is not None:
        headers["X-Svc-Platform"] = platform
    if app_version is not None:
        headers["X-Svc-App-Version"] = app_version
    return headers


async def plain_get(w: World, who: str, secret: str, headers: dict[str, str]) -> None:
    status, body, _ = await w.call(
        "GET", f"/sdk/v1/players/{who}/friends", key="test-client", secret=secret, headers=headers
    )
    assert status == 200, body


async def flush(w: World) -> None:
    await w.services.of(PRESENCE_BOARD).flush_async(w.services.store)


async def profile(w: World, who: str) -> dict[str, Any]:
    status, body, _ = await w.call("GET", f"/server/v1/players/{who}")
    assert status == 200, body
    player: dict[str, Any] = body["data"]["player"]
    return player


def shown(player: dict[str, Any]) -> tuple[Any, Any, Any]:
    return player["platform"], player["platformRegistered"], player["appVersion"]


def stored(w: World, who: str) -> tuple[Any, ...]:
    return w.rows("SELECT platform, app_version FROM players WHERE external_id = ?", (who,))[0]


async def test_a_plain_get_with_the_headers_records_them_and_the_look_up_shows_them(
    world: World, written: list[tuple[str, ClientBuild]]
) -> None:
    secret = await world.register("ann")
    assert shown(await profile(world, "ann")) == (None, False, None)
    await plain_get(world, "ann", secret, reports("ios", "1.4.2"))
    await flush(world)
    assert stored(world, "ann") == ("ios", "1.4.2")
    assert shown(await profile(world, "ann")) == ("ios", True, "1.4.2")
    # The operator's look-up shows the same.
    op = await sign_in(world, "olga")
    found = ok(await admin(world, "GET", f"{SPACE_RACE}/players/ann?env=test", op))
    assert shown(found["profile"]["player"]) == ("ios", True, "1.4.2")
    assert len(written) == 1


async def test_unchanged_headers_on_later_requests_cost_no_write(
    world: World, written: list[tuple[str, ClientBuild]]
) -> None:
    secret = await world.register("ann")
    # Several requests report one change before a flush: written once.
    for _ in range(3):
        await plain_get(world, "ann", secret, reports("android", "2.0.0"))
    await flush(world)
    assert [b for _, b in written] == [ClientBuild("android", "2.0.0")]
    # Reporting what is kept, any number of times, on reads, writes and heartbeats: nothing to write.
    for _ in range(3):
        await plain_get(world, "ann", secret, reports("android", "2.0.0"))
        status, body, _ = await world.call(
            "POST",
            "/sdk/v1/players/ann/presence",
            key="test-client",
            secret=secret,
            json={},
            headers=reports("android", "2.0.0"),
        )
        assert status == 200, body
    await plain_get(world, "ann", secret, {})  # a request that reports nothing keeps both
    await flush(world)
    assert len(written) == 1
    assert stored(world, "ann") == ("android", "2.0.0")


async def test_each_header_keeps_its_own_last_value(
    world: World, written: list[tuple[str, ClientBuild]]
) -> None:
    secret = await world.register("ann")
    await plain_get(world, "ann", secret, reports("ios", "1.0"))
    await flush(world)
    # The app version alone moves; then the platform, back and forth before one flush: the last wins.
    await plain_get(world, "ann", secret, reports(app_version="1.1"))
    await plain_get(world, "ann", secret, reports(platform="android"))
    await plain_get(world, "ann", secret, reports(platform="ios"))
    await flush(world)
    assert stored(world, "ann") == ("ios", "1.1")
    assert len(written) == 2


async def test_an_unregistered_platform_key_is_shown_raw_and_flagged(world: World) -> None:
    secret = await world.register("ann")
    await plain_get(world, "ann", secret, reports("Nintendo Switch", "7"))
    await flush(world)
    assert shown(await profile(world, "ann")) == ("Nintendo Switch", False, "7")
    # Keys compare exactly: a built-in key in other letters is not that key.
    await plain_get(world, "ann", secret, reports("iOS"))
    await flush(world)
    assert shown(await profile(world, "ann")) == ("iOS", False, "7")


async def test_a_platform_key_the_manifest_declares_is_registered(world: World) -> None:
    secret = await world.register("ann")
    await plain_get(world, "ann", secret, reports("switch"))
    await flush(world)
    assert shown(await profile(world, "ann"))[:2] == ("switch", False)
    declared = TEST_MANIFEST.replace('name = "Space Race"', 'name = "Space Race"\nplatforms = ["switch"]')
    services = world.services
    await asyncio.to_thread(
        apply_manifest, services.store, services.keys, services.runtime, parse_manifest(declared)
    )
    services.store.clear_caches()
    # Told at read time: the key recorded before the declaration is registered now.
    assert shown(await profile(world, "ann"))[:2] == ("switch", True)


@pytest.mark.parametrize(
    ("headers", "field"),
    [
        (reports(platform="x" * 33), "X-Svc-Platform"),
        (reports(platform=""), "X-Svc-Platform"),
        (reports(app_version="1" * 65), "X-Svc-App-Version"),
        (reports(app_version=""), "X-Svc-App-Version"),
    ],
    ids=["platform-too-long", "platform-empty", "version-too-long", "version-empty"],
)
async def test_a_malformed_header_is_400_naming_it_and_records_nothing(
    world: World, written: list[tuple[str, ClientBuild]], headers: dict[str, str], field: str
) -> None:
    secret = await world.register("ann")
    good = reports("ios", "1.0")
    status, body, _ = await world.call(
        "GET",
        "/sdk/v1/players/ann/friends",
        key="test-client",
        secret=secret,
        headers={**good, **headers},
    )
    assert status == 400, body
    assert body["error"]["code"] == "invalid_request"
    assert list(body["error"]["details"]["fields"]) == [field]
    # A write is refused the same way, before it changes anything.
    status, body, _ = await world.call(
        "PUT",
        "/sdk/v1/players/ann/identity",
        key="test-client",
        secret=secret,
        json={"name": "Annie"},
        headers={**good, **headers},
    )
    assert status == 400, body
    await flush(world)
    assert written == []
    assert stored(world, "ann") == (None, None)
    assert (await profile(world, "ann"))["displayIdentity"]["name"] != "Annie"


async def test_register_and_heartbeats_report_the_build_too(world: World) -> None:
    # Registration keeps it with the new row: nothing waits for a flush.
    status, body, _ = await world.call(
        "POST", "/sdk/v1/players/ann/register", key="test-client", headers=reports("web", "3.1")
    )
    assert status == 201, body
    assert stored(world, "ann") == ("web", "3.1")
    status, body, _ = await world.call(
        "POST",
        "/sdk/v1/players/ann/presence",
        key="test-client",
        secret=body["data"]["playerSecret"],
        json={},
        headers=reports("macos", "3.2"),
    )
    assert status == 200, body
    await flush(world)
    assert stored(world, "ann") == ("macos", "3.2")


async def test_the_export_includes_the_platform_and_app_version_and_an_erasure_removes_them(
    world: World,
) -> None:
    secret = await world.register("ann")
    await plain_get(world, "ann", secret, reports("linux", "0.9.1"))
    await flush(world)
    status, body, _ = await world.call("GET", "/server/v1/players/ann/export")
    assert status == 200, body
    assert shown(body["data"]["player"]) == ("linux", True, "0.9.1")
    status, body, _ = await world.call(
        "POST", "/server/v1/players/ann/delete", json={}, headers={"Idempotency-Key": "erase-ann"}
    )
    assert status == 200, body
    placeholder = body["data"]["anonymizedExternalId"]
    status, body, _ = await world.call("GET", f"/server/v1/players/{placeholder}/export")
    assert status == 200, body
    assert shown(body["data"]["player"]) == (None, False, None)


async def test_the_portal_player_page_shows_the_platform_flagged_when_unregistered(world: World) -> None:
    op = await sign_in(world, "olga")
    for who, platform in (("ann", "android"), ("bob", "toaster")):
        secret = await world.register(who)
        await plain_get(world, who, secret, reports(platform, "5.0.1"))
    await flush(world)
    pages = {}
    for who in ("ann", "bob", "cy"):
        if who == "cy":
            await world.register("cy")
        resp = await world.client.get(
            "/portal/games/space-race/players", params={"id": who, "env": "test"}, headers=op.headers()
        )
        pages[who] = await resp.text()
        assert resp.status == 200, pages[who]
    assert '<span class="mono">android</span>' in pages["ann"] and "unregistered" not in pages["ann"]
    assert '<span class="mono">5.0.1</span>' in pages["ann"]
    assert '<span class="mono">toaster</span> <span class="pill unregistered"' in pages["bob"]
    assert "Platform not reported · app version not reported" in pages["cy"]


async def test_heartbeats_read_from_the_player_cache_write_a_change_once(
    world: World, written: list[tuple[str, ClientBuild]]
) -> None:
    secret = await world.register("ann")

    async def beat() -> None:
        status, body, _ = await world.call(
            "POST",
            "/sdk/v1/players/ann/presence",
            key="test-client",
            secret=secret,
            json={},
            headers=reports("android", "2.0.0"),
        )
        assert status == 200, body

    # The first heartbeat caches the row as it was (no build) and reports a change.
    await beat()
    await flush(world)
    # The write made the cache forget the row: the next heartbeats decide on the new values, not on the
    # cached ones, and have nothing to write.
    await beat()
    await beat()
    await flush(world)
    assert [b for _, b in written] == [ClientBuild("android", "2.0.0")]


async def test_a_build_written_by_another_process_reaches_heartbeats_through_its_notification(
    db_url: str, written: list[tuple[str, ClientBuild]]
) -> None:
    """Two processes on one PostgreSQL database, the heartbeat cache trusted for an hour while
    notifications are heard: the other process's write of a new build makes this one forget its cached
    row, so a heartbeat reporting that build here has nothing to write."""
    if not db_url.startswith("postgresql://"):
        pytest.skip("SQLite is served by one process")
    here = await start_world(db_url, player_cache_watched_ttl=3600.0, flush_every=3600)
    there = await asyncio.to_thread(make_services, db_url)
    try:
        await until(lambda: here.services.of(PLAYER_CACHE).watched, "the player cache to listen")
        secret = await here.register("ann")
        status, body, _ = await here.call(
            "POST", "/sdk/v1/players/ann/presence", key="test-client", secret=secret, json={}
        )
        assert status == 200, body
        game_id = here.applied["games"]["space-race"]["id"]
        scope = Scope(studio_id=here.applied["studio"]["id"], game_id=game_id, env=Environment.TEST)
        assert here.services.of(PLAYER_CACHE).get(scope, "ann") is not None  # cached, with no build
        # The other process took a request reporting a new build, and flushed it.
        player = await there.store.run_async(lambda tx: tx.players.get(game_id, "ann"))
        there.of(PRESENCE_BOARD).reported(player, ClientBuild("android", "2.0.0"))
        await asyncio.to_thread(there.of(PRESENCE_BOARD).flush, there.store)
        await until(
            lambda: here.services.of(PLAYER_CACHE).get(scope, "ann") is None, "the cached row forgotten"
        )
        status, body, _ = await here.call(
            "POST",
            "/sdk/v1/players/ann/presence",
            key="test-client",
            secret=secret,
            json={},
            headers=reports("android", "2.0.0"),
        )
        assert status == 200, body
        await flush(here)
        assert [b for _, b in written] == [ClientBuild("android", "2.0.0")]
    finally:
        there.close()
        await here.client.close()
