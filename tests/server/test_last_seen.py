"""``lastSeenAt`` moves on any authenticated client request (docs/players.md#last-seen), written at most once
an hour per player (livecore.players.rules.SEEN_EVERY) with the presence board's flush, so that a read costs
no write: a guild leader who plays without heartbeats is not handed over as inactive."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime

import pytest

from livecore.clock import to_millis
from livecore.players.rules import SEEN_EVERY
from livecore_server.players.presence import PRESENCE_BOARD
from tests.server.guild_support import Guilds, start_guild_world
from tests.waiting import until

HOUR = SEEN_EVERY.total_seconds()


@pytest.fixture
async def clan(db_url: str) -> AsyncIterator[Guilds]:
    # The presence board flushes often, so that waiting on a write takes little time.
    games = await start_guild_world(db_url, flush_every=0.02)
    g = games["clan"]
    try:
        yield g
    finally:
        await g.world.client.close()


def last_seen_ms(g: Guilds, who: str) -> int:
    rows = g.world.rows("SELECT last_seen_at FROM players WHERE game_id = ? AND external_id = ?", (g.id, who))
    return int(rows[0][0])


async def plain_get(g: Guilds, who: str) -> None:
    status, body, _ = await g.sdk("GET", who, "/friends")
    assert status == 200, body


async def test_last_seen_moves_on_a_plain_get_at_most_once_an_hour(clan: Guilds) -> None:
    g = clan
    await g.register("ann")
    registered = last_seen_ms(g, "ann")
    # Within the hour: a read writes nothing, whatever the number of reads.
    await g.advance(HOUR - 1)
    for _ in range(3):
        await plain_get(g, "ann")
    await g.world.services.of(PRESENCE_BOARD).flush_async(g.world.services.store)
    assert last_seen_ms(g, "ann") == registered
    # An hour after the last write, the next read moves it to that read's time, once.
    await g.advance(1)
    seen_at = to_millis(g.world.clock.now())
    await plain_get(g, "ann")
    await until(lambda: last_seen_ms(g, "ann") == seen_at, "ann's lastSeenAt to move")
    await g.advance(60)
    await plain_get(g, "ann")
    await g.world.services.of(PRESENCE_BOARD).flush_async(g.world.services.store)
    assert last_seen_ms(g, "ann") == seen_at


async def test_a_leader_who_only_reads_is_not_handed_over_as_inactive(clan: Guilds) -> None:
    g = clan
    g.world.only_hourly_jobs()
    await g.register("ann", "bob", "dan", "eve")
    busy = await g.founded("ann", "Star Pilots")
    await g.joined(busy["guildId"], "bob")
    quiet = await g.founded("dan", "Night Owls")
    await g.joined(quiet["guildId"], "eve")
    await g.advance(23 * 3600)
    # ann plays with plain reads, no heartbeat; dan makes no request at all. Both members are seen.
    for who in ("ann", "bob", "eve"):
        await plain_get(g, who)
    now = to_millis(g.world.clock.now())
    await until(lambda: all(last_seen_ms(g, w) == now for w in ("ann", "bob", "eve")), "the reads written")
    await g.advance(2 * 3600)  # a day and an hour since the guilds were founded: the sweep has run
    changes = [(p["externalPlayerId"], p["to"], p["reason"]) for p in g.payloads("guild.role_changed")]
    assert ("ann", "member", "succession_leader_inactive") not in changes
    assert ("dan", "member", "succession_leader_inactive") in changes
    assert ("eve", "leader", "succession_leader_inactive") in changes


def test_seen_is_due_after_the_interval_only() -> None:
    from livecore.players.rules import seen_is_due

    t0 = datetime(2026, 1, 1)
    assert not seen_is_due(t0, t0 + SEEN_EVERY - SEEN_EVERY / 3600)
    assert seen_is_due(t0, t0 + SEEN_EVERY)
