"""What a server keeps of the events its writes emit (docs/webhooks.md#what-is-kept), and how a change of
configuration reaches every process at once
(docs/decisions/0026-configuration-caches-dropped-by-the-write.md).

An event is stored in the outbox only when an endpoint of its game and environment subscribes to its
kind, paused or not; an endpoint created later gets the events committed from its creation on. Keys
revoked or rotated, game settings and endpoints changed: the process that changes them drops its cached
copies before it answers, and every other process on the same PostgreSQL database as the notification
arrives, which it reads before trusting a cached key.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta

import attrs
import pytest

from livecore.clock import ManualClock, to_millis
from livecore.operators.keys import ROTATION_GRACE
from livecore.webhooks.delivery import EndpointStatus
from livecore_server.operators.apply import rotate_in
from livecore_server.storage.server_store import ServerTransaction
from tests.conftest import Receiver, World, apply_test_manifest, start_world, webhook_manifest
from tests.waiting import until

HOUR = 3600.0


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    r = await Receiver().start()
    try:
        yield r
    finally:
        await r.stop()


def _kinds(world: World) -> list[tuple[str, str]]:
    return [(e.kind, e.env.value) for e in world.events()]


async def test_only_events_an_endpoint_subscribes_to_are_stored(db_url: str, receiver: Receiver) -> None:
    extra = webhook_manifest(players=("test", receiver.url, '["player.registered"]'))
    world = await start_world(db_url, manifest_extra=extra, every_event=False)
    try:
        await world.register("alice")  # player.registered and player.secret_set, in test
        assert _kinds(world) == [("player.registered", "test")]
        await world.register("bob", key="live-client")  # no endpoint in live
        assert _kinds(world) == [("player.registered", "test")]
        # An endpoint created later gets the events committed from its creation on: bob's are gone.
        await asyncio.to_thread(
            apply_test_manifest,
            world.services,
            extra + webhook_manifest(live=("live", receiver.url, '["*"]')),
        )
        await world.register("carol", key="live-client")
        assert _kinds(world) == [
            ("player.registered", "test"),
            ("player.registered", "live"),
            ("player.secret_set", "live"),
        ]
        # Changing what an endpoint subscribes to takes effect with the next write.
        await asyncio.to_thread(
            apply_test_manifest,
            world.services,
            extra + webhook_manifest(live=("live", receiver.url, '["gift.sent"]')),
        )
        await world.register("dan", key="live-client")
        assert len(world.events()) == 3
    finally:
        await world.client.close()


async def test_a_paused_endpoint_keeps_what_it_subscribes_to_and_is_sent_nothing(
    db_url: str, receiver: Receiver
) -> None:
    """What the test worlds keep every event with (tests/kept.py): a paused endpoint subscribed to every
    kind."""
    extra = webhook_manifest(held=("test", receiver.url, '["*"]'))
    world = await start_world(db_url, manifest_extra=extra, every_event=False)
    try:
        endpoint_id = world.applied["games"]["space-race"]["webhooks"]["held"]["id"]
        now = world.services.clock.now()

        def pause(tx: ServerTransaction) -> None:
            endpoint = tx.webhooks.get_endpoint(endpoint_id)
            assert endpoint is not None
            tx.webhooks.save_endpoint(attrs.evolve(endpoint, status=EndpointStatus.PAUSED), now)

        await world.services.store.run_async(pause)
        await world.register("alice")
        assert _kinds(world) == [("player.registered", "test"), ("player.secret_set", "test")]
        await world.dispatcher.drain_due()
        held = world.services.store.run(lambda tx: tx.webhooks.list_deliveries(endpoint_id), write=False)
        assert sorted((kind, d.status.value) for d, kind in held) == [
            ("player.registered", "pending"),
            ("player.secret_set", "pending"),
        ]
        assert receiver.received == []
    finally:
        await world.client.close()


async def test_a_write_without_subscribers_does_not_wake_the_dispatcher(db_url: str) -> None:
    world = await start_world(db_url, every_event=False)
    try:
        woken: list[int] = []
        world.services.store.on_events_committed(lambda: woken.append(1))
        await world.register("alice")
        assert woken == [] and world.events() == []
    finally:
        await world.client.close()


async def test_a_revoked_key_is_refused_by_the_next_request(db_url: str) -> None:
    # Keys cached for an hour: only the revocation can make the next request read the key again.
    world = await start_world(db_url, key_cache_ttl=HOUR, every_event=False)
    try:
        await world.register("alice")
        await _revoke(world, "test-client")
        status, body, _ = await world.call("POST", "/sdk/v1/players/bob/register", key="test-client")
        assert (status, body["error"]["code"]) == (401, "invalid_api_key")
    finally:
        await world.client.close()


async def _two_processes(pg_url: str) -> tuple[World, World]:
    """Two servers on one PostgreSQL database, each with its own caches (keys kept for an hour), both
    listening for notifications."""
    first = await start_world(pg_url, key_cache_ttl=HOUR, every_event=False)
    second = await start_world(pg_url, key_cache_ttl=HOUR, every_event=False)
    second.keys = first.keys  # applied again by the second: the keys were minted by the first
    await _listening(first, second)
    return first, second


async def _listening(*worlds: World) -> None:
    stores = [world.services.store for world in worlds]
    await until(lambda: all(getattr(s, "watch_backend_pid", None) for s in stores), "the servers listen")


async def _revoke(world: World, name: str) -> None:
    """Revoke the key as the admin API does: a write of the serving process, answered once it committed."""
    key_id = world.applied["games"]["space-race"]["apiKeys"][name]["id"]
    now = to_millis(world.services.clock.now())
    await world.services.store.run_async(lambda tx: tx.keys.revoke(key_id, now))


async def _refused(world: World, key: str) -> bool:
    status, body, _ = await world.call("POST", "/sdk/v1/players/bob/register", key=key)
    return status == 401 and body["error"]["code"] == "invalid_api_key"


async def test_a_key_revoked_by_one_process_is_refused_by_another_without_waiting_for_its_cache(
    pg_url: str,
) -> None:
    """The second process keeps keys an hour: only the notification can tell it. Usually its very next
    request is refused; a process under load may deliver the notification a request or two later."""
    first, second = await _two_processes(pg_url)
    try:
        await second.register("alice")  # the second server caches the key
        await _revoke(first, "test-client")
        await until(lambda: _refused(second, "test-client"), "the second process refuses the revoked key")
    finally:
        await first.client.close()
        await second.client.close()


async def test_a_key_rotated_by_one_process_retires_on_time_in_another(pg_url: str) -> None:
    first, second = await _two_processes(pg_url)
    try:
        await second.register("alice")  # cached as it was: active, retiring never
        game_id = first.applied["games"]["space-race"]["id"]
        rt = first.services.runtime
        minted = await first.services.store.run_async(lambda tx: rotate_in(tx, rt, game_id, "test-client"))
        clock = second.services.clock
        assert isinstance(clock, ManualClock)
        clock.advance((ROTATION_GRACE + timedelta(seconds=1)).total_seconds())
        await until(lambda: _refused(second, "test-client"), "the second process retires the old key")
        # Until the notification arrives the old key may still register bob, so the new key registers carol.
        status, body, _ = await second.call("POST", "/sdk/v1/players/carol/register", key=minted["secret"])
        assert status == 201, body
    finally:
        await first.client.close()
        await second.client.close()


async def test_an_endpoint_created_by_one_process_gets_the_events_of_another(
    pg_url: str, receiver: Receiver
) -> None:
    first = await start_world(pg_url, every_event=False)
    second = await start_world(pg_url, every_event=False)
    second.keys = first.keys
    try:
        await _listening(first, second)
        await second.register("alice")  # the second server reads the game's subscriptions: none
        assert second.events() == []
        await asyncio.to_thread(
            apply_test_manifest, first.services, webhook_manifest(all=("test", receiver.url, '["*"]'))
        )
        await second.register("bob")
        assert {e.kind for e in second.events()} == {"player.registered", "player.secret_set"}
    finally:
        await first.client.close()
        await second.client.close()
