"""The SQLite store: the :mod:`livecore.store` ports plus the server's configuration tables.

Concurrency model: one connection, used only from the event loop thread, and every command runs to the
end of its transaction without awaiting. Writes are therefore serialized inside the process (no
"database is locked" between our own requests) and a transaction can never interleave with another.
WAL mode lets a second process (``livecore-server apply`` against a running server) read and write
alongside, with ``busy_timeout`` covering the brief write overlap. SQLite statements on indexed rows take
microseconds, so running them on the loop is cheaper than hopping to a thread per query.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

import attrs
import sqlite_utils

from livecore.commands.reads import Reads
from livecore.errors import STORAGE_UNAVAILABLE, LivecoreError
from livecore.games import Game
from livecore_server.storage.area_storage import AreaStorage
from livecore_server.storage.concurrency import Concurrency
from livecore_server.storage.history import Migration, to_run
from livecore_server.storage.read_ahead import ReadAheads
from livecore_server.storage.schema import SQLITE
from livecore_server.storage.sql import OpenedPorts, open_ports
from livecore_server.storage.sqlite_prefetch import load
from livecore_server.storage.sqlport import GAME_CHANGED, BoardListener, Insert, SqlTransaction, cached_game

T = TypeVar("T")

# Statically a ServerTransaction: it opens the ports of the areas its store serves, the built-in ones among
# them (livecore_server.registry.storage()). mypy cannot see ports opened from the areas' declarations, so
# it takes the transaction for abstract where it is made (``type: ignore[abstract]``), and
# tests/server/test_sql_ports.py checks that every port is opened.
if TYPE_CHECKING:
    from livecore_server.storage.server_transaction import ServerTransaction as Served
else:
    Served = object

log = logging.getLogger("livecore_server.storage")

# Seconds between two looks for another process's commit (SqliteStore.watch): a running server sends what
# an operator command wrote within this, plus a dispatcher pass.
OTHERS_EVERY = 0.25


def connect(path: str) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    # NORMAL in WAL mode: a commit is durable against process crashes; only an OS crash or power loss
    # can lose the last transactions, never corrupt the database.
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA busy_timeout=5000")
    conn.execute("PRAGMA foreign_keys=ON")
    # Keep hot pages in memory (64 MiB) and read the file through mmap instead of read() calls.
    conn.execute("PRAGMA cache_size=-65536")
    conn.execute("PRAGMA mmap_size=268435456")
    # After a checkpoint resets the WAL, shrink the file back to this size rather than keep its peak.
    conn.execute("PRAGMA journal_size_limit=67108864")
    # Deleted and overwritten content is zeroed in its page, not left in free space: a cleared secret's
    # ciphertext leaves the file (docs/server.md#secrets-at-rest; what it costs is measured there).
    conn.execute("PRAGMA secure_delete=ON")
    return conn


def migrate(conn: sqlite3.Connection, history: Sequence[Migration]) -> list[str]:
    """Apply the pending migrations of ``history`` (the SQLite history of the areas served,
    :class:`~livecore_server.storage.area_storage.AreaStorage`), in its order; returns the names applied."""
    db = sqlite_utils.Database(conn)
    if "_migrations" not in db.table_names():
        conn.execute("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at INTEGER)")
    done = {name for (name,) in conn.execute("SELECT name FROM _migrations")}
    applied = []
    for name, statements in history:
        if name in done:
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have applied it between our read and our lock.
            if conn.execute("SELECT 1 FROM _migrations WHERE name = ?", (name,)).fetchone():
                conn.execute("ROLLBACK")
                continue
            for statement in to_run(statements, done):
                if isinstance(statement, str):
                    conn.execute(statement)
                else:
                    statement(conn, "?")
            conn.execute(
                "INSERT INTO _migrations (name, applied_at) VALUES (?, strftime('%s','now') * 1000)", (name,)
            )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        applied.append(name)
    return applied


class DatabaseFileLost(LivecoreError):
    """A write refused because the store's file is no longer at its path (503 ``storage_unavailable``)."""

    def __init__(self) -> None:
        super().__init__(
            STORAGE_UNAVAILABLE,
            "The server's database file was moved, deleted or replaced while it ran; nothing was"
            " written. The operator must restart the server.",
        )


def _identity(path: str) -> tuple[int, int] | None:
    """The device and inode of the file at ``path`` (None where there is none: an in-memory database,
    or a file that is gone)."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return st.st_dev, st.st_ino


class SqliteStore:
    # One server process per database file (a second process may only apply manifests or run operator
    # commands): the dispatcher may take back webhook claims left by an earlier run of the server.
    single_process = True

    def __init__(self, path: str, areas: AreaStorage) -> None:
        self.path = path
        self.conn = connect(path)
        self._file = _identity(path)
        self._file_lost = False
        migrate(self.conn, areas.history.sqlite)
        self._tx = SqliteTransaction(  # type: ignore[abstract]
            self.conn, areas.opened(SQLITE), areas.read_aheads
        )
        self.player_listeners = self._tx.player_listeners
        self.on_config_changed(self._config_changed)
        self._checkpointer: threading.Thread | None = None
        self._stop_checkpoints = threading.Event()
        self._truncate = threading.Event()
        # A TRUNCATE checkpoint is due once the transaction in progress commits (scrub_journal).
        self._scrub_after_commit = False
        self._closed = False
        self._commit_listeners: list[Callable[[], None]] = []
        self._board_listeners: list[BoardListener] = []
        self._group: _Group | None = None
        self._reads_waiting = 0
        # The event loop serving this store and its thread (start, or the first run_async): the one
        # connection is theirs.
        self._serving: tuple[asyncio.AbstractEventLoop, int] | None = None
        self._connection_watchers: list[Callable[[sqlite3.Connection], None]] = []

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        self._closed = True
        self._serving = None
        self._stop_checkpoints.set()
        if self._checkpointer is not None:
            self._checkpointer.join()
        self.conn.close()

    def clear_caches(self) -> None:
        self._tx.game_cache.clear()
        self._tx.subscription_cache.clear()

    def heard_now(self) -> None:
        pass

    def on_config_changed(self, listener: Callable[[str], None]) -> None:
        """Call ``listener`` with what each transaction changes of the configuration, as it changes it
        (:meth:`SqlTransaction.config_changed`): one serving process per file, whose reads all go through
        its one connection, so what is read after that sees the change."""
        self._tx.config_listeners.append(listener)

    def _config_changed(self, what: str) -> None:
        if what.startswith(GAME_CHANGED):
            game_id = what.removeprefix(GAME_CHANGED)
            self._tx.game_cache.pop(game_id, None)
            self._tx.subscription_cache.pop(game_id, None)

    def on_connection(self, watch: Callable[[sqlite3.Connection], None]) -> None:
        """Call ``watch`` with each connection of the store: the event loop's now, the checkpointer's when
        it opens (the statement count of a benchmark, livecore_server/statement_tally.py)."""
        self._connection_watchers.append(watch)
        watch(self.conn)

    def start(self) -> None:
        """Background work of a serving store: the WAL checkpointer. Called on the loop that serves it,
        which :meth:`run` hands other threads' transactions to."""
        with contextlib.suppress(RuntimeError):  # no loop: nothing to hand to
            self._serving = (asyncio.get_running_loop(), threading.get_ident())
        self.start_checkpointer()

    def scrub_journal(self) -> None:
        """Values were cleared: the WAL, which still holds the pages they were on, is emptied (a TRUNCATE
        checkpoint). By the checkpointer when it runs, tried again until no reader keeps it from
        finishing; its checkpoint waits for a write in progress to commit, and takes that write's pages
        too. Without a checkpointer, now, or once the transaction in progress commits (a checkpoint
        cannot run inside it)."""
        if self._checkpointer is not None:
            self._truncate.set()
        elif self.conn.in_transaction:
            self._scrub_after_commit = True
        else:
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def _committed_scrub(self) -> None:
        """After a COMMIT: the checkpoint :meth:`scrub_journal` asked for inside it."""
        if self._scrub_after_commit:
            self._scrub_after_commit = False
            self.scrub_journal()

    def start_checkpointer(self, every: float = 0.25) -> None:
        """Copy WAL pages into the database from a thread of its own, ahead of SQLite's own checkpoint.

        SQLite's automatic checkpoint runs in the commit that crosses 1,000 WAL pages and copies them
        (with an fsync) while that request waits. A background PASSIVE checkpoint alone cannot replace it:
        under sustained writes it never reaches the end of the WAL, so the WAL is never reset and grows
        without bound. Together they work: the thread has already copied almost every page when the
        automatic checkpoint runs, so the request pays little, and the automatic one completes and lets
        the WAL start over.
        """

        def run() -> None:
            conn = sqlite3.connect(self.path, timeout=5)
            for watch in self._connection_watchers:
                watch(conn)
            try:
                while not self._stop_checkpoints.wait(every):
                    try:
                        if not self._truncate.is_set():
                            conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
                            continue
                        self._truncate.clear()
                        busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
                        if busy:
                            self._truncate.set()  # a reader held it back: again at the next turn
                    except sqlite3.OperationalError:
                        if _identity(self.path) != self._file:
                            return  # the file is gone: the next write says so (_refuse_if_file_lost)
                        raise
            finally:
                conn.close()

        self._checkpointer = threading.Thread(target=run, name="sqlite-checkpoint", daemon=True)
        self._checkpointer.start()

    def on_events_committed(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` after every commit that wrote events to the outbox, and, while :meth:`watch`
        runs, after another process's commits (an operator command's sample, replay or unpause)."""
        self._commit_listeners.append(listener)

    def on_player_written(self, listener: Callable[[str], None]) -> None:
        """Call ``listener`` with the id of every player row a transaction writes, as it writes it."""
        self.player_listeners.append(listener)

    def on_board_changed(self, listener: BoardListener) -> None:
        """Call ``listener(board_id, version, player_id or None)`` for each board change, after the
        COMMIT of its transaction (or its commit group), on the thread that committed it (the event
        loop's, when serving)."""
        self._board_listeners.append(listener)

    async def watch(self, written: Callable[[str], None], watching: Callable[[bool], None]) -> None:
        """Every player and board write to the database is this process's (one serving process per file;
        operator commands write no players or boards): each player row reaches ``on_player_written`` as
        it is made, each board change reaches ``on_board_changed`` as its transaction commits. A read
        sees an open commit group's writes and waits for it to settle (:meth:`lookup`), so nothing older
        than a write can be cached after it.

        Operator commands in other processes do write deliveries (a sample, a replay, an unpause): until
        cancelled, this looks every OTHERS_EVERY seconds whether another connection committed (``PRAGMA
        data_version`` of the loop's connection, which its own commits leave unchanged: a few
        microseconds, no I/O) and then tells the commit listeners, so that the dispatcher passes."""
        watching(True)
        seen: int | None = None
        while not self._closed:
            now: int | None = seen
            with contextlib.suppress(sqlite3.Error):  # the connection's own requests say what is wrong
                now = int(self.conn.execute("PRAGMA data_version").fetchone()[0])
            if seen is not None and now != seen:
                self._events_committed()
            seen = now
            await asyncio.sleep(OTHERS_EVERY)

    def cached_game(self, game_id: str) -> Game | None:
        return cached_game(self._tx.game_cache, game_id)

    @contextmanager
    def transaction(self, *, write: bool = True) -> Iterator[SqliteTransaction]:
        """One unit of work, synchronously. Inside an open commit group it is a savepoint of the group's
        transaction (committed with the group); otherwise a transaction of its own."""
        if self._group is not None:
            with self._savepoint() as tx:
                yield tx
            return
        # IMMEDIATE takes the write lock up front, so a write never fails half-way on a lock upgrade.
        self.conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        tx = self._tx
        tx.emitted = False
        tx.board_changes.clear()
        try:
            yield tx
            if write:
                self._refuse_if_file_lost()
        except BaseException:
            self.conn.execute("ROLLBACK")
            tx.board_changes.clear()
            raise
        self.conn.execute("COMMIT")
        self._committed_scrub()
        if tx.emitted:
            self._events_committed()
        self._boards_committed()

    def run(
        self,
        fn: Callable[[SqliteTransaction], T],
        *,
        write: bool = True,
        queue: str | None = None,
        row_locked: bool = False,
    ) -> T:
        """``queue`` and ``row_locked`` mean nothing here: SQLite runs one write at a time. Called on
        another thread than the loop serving the store (a test's or a tool's synchronous code, run off the
        loop as PostgreSQL requires), the transaction is handed to that loop, which owns the connection
        and may have a commit group open on it; the calling thread waits for the answer."""
        serving = self._serving
        if serving is not None and serving[1] != threading.get_ident() and serving[0].is_running():
            return asyncio.run_coroutine_threadsafe(self.run_async(fn, write=write), serving[0]).result()
        with self.transaction(write=write) as tx:
            return fn(tx)

    # --- group commit -------------------------------------------------------------------------------
    #
    # Requests are served on one event loop, one after another. Giving each its own COMMIT makes the
    # commit (and the dispatcher pass it wakes) the most expensive part of a write. Instead, writes that
    # arrive in the same loop iteration share one transaction: each runs in its own SAVEPOINT (a refused
    # write rolls back only itself), and the group commits once, at the next turn of the loop. Every
    # response of the group waits for that COMMIT, so nothing is acknowledged before it is durable, and a
    # failed COMMIT fails every request of the group. Reads wait for an open group to commit, so they never
    # show data that could still roll back.

    async def run_async(
        self,
        fn: Callable[[SqliteTransaction], T],
        *,
        write: bool = True,
        queue: str | None = None,
        row_locked: bool = False,
        reads: Callable[[SqliteTransaction], Reads] | None = None,
        concurrency: Concurrency = Concurrency.QUEUED,  # SQLite runs one write at a time whatever it is
    ) -> T:
        if self._serving is None:  # used on a loop without start() (a tool's, a test's): the same
            self._serving = (asyncio.get_running_loop(), threading.get_ident())
        if not write:
            await self.settled()
            return self.run(fn, write=False)
        if self._group is None and self._reads_waiting:
            # The reads that waited for the last group run before a new group opens (they were woken
            # first: one turn of the loop lets them read). A chain of writes, each awaited before the
            # next (a rollover's steps), would otherwise starve them.
            await asyncio.sleep(0)
        if self._group is None:
            self.conn.execute("BEGIN IMMEDIATE")
            self._tx.board_changes.clear()
            self._group = _Group(asyncio.get_running_loop().create_future())
            asyncio.get_running_loop().call_soon(self._commit_group)
        group = self._group
        with self._savepoint() as tx:
            # What the write declares is read in fewer statements than its port reads would make
            # (sqlite_prefetch), and forgotten once it is done: the next write reads its own.
            if reads is not None:
                tx.prefetch(reads(tx))
            try:
                result = fn(tx)
            finally:
                tx.prefetched = None
        await asyncio.shield(group.committed)
        return result

    async def read(self, fn: Callable[[SqliteTransaction], T]) -> T:
        """Read committed data: wait out an open commit group, then read on the loop."""
        await self.settled()
        return fn(self._tx)

    async def lookup(self, fn: Callable[[SqliteTransaction], T | None]) -> T | None:
        """A lookup that is usually a miss (an idempotency record, a replay): read at once, and wait out
        an open commit group only when something was found, since it may still roll back."""
        found = fn(self._tx)
        if found is not None and self._group is not None:
            return await self.read(fn)
        return found

    async def settled(self) -> None:
        """Wait until no commit group is open (its data is committed or rolled back)."""
        while self._group is not None:
            self._reads_waiting += 1
            try:
                with contextlib.suppress(Exception):
                    await asyncio.shield(self._group.committed)
            finally:
                self._reads_waiting -= 1

    @contextmanager
    def _savepoint(self) -> Iterator[SqliteTransaction]:
        group = self._group
        assert group is not None
        tx = self._tx
        tx.emitted = False
        changes = len(tx.board_changes)
        self.conn.execute("SAVEPOINT unit")
        try:
            yield tx
        except BaseException:
            self.conn.execute("ROLLBACK TO unit")
            self.conn.execute("RELEASE unit")
            del tx.board_changes[changes:]  # the write's own, rolled back with it
            raise
        self.conn.execute("RELEASE unit")
        group.emitted = group.emitted or tx.emitted

    def _commit_group(self) -> None:
        group, self._group = self._group, None
        assert group is not None
        try:
            self._refuse_if_file_lost()
            self.conn.execute("COMMIT")
        except Exception as exc:  # disk full, I/O error, file lost: nothing of the group was applied
            self.conn.execute("ROLLBACK")
            self._tx.board_changes.clear()
            group.committed.set_exception(exc)
            return
        group.committed.set_result(None)
        self._committed_scrub()
        if group.emitted:
            self._events_committed()
        self._boards_committed()

    def _refuse_if_file_lost(self) -> None:
        """Before each COMMIT: the file at the store's path must still be the database this process
        opened. Moved, deleted or replaced under a running server, the open handle would go on writing
        to a file nobody will read again, and acknowledge writes that are lost. One ``stat`` per commit
        (per commit group when serving) costs about a microsecond."""
        if self._file is None or (not self._file_lost and _identity(self.path) == self._file):
            return
        if not self._file_lost:
            self._file_lost = True
            log.error(
                "the file at %s is no longer the database this process opened (moved, deleted or"
                " replaced): every write is refused with 503 storage_unavailable until the server is"
                " restarted on the right file",
                self.path,
            )
        raise DatabaseFileLost()

    def _events_committed(self) -> None:
        for listener in self._commit_listeners:
            listener()

    def _boards_committed(self) -> None:
        """Tell the board listeners what the transaction (or group) that just committed changed."""
        changes = list(self._tx.board_changes)
        self._tx.board_changes.clear()
        for change in changes:
            for listener in self._board_listeners:
                try:
                    listener(*change)
                except Exception:  # a listener's failure is its own: the commit stands, others hear on
                    log.exception("a board listener failed")


@attrs.define
class _Group:
    committed: asyncio.Future[None]
    emitted: bool = False


class SqliteTransaction(SqlTransaction, Served):
    """The ports on one SQLite connection; valid only inside :meth:`SqliteStore.transaction`."""

    NOT_FANNED_OUT = "fanned_out = 0"  # an INTEGER flag, as the outbox's partial indexes say
    INT_SUM = ""
    SPENDERS_GROUP = "GROUP BY u.player_id HAVING total >= ?"
    MAX_IN_LIST = 500  # SQLite's bound-parameter limit
    FANNED_OUT = "fanned_out = 1"
    GREATEST = "max"

    def __init__(self, conn: sqlite3.Connection, ports: OpenedPorts, aheads: ReadAheads) -> None:
        self.conn = conn
        # The connection's own method: SQLite takes the shared statements' ``?`` placeholders as they are.
        self.read = conn.execute
        self.emitted = False
        self.game_cache = {}
        self.subscription_cache = {}
        self.player_listeners = []
        self.config_listeners = []
        # Board changes of the running transaction (or commit group), told once it commits.
        self.board_changes: list[tuple[str, int, str | None]] = []
        self.aheads = aheads
        self.read_ahead_tables = aheads.tables
        open_ports(self, ports)

    def execute(self, statement: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        self.forget(None)
        return self.conn.execute(statement, params)

    def executemany(self, statement: str, params: Iterable[Sequence[Any]]) -> sqlite3.Cursor:
        self.forget(None)
        return self.conn.executemany(statement, params)

    def change(self, table: str, statement: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        self.forget(table)
        return self.conn.execute(statement, params)

    def write(self, table: str, statement: str, params: Sequence[Any] = ()) -> None:
        self.forget(table)
        self.conn.execute(statement, params)

    def insert(self, insert: Insert, params: Sequence[Any]) -> None:
        self.forget(insert.table)
        self.conn.execute(insert.sql, params)

    def prefetch(self, reads: Reads) -> None:
        """Read what ``reads`` names now; the ports' reads answer from it while it is exact."""
        self.prefetched = load(self, reads, self.aheads)

    def board_changed(self, board_id: str, version: int, player_id: str | None) -> None:
        self.board_changes.append((board_id, version, player_id))

    def board_moved(self, board_id: str, player_id: str | None) -> None:
        (version,) = self.read("SELECT version FROM boards WHERE id = ?", (board_id,)).fetchone()
        self.board_changed(board_id, int(version), player_id)

    def skip_locked(self, of: str | None = None) -> str:
        return ""  # one writer at a time (BEGIN IMMEDIATE): nothing to lock or skip

    def for_update(self, of: str | None = None) -> str:
        return ""

    def in_list(self, column: str, values: Sequence[Any]) -> tuple[str, tuple[Any, ...]]:
        return f"{column} IN ({', '.join('?' * len(values))})", tuple(values)

    def by_key(self, table: str, alias: str, where: str) -> str:
        return f"JOIN {table} {alias} ON {where}"  # SQLite joins by a nested loop over the key's index
