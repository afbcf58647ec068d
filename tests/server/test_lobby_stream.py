"""The stream of a lobby's board (livecore_server/live_events/streams.py) on the in-memory store: its
``ready`` shows
the bots, and each bots' tick (called directly, on the manual clock) sends a ``score_update`` for each bot
whose score changed, and nothing once the board is finalized."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import attrs
import orjson

from livecore.live_events.boards import BoardStatus
from livecore.players.identity import DEFAULT_POOL
from livecore_server.live_events.streams import BoardHubs
from tests.core.test_lobby_boards import BOARD, SCOPE, World
from tests.server.test_event_stream import MemoryReads, Sink
from tests.waiting import until


def shown(sink: Sink) -> list[tuple[str, Any]]:
    """Each event written: its name and its data."""
    events = []
    for block in sink.written.split(b"\n\n"):
        if block.startswith(b"id:"):
            _, name, data = block.split(b"\n")
            events.append((name.decode().removeprefix("event: "), orjson.loads(data.removeprefix(b"data: "))))
    return events


def bot_name(seat_id: str) -> str:
    return DEFAULT_POOL.compose("gam_1", seat_id).name


async def test_each_bots_tick_sends_the_bots_whose_score_changed_with_their_rank() -> None:
    world = World()
    world.at(30)
    hubs = BoardHubs(MemoryReads(world.store), world.rt)  # type: ignore[arg-type]
    sink = Sink()
    subscription = await hubs.subscribe(SCOPE, BOARD.id, sink.abort)
    task = asyncio.create_task(subscription.run(sink.write))
    await until(lambda: len(shown(sink)) == 1)
    (name, ready), *_ = shown(sink)
    assert name == "ready"
    assert [(e["rank"], e["externalPlayerId"], e["isBot"], e["score"]) for e in ready["entries"]] == [
        (1, None, True, 450),
        (2, "ann", False, 300),
        (3, None, True, 300),
        (4, "bob", False, 100),
        (5, None, True, 60),
    ]

    await hubs.tick_bots()  # the clock has not moved: no bot's score changed since ready
    world.at(45)  # bot_c 675, bot_a 450, ann 300, bob 100, bot_b 90
    await hubs.tick_bots()
    await until(lambda: len(shown(sink)) == 4)
    updates = [(n, d["leaderboardId"], d["version"], d["entry"]) for n, d in shown(sink)[1:]]
    assert [(n, b, v) for n, b, v, _ in updates] == [("score_update", BOARD.id, ready["version"])] * 3
    assert [(e["rank"], e["name"], e["isBot"], e["externalPlayerId"], e["score"]) for *_, e in updates] == [
        (1, bot_name("bot_c"), True, None, 675),
        (2, bot_name("bot_a"), True, None, 450),
        (5, bot_name("bot_b"), True, None, 90),
    ]

    await hubs.tick_bots()  # nothing moved since the last tick: nothing is sent again
    with world.store.transaction() as tx:  # a finalized board's bots are not ticked
        tx.boards.update(attrs.evolve(BOARD, status=BoardStatus.FINALIZED))
    world.at(50)
    await hubs.tick_bots()
    assert subscription.subscriber.pending == []  # the tick queued nothing
    assert len(shown(sink)) == 4
    subscription.close()
    await asyncio.wait_for(task, 30)
    assert hubs.hubs == {}


async def test_a_tick_older_than_a_subscribers_ready_is_not_sent_to_it() -> None:
    world = World()
    world.at(30)
    hubs = BoardHubs(MemoryReads(world.store), world.rt)  # type: ignore[arg-type]
    sink = Sink()
    subscription = await hubs.subscribe(SCOPE, BOARD.id, sink.abort)
    task = asyncio.create_task(subscription.run(sink.write))
    await until(lambda: len(shown(sink)) == 1)
    world.at(45)
    # Its ready was read after the tick's time (the two reads raced): the tick's scores are older.
    subscription.subscriber.ready_at = world.clock.now() + timedelta(milliseconds=1)
    await hubs.tick_bots()
    assert subscription.subscriber.pending == []  # the tick queued nothing for it
    assert [n for n, _ in shown(sink)] == ["ready"]
    subscription.close()
    await asyncio.wait_for(task, 30)
