"""An advance of the manual clock sees every request answered before it (docs/server.md#manual-clock):
what the process buffers between its periodic flushes (``lastSeenAt``, reported builds, key usage) is
written before the scheduled work on the way runs.

The worlds here flush their buffers once an hour of wall-clock time, so nothing reaches the database
by a periodic flush during a test: without the advance's own flush every test here fails every time.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

import pytest

from livecore.clock import to_millis
from livecore_server.storage.server_store import ServerTransaction
from tests.server.guild_support import Guilds, start_guild_world
from tests.waiting import until

T = TypeVar("T")


@pytest.fixture
async def clan(db_url: str) -> AsyncIterator[Guilds]:
    games = await start_guild_world(db_url, flush_every=3600.0)
    g = games["clan"]
    try:
        yield g
    finally:
        await g.world.client.close()


async def plain_get(g: Guilds, who: str, headers: dict[str, str] | None = None) -> None:
    status, body, _ = await g.sdk("GET", who, "/friends", headers=headers)
    assert status == 200, body


def handed_over(g: Guilds) -> list[tuple[str, str]]:
    return [
        (p["externalPlayerId"], p["to"])
        for p in g.payloads("guild.role_changed")
        if p["reason"] == "succession_leader_inactive"
    ]


async def two_guilds(g: Guilds) -> None:
    """ann leads bob, dan leads eve; a day after the founding but an hour, only the hourly jobs run."""
    g.world.only_hourly_jobs()
    await g.register("ann", "bob", "dan", "eve")
    busy = await g.founded("ann", "Star Pilots")
    await g.joined(busy["guildId"], "bob")
    quiet = await g.founded("dan", "Night Owls")
    await g.joined(quiet["guildId"], "eve")
    await g.advance(23 * 3600)


async def heirs_seen(g: Guilds) -> None:
    """The members are seen and written, so that an inactive leader has someone to hand on to."""
    for who in ("bob", "eve"):
        await plain_get(g, who)
    await g.world.services.flush_buffers()


async def test_an_advance_sees_the_last_seen_of_a_request_answered_just_before(clan: Guilds) -> None:
    """A guild leader seen by a plain read right before an advance is not handed over by the sweep the
    advance runs, day after day; the leader of the other guild, never seen, is (the sweep did run)."""
    g = clan
    await two_guilds(g)
    for day in range(1, 4):
        await heirs_seen(g)
        await plain_get(g, "ann")
        # The hourly sweep runs on the way, more than a day after ann's previous write.
        await g.advance(2 * 3600)
        assert ("ann", "member") not in handed_over(g), f"ann, seen just before, handed over on day {day}"
        await g.advance(22 * 3600)  # ann's next read a day after this one: never a day unseen
    assert ("dan", "member") in handed_over(g) and ("eve", "leader") in handed_over(g)


async def test_an_advance_waits_for_a_periodic_flush_still_writing(
    clan: Guilds, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The periodic flush may have taken ann's lastSeenAt from the buffers, and not yet written it, as an
    advance begins: the advance waits for that write rather than find the buffers empty and run its sweep
    without it."""
    g = clan
    services = g.world.services
    await two_guilds(g)
    await heirs_seen(g)
    await plain_get(g, "ann")
    await services.usage.flush_async(services.store)  # what the periodic flush holds is ann's lastSeenAt
    periodic: asyncio.Task[None] | None = None
    holding, release = asyncio.Event(), asyncio.Event()
    run_async = services.store.run_async

    async def held(fn: Callable[[ServerTransaction], T], **kw: Any) -> T:
        if asyncio.current_task() is periodic:
            holding.set()
            await release.wait()
        return await run_async(fn, **kw)

    monkeypatch.setattr(services.store, "run_async", held)
    periodic = asyncio.create_task(services.flush_buffers())
    await until(holding.is_set, "the periodic flush to take ann's lastSeenAt")
    advancing = asyncio.create_task(g.advance(2 * 3600))
    lock = services._flushing
    await until(lambda: advancing.done() or lock._waiters, "the advance to finish or wait for the flush")
    release.set()
    await periodic
    await advancing
    assert ("ann", "member") not in handed_over(g)
    assert ("dan", "member") in handed_over(g)


async def test_an_advance_writes_the_key_usage_and_build_of_requests_answered_before(clan: Guilds) -> None:
    g = clan
    await g.register("ann")
    seen_at = to_millis(g.world.clock.now())
    await plain_get(g, "ann", {"X-Svc-Platform": "ios", "X-Svc-App-Version": "1.4.2"})
    await g.advance(1)
    (used,) = g.world.rows(
        "SELECT last_used_at FROM api_keys WHERE game_id = ? AND name = ?", (g.id, g.client_key)
    )
    (build,) = g.world.rows(
        "SELECT platform, app_version FROM players WHERE game_id = ? AND external_id = ?", (g.id, "ann")
    )
    assert (used[0], tuple(build)) == (seen_at, ("ios", "1.4.2"))
