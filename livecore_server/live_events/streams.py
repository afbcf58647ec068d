"""The live streams of event boards (docs/events.md#the-live-stream; docs/architecture.md, "Board streams").

Per process, one :class:`Hub` per board that has subscribers. The store tells the hubs of every change
of a board that any process commits (``ServerStore.on_board_changed``: PostgreSQL's NOTIFY, or SQLite's
own commits). On a change the hub reads the changed entry and its rank once, encodes the
``score_update`` once and hands the same bytes to every subscriber; a finalized board gets ``closed``
and its streams end.

Each subscriber has its own buffer, written to its connection by its own request. A subscriber whose
buffer reaches :data:`MAX_PENDING` events (a client reading more slowly than the board changes) is cut
off: its connection is closed, it reconnects and gets a fresh ``ready``. So a slow subscriber never
holds up the others, and a process never buffers more than that per subscriber.

A subscriber is added to its hub before its ``ready`` is read, and every change heard from then on is
kept for it; what it sends after ``ready`` is only what has a higher version than ``ready`` (the
version ``ready`` read already includes every change heard before it), so nothing falls between the two.

A lobby's board also shows its bots, whose scores grow with time and are never stored, so no change is
heard of them: every :data:`BOT_TICK_SECONDS` the hub of a lobby's open board reads its bots at the
clock's now and sends a ``score_update`` for each bot whose score changed since it last sent one (with
the board's current version as its id). A subscriber gets a tick's updates only once its ``ready`` was
read no later than the tick's time, so a bot's score never goes back on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Coroutine
from datetime import datetime
from typing import Any

import attrs

from livecore.api.convert import unstructure
from livecore.commands import Runtime
from livecore.live_events.api import EntryView, StreamClosed, StreamReady, StreamScoreUpdate
from livecore.live_events.boards import Board, BoardEntry, BoardStatus, Standing
from livecore.live_events.commands.boards import bot_standings, standing_of, stream_ready
from livecore.scope import Scope
from livecore_server.area_service import AreaService, ServiceKey
from livecore_server.config import Config
from livecore_server.http.envelope import dumps
from livecore_server.storage.server_store import ServerStore, ServerTransaction

log = logging.getLogger("livecore_server.live_events.streams")

MAX_PENDING = 256  # events buffered for one subscriber before it is cut off
PING = b": ping\n\n"
# How often the hub of a lobby's open board recomputes its bots' scores (wall-clock seconds): a bot's
# score moves on the clients' screens at most this late, and each tick costs one read per lobby board
# that has subscribers in this process.
BOT_TICK_SECONDS = 5.0


def encode(name: str, version: int, data: Any) -> bytes:
    """One server-sent event: its ``id`` (the board's version), its name and its JSON ``data``."""
    return b"id: %d\nevent: %s\ndata: %s\n\n" % (version, name.encode(), dumps(unstructure(data)))


def closed_event(board: Board) -> bytes:
    return encode("closed", board.version, StreamClosed(leaderboard_id=board.id))


class Subscriber:
    """One open stream: what is still to be written to it, and whether it has ended."""

    def __init__(self, abort: Any) -> None:
        self._abort = abort  # closes the connection at once (a write that may never finish)
        self._wake = asyncio.Event()
        self.pending: list[tuple[int | None, bytes]] = []  # (version, event); pings have none
        self.after: int | None = None  # the version of its ``ready``, once read
        self.ready_at: datetime | None = None  # service time once its ``ready`` was read (bots' ticks)
        self.final = b""  # written last, once ``ended``
        self.ended = False
        self.writing = False

    def push(self, version: int | None, event: bytes) -> None:
        if self.ended:
            return
        if len(self.pending) >= MAX_PENDING:
            self.end(cut=True)
            return
        self.pending.append((version, event))
        self._wake.set()

    def end(self, final: bytes = b"", *, cut: bool = False) -> None:
        """End the stream after what is pending and ``final``; ``cut``: now, dropping what is pending,
        closing the connection if a write is under way (it waits for a client that does not read)."""
        if self.ended:
            return
        self.ended = True
        self.final = final
        if cut:
            self.pending.clear()
            if self.writing:
                self._abort()
        self._wake.set()

    async def run(self, write: Any, ready: bytes, after: int) -> None:
        """Write ``ready`` and then every event after version ``after`` until the stream ends."""
        self.after = after
        await self._write(write, ready)
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self.pending = self.pending, []
            data = b"".join(e for v, e in batch if v is None or v > after)
            if data:
                await self._write(write, data)
            if self.ended:
                if self.final:
                    await self._write(write, self.final)
                return

    async def _write(self, write: Any, data: bytes) -> None:
        self.writing = True
        try:
            await write(data)
        finally:
            self.writing = False


class Hub:
    """The subscribers of one board in this process, and the changes heard and not yet sent."""

    def __init__(self, hubs: BoardHubs, board_id: str) -> None:
        self.hubs = hubs
        self.board_id = board_id
        self.subscribers: set[Subscriber] = set()
        self.board: Board | None = None  # known once a subscriber's ready was read
        self.changes: list[tuple[int, str | None]] = []
        self.sent = 0  # the highest version handed to the subscribers
        self.task: asyncio.Task[None] | None = None
        self.bot_scores: dict[str, float] = {}  # a lobby board's bots, by seat id: the scores last sent

    def heard(self, version: int, player_id: str | None) -> None:
        self.changes.append((version, player_id))
        self.kick()

    def kick(self) -> None:
        if self.board is not None and self.changes and (self.task is None or self.task.done()):
            self.task = asyncio.get_running_loop().create_task(self._send())

    async def _send(self) -> None:
        while self.changes and self.subscribers:
            version, player_id = self.changes.pop(0)
            if version <= self.sent:
                continue
            assert self.board is not None
            known = self.board
            try:
                board, standing = await self.hubs.store.read(
                    functools.partial(_changed, rt=self.hubs.rt, board=known, player_id=player_id)
                )
            except Exception:
                # The subscribers could miss this change: they end, and reconnect to a fresh ready.
                log.exception("reading a change of board %s failed", self.board_id)
                self.close(cut=True)
                return
            self.sent = max(self.sent, version)
            if board.status is BoardStatus.FINALIZED:
                self.close(closed_event(board))
                return
            if standing is not None:
                update = StreamScoreUpdate(board.id, version, EntryView.of(standing))
                event = encode("score_update", version, update)
                for subscriber in list(self.subscribers):
                    subscriber.push(version, event)
            # Let the subscribers write before the next change is read (SQLite may answer at once).
            await asyncio.sleep(0)

    async def tick_bots(self) -> None:
        """A lobby's open board: a ``score_update`` for each bot whose score changed since the last one
        sent, to the subscribers whose ``ready`` is no newer than this tick. A failed read sends nothing;
        the next tick catches up."""
        if self.board is None or self.board.lobby_id is None or not self.subscribers:
            return
        at = self.hubs.rt.clock.now()
        try:
            board, standings = await self.hubs.store.read(functools.partial(_bots, board=self.board, at=at))
        except Exception:
            log.exception("reading the bots of board %s failed", self.board_id)
            return
        if board.status is not BoardStatus.OPEN:
            return  # the change that finalized it ends the streams
        for standing in standings:
            if self.bot_scores.get(standing.player.id) == standing.entry.score:
                continue
            self.bot_scores[standing.player.id] = standing.entry.score
            update = StreamScoreUpdate(board.id, board.version, EntryView.of(standing))
            event = encode("score_update", board.version, update)
            for subscriber in list(self.subscribers):
                if subscriber.ready_at is not None and subscriber.ready_at <= at:
                    subscriber.push(None, event)  # not a change of the board: no version to skip it by

    def close(self, final: bytes = b"", *, cut: bool = False) -> None:
        for subscriber in list(self.subscribers):
            subscriber.end(final, cut=cut)
        self.subscribers.clear()
        self.hubs.drop(self)


def _changed(
    tx: ServerTransaction, rt: Runtime, board: Board, player_id: str | None
) -> tuple[Board, Standing[BoardEntry] | None]:
    """The board now, and the player's entry with its rank (one read for every subscriber)."""
    now = tx.boards.get(board.game_id, board.id)
    assert now is not None  # boards are never deleted
    if player_id is None or now.status is BoardStatus.FINALIZED:
        return now, None
    return now, standing_of(tx, rt, now, player_id)


def _bots(tx: ServerTransaction, board: Board, at: datetime) -> tuple[Board, list[Standing[BoardEntry]]]:
    """The board now, and its bots with their entries and ranks ``at`` (one read for every subscriber)."""
    now = tx.boards.get(board.game_id, board.id)
    assert now is not None
    return now, bot_standings(tx, now, at) if now.status is BoardStatus.OPEN else []


@attrs.define
class Subscription:
    """A subscriber with its ``ready``, as the stream's handler gets it before it starts the stream."""

    hubs: BoardHubs
    hub: Hub
    subscriber: Subscriber
    board: Board  # as ``ready`` read it
    ready: bytes

    async def run(self, write: Any) -> None:
        """Write the stream until it ends (``closed``, cut off, or the server closing); a write to a
        client that went away raises ``ConnectionError``."""
        try:
            if self.board.status is BoardStatus.FINALIZED:
                await write(self.ready + closed_event(self.board))
                return
            await self.subscriber.run(write, self.ready, self.board.version)
        finally:
            self.close()

    def close(self) -> None:
        """The stream is over: the subscriber leaves its hub (the last one takes the hub along). Also for
        a stream that never started (its client went away first)."""
        self.subscriber.end()
        self.hub.subscribers.discard(self.subscriber)
        if not self.hub.subscribers:
            self.hubs.drop(self.hub)


#: The hubs, as the server's services hold them (``services.of(BOARD_HUBS)``).
BOARD_HUBS: ServiceKey[BoardHubs] = ServiceKey("board_hubs")


class BoardHubs(AreaService):
    """Every hub of this process, by board id: the live events area's service
    (:mod:`livecore_server.area_service`), handed the runtime once the server's services make it."""

    def __init__(self, store: ServerStore, rt: Runtime | None = None) -> None:
        self.store = store
        self._rt = rt
        self.hubs: dict[str, Hub] = {}
        self.closed = False
        self._watching: bool | None = None

    @property
    def rt(self) -> Runtime:
        if self._rt is None:
            raise RuntimeError("the board hubs are used before the server's runtime is made")
        return self._rt

    def given(self, runtime: Runtime) -> None:
        self._rt = runtime

    def follow(self, store: ServerStore) -> None:
        store.on_board_changed(self.changed)

    def background(self, config: Config) -> list[Coroutine[Any, Any, None]]:
        return [self.run_pings(config.stream_ping_seconds), self.run_bot_ticks()]

    def changed(self, board_id: str, version: int, player_id: str | None) -> None:
        """The store's listener: a change of the board committed (by any process)."""
        hub = self.hubs.get(board_id)
        if hub is not None:
            hub.heard(version, player_id)

    async def subscribe(self, scope: Scope, board_id: str, abort: Any) -> Subscription:
        """A new subscriber of the board, with its ``ready`` read; 404 ``leaderboard_not_found`` for a
        board the caller cannot see (before anything is sent)."""
        hub = self.hubs.get(board_id)
        if hub is None:
            hub = self.hubs[board_id] = Hub(self, board_id)
        subscriber = Subscriber(abort)
        hub.subscribers.add(subscriber)
        try:
            page = await self.store.read(lambda tx: stream_ready(tx, self.rt, scope, board_id))
        except BaseException:
            hub.subscribers.discard(subscriber)
            if not hub.subscribers:
                self.drop(hub)
            raise
        board = page.board
        subscriber.ready_at = self.rt.clock.now()
        if hub.board is None:
            hub.board = board
            hub.sent = board.version
            hub.bot_scores = {s.player.id: s.entry.score for s in page.standings if s.player.is_bot}
            hub.kick()
        if self.closed:
            subscriber.end(cut=True)
        ready = StreamReady(board.id, board.version, [EntryView.of(s) for s in page.standings])
        return Subscription(self, hub, subscriber, board, encode("ready", board.version, ready))

    def watching(self, on: bool) -> None:
        """Whether this process hears every process's board changes (PostgreSQL's LISTEN connection is
        up). While it does not, streams could miss changes: every stream is cut off when it stops and
        again when it resumes, so that each client reconnects to a fresh ``ready``."""
        if self._watching is not None or not on:
            for hub in list(self.hubs.values()):
                hub.close(cut=True)
        self._watching = on

    def drop(self, hub: Hub) -> None:
        if self.hubs.get(hub.board_id) is hub:
            del self.hubs[hub.board_id]

    def ping(self) -> None:
        for hub in list(self.hubs.values()):
            for subscriber in list(hub.subscribers):
                subscriber.push(None, PING)

    async def run_pings(self, every: float) -> None:
        """``: ping`` to every subscriber every ``every`` seconds of wall-clock time (a background task)."""
        while True:
            await asyncio.sleep(every)
            self.ping()

    async def tick_bots(self) -> None:
        """One bots' tick of every hub (:meth:`Hub.tick_bots`)."""
        for hub in list(self.hubs.values()):
            await hub.tick_bots()

    async def run_bot_ticks(self, every: float = BOT_TICK_SECONDS) -> None:
        """:meth:`tick_bots` every ``every`` seconds of wall-clock time (a background task)."""
        while True:
            await asyncio.sleep(every)
            await self.tick_bots()

    def close(self) -> None:
        """End every stream now (the server is closing)."""
        self.closed = True
        for hub in list(self.hubs.values()):
            hub.close(cut=True)
            if hub.task is not None:
                hub.task.cancel()

    async def aclose(self) -> None:
        tasks = [h.task for h in self.hubs.values() if h.task is not None]
        self.close()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
