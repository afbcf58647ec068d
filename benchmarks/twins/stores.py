"""The twins' two databases: what differs between SQLite and PostgreSQL, and nothing else.

The twins (:mod:`benchmarks.twins.app`) write their statements once, with ``?`` placeholders (``?1``,
``?2`` where a statement names a parameter twice), and run them through a :class:`Tx`: ``one`` and
``all`` when the request needs the rows, ``run`` when it needs nothing back. The few words the dialects
spell differently are a transaction's attributes (``first_key``, ``open_event``) or does (``serialize``).

SQLite: the run's file on one connection, as livecore's server has it (its pragmas), each write in
``BEGIN IMMEDIATE`` ... ``COMMIT``; nothing awaits inside a transaction, so the event loop runs one at a
time, as SQLite's single writer would anyway.

PostgreSQL: an asynchronous psycopg pool of as many connections as livecore's server has by default
(8, as many as the bench's wrk connections), on the twin's event loop. That is what a competent
engineer would write for an asyncio server on PostgreSQL, and it is the fairest limit: livecore's worker
threads and their hand-offs are livecore's choice, not the database's cost, so the twin does without
them. Every transaction runs in pipeline mode: the statements whose rows a request does not need are
queued and go with the next statement it reads, or with the ``COMMIT``, so a write costs as many round
trips as it has reads that the next statement depends on, plus one (one to three for the seven writes,
one for each read).
Isolation is READ COMMITTED, PostgreSQL's default: what keeps the rows right under concurrent requests
is written in the statements, as livecore's SERIALIZABLE transactions and per-game queue keep it for
any command: a debit is an ``UPDATE ... WHERE amount >= ?``, a claim or an open an ``UPDATE ... WHERE
status = 'pending'``, a progress write takes its board's row first (so writes to one board queue there,
and the rank pages are never updated in two orders at once), and a check that a concurrent request
could make stale (a gift's cooldown and daily count, a help request's lacking amount) locks its rows
``FOR UPDATE`` first (the sender's player row, the help request: queued, so no round trip of its own).
A transaction that still loses a deadlock or a serialization race runs again.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from functools import lru_cache
from typing import Any, Protocol, TypeVar

import psycopg
from psycopg import errors
from psycopg.types.string import TextLoader
from psycopg_pool import AsyncConnectionPool

T = TypeVar("T")
Row = tuple[Any, ...]
Params = Sequence[Any]

# livecore's server's pragmas on its SQLite connection (livecore_server/storage/sqlite.py).
PRAGMAS = (
    "journal_mode=WAL",
    "synchronous=NORMAL",
    "busy_timeout=5000",
    "foreign_keys=ON",
    "cache_size=-65536",
    "mmap_size=268435456",
)
POOL = 8  # livecore's serve --db-pool default
ATTEMPTS = 8  # a PostgreSQL transaction's runs, at most, when it loses a race
RETRYABLE = (errors.SerializationFailure, errors.DeadlockDetected)


class Tx(Protocol):
    """One transaction (or, for a read, one connection): its statements and its dialect's words."""

    first_key: str  # a rank key before every entry's (the first rank page's start)
    open_event: str  # the outbox's partial index of events not fanned out yet, as its WHERE says
    dialect: str

    async def serialize(self, sql: str, params: Params = ()) -> None:
        """Lock the rows ``sql`` selects until the transaction ends, where the database locks rows: the
        statements after it read them and what depends on them as they stand."""
        ...

    async def one(self, sql: str, params: Params = ()) -> Row | None: ...

    async def all(self, sql: str, params: Params = ()) -> list[Row]: ...

    async def run(self, sql: str, params: Params = ()) -> None: ...


class Store(Protocol):
    dialect: str

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def write(self, work: Callable[[Tx], Awaitable[T]]) -> T:
        """``work`` in one write transaction."""
        ...

    async def read(self, work: Callable[[Tx], Awaitable[T]]) -> T:
        """``work``'s statements, each on its own (reads: no transaction around them)."""
        ...

    async def has_table(self, name: str) -> bool: ...


# --- SQLite ------------------------------------------------------------------------------------------------


class SqliteTx:
    first_key = "-1e999"
    open_event = "fanned_out = 0"
    dialect = "sqlite"

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    async def serialize(self, sql: str, params: Params = ()) -> None:
        pass  # BEGIN IMMEDIATE holds the database's one write lock from the start

    async def one(self, sql: str, params: Params = ()) -> Row | None:
        row: Row | None = self.conn.execute(sql, params).fetchone()
        return row

    async def all(self, sql: str, params: Params = ()) -> list[Row]:
        return self.conn.execute(sql, params).fetchall()

    async def run(self, sql: str, params: Params = ()) -> None:
        self.conn.execute(sql, params)


class SqliteStore:
    dialect = "sqlite"

    def __init__(self, path: str) -> None:
        self.path = path
        self.conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        for pragma in PRAGMAS:
            self.conn.execute(f"PRAGMA {pragma}")
        self.tx = SqliteTx(self.conn)

    async def open(self) -> None:
        pass

    async def close(self) -> None:
        self.conn.close()

    async def write(self, work: Callable[[Tx], Awaitable[T]]) -> T:
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            out = await work(self.tx)
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")
        return out

    async def read(self, work: Callable[[Tx], Awaitable[T]]) -> T:
        return await work(self.tx)

    async def has_table(self, name: str) -> bool:
        return await self.tx.one("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)) is not None


# --- PostgreSQL --------------------------------------------------------------------------------------------

PLACEHOLDER = re.compile(r"\?(\d+)?")


@lru_cache(maxsize=256)
def translated(sql: str) -> tuple[str, tuple[int, ...]]:
    """A statement's ``?``/``?N`` placeholders as psycopg's ``%s``, and which parameter each one takes."""
    order: list[int] = []

    def one(match: re.Match[str]) -> str:
        order.append(int(match.group(1)) - 1 if match.group(1) else len(order))
        return "%s"

    return PLACEHOLDER.sub(one, sql.replace("%", "%%")), tuple(order)


class PostgresTx:
    first_key = "'-Infinity'::float8"
    open_event = "NOT fanned_out"
    dialect = "postgres"

    def __init__(self, conn: psycopg.AsyncConnection[Row]) -> None:
        self.conn = conn

    async def serialize(self, sql: str, params: Params = ()) -> None:
        # Queued: the next statement, sent in the same round trip, starts once the lock is held, and at
        # READ COMMITTED takes its snapshot then.
        await self.run(sql + " FOR UPDATE", params)

    async def _execute(self, sql: str, params: Params) -> psycopg.AsyncCursor[Row]:
        text, order = translated(sql)
        return await self.conn.execute(text, [params[i] for i in order])

    async def one(self, sql: str, params: Params = ()) -> Row | None:
        return await (await self._execute(sql, params)).fetchone()

    async def all(self, sql: str, params: Params = ()) -> list[Row]:
        return await (await self._execute(sql, params)).fetchall()

    async def run(self, sql: str, params: Params = ()) -> None:
        await self._execute(sql, params)  # in pipeline mode: queued, its result read at the next sync


async def _configure(conn: psycopg.AsyncConnection[Any]) -> None:
    # JSON columns come back as their text, as SQLite's TEXT columns do.
    conn.adapters.register_loader("json", TextLoader)
    conn.adapters.register_loader("jsonb", TextLoader)


class PostgresStore:
    dialect = "postgres"

    def __init__(self, url: str, size: int = POOL) -> None:
        self.url = url
        self.pool = AsyncConnectionPool(
            url,
            min_size=size,
            max_size=size,
            kwargs={"autocommit": True},
            configure=_configure,
            open=False,
        )

    async def open(self) -> None:
        await self.pool.open(wait=True)

    async def close(self) -> None:
        await self.pool.close()

    async def write(self, work: Callable[[Tx], Awaitable[T]]) -> T:
        for attempt in range(ATTEMPTS):
            try:
                async with self.pool.connection() as conn, conn.pipeline(), conn.transaction():
                    return await work(PostgresTx(conn))
            except RETRYABLE:
                if attempt == ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")

    async def read(self, work: Callable[[Tx], Awaitable[T]]) -> T:
        async with self.pool.connection() as conn:
            return await work(PostgresTx(conn))

    async def has_table(self, name: str) -> bool:
        async with self.pool.connection() as conn:
            row = await (await conn.execute("SELECT to_regclass(%s)", (name,))).fetchone()
        return row is not None and row[0] is not None


def store(db: str) -> Store:
    """The store of ``serve --db``'s argument: a PostgreSQL URL, or a SQLite file."""
    if db.startswith(("postgresql://", "postgres://")):
        return PostgresStore(db)
    return SqliteStore(db)
