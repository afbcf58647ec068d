"""Heartbeats reuse the player row a process read within the last second (livecore_server.player_cache):
no database round trip for most heartbeats, and nothing stale once this process wrote the player."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from livecore.players import ban
from livecore.scope import Environment, Scope
from livecore_server import player_cache
from livecore_server.player_cache import PlayerCache
from tests.conftest import START, World, make_services, start_world
from tests.core.test_players_rules import make_player

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
    w = await start_world(db_url, player_cache_ttl=0.0)
    try:
        yield w
    finally:
        await w.client.close()


async def test_heartbeats_read_the_player_once_within_the_ttl(world: World) -> None:
    secret = await world.register("alice")
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


async def test_a_ban_made_by_another_process_reaches_heartbeats_within_the_ttl(db_url: str) -> None:
    """Two processes on one PostgreSQL database: the one that cached the player takes its heartbeats for
    at most ``player_cache_ttl`` after the other banned it, then refuses them."""
    if not db_url.startswith("postgresql://"):
        pytest.skip("one SQLite database is served by one process")
    here = await start_world(db_url, player_cache_ttl=1.0)
    there = make_services(db_url)
    try:
        secret = await here.register("alice")
        assert (await _beat(here, "alice", secret))[0] == 200  # cached here now
        game_id = here.applied["games"]["space-race"]["id"]

        def banned(tx: Any) -> None:
            tx.update_player(ban(tx.get_player(game_id, "alice"), "cheating", START)[0])

        there.store.run(banned)
        assert (await _beat(here, "alice", secret))[0] == 200  # still within the TTL here
        await asyncio.sleep(1.0)
        status, body = await _beat(here, "alice", secret)
        assert (status, body["error"]["code"]) == (403, "player_banned")
    finally:
        there.close()
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


def test_an_entry_expires_after_the_ttl() -> None:
    clock = FakeClock()
    cache = PlayerCache(ttl=1.0, clock=clock)
    player, game = _player("p1"), object()
    cache.put(SCOPE, "alice", player, game)  # type: ignore[arg-type]
    assert cache.get(SCOPE, "alice") == (player, game)
    clock.now += 0.999
    assert cache.get(SCOPE, "alice") is not None
    clock.now += 0.001
    assert cache.get(SCOPE, "alice") is None


def test_forget_drops_the_entry_by_player_id_and_scopes_do_not_mix() -> None:
    cache = PlayerCache(ttl=1.0, clock=FakeClock())
    cache.put(SCOPE, "alice", _player("p1"), object())  # type: ignore[arg-type]
    live = Scope(studio_id="s", game_id="g", env=Environment.LIVE)
    assert cache.get(live, "alice") is None
    cache.forget("p1")
    assert cache.get(SCOPE, "alice") is None
    cache.forget("unknown")  # nothing to forget: no error


def test_the_cache_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(player_cache, "MAX_ENTRIES", 10)
    clock = FakeClock()
    cache = PlayerCache(ttl=1.0, clock=clock)
    for i in range(10):
        cache.put(SCOPE, f"old{i}", _player(f"o{i}"), object())  # type: ignore[arg-type]
    clock.now += 2  # all expired: the next put prunes them
    cache.put(SCOPE, "new", _player("n"), object())  # type: ignore[arg-type]
    assert len(cache._entries) == 1
    for i in range(10):  # all fresh: the next put clears everything
        cache.put(SCOPE, f"fresh{i}", _player(f"f{i}"), object())  # type: ignore[arg-type]
    assert len(cache._entries) <= 10
