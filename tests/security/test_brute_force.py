"""Wrong player secrets (docs/reference/conventions.md#rate-limits): counted per player and client
address, 20 a minute, then 429 for that player from that address only; the game key's bucket, which
every player of the game shares, is never charged for them."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp

from livecore.ratelimit import Decision
from livecore_server.ratelimit import SecretBrake, SharedRateLimiter
from livecore_server.registry import storage
from tests.conftest import START, World, start_world

WALLET = "/sdk/v1/players/{}/wallet"
WRONG = "ps_" + "A" * 43  # the shape of a player secret, and nobody's


async def _read(world: World, player: str, secret: str) -> tuple[int, Any, Any]:
    return await world.call("GET", WALLET.format(player), key="test-client", secret=secret)


async def _read_from(world: World, address: str, player: str, secret: str) -> int:
    """A read sent from another local address (the whole of 127.0.0.0/8 is this host's)."""
    connector = aiohttp.TCPConnector(local_addr=(address, 0))
    async with aiohttp.ClientSession(connector=connector) as session:
        headers = {"Authorization": f"Bearer {world.keys['test-client']}", "X-Player-Secret": secret}
        async with session.get(world.client.make_url(WALLET.format(player)), headers=headers) as resp:
            return resp.status


async def test_610_wrong_secrets_for_one_player_do_not_stop_another_players_reads(world: World) -> None:
    await world.register("alice")
    bob = await world.register("bob")
    statuses = [(await _read(world, "alice", WRONG))[0] for _ in range(610)]
    assert statuses == [401] * 20 + [429] * 590
    status, _, headers = await _read(world, "bob", bob)
    assert status == 200
    # Bob's read is the only one the key paid for: the bucket (600 a minute, the clock stands still) was
    # never charged for alice's wrong secrets.
    assert (headers["RateLimit-Limit"], headers["RateLimit-Remaining"]) == ("600", "599")


async def test_the_21st_wrong_secret_in_a_minute_is_429_for_that_player_and_address(world: World) -> None:
    alice = await world.register("alice")
    bob = await world.register("bob")
    for _ in range(20):
        status, body, _ = await _read(world, "alice", WRONG)
        assert (status, body["error"]["code"]) == (401, "player_secret_invalid")
    status, body, headers = await _read(world, "alice", WRONG)
    assert (status, body["error"]["code"]) == (429, "rate_limited")
    # The brake's own bucket: 20 a minute, so one token is back 3 s later and all of them after 60 s.
    assert (headers["RateLimit-Limit"], headers["RateLimit-Remaining"]) == ("20", "0")
    assert (headers["Retry-After"], headers["RateLimit-Reset"]) == ("3", "60")
    # While the brake is on, nothing of alice's is answered from this address, the right secret included
    # (else the brake would only change the status of the wrong guesses): reads, writes, heartbeats.
    assert (await _read(world, "alice", alice))[0] == 429
    status, _, _ = await world.call(
        "PUT", "/sdk/v1/players/alice/identity", key="test-client", json={"name": "A"}, secret=alice
    )
    assert status == 429
    status, _, _ = await world.call(
        "POST", "/sdk/v1/players/alice/presence", key="test-client", json={}, secret=alice
    )
    assert status == 429
    # Bob, on the same key and from the same address, is not braked.
    assert (await _read(world, "bob", bob))[0] == 200
    # Once a token is back, alice's right secret works again; it does not spend the token.
    world.clock.advance(3)
    for _ in range(3):
        assert (await _read(world, "alice", alice))[0] == 200


async def test_wrong_secrets_sent_at_once_are_checked_no_more_than_the_brake_allows(world: World) -> None:
    """Secrets checked concurrently count before their answers come back: 100 guesses sent together get
    20 checks, and 100 reads with the right secret sent together all go through (some wait a little)."""
    alice = await world.register("alice")
    wrong = await asyncio.gather(*(_read(world, "alice", WRONG) for _ in range(100)))
    assert sorted(status for status, _, _ in wrong) == [401] * 20 + [429] * 80
    world.clock.advance(60)
    right = await asyncio.gather(*(_read(world, "alice", alice) for _ in range(100)))
    assert [status for status, _, _ in right] == [200] * 100


async def test_the_brake_takes_its_limit_from_the_config(db_url: str) -> None:
    """``serve --wrong-secrets-per-minute`` (the fuzz run raises it so that its requests without a secret
    do not brake the fuzzed player)."""
    world = await start_world(db_url, wrong_secrets_per_minute=3)
    try:
        await world.register("alice")
        statuses = [(await _read(world, "alice", WRONG))[0] for _ in range(5)]
        assert statuses == [401] * 3 + [429] * 2
    finally:
        await world.client.close()


async def test_the_right_secret_from_another_address_still_works(world: World) -> None:
    alice = await world.register("alice")
    for _ in range(21):
        await _read(world, "alice", WRONG)
    assert (await _read(world, "alice", alice))[0] == 429
    assert await _read_from(world, "127.0.0.2", "alice", alice) == 200
    # ...and that address has its own count of wrong secrets.
    assert await _read_from(world, "127.0.0.2", "alice", WRONG) == 401


async def test_malformed_and_missing_secrets_count_as_wrong(world: World) -> None:
    alice = await world.register("alice")
    statuses = []
    for secret in ("ps_x", None, "nope", "ps_" + "A" * 44) * 5:
        status, _, _ = await world.call("GET", WALLET.format("alice"), key="test-client", secret=secret)
        statuses.append(status)
    assert statuses == [401] * 20
    assert (await _read(world, "alice", alice))[0] == 429


async def test_a_wrong_secret_counted_by_another_process_brakes_this_one(pg_url: str) -> None:
    """Two processes on one PostgreSQL database share the count, as they share the keys' buckets."""
    from livecore_server.storage.postgres import PostgresStore

    stores = [PostgresStore(pg_url, pool_size=1, areas=storage()) for _ in range(2)]
    try:
        first, second = (SecretBrake(SharedRateLimiter(s, clock=None)) for s in stores)  # type: ignore[arg-type]
        subject, now = "secret:gam_1:test:alice@192.0.2.1", int(START.timestamp() * 1000)

        async def wrong(brake: SecretBrake) -> Decision:
            assert await brake.admit(subject, now) is None
            return await brake.wrong(subject, now)

        for _ in range(20):
            assert (await wrong(first)).allowed
        assert await first.admit(subject, now) is not None  # this process counted them all itself
        # The other process has counted none, so it checks this secret; the shared bucket refuses it...
        assert not (await wrong(second)).allowed
        # ...and from then on it refuses before checking, the right secret included.
        refused = await second.admit(subject, now)
        assert refused is not None and refused.retry_after_seconds == 3
        # A secret that was right spends nothing: the brake never runs out for its own player.
        other = "secret:gam_1:test:bob@192.0.2.1"
        for _ in range(100):
            assert await second.admit(other, now) is None
            second.release(other)
    finally:
        for s in stores:
            s.close()


async def test_a_flood_of_wrong_secrets_from_many_addresses_is_forgotten_as_it_refills() -> None:
    brake = SecretBrake()
    now = int(START.timestamp() * 1000)
    for i in range(25_000):
        subject = f"secret:gam_1:test:alice@192.0.2.{i}"
        assert await brake.admit(subject, now) is None
        await brake.wrong(subject, now)
    # One wrong secret is refilled 3 s later: then nothing of its bucket is kept.
    assert brake.prune(now + 2_999) == 0
    assert brake.prune(now + 3_000) == 25_000
