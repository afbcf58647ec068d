"""The PostgreSQL store: the :mod:`livecore.store` ports and the server's tables on PostgreSQL, for one or
several server processes on one database (docs/deployment.md).

Concurrency model: the commands are synchronous functions over the port, so each transaction holds one
synchronous psycopg 3 connection from start to end. In the server it runs on the event loop's thread, in
a greenlet whose waits for PostgreSQL are awaited on the loop
(:mod:`~livecore_server.storage.postgres_bridge`): the loop goes on serving other requests meanwhile,
and no worker thread takes turns with it for the GIL.

A game's writes hold its lock, alone or shared with the writes of other players
(:meth:`PostgresStore.run_async`), and run at READ COMMITTED: two sends racing past a daily limit, or two
debits of one balance, wait for each other's lock instead. Writes outside a game run at
SERIALIZABLE: two that would interleave into a result no serial order gives make one of them fail with a
serialization error instead, which :meth:`PostgresStore.run` retries.

Rows have the SQLite store's layout (timestamps in BIGINT milliseconds, JSON read back as its text), so
the row <-> record conversions are :mod:`livecore_server.storage.rows`' own. The statements are the SQL
ports' (:mod:`livecore_server.storage.sql`), shared with SQLite (with the same ordering rules);
``Postgres...`` port subclasses hold the few where the dialects differ, and answer reads from a commit
write's reads ahead.

What several processes share lives here: idempotency records, the outbox and deliveries (claimed with
``FOR UPDATE SKIP LOCKED``, :mod:`~livecore_server.storage.sql.webhooks`), rate-limit buckets
(:mod:`livecore_server.ratelimit`), presence, and the claims of scheduled runs.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import logging
import random
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import attrs
import orjson
import psycopg
from psycopg import Pipeline, errors, sql
from psycopg.abc import Buffer
from psycopg.adapt import Loader
from psycopg.pq import TransactionStatus
from psycopg_pool import ConnectionPool, PoolTimeout

from livecore import registry
from livecore.commands.reads import Reads
from livecore.games import Game
from livecore_server.storage.area_storage import AreaStorage
from livecore_server.storage.concurrency import Concurrency, GameAloneNeeded
from livecore_server.storage.history import to_run
from livecore_server.storage.postgres_bridge import (
    BridgedConnection,
    await_only,
    bridged,
    pause,
    refuse_on_the_loop,
    run_bridged,
)
from livecore_server.storage.postgres_prefetch import load
from livecore_server.storage.postgres_transaction import (
    BOARDS_CHANNEL,
    CONFIG_CHANNEL,
    EVENTS_CHANNEL,
    LOCK_ROW,
    PLAYERS_CHANNEL,
    PostgresTransaction,
    board_change,
    row_lock,
)
from livecore_server.storage.records import settings_converter
from livecore_server.storage.schema import POSTGRES, Schema
from livecore_server.storage.sqlport import GAME_CHANGED, BoardListener, cached_game

T = TypeVar("T")


log = logging.getLogger("livecore_server.storage")

# The notification connection is checked with a round trip after this many seconds, and given as long to
# answer: a connection that died without a word (a network partition) is noticed within about 10 s.
WATCH_CHECK_EVERY = 5.0
WATCH_RETRY_MAX = 5.0  # seconds between attempts to listen again, at most (from 0.1 s, doubling)

# pg_advisory_xact_lock key for migrations ("livecore" in ASCII): one per database, so processes
# starting at once apply each migration once, and never race on CREATE EXTENSION.
MIGRATION_LOCK = 0x6C69_7665_636F_7265


def trigram_indexes(declared: Schema) -> dict[str, str]:
    """Name searches of three or more characters (the declared schema's optional indexes: pg_trgm's) by
    name. Built when the pg_trgm extension exists or can be created (``{ops}`` is its operator class,
    schema-qualified: the extension lives in one schema of the database); without it a search scans the
    game's rows."""
    return {
        index.name: declared.create_index(index.name, POSTGRES)
        for index in declared.indexes_in(POSTGRES)
        if index.optional
    }


# A game's writes and the locks they take (docs/architecture.md, "Concurrency"). A write that declares
# the players it acts on shares the game's lock and holds each of its players' for its transaction; any
# other write of the game holds the game's lock alone, so it waits for the declared ones and they for it.
# Each lock is an advisory lock on the hash of its name: the game's exclusive one a session lock taken
# before BEGIN (given back in the COMMIT's round trip), the others transaction locks taken by the first
# statements. All of them run at READ COMMITTED, each statement reading what is committed when it starts.
LOCK_QUEUE = "SELECT pg_advisory_lock(hashtextextended(%s, 0))"
UNLOCK_QUEUE = "SELECT pg_advisory_unlock(hashtextextended(%s, 0))"
SHARE_QUEUE = "SELECT pg_advisory_xact_lock_shared(hashtextextended(?, 0))"
HOLD_QUEUE = "SELECT pg_advisory_xact_lock(hashtextextended(?, 0))"


def player_lock(game_id: str, external_id: str) -> str:
    """The name of a player's lock: what its writes change of it (balance, gifts sent, grants) waits for
    the previous holder's commit."""
    return f"player:{game_id}:{external_id}"


def idempotency_lock(scope: str, key: str) -> str:
    """The name of an idempotency key's lock: a second write with the key waits for the first's commit,
    then reads its record and answers it, where nothing else of the two writes makes them wait."""
    return f"idempotency:{scope}:{key}"


# A transaction that lost a serialization race (or a deadlock) can be run again from the start. So can
# one that hit a unique violation: every command looks a row up before inserting it, so a duplicate key
# means a concurrent transaction inserted it after our snapshot (PostgreSQL reports that as a unique
# violation rather than a serialization failure when the lookup and the insert differ in predicate); run
# again, the command sees that row and answers as it would have serially. And so can one that found
# PostgreSQL's shared lock table full ("out of shared memory", SQLSTATE 53200): SERIALIZABLE keeps each
# transaction's predicate locks there until every transaction that overlapped it has ended, so under a
# burst of writes it fills for moments and empties again (docs/deployment.md, max_pred_locks_per_transaction).
RETRYABLE = (
    errors.SerializationFailure,
    errors.DeadlockDetected,
    errors.UniqueViolation,
    errors.OutOfMemory,
)


@attrs.define
class WriteCounts:
    """This process's write transactions: those committed, and the runs again of one that lost a race
    (by the error's class: SerializationFailure, DeadlockDetected, UniqueViolation, OutOfMemory)."""

    committed: int = 0
    retried: collections.Counter[str] = attrs.Factory(collections.Counter)


class _JsonText(Loader):
    """json/jsonb columns come back as their text (bytes), as SQLite's TEXT columns do: the shared
    conversions parse them with orjson."""

    def load(self, data: Buffer) -> bytes:
        return bytes(data)


def _configure(conn: psycopg.Connection[Any], schema: str | None = None) -> None:
    if schema is not None:
        conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(schema)))
    conn.adapters.register_loader("json", _JsonText)
    conn.adapters.register_loader("jsonb", _JsonText)


def connect(dsn: str, schema: str | None = None) -> psycopg.Connection[Any]:
    conn = psycopg.connect(dsn, autocommit=True)
    _configure(conn, schema)
    return conn


def migrate(conn: psycopg.Connection[Any], areas: AreaStorage, schema: str | None = None) -> list[str]:
    """Apply the pending migrations of the PostgreSQL history of the ``areas`` served, in one transaction,
    under the migration lock, and the name searches' indexes they declare; returns the names applied.

    Several processes may start at once: the first takes the lock and migrates, the others wait for it,
    then find every migration recorded and apply nothing."""
    applied: list[str] = []
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        if schema is not None:
            conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)"
        )
        done = {name for (name,) in conn.execute("SELECT name FROM _migrations")}
        for name, statements in areas.history.postgres:
            if name in done:
                continue
            for statement in to_run(statements, done):
                if isinstance(statement, str):
                    conn.execute(statement)
                else:
                    statement(conn, "%s")
            conn.execute(
                "INSERT INTO _migrations (name, applied_at) VALUES (%s, %s)", (name, time.time_ns() // 10**6)
            )
            applied.append(name)
        _ensure_name_trigrams(conn, trigram_indexes(areas.schema))
    return applied


def _ensure_name_trigrams(conn: psycopg.Connection[Any], indexes: dict[str, str]) -> bool:
    """Build the trigram indexes of the name searches that are missing, if pg_trgm is (or can be made)
    available; whether they all exist."""
    missing = [name for name in indexes if not _exists(conn, name)]
    if not missing:
        return True
    try:
        with conn.transaction():  # a savepoint: a refusal (no privilege, no contrib) leaves the rest
            # In public, not the store's schema: an extension is one per database, and dropping a schema
            # must not take it (and other schemas' indexes) along.
            conn.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public")
    except psycopg.Error:
        pass
    row = conn.execute(
        "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace"
        " WHERE e.extname = 'pg_trgm'"
    ).fetchone()
    if row is None:
        return False
    ops = sql.SQL("{}.gin_trgm_ops").format(sql.Identifier(row[0]))
    for name in missing:
        conn.execute(sql.SQL(indexes[name]).format(ops=ops))
    return True


def _exists(conn: psycopg.Connection[Any], relation: str) -> bool:
    return conn.execute("SELECT to_regclass(%s)", (relation,)).fetchone() != (None,)


class PostgresStore:
    """The ports on one PostgreSQL database (and optionally one schema of it, which is created).

    Connections come from a psycopg_pool pool of ``pool_size``; a command runs on the event loop's thread
    (:meth:`run_async`), its waits for the database awaited there, and at most ``pool_size`` of them run
    at once per process (the others wait for a connection on the loop)."""

    # Several server processes may share the database: nothing here assumes it is the only one.
    single_process = False

    def __init__(
        self,
        dsn: str,
        *,
        schema: str | None = None,
        pool_size: int = 8,
        attempts: int = 8,
        areas: AreaStorage,
    ) -> None:
        self.dsn = dsn
        self.schema = schema
        self.pool_size = pool_size
        self.attempts = attempts
        self._closed = False
        self.tx_ports = areas.opened(POSTGRES)  # what each transaction opens
        self.read_ahead = functools.partial(load, aheads=areas.read_aheads)
        self.read_ahead_tables = areas.read_aheads.tables
        self._commit_listeners: list[Callable[[], None]] = []
        self.player_listeners: list[Callable[[str], None]] = []
        self.board_listeners: list[BoardListener] = []
        self.watch_backend_pid: int | None = None  # the notification connection's (watch)
        # Game settings are read by most commands and change rarely: parsed once per GAME_CACHE_TTL.
        self.games: dict[str, tuple[float, Game]] = {}
        self.subscriptions: dict[str, tuple[float, dict[str, frozenset[str]]]] = {}
        self.config_listeners: list[Callable[[str], None]] = [self._config_changed]
        # The watch's connection while it listens: what already arrived on it is read before a cached
        # API key is trusted (heard_now).
        self._watch_conn: psycopg.AsyncConnection[Any] | None = None
        self._watch_waits = False  # the watch waits for notifications (not for a query's answer)
        self._written: Callable[[str], None] | None = None
        # The tokens of the configuration changes the watch heard last (this process's own among them),
        # and a signal for each one heard.
        self._heard_tokens: collections.deque[str] = collections.deque(maxlen=4096)
        self._config_heard = asyncio.Event()
        conn = connect(dsn, schema)
        try:
            self.applied = migrate(conn, areas, schema)
            self.name_trigrams = all(_exists(conn, name) for name in trigram_indexes(areas.schema))
        finally:
            conn.close()
        self._pool = ConnectionPool(
            dsn,
            min_size=1,
            # One more than the loop runs at once: a synchronous read on the loop's own thread (a test's
            # look at the rows) always finds one, instead of waiting for a connection that only the loop
            # it holds up could give back.
            max_size=pool_size + 1,
            kwargs={"autocommit": True},
            connection_class=BridgedConnection,
            configure=functools.partial(_configure, schema=schema),
            name="livecore",
            open=True,
        )
        # What a process's loop may run at once: as many as there are connections, so that taking one
        # never waits (on the loop's thread, that wait would stop the loop that gives them back).
        self._slots: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None
        self.write_counts = WriteCounts()

    @property
    def closed(self) -> bool:
        return self._closed

    def start(self) -> None:
        """Nothing runs in the background: the pool is open from the start."""

    def scrub_journal(self) -> None:
        """Nothing to do from here: a row's earlier versions stay until VACUUM reclaims them."""

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._pool.close()

    def clear_caches(self) -> None:
        self.games.clear()
        self.subscriptions.clear()

    def on_config_changed(self, listener: Callable[[str], None]) -> None:
        """Call ``listener`` with what a transaction changes of the configuration: this process's as it
        changes it (on the transaction's thread) and again once it commits, every other process's as
        :meth:`watch` hears it (on the event loop)."""
        self.config_listeners.append(listener)

    def _config_changed(self, what: str) -> None:
        if what.startswith(GAME_CHANGED):
            game_id = what.removeprefix(GAME_CHANGED)
            self.games.pop(game_id, None)
            self.subscriptions.pop(game_id, None)

    def _config_committed(self, changes: Iterable[str]) -> None:
        for what in changes:
            for listener in self.config_listeners:
                listener(what)

    def heard_now(self) -> None:
        """Hear what has already arrived on the watch's connection, without waiting: a change another
        process committed before this process's request began is applied before the request trusts a
        cached copy, even if the watch's task has not run since it arrived."""
        conn, written = self._watch_conn, self._written
        if conn is None or written is None or not self._watch_waits:
            return
        try:
            conn.pgconn.consume_input()
            while (notify := conn.pgconn.notifies()) is not None:
                self._heard(notify.relname.decode(), notify.extra.decode(), written)
        except psycopg.Error:
            return  # the watch finds out, and says so

    def on_events_committed(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` (on the caller's thread or, for :meth:`run_async`, on the event loop) after
        every commit that wrote events to the outbox."""
        self._commit_listeners.append(listener)

    def on_player_written(self, listener: Callable[[str], None]) -> None:
        """Call ``listener`` with the id of every player row a transaction writes, as it writes it (on
        the transaction's thread)."""
        self.player_listeners.append(listener)

    def on_board_changed(self, listener: BoardListener) -> None:
        """Call ``listener(board_id, version, player_id or None)`` on the event loop for each board
        change any process commits, as :meth:`watch` hears it."""
        self.board_listeners.append(listener)

    async def watch(self, written: Callable[[str], None], watching: Callable[[bool], None]) -> None:
        """LISTEN on :data:`PLAYERS_CHANNEL`, :data:`BOARDS_CHANNEL`, :data:`CONFIG_CHANNEL` and
        :data:`EVENTS_CHANNEL` from one connection of its own, outside the pool: tell ``written`` each
        player id that arrives (every transaction that writes a player row sends one, delivered when it
        commits: :meth:`SqlPlayers.update`), the board listeners (:meth:`on_board_changed`) each board
        change (:meth:`PostgresTransaction.board_changed`), the config listeners
        (:meth:`on_config_changed`) each change of keys, settings and endpoints, and the commit listeners
        (:meth:`on_events_committed`) each commit that wrote events.
        ``watching(True)`` once it listens; on any failure ``watching(False)``, then it listens again
        (0.1 s later, doubling up to WATCH_RETRY_MAX), since writes may go unheard until it does."""
        retry = 0.1
        lost = False  # a loss was logged, and listening has not resumed since

        def listening() -> None:
            nonlocal retry, lost
            watching(True)
            log.info("listening for player-row and board notifications%s", " again" if lost else "")
            retry, lost = 0.1, False

        while True:
            try:
                await self._listen(written, listening)
            except Exception as exc:  # whatever it was, writes may now go unheard
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    # Stopping (a library turned the cancellation into an error of its own): stop.
                    raise asyncio.CancelledError from exc
                watching(False)
                if not lost:
                    log.warning(
                        "notifications lost (%s: %s); until they are back, heartbeats read a player again"
                        " after player_cache_ttl, board streams end (to reconnect), API keys are read every"
                        " request, game settings and webhook subscriptions are kept for a second at most,"
                        " and the webhook dispatcher looks for work every second",
                        type(exc).__name__,
                        exc,
                    )
                    lost = True
            else:
                raise AssertionError("listening ends only by an error or a cancellation")
            await asyncio.sleep(retry)
            retry = min(2 * retry, WATCH_RETRY_MAX)

    async def _listen(self, written: Callable[[str], None], listening: Callable[[], None]) -> None:
        # asyncio.timeout, not wait_for: on Python 3.11 wait_for loses a cancellation that arrives as
        # its awaitable completes, and this task would then never stop.
        async with asyncio.timeout(2 * WATCH_CHECK_EVERY):
            conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
        async with conn:
            for channel in (PLAYERS_CHANNEL, BOARDS_CHANNEL, CONFIG_CHANNEL, EVENTS_CHANNEL):
                await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
            self.watch_backend_pid = conn.info.backend_pid
            self._written = written
            self._watch_conn = conn
            try:
                listening()
                while True:
                    # heard_now reads the connection only while it waits for notifications: a query's
                    # answer read from under it would leave the query waiting for its timeout.
                    self._watch_waits = True
                    async for notify in conn.notifies(timeout=WATCH_CHECK_EVERY):
                        self._heard(notify.channel, notify.payload, written)
                    self._watch_waits = False
                    async with asyncio.timeout(WATCH_CHECK_EVERY):
                        await conn.execute("SELECT 1")
            finally:
                self._watch_waits = False
                self._watch_conn = None
                self._config_heard.set()  # nobody waits for what is not heard now

    def _heard(self, channel: str, payload: str, written: Callable[[str], None]) -> None:
        if channel == BOARDS_CHANNEL:
            self._board_heard(payload)
        elif channel == CONFIG_CHANNEL:
            what, _, token = payload.partition(" ")
            self._config_committed((what,))
            self._heard_tokens.append(token)
            self._config_heard.set()
        elif channel == EVENTS_CHANNEL:
            self._events_committed()
        else:
            written(payload)

    def _board_heard(self, payload: str) -> None:
        board_id, version, player_id = board_change(payload)
        for listener in self.board_listeners:
            try:
                listener(board_id, version, player_id)
            except Exception:  # a listener's failure is its own: the others still hear
                log.exception("a board listener failed")

    def cached_game(self, game_id: str) -> Game | None:
        return cached_game(self.games, game_id)

    @contextmanager
    def transaction(
        self, *, write: bool = True, queue: str | None = None, row_locked: bool = False
    ) -> Iterator[PostgresTransaction]:
        """One unit of work on one connection: BEGIN ... COMMIT, or ROLLBACK when the block raises.

        Writes run at READ COMMITTED when they hold the locks of what they change: ``row_locked`` work
        locks every row it changes itself (``FOR UPDATE``, the webhook dispatcher), and ``queue`` names a
        game whose lock the write holds alone (a session advisory lock taken before BEGIN) while every
        other write of the game holds it too, shared or alone; each statement then reads what is
        committed when it starts, and no write changes the game's rows meanwhile. Other writes (outside a
        game: the CLI, housekeeping) are SERIALIZABLE (a serialization failure surfaces from a statement
        or from the COMMIT). Reads are one consistent READ ONLY snapshot.
        Write transactions run in pipeline mode (:meth:`_pipelined`): their BEGIN, their unread writes,
        their COMMIT and the queue's unlock take no round trip of their own."""
        if self._closed:
            raise RuntimeError("the store is closed")
        if write or queue is not None:
            refuse_on_the_loop()
        conn = self._taken()
        # Whether the queue's lock may be held: then it is given back if the transaction does not end
        # with the COMMIT that gives it back. (Should its taking have failed, unlocking a lock not held
        # only draws a warning in PostgreSQL's log.)
        locked = False
        try:
            if not write:
                begin = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
            elif row_locked or queue is not None:
                begin = "BEGIN ISOLATION LEVEL READ COMMITTED"
            else:
                begin = "BEGIN ISOLATION LEVEL SERIALIZABLE"
            if write:
                locked = queue is not None
                with self._pipelined(conn, begin, queue) as tx:
                    yield tx
                locked = False  # given back right after the COMMIT, in the same round trip
                # Before the write is answered: a copy this process read between the change and the
                # COMMIT is the old one.
                self._config_committed(tx.config_changes)
            else:
                if queue is not None:
                    conn.execute(LOCK_QUEUE, (queue,))
                    locked = True
                conn.execute(begin)
                with self._ended(conn):
                    yield PostgresTransaction(conn, self)  # type: ignore[abstract]
                conn.execute("COMMIT")
        finally:
            if locked and not conn.closed:
                try:
                    conn.execute(UNLOCK_QUEUE, (queue,))
                except psycopg.Error:
                    conn.close()  # closing the session releases the lock; the pool replaces it
            self._pool.putconn(conn)

    @contextmanager
    def _pipelined(
        self, conn: psycopg.Connection[Any], begin: str, queue: str | None
    ) -> Iterator[PostgresTransaction]:
        """A write transaction in pipeline mode: the queue's lock, BEGIN and the first statement travel
        together (the backend runs BEGIN as soon as it holds the lock, so the snapshot still comes after
        the previous holder's commit, and the wait for the queue costs no round trip of its own); the
        writes nobody reads the answer of (``write``) travel with the next statement or the COMMIT.
        Every other statement waits for its answer as usual. The queue's lock is given back right after
        a successful COMMIT, in its round trip (after a failed one PostgreSQL skips it, and the caller
        gives it back)."""
        try:
            with conn.pipeline() as pipeline:
                if queue is not None:
                    conn.execute(LOCK_QUEUE, (queue,))
                    _end_implicit_transaction(pipeline)
                conn.execute(begin)
                with self._ended(conn):
                    tx = PostgresTransaction(conn, self, pipeline)  # type: ignore[abstract]
                    yield tx
                    if tx.emitted:
                        tx.notify(EVENTS_CHANNEL, "")
                    tx.send_held()
                commit = conn.execute("COMMIT")
                if queue is not None:
                    conn.execute(UNLOCK_QUEUE, (queue,))
            # _ended may not have seen a swallowed error yet (its answer still on the way): PostgreSQL
            # then answers the COMMIT of the failed transaction with ROLLBACK. Say so.
            if commit.statusmessage == "ROLLBACK":
                raise RuntimeError("a statement of the transaction failed; it was rolled back")
        except psycopg.Error:
            # The pipeline skipped what followed the failure, Parse messages included, while psycopg may
            # count those statements as prepared on this connection: it is not used again (the pool
            # replaces it). Rare: a deadlock, a unique key taken by a concurrent write, a lost server.
            conn.close()
            raise
        finally:
            # The block raised while writes were still on their way (they ran, then the ROLLBACK queued
            # behind them), or one of them failed and the pipeline skipped what followed it: whatever
            # is left of the transaction ends here.
            if not conn.closed and conn.info.transaction_status is not TransactionStatus.IDLE:
                with contextlib.suppress(psycopg.Error):
                    conn.execute("ROLLBACK")

    @contextmanager
    def _ended(self, conn: psycopg.Connection[Any]) -> Iterator[None]:
        """Roll back when the block raises; refuse to commit a transaction a swallowed error broke."""
        try:
            yield
        except BaseException:
            if not conn.closed:
                # A lost connection fails the ROLLBACK too: the block's error is the one to raise.
                with contextlib.suppress(psycopg.Error):
                    conn.execute("ROLLBACK")
            raise
        if conn.info.transaction_status is TransactionStatus.INERROR:
            # A statement failed and the block swallowed the error: PostgreSQL would turn the COMMIT
            # into a silent ROLLBACK. Say so instead.
            conn.execute("ROLLBACK")
            raise RuntimeError("a statement of the transaction failed; it was rolled back")

    def _attempt(
        self,
        fn: Callable[[PostgresTransaction], T],
        write: bool,
        queue: str | None,
        row_locked: bool,
        reads: Callable[[PostgresTransaction], Reads] | None = None,
        concurrency: Concurrency = Concurrency.QUEUED,
    ) -> tuple[T, bool]:
        """Run ``fn`` in a transaction, again (from the start) when it loses a race; returns its result
        and whether it emitted events. ``reads``: what ``fn`` will read, read ahead in one round trip;
        ``concurrency``: what else of ``queue`` it waits for (:meth:`run_async`)."""
        concurrent = concurrency is not Concurrency.QUEUED and write and queue is not None
        alone = False  # a run found it needs its game alone: the runs after hold it
        for attempt in range(self.attempts):
            try:
                if concurrent:
                    assert queue is not None
                    with self.transaction(row_locked=True) as tx:
                        declared = None if reads is None else _declared(reads, tx)
                        if alone and declared is not None:
                            declared = attrs.evolve(declared, alone=True)
                        tx.alone = _lock(tx, queue, declared, concurrency)
                        if declared is not None:
                            tx.prefetch(declared)
                        result = fn(tx)
                else:
                    with self.transaction(write=write, queue=queue, row_locked=row_locked) as tx:
                        declared = None if reads is None else _declared(reads, tx)
                        if declared is not None:
                            tx.prefetch(declared)
                        result = fn(tx)
                if write:
                    self.write_counts.committed += 1
                return result, tx.emitted
            except (*RETRYABLE, GameAloneNeeded) as exc:
                if write:
                    self.write_counts.retried[type(exc).__name__] += 1
                if attempt == self.attempts - 1:
                    raise
                if isinstance(exc, GameAloneNeeded):
                    alone = True
                    continue  # no race lost: nothing to back off from
                # Jittered backoff, so two losers of the same race do not meet again.
                pause(random.uniform(0.5, 1.5) * 0.001 * 2**attempt)
        raise AssertionError("unreachable")

    def run(
        self,
        fn: Callable[[PostgresTransaction], T],
        *,
        write: bool = True,
        queue: str | None = None,
        row_locked: bool = False,
    ) -> T:
        """Run ``fn`` in a transaction on the calling thread (CLI, tests, tools)."""
        result, emitted = self._attempt(fn, write, queue, row_locked)
        if emitted:
            self._events_committed()
        return result

    async def run_async(
        self,
        fn: Callable[[PostgresTransaction], T],
        *,
        write: bool = True,
        queue: str | None = None,
        row_locked: bool = False,
        reads: Callable[[PostgresTransaction], Reads] | None = None,
        concurrency: Concurrency = Concurrency.QUEUED,
    ) -> T:
        """Run ``fn`` in a transaction on the loop, awaiting its statements (:meth:`_bridged`). A write
        reads ahead what its ``reads`` declare (:mod:`~livecore_server.storage.postgres_prefetch`).
        Writes of one ``queue`` (a game's) wait for each other as their ``concurrency`` says: a queued
        one holds the game's lock alone; the others run beside each other, sharing it, each holding the
        locks of the players its ``reads`` declare (``PLAYERS``) or none (``SHARED``)."""
        changed: list[str] = []  # the tokens of the configuration changes fn's run that committed made

        def run(tx: PostgresTransaction) -> T:
            changed.clear()  # a run that failed (and runs again) committed nothing
            at = len(tx.config_tokens)
            result = fn(tx)
            changed.extend(tx.config_tokens[at:])
            return result

        outcome: tuple[T, bool] = await self._bridged(
            self._attempt,
            run,
            write,
            queue,
            row_locked,
            reads if write and not row_locked else None,
            concurrency,
        )
        result, emitted = outcome
        if emitted:
            self._events_committed()
        if changed:
            await self._heard_back(changed)
        return result

    async def _heard_back(self, tokens: list[str]) -> None:
        """Wait (a second at most) until this process's watch has heard back the configuration changes
        it committed: PostgreSQL signals every listening session as a change commits, so by then the
        other processes' sessions have been told too, and a request that one of them begins after this
        write is answered applies the change first (heard_now)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(1.0):
                while self._watch_conn is not None and not set(tokens) <= set(self._heard_tokens):
                    self._config_heard.clear()
                    await self._config_heard.wait()

    async def read(self, fn: Callable[[PostgresTransaction], T]) -> T:
        return await self.run_async(fn, write=False)

    async def lookup(self, fn: Callable[[PostgresTransaction], T | None]) -> T | None:
        """A usually-missing record: its statements run without a transaction around them (each reads
        what is committed when it runs), saving the BEGIN and COMMIT round trips."""
        return await self.autocommit(fn)

    async def autocommit(self, fn: Callable[[PostgresTransaction], T]) -> T:
        """Run ``fn`` with each statement a transaction of its own (READ COMMITTED): for single statements
        that must not fail on a concurrent update of a hot row (rate-limit buckets), since PostgreSQL
        re-reads the row's latest version under its lock instead."""

        def run() -> T:
            with self.connection() as conn:
                return fn(PostgresTransaction(conn, self))  # type: ignore[abstract]

        return await self._bridged(run)

    async def _bridged(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the loop's thread once a connection is free for it, its waits for the
        database awaited on the loop (:mod:`~livecore_server.storage.postgres_bridge`)."""
        if self._closed:
            raise RuntimeError("the store is closed")
        loop = asyncio.get_running_loop()
        if self._slots is None or self._slots[0] is not loop:
            self._slots = (loop, asyncio.Semaphore(self.pool_size))
        async with self._slots[1]:
            return await run_bridged(fn, *args)

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection of the pool, in autocommit (each statement a transaction of its own)."""
        conn = self._taken()
        try:
            yield conn
        finally:
            self._pool.putconn(conn)

    def _taken(self) -> BridgedConnection:
        """A connection of the pool, given back with ``putconn``. On the event loop (in a greenlet of
        :meth:`_bridged`) one is free whenever a transaction gets here, but for a moment while the pool
        opens one, or for as long as PostgreSQL does not accept connections: that wait is a thread's,
        so the loop goes on serving (its health checks, its other requests) meanwhile."""
        if not bridged():
            return self._pool.getconn()
        try:
            # psycopg_pool refuses a timeout of 0 outright: a millisecond is "if one is ready".
            return self._pool.getconn(timeout=0.001)
        except PoolTimeout:
            return await_only(self._taken_on_a_thread())

    async def _taken_on_a_thread(self) -> BridgedConnection:
        taking = asyncio.get_running_loop().run_in_executor(None, self._pool.getconn)
        try:
            return await asyncio.shield(taking)
        except asyncio.CancelledError:
            taking.add_done_callback(self._give_back_unwanted)
            raise

    def _give_back_unwanted(self, taking: asyncio.Future[BridgedConnection]) -> None:
        """The request that asked for this connection went away while a thread waited for it."""
        if not taking.cancelled() and taking.exception() is None:
            self._pool.putconn(taking.result())

    def _events_committed(self) -> None:
        for listener in self._commit_listeners:
            listener()

    def put_game(self, game: Game, studio_id: str | None = None) -> None:
        """Create or replace a game row (the manifest's ``apply`` comes later; tests use this). Like
        ``apply``, once a remembered section was enabled the game keeps it in ``ever_enabled``."""
        settings = orjson.dumps(settings_converter.unstructure(game.settings)).decode()
        now = time.time_ns() // 10**6
        installed = registry.installed()
        keys = registry.remembered(installed)
        flags = [f"{key}_ever_enabled" for key in keys]
        ever = [key in game.ever_enabled | registry.remembered_on(game.settings, installed) for key in keys]
        with self.transaction() as tx:
            tx.conn.execute(
                "INSERT INTO games (id, studio_id, key, name, settings, created_at, updated_at"
                + "".join(f", {flag}" for flag in flags)
                + ") VALUES (%s, %s, %s, %s, %s, %s, %s"
                + ", %s" * len(flags)
                + ") ON CONFLICT (id) DO UPDATE SET name = excluded.name, settings = excluded.settings,"
                " updated_at = excluded.updated_at"
                + "".join(f", {flag} = games.{flag} OR excluded.{flag}" for flag in flags),
                (game.id, studio_id or game.studio_id, game.key, game.name, settings, now, now, *ever),
            )
        self.games.pop(game.id, None)


def _declared(reads: Callable[[PostgresTransaction], Reads], tx: PostgresTransaction) -> Reads | None:
    """What a write declared it will read; None when the declaration failed (a bug of its route's: the
    write then reads as it runs, and holds its game's lock alone)."""
    try:
        return reads(tx)
    except psycopg.Error:
        raise
    except Exception:
        log.exception("declaring the reads of a write failed; it reads as it runs")
        return None


def _lock(tx: PostgresTransaction, queue: str, declared: Reads | None, concurrency: Concurrency) -> bool:
    """A concurrent write's locks, before it reads anything it decides on: its game's shared, its
    idempotency key's, the shared rows' it declares and (``PLAYERS``) each of its players', in one sorted
    order for every write (so two of them never wait for each other in a circle), sent with the reads
    ahead that follow. A write whose declaration failed holds the game's lock alone: it could not name
    its key or its players; so does one that declares it changes rows its game's other writes share
    (``Reads.alone``). Whether it holds the game alone."""
    if declared is None or declared.alone:
        tx.send(HOLD_QUEUE, (queue,))
        return True
    tx.send(SHARE_QUEUE, (queue,))
    names = [idempotency_lock(scope, key) for scope, key in declared.idempotency]
    names += [row_lock(kind, row_id) for kind, row_id in declared.rows]
    if concurrency is Concurrency.PLAYERS:
        players = {*declared.players, *(player for read in declared.areas for player in read.players)}
        names += [player_lock(game_id, external_id) for game_id, external_id in players]
    for name in sorted(names):
        tx.send(LOCK_ROW, (name,))
    return False


def _end_implicit_transaction(pipeline: Pipeline) -> None:
    """End the implicit transaction the statements queued so far run in, without waiting for them.

    In pipeline mode everything up to a Sync message is one transaction unless it says otherwise, and a
    BEGIN in it continues it, snapshot included: so a BEGIN queued right after the queue's lock would
    take the snapshot of the lock's statement, from before the wait, and could not set its isolation
    level. A Sync in between ends it. psycopg's public ``Pipeline.sync()`` also waits for the answers,
    which is the round trip this saves, so this queues the Sync through psycopg's own (private) method,
    keeping its bookkeeping of expected results right; should a psycopg release drop it, the Sync is
    sent the public way (a round trip more, nothing else changes)."""
    enqueue = getattr(pipeline, "_enqueue_sync", None)
    if enqueue is not None:
        enqueue()
    else:
        pipeline.sync()
