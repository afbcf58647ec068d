"""Heartbeats reuse the player row a process read (livecore_server.players.cache): no database round trip for
most heartbeats, nothing stale once this process wrote the player, and on PostgreSQL nothing stale once
another process's write is heard (or, without notifications, within the short TTL)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import psycopg
import pytest

from livecore.players.rules import ban
from livecore.scope import Environment, Scope
from livecore_server.players import cache as player_cache
from livecore_server.players.cache import PLAYER_CACHE, PlayerCache
from livecore_server.storage import sqlport
from livecore_server.storage.postgres_transaction import PLAYERS_CHANNEL
from tests.conftest import START, World, apply_test_manifest, make_services, start_world
from tests.core.test_players_rules import make_player
from tests.waiting import until

BEAT = {"status": "in a match"}


def _count_reads(world: World) -> list[int]:
    """Count the store's read transactions and lookups from now on."""
    store: Any = world.services.store
    calls = [0]

    def counted(original: Callable[..., Any]) -> Callable[..., Any]:
        async def run(*args: Any, **kw: Any) -> Any:
            calls[0] += 1
            return await original(*args, **kw)

        return run

    store.read = counted(store.read)
    store.lookup = counted(store.lookup)
    return calls


async def _beat(world: World, who: str, secret: str) -> tuple[int, Any]:
    status, body, _ = await world.call(
        "POST", f"/sdk/v1/players/{who}/presence", key="test-client", json=BEAT, secret=secret
    )
    return status, body


@pytest.fixture
async def uncached(db_url: str) -> AsyncIterator[World]:
    w = await start_world(db_url, player_cache_ttl=0.0, player_cache_watched_ttl=0.0)
    try:
        yield w
    finally:
        await w.client.close()


async def test_heartbeats_read_the_player_once_within_the_ttl(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlport, "GAME_CACHE_TTL", 3600.0)  # the game's settings are not read again
    await _watched(world)  # it empties the cache when it starts
    secret = await world.register("alice")
    await _heard_every_notification(world)  # a late one would make the first heartbeat's row go
    reads = _count_reads(world)
    for _ in range(3):
        assert (await _beat(world, "alice", secret))[0] == 200
    assert reads[0] == 1


async def test_with_a_zero_ttl_every_heartbeat_reads_the_player(uncached: World) -> None:
    secret = await uncached.register("alice")
    reads = _count_reads(uncached)
    for _ in range(3):
        assert (await _beat(uncached, "alice", secret))[0] == 200
    assert reads[0] == 3


async def test_a_ban_made_by_this_process_refuses_the_next_heartbeat_at_once(world: World) -> None:
    secret = await world.register("alice")
    assert (await _beat(world, "alice", secret))[0] == 200  # cached now
    status, body, _ = await world.call(
        "POST",
        "/server/v1/players/alice/ban",
        json={"reason": "cheating"},
        headers={"Idempotency-Key": "ban-1"},
    )
    assert status == 200, body
    status, body = await _beat(world, "alice", secret)
    assert (status, body["error"]["code"]) == (403, "player_banned")


async def test_a_rotated_secret_is_refused_at_once_and_the_new_one_accepted(world: World) -> None:
    old = await world.register("alice")
    assert (await _beat(world, "alice", old))[0] == 200  # cached now
    status, body, _ = await world.call("POST", "/sdk/v1/players/alice/register?force=true", key="test-client")
    assert status == 201, body
    new = body["data"]["playerSecret"]
    status, body = await _beat(world, "alice", old)
    assert (status, body["error"]["code"]) == (401, "player_secret_invalid")
    assert (await _beat(world, "alice", new))[0] == 200


async def test_a_wrong_secret_is_refused_even_when_the_player_is_cached(world: World) -> None:
    secret = await world.register("alice")
    assert (await _beat(world, "alice", secret))[0] == 200
    status, body = await _beat(world, "alice", "not-the-secret")
    assert (status, body["error"]["code"]) == (401, "player_secret_invalid")


async def test_a_deleted_player_is_not_found_by_the_next_heartbeat(world: World) -> None:
    secret = await world.register("alice")
    assert (await _beat(world, "alice", secret))[0] == 200
    status, body, _ = await world.call(
        "POST", "/server/v1/players/alice/delete", headers={"Idempotency-Key": "del-1"}
    )
    assert status in (200, 202), body
    status, _ = await _beat(world, "alice", secret)
    assert status in (401, 404)


async def _beat_until(world: World, who: str, secret: str, status: int) -> None:
    """Heartbeat until one answers ``status``: in seconds at most, against the hour of a watched cache."""

    async def answers() -> bool:
        return (await _beat(world, who, secret))[0] == status

    await until(answers, f"a heartbeat answering {status}")


async def _watched(world: World, expected: bool = True) -> None:
    await until(
        lambda: world.services.of(PLAYER_CACHE).watched is expected, f"the player cache's watched {expected}"
    )


async def _heard_every_notification(world: World) -> None:
    """On PostgreSQL, wait until the notifications of the writes committed so far have reached the
    cache: a sentinel entry is cached, and a NOTIFY of its id sent now is heard after them (notifications
    arrive in commit order). SQLite forgets as it writes: nothing to wait for."""
    db = world.services.config.db
    if not db.startswith("postgresql://"):
        return
    cache = world.services.of(PLAYER_CACHE)
    scope = Scope(studio_id="", game_id="sentinel", env=Environment.TEST)
    cache.put(scope, "sentinel", make_player(id="plr_sentinel"), cache.generation)
    with psycopg.connect(db, autocommit=True) as conn:
        conn.execute("SELECT pg_notify(%s, %s)", (PLAYERS_CHANNEL, "plr_sentinel"))
    await until(lambda: cache.get(scope, "sentinel") is None, "the sentinel's notification")


def _ban_in(services: Any, game_id: str, who: str) -> None:
    def banned(tx: Any) -> None:
        tx.players.update(ban(tx.players.get(game_id, who), "cheating", START)[0])

    services.store.run(banned)


async def test_a_ban_made_by_another_process_reaches_heartbeats_through_its_notification(
    db_url: str,
) -> None:
    """Two processes on one PostgreSQL database, the cache trusted for an hour while notifications are
    heard: the other process's ban still refuses the next heartbeats here at once, not in an hour."""
    if not db_url.startswith("postgresql://"):
        pytest.skip("one SQLite database is served by one process")
    here = await start_world(db_url, player_cache_watched_ttl=3600.0)
    there = await asyncio.to_thread(make_services, db_url)
    try:
        await _watched(here)
        secret = await here.register("alice")
        assert (await _beat(here, "alice", secret))[0] == 200  # cached here now
        assert (await _beat(here, "alice", secret))[0] == 200
        await asyncio.to_thread(_ban_in, there, here.applied["games"]["space-race"]["id"], "alice")
        await _beat_until(here, "alice", secret, 403)
    finally:
        there.close()
        await here.client.close()


async def test_without_notifications_a_ban_made_by_another_process_reaches_heartbeats_within_the_ttl(
    db_url: str,
) -> None:
    """The notification connection is cut: this process forgets what it cached and, until it listens
    again, takes a heartbeat from a player the other process banned for at most ``player_cache_ttl``."""
    if not db_url.startswith("postgresql://"):
        pytest.skip("one SQLite database is served by one process")
    here = await start_world(db_url, player_cache_ttl=1.0, player_cache_watched_ttl=3600.0)
    there = await asyncio.to_thread(make_services, db_url)
    store: Any = here.services.store
    clock = FakeClock()
    here.services.of(
        PLAYER_CACHE
    )._clock = clock  # the cache's time passes when the test says, not while it waits
    try:
        await _watched(here)
        secret = await here.register("alice")
        assert (await _beat(here, "alice", secret))[0] == 200
        pid = store.watch_backend_pid
        # Keep it from listening again for now: every new connection of this role is refused.
        store.dsn += "&" if "?" in store.dsn else "?"
        store.dsn += "user=livecore_no_such_role"
        await there.store.run_async(lambda tx: tx.execute("SELECT pg_terminate_backend(?)", (pid,)))
        await _watched(here, expected=False)
        assert (await _beat(here, "alice", secret))[0] == 200  # read again and cached, for 1 s
        await asyncio.to_thread(_ban_in, there, here.applied["games"]["space-race"]["id"], "alice")
        clock.now += 1.0  # the TTL, not the hour of a watched cache
        assert (await _beat(here, "alice", secret))[0] == 403
    finally:
        there.close()
        await here.client.close()


async def test_the_notification_connection_listens_again_after_it_is_lost(db_url: str) -> None:
    if not db_url.startswith("postgresql://"):
        pytest.skip("SQLite needs no notifications")
    here = await start_world(db_url, player_cache_watched_ttl=3600.0)
    there = await asyncio.to_thread(make_services, db_url)
    store: Any = here.services.store
    try:
        await _watched(here)
        pid = store.watch_backend_pid
        await there.store.run_async(lambda tx: tx.execute("SELECT pg_terminate_backend(?)", (pid,)))
        await _watched(here, expected=False)
        await _watched(here)
        assert store.watch_backend_pid != pid
        secret = await here.register("alice")
        assert (await _beat(here, "alice", secret))[0] == 200
        await asyncio.to_thread(_ban_in, there, here.applied["games"]["space-race"]["id"], "alice")
        await _beat_until(here, "alice", secret, 403)  # heard again
    finally:
        there.close()
        await here.client.close()


async def test_a_player_write_that_rolls_back_sends_no_notification(db_url: str) -> None:
    if not db_url.startswith("postgresql://"):
        pytest.skip("SQLite needs no notifications")
    here = await start_world(db_url)
    # Registered before listening: registration writes the player row too, and its notification would
    # otherwise be heard or not depending on whether it commits before the LISTEN.
    await here.register("alice")
    heard: list[str] = []
    listening = asyncio.Event()
    store: Any = here.services.store
    watching = asyncio.create_task(
        store.watch(heard.append, lambda up: listening.set() if up else listening.clear())
    )
    try:
        game_id = here.applied["games"]["space-race"]["id"]
        await asyncio.wait_for(listening.wait(), 10)

        def banned_then_failed(tx: Any) -> None:
            tx.players.update(ban(tx.players.get(game_id, "alice"), "cheating", START)[0])
            raise RuntimeError("rolled back")

        with pytest.raises(RuntimeError):
            await store.run_async(banned_then_failed)
        await asyncio.to_thread(_ban_in, here.services, game_id, "alice")
        await until(lambda: heard, "the ban's notification")
        player = await store.run_async(lambda tx: tx.players.get(game_id, "alice"))
        assert heard == [player.id]  # the committed ban's, once; none from the rolled-back one
    finally:
        watching.cancel()
        await here.client.close()


# --- The cache itself ---------------------------------------------------------------------------------

SCOPE = Scope(studio_id="s", game_id="g", env=Environment.TEST)


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _player(player_id: str) -> Any:
    return make_player(id=player_id)


def _put(cache: PlayerCache, external_id: str, player_id: str) -> Any:
    player = _player(player_id)
    cache.put(SCOPE, external_id, player, cache.generation)
    return player


def test_an_entry_expires_after_the_ttl_or_while_watched_the_watched_ttl() -> None:
    clock = FakeClock()
    cache = PlayerCache(ttl=1.0, watched_ttl=60.0, clock=clock)
    player = _put(cache, "alice", "p1")
    assert cache.get(SCOPE, "alice") == player
    clock.now += 0.999
    assert cache.get(SCOPE, "alice") is not None
    clock.now += 0.001
    assert cache.get(SCOPE, "alice") is None
    cache.watch(True)
    player = _put(cache, "alice", "p1")
    clock.now += 59.999
    assert cache.get(SCOPE, "alice") == player
    clock.now += 0.001
    assert cache.get(SCOPE, "alice") is None


def test_starting_or_stopping_to_watch_forgets_everything() -> None:
    cache = PlayerCache(ttl=1.0, watched_ttl=60.0, clock=FakeClock())
    _put(cache, "alice", "p1")
    cache.watch(True)  # writes before now may have gone unheard
    assert cache.get(SCOPE, "alice") is None
    _put(cache, "alice", "p1")
    cache.watch(False)
    assert cache.get(SCOPE, "alice") is None


def test_a_row_read_before_a_forget_is_not_kept() -> None:
    """The read began, a write was heard (of any player), then the row arrived: it may predate the
    write, whose notification has come and gone, so it is not cached."""
    cache = PlayerCache(ttl=1.0, clock=FakeClock())
    generation = cache.generation
    cache.forget("p1")
    cache.put(SCOPE, "alice", _player("p1"), generation)
    assert cache.get(SCOPE, "alice") is None
    cache.put(SCOPE, "alice", _player("p1"), cache.generation)
    assert cache.get(SCOPE, "alice") is not None


def test_forget_drops_the_entry_by_player_id_and_scopes_do_not_mix() -> None:
    cache = PlayerCache(ttl=1.0, clock=FakeClock())
    _put(cache, "alice", "p1")
    live = Scope(studio_id="s", game_id="g", env=Environment.LIVE)
    assert cache.get(live, "alice") is None
    cache.forget("p1")
    assert cache.get(SCOPE, "alice") is None
    cache.forget("unknown")  # nothing to forget: no error


def test_the_cache_stays_bounded_dropping_expired_then_the_oldest(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(player_cache, "MAX_ENTRIES", 8)
    clock = FakeClock()
    cache = PlayerCache(ttl=1.0, clock=clock)
    for i in range(8):
        _put(cache, f"old{i}", f"o{i}")
    clock.now += 2  # all expired: the next put drops them all
    _put(cache, "new", "n")
    assert list(cache._entries) == [("g", "test", "new")]
    for i in range(7):
        clock.now += 0.01
        _put(cache, f"fresh{i}", f"f{i}")
    _put(cache, "new", "n")  # read again: now the most recent
    _put(cache, "last", "l")  # full of fresh entries: the oldest quarter (2) goes
    assert [key[2] for key in cache._entries] == [f"fresh{i}" for i in range(2, 7)] + ["new", "last"]
    assert set(cache._keys) == {f"f{i}" for i in range(2, 7)} | {"n", "l"}


def test_notifications_are_heard_on_uvloop(db_url: str) -> None:
    """``serve`` runs on uvloop: the notification connection (psycopg's async connection) works there."""
    if not db_url.startswith("postgresql://"):
        pytest.skip("SQLite needs no notifications")
    uvloop = pytest.importorskip("uvloop")
    services = make_services(db_url)
    try:
        apply_test_manifest(services)
        game_id = services.store.run(lambda tx: tx.execute("SELECT id FROM games").fetchone()[0])
        player = make_player(id="plr_uvloop", game_id=game_id, external_id="alice")
        services.store.run(lambda tx: tx.players.insert(player))

        async def heard() -> list[str]:
            ids: list[str] = []
            listening = asyncio.Event()
            watching = asyncio.create_task(
                services.store.watch(ids.append, lambda up: listening.set() if up else None)
            )
            try:
                await asyncio.wait_for(listening.wait(), 10)
                await asyncio.to_thread(_ban_in, services, game_id, "alice")
                await until(lambda: ids, "the ban's notification")
                return ids
            finally:
                watching.cancel()

        loop = uvloop.new_event_loop()
        try:
            assert loop.run_until_complete(heard()) == [player.id]
        finally:
            loop.close()
    finally:
        services.close()


async def test_watching_stops_when_cancelled_even_if_the_cancellation_becomes_an_error(db_url: str) -> None:
    """A library may turn the cancellation of a query into an error of its own; the watch must still end
    (the app waits for it at shutdown) rather than take it for a lost connection and listen again."""
    if not db_url.startswith("postgresql://"):
        pytest.skip("SQLite needs no notifications")
    services = await asyncio.to_thread(make_services, db_url)
    store: Any = services.store
    listening = asyncio.Event()

    async def listen(written: Any, up: Callable[[], None]) -> None:
        up()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError as exc:
            raise psycopg.OperationalError("query cancelled") from exc

    store._listen_for_players = listen
    try:
        task = asyncio.create_task(store.watch(lambda _: None, lambda up: listening.set()))
        await asyncio.wait_for(listening.wait(), 5)
        task.cancel()
        await asyncio.wait({task}, timeout=5)  # not wait_for: that would cancel it again, and wait
        assert task.cancelled()
    finally:
        services.close()
