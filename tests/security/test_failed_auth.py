"""Failed authentication (docs/reference/conventions.md#rate-limits, livecore_server/lockouts.py): unknown
API keys, personal keys, session cookies and sign-in links counted per client address, 20 a minute, then
429 ``rate_limited`` with ``Retry-After`` for every credentialed request of that address, the right ones
included, until a token is back; other addresses are never slowed; shared by the processes of one
PostgreSQL database; ``livecore-server lockouts clear`` lifts a lock-out."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
from aiohttp.test_utils import TestClient, TestServer

from livecore.clock import to_millis
from livecore_server.operators.access import SESSION_COOKIE
from livecore_server.operators.sessions import issue_login_link
from tests.conftest import World, make_app, start_world
from tests.security.cli_support import refused_in_one_line, run, world_env

PING = "/server/v1/ping"
UNKNOWN = "lc_test_" + "x" * 40  # the shape of a key, and nobody's


async def ping(world: World, key: str) -> tuple[int, Any, Any]:
    return await world.call("GET", PING, key=key)


async def ping_from(world: World, address: str, key: str) -> int:
    """A ping sent from another local address (the whole of 127.0.0.0/8 is this host's)."""
    connector = aiohttp.TCPConnector(local_addr=(address, 0))
    async with aiohttp.ClientSession(connector=connector) as session:
        headers = {"Authorization": f"Bearer {world.keys.get(key, key)}"}
        async with session.get(world.client.make_url(PING), headers=headers) as resp:
            return resp.status


async def lock_out(world: World) -> None:
    for _ in range(20):
        status, body, _ = await ping(world, UNKNOWN)
        assert (status, body["error"]["code"]) == (401, "invalid_api_key")


async def test_the_21st_failed_authentication_in_a_minute_is_429_with_retry_after(world: World) -> None:
    await lock_out(world)
    status, body, headers = await ping(world, UNKNOWN)
    assert (status, body["error"]["code"]) == (429, "rate_limited")
    assert (headers["RateLimit-Limit"], headers["RateLimit-Remaining"]) == ("20", "0")
    assert (headers["Retry-After"], headers["RateLimit-Reset"]) == ("3", "60")
    metrics = await (await world.client.get("/metrics")).text()
    assert "\nlivecore_locked_out_addresses 1\n" in metrics


async def test_a_right_key_from_the_locked_out_address_is_refused_until_a_token_is_back(world: World) -> None:
    await lock_out(world)
    status, body, headers = await ping(world, "test-server")
    assert (status, body["error"]["code"]) == (429, "rate_limited")
    assert headers["Retry-After"] == "3"
    # The SDK surface and the admin API alike: the address, not a key, is locked out.
    status, _, _ = await world.call("GET", "/sdk/v1/events", key="test-client")
    assert status == 429
    world.clock.advance(3)
    assert (await ping(world, "test-server"))[0] == 200
    # One failure is back, not twenty: the next unknown key is counted, the one after is refused.
    assert (await ping(world, UNKNOWN))[0] == 401
    assert (await ping(world, UNKNOWN))[0] == 429
    # After a whole minute the bucket is full again.
    world.clock.advance(60)
    await lock_out(world)


async def test_another_address_with_a_right_key_is_not_slowed(world: World) -> None:
    await lock_out(world)
    assert (await ping(world, "test-server"))[0] == 429
    assert await ping_from(world, "127.0.0.2", "test-server") == 200
    # ...and that address has its own count.
    assert await ping_from(world, "127.0.0.2", UNKNOWN) == 401


async def test_right_keys_are_never_counted(world: World) -> None:
    for _ in range(100):
        assert (await ping(world, "test-server"))[0] == 200
    assert world.rows("SELECT COUNT(*) FROM rate_buckets WHERE bucket = 'auth_failure'") == [(0,)]
    # A request that sends no credential at all is not a failed authentication either.
    for _ in range(25):
        assert (await world.call("GET", PING, key=None))[0] == 401
    assert (await ping(world, "test-server"))[0] == 200


async def test_personal_keys_session_cookies_and_sign_in_links_count_alike(world: World) -> None:
    origin = str(world.client.make_url("/")).rstrip("/")
    wrong_key = {"Authorization": "Bearer svc_pk_" + "A" * 43}
    forged = {"Cookie": f"{SESSION_COOKIE}=lcs_forged"}
    for _ in range(5):
        assert (await world.call("GET", "/admin/v1/me", key=None, headers=wrong_key))[0] == 401
        assert (await world.call("GET", "/admin/v1/me", key=None, headers=forged))[0] == 401
        resp = await world.client.post("/mcp", json={}, headers=wrong_key)
        assert resp.status == 401
        resp = await world.client.post(
            "/portal/login/lnk_nobody", headers={"Origin": origin}, allow_redirects=False
        )
        assert resp.status == 400 and "Set-Cookie" not in resp.headers
    # Twenty failures: every credential of this address is refused now, the portal's sign-in included.
    link = await asyncio.to_thread(issue_login_link, world.services, "gina")
    resp = await world.client.post(f"/portal/login/{link}", headers={"Origin": origin}, allow_redirects=False)
    assert resp.status == 429 and "Set-Cookie" not in resp.headers and resp.headers["Retry-After"] == "3"
    assert "rate_limited" in await resp.text()
    assert (await ping(world, "test-server"))[0] == 429
    world.clock.advance(3)
    resp = await world.client.post(f"/portal/login/{link}", headers={"Origin": origin}, allow_redirects=False)
    assert resp.status == 303  # the link was not used up by the refusal


async def test_the_limit_and_the_client_address_header_come_from_the_config(db_url: str) -> None:
    world = await start_world(db_url, auth_failures_per_minute=3, client_address_header="X-Forwarded-For")
    try:
        proxied = {"X-Forwarded-For": "198.51.100.7, 203.0.113.9"}  # the proxy appended the last
        for _ in range(3):
            assert (await world.call("GET", PING, key=UNKNOWN, headers=proxied))[0] == 401
        assert (await world.call("GET", PING, key="test-server", headers=proxied))[0] == 429
        # Another client behind the same proxy (the same peer) is not slowed.
        other = {"X-Forwarded-For": "203.0.113.10"}
        assert (await world.call("GET", PING, key="test-server", headers=other))[0] == 200
        assert world.rows("SELECT subject FROM rate_buckets WHERE bucket = 'auth_failure'") == [
            ("addr:203.0.113.9",)
        ]
    finally:
        await world.client.close()


async def test_the_lockouts_command_lists_and_lifts_a_lock_out(world: World) -> None:
    await lock_out(world)
    assert (await ping(world, UNKNOWN))[0] == 429
    db, env = world.services.config.db, world_env(world)
    listed = await asyncio.to_thread(run, "lockouts", "list", "--db", db, env=env)
    assert listed.exit_code == 0, listed.output
    assert listed.stdout.split() == [
        "127.0.0.1",
        "failures=20",
        "last=2026-03-02T12:00:00.000Z",
        "locked_until=2026-03-02T12:00:03.000Z",
    ]
    cleared = await asyncio.to_thread(run, "lockouts", "clear", "127.0.0.1", "--db", db, env=env)
    assert (cleared.exit_code, cleared.stdout.strip()) == (0, "cleared"), cleared.output
    assert (await asyncio.to_thread(run, "lockouts", "list", "--db", db, env=env)).stdout == ""
    # The running server lets go of its own note of the lock-out when its next token would be due;
    # from then on the address has all twenty again, not the one the minute refilled.
    world.clock.advance(3)
    await lock_out(world)
    cleared = await asyncio.to_thread(run, "lockouts", "clear", "192.0.2.1", "--db", db, env=env)
    assert cleared.stdout.strip() == "had no failures counted"


async def test_the_lockouts_command_counts_failures_against_the_servers_limit(db_url: str) -> None:
    """A server counting 1,000 failures a minute: ``lockouts list`` printed ``failures=-978`` (the
    default limit of 20 less the 998 tokens left). It counts against the limit it is given, the server's,
    and refuses to guess when the buckets show that the limit it was given is not the server's."""
    world = await start_world(db_url, auth_failures_per_minute=1000)
    try:
        for _ in range(2):
            assert (await ping(world, UNKNOWN))[0] == 401
        db, env = world.services.config.db, world_env(world)
        for given in (["--auth-failures-per-minute", "1000"], []):
            extra = {} if given else {"LIVECORE_AUTH_FAILURES_PER_MINUTE": "1000"}
            listed = await asyncio.to_thread(
                run, "lockouts", "list", "--db", db, *given, env={**env, **extra}
            )
            assert listed.exit_code == 0, listed.output
            assert listed.stdout.split() == ["127.0.0.1", "failures=2", "last=2026-03-02T12:00:00.000Z"]
        refused_in_one_line(
            await asyncio.to_thread(run, "lockouts", "list", "--db", db, env=env),
            "--auth-failures-per-minute",
        )
    finally:
        await world.client.close()


async def test_two_processes_on_one_postgresql_database_share_the_count(pg_url: str) -> None:
    """A world and a second app on its database: another process, as far as the count goes."""
    world = await start_world(pg_url)
    second = TestClient(TestServer(make_app(pg_url)))
    await second.start_server()
    try:
        await lock_out(world)
        key = {"Authorization": f"Bearer {world.keys['test-server']}"}
        # The second process has counted none itself: a right key goes through until it sees a failure...
        assert (await second.get(PING, headers=key)).status == 200
        # ...which the shared count refuses, and from then on so is every credential of the address.
        resp = await second.get(PING, headers={"Authorization": f"Bearer {UNKNOWN}"})
        assert (resp.status, resp.headers["Retry-After"]) == (429, "3")
        assert (await second.get(PING, headers=key)).status == 429
    finally:
        await second.close()
        await world.client.close()


async def test_a_count_that_refilled_is_forgotten_by_the_housekeeping(world: World) -> None:
    await lock_out(world)
    services = world.services
    count = "SELECT COUNT(*) FROM rate_buckets WHERE bucket = 'auth_failure'"
    world.clock.advance(30)
    await services.ratelimiter.prune()
    await services.auth_throttle.prune(to_millis(world.clock.now()))
    assert world.rows(count) == [(1,)]  # not full yet: still counted
    assert services.auth_throttle.locked_out() == 0  # but a token is back: no longer locked out
    world.clock.advance(31)
    await services.ratelimiter.prune()
    await services.auth_throttle.prune(to_millis(world.clock.now()))
    assert world.rows(count) == [(0,)]
