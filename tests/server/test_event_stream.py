"""The board stream (docs/events.md#the-live-stream) read with a real HTTP client from the real app, on SQLite
and PostgreSQL: ``ready``, a ``score_update`` per change, ``closed`` at finalize, pings, a finalized board, an
unknown board, and the server closing. Then the hubs themselves (livecore_server/live_events/streams.py) on
the in-memory store: one read per change whatever the number of subscribers, and a slow subscriber cut off
without holding up the others."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import aiohttp
import attrs
import orjson
import pytest

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.games import Game, GameSettings, Studio
from livecore.hashing import KeyedHasher
from livecore.live_events.commands import live_events as ev
from livecore.live_events.settings import EVENT_SETTINGS, EventSettings
from livecore.memory import MemoryStore
from livecore.players.commands import register
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope
from livecore_server.live_events import streams
from livecore_server.live_events.streams import BoardHubs
from tests.server.event_support import SPRINT_OPENS, Arcade, start_event_world
from tests.waiting import until


@pytest.fixture
def world_config() -> dict[str, Any]:
    return {}


@pytest.fixture
async def arcade(db_url: str, world_config: dict[str, Any]) -> AsyncIterator[Arcade]:
    game = await start_event_world(db_url, **world_config)
    try:
        yield game
    finally:
        await game.world.client.close()


@attrs.frozen
class Event:
    name: str | None  # None: a comment
    id: int | None
    data: Any


class Stream:
    """A stream read with aiohttp's client, event by event."""

    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self.response = response

    async def next(self) -> Event:
        block = await asyncio.wait_for(self.response.content.readuntil(b"\n\n"), 30)
        fields: dict[str, str] = {}
        for line in block.decode().strip("\n").split("\n"):
            if line.startswith(":"):
                return Event(None, None, line[1:].strip())
            name, _, value = line.partition(": ")
            fields[name] = value
        return Event(fields["event"], int(fields["id"]), orjson.loads(fields["data"]))

    async def event(self) -> Event:
        """The next event that is not a comment."""
        while (event := await self.next()).name is None:
            pass
        return event

    async def ended(self) -> bool:
        """The server ended the stream (nothing more arrives, the body is complete)."""
        rest = await asyncio.wait_for(self.response.content.read(), 30)
        return rest == b"" and self.response.content.at_eof()


async def subscribe(g: Arcade, board: str, **headers: str) -> Stream:
    response = await g.world.client.get(
        f"/sdk/v1/event-leaderboards/{board}/stream",
        headers={"Authorization": f"Bearer {g.api_key(g.client_key)}", **headers},
    )
    assert response.status == 200, await response.text()
    return Stream(response)


def entry(e: Event) -> tuple[int, str, float]:
    x = e.data["entry"]
    return x["rank"], x["externalPlayerId"], x["score"]


async def test_the_stream_sends_ready_then_a_score_update_per_change_then_closed_and_ends(
    arcade: Arcade,
) -> None:
    g = arcade
    await g.register("ann", "bob")
    for who in ("ann", "bob"):
        await g.credit(who, "gems", 5)
    await g.advance_to(SPRINT_OPENS)
    ann, bob = await g.started("ann"), await g.started("bob")
    board = ann["leaderboardId"]
    await g.progressed("ann", ann["attemptId"], {"score": 100})

    stream = await subscribe(g, board)
    headers = stream.response.headers
    assert headers["Content-Type"] == "text/event-stream"
    assert headers["Cache-Control"] == "no-cache, no-transform"
    assert headers["X-Request-Id"] and headers["RateLimit-Limit"]
    ready = await stream.event()
    assert (ready.name, ready.id) == ("ready", 1)
    assert ready.data["leaderboardId"] == board and ready.data["version"] == 1
    assert [(e["rank"], e["externalPlayerId"], e["score"]) for e in ready.data["entries"]] == [
        (1, "ann", 100)
    ]

    await g.progressed("bob", bob["attemptId"], {"score": 200})
    update = await stream.event()
    assert (update.name, update.id, update.data["version"], entry(update)) == (
        "score_update",
        2,
        2,
        (1, "bob", 200),
    )
    assert update.data["leaderboardId"] == board
    await g.progressed("ann", ann["attemptId"], {"score": 250})
    update = await stream.event()
    assert (update.id, entry(update)) == (3, (1, "ann", 250))
    await g.progressed("ann", ann["attemptId"], {"score": 50})  # not better: the board does not change

    status, body, _ = await g.end_now("sprint")
    assert status == 200, body
    closed = await stream.event()
    assert (closed.name, closed.data) == ("closed", {"leaderboardId": board, "reason": "finalized"})
    assert closed.id == 4  # finalizing is the board's last change
    assert await stream.ended()


async def test_a_finalized_boards_stream_sends_ready_then_closed(arcade: Arcade) -> None:
    g = arcade
    await g.register("ann")
    await g.credit("ann", "gems", 5)
    await g.advance_to(SPRINT_OPENS)
    ann = await g.started("ann")
    await g.progressed("ann", ann["attemptId"], {"score": 70})
    await g.end_now("sprint")
    stream = await subscribe(g, ann["leaderboardId"])
    ready, closed = await stream.event(), await stream.event()
    assert (ready.name, ready.id, [e["score"] for e in ready.data["entries"]]) == ("ready", 2, [70])
    assert (closed.name, closed.id, closed.data["reason"]) == ("closed", 2, "finalized")
    assert await stream.ended()


async def test_an_unknown_board_is_a_404_envelope_before_any_stream(arcade: Arcade) -> None:
    g = arcade
    for board in ("lb_unknown", "not an id"):
        status, body, headers = await g.world.call(
            "GET", f"/sdk/v1/event-leaderboards/{board}/stream", key=g.api_key(g.client_key)
        )
        assert (status, body["error"]["code"]) == (404, "leaderboard_not_found")
        assert headers["Content-Type"].startswith("application/json")
    status, body, _ = await g.world.call("GET", "/sdk/v1/event-leaderboards/lb_x/stream", key=None)
    assert (status, body["error"]["code"]) == (401, "invalid_api_key")


@pytest.mark.parametrize("world_config", [{"stream_ping_seconds": 0.05}])
async def test_pings_come_as_comments_on_the_wall_clock(arcade: Arcade) -> None:
    g = arcade
    await g.register("ann")
    golf = await g.started("ann", "golf")
    stream = await subscribe(g, golf["leaderboardId"])
    assert (await stream.next()).name == "ready"
    pings = [await stream.next() for _ in range(2)]
    assert pings == [Event(None, None, "ping")] * 2  # the manual clock never moved
    await g.progressed("ann", golf["attemptId"], {"strokes": 60}, event="golf")
    assert (await stream.event()).name == "score_update"


async def test_closing_the_server_ends_every_stream(arcade: Arcade) -> None:
    g = arcade
    await g.register("ann")
    golf = await g.started("ann", "golf")
    subscribers = [await subscribe(g, golf["leaderboardId"]) for _ in range(3)]
    for s in subscribers:
        assert (await s.event()).name == "ready"
    await asyncio.wait_for(g.world.client.server.close(), 30)
    for s in subscribers:
        assert await s.ended()


# --- the hubs, on the in-memory store -------------------------------------------------------------------

T0 = datetime(2026, 12, 1, tzinfo=UTC)
SCOPE = Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)
TRIAL = EventSettings("trial", "Trial", T0, window_seconds=3600, attempt_seconds=600, score_metric="score")


class MemoryReads:
    """The reads of a server store, answered by a ``MemoryStore``, counted."""

    def __init__(self, store: MemoryStore) -> None:
        self.store = store
        self.reads = 0

    async def read(self, fn: Any) -> Any:
        self.reads += 1
        await asyncio.sleep(0)  # a store's read hands the loop on while it runs; so does this one
        with self.store.transaction() as tx:
            return fn(tx)


class Sink:
    """A subscriber's connection: what was written, and a write that can be made to hang."""

    def __init__(self) -> None:
        self.written = b""
        self.hang = asyncio.Event()
        self.hang.set()
        self.aborted = False

    async def write(self, data: bytes) -> None:
        await self.hang.wait()
        self.written += data

    def abort(self) -> None:
        self.aborted = True
        self.hang.set()

    def events(self) -> list[str]:
        return [
            block.split(b"\n")[1].decode()
            for block in self.written.split(b"\n\n")
            if block.startswith(b"id:")
        ]


@attrs.define
class Sim:
    store: MemoryStore
    rt: Runtime
    reads: MemoryReads
    hubs: BoardHubs
    attempts: dict[str, str] = attrs.Factory(dict)

    def score(self, who: str, score: float) -> tuple[str, int, str]:
        """A progress write; the board change the store would tell (board, version, player id)."""
        with self.store.transaction() as tx:
            player = tx.players.get("gam_1", who)
            assert player is not None
            if who not in self.attempts:
                self.attempts[who] = ev.start(tx, self.rt, SCOPE, player, "trial", None).id
            attempt, _ = ev.record_progress(
                tx, self.rt, SCOPE, player, "trial", self.attempts[who], {"score": score}
            )
            board = tx.boards.get("gam_1", attempt.board_id)
            assert board is not None
            return board.id, board.version, player.id


@pytest.fixture
def sim() -> Sim:
    store = MemoryStore()
    settings = GameSettings(sections={EVENT_SETTINGS: {"trial": TRIAL}})
    store.add_game(Studio("std_1", "s"), Game("gam_1", "std_1", "g", "G", settings=settings))
    rt = Runtime(ManualClock(T0), SeededRandomSource(3), KeyedHasher(b"k" * 32))
    for name in ("ann", "bob", "cat"):
        with store.transaction() as tx:
            register(tx, rt, SCOPE, name)
    reads = MemoryReads(store)
    return Sim(store, rt, reads, BoardHubs(reads, rt))  # type: ignore[arg-type]


async def test_a_change_is_read_once_and_the_same_bytes_go_to_every_subscriber(sim: Sim) -> None:
    board, version, player = sim.score("ann", 10)
    sinks = [Sink() for _ in range(50)]
    subscriptions = [await sim.hubs.subscribe(SCOPE, board, s.abort) for s in sinks]
    tasks = [asyncio.create_task(sub.run(s.write)) for sub, s in zip(subscriptions, sinks, strict=True)]
    await until(lambda: all(s.events() == ["event: ready"] for s in sinks))
    reads = sim.reads.reads
    sim.hubs.changed(*sim.score("bob", 20))
    await until(lambda: all(len(s.events()) == 2 for s in sinks))
    assert sim.reads.reads == reads + 1
    assert len({s.written for s in sinks}) == 1
    # A change heard twice (or one ready already showed) is not sent again.
    sim.hubs.changed(board, version, player)
    sim.hubs.changed(*sim.score("cat", 30))
    await until(lambda: all(len(s.events()) == 3 for s in sinks))
    assert all(s.events() == ["event: ready", "event: score_update", "event: score_update"] for s in sinks)
    for sub in subscriptions:
        sub.close()
    await asyncio.gather(*tasks)
    assert sim.hubs.hubs == {}


async def test_a_subscriber_that_does_not_read_is_cut_off_and_the_others_carry_on(
    sim: Sim, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(streams, "MAX_PENDING", 4)
    board, _, _ = sim.score("ann", 1)
    slow, quick = Sink(), Sink()
    subs = [await sim.hubs.subscribe(SCOPE, board, s.abort) for s in (slow, quick)]
    tasks = [asyncio.create_task(sub.run(s.write)) for sub, s in zip(subs, (slow, quick), strict=True)]
    await until(lambda: slow.events() == quick.events() == ["event: ready"])
    slow.hang.clear()  # its client stops reading: the next write waits forever
    for score in range(2, 12):
        sim.hubs.changed(*sim.score("ann", score))
        await until(lambda n=score: len(quick.events()) == n)
    assert slow.aborted  # cut off: its connection closed, and it will reconnect to a fresh ready
    await asyncio.wait_for(tasks[0], 30)
    assert len(sim.hubs.hubs[board].subscribers) == 1
    subs[1].close()
    await asyncio.wait_for(tasks[1], 30)
