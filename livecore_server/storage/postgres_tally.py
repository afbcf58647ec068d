"""A count of the statements a process sends PostgreSQL and of the round trips its threads wait for, for
the benchmark's round trips per request and the round-trip budgets of the writes
(tests/server/test_round_trip_budgets.py; docs/architecture.md, "Round trips").

A round trip is each time a thread waits for PostgreSQL's answer: a statement outside pipeline mode
(psycopg sends it and waits for its result), a pipeline's Sync that is waited for (``Pipeline.sync()``,
the end of a pipeline, a pipelined cursor's rows fetched before any Sync), and ``commit``/``rollback``
of a transaction (psycopg syncs a pipeline for them). A statement sent in pipeline mode costs none of
its own: it travels with the next one. A Sync queued without waiting (``_end_implicit_transaction`` in
postgres.py) is not one either.

Counted in psycopg's sync classes, where every connection of the store goes through them (the ports'
transactions, the look-ups, the rate-limit buckets, the scheduler and the webhook dispatcher): the hooks
wrap ``Cursor.execute``, ``Cursor.executemany``, ``Cursor._fetch_pipeline``, ``Pipeline.sync``,
``Pipeline.__exit__`` and ``Connection.commit``/``rollback`` while a :class:`Tally` is installed, and
are taken away with it, so that without one nothing is wrapped and nothing costs. The asynchronous
connection that listens for notifications is not counted: no worker thread waits on it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg import Pipeline
from psycopg.pq import TransactionStatus

_installed = threading.Lock()  # one tally at a time: the hooks are psycopg's classes'


class Tally:
    """Statements and round trips of every sync psycopg connection of the process, while installed."""

    def __init__(self, *, record: bool = False) -> None:
        self._lock = threading.Lock()
        self._statements = 0
        self._round_trips = 0
        # With ``record``, what was sent, in order, each round trip ending a line: for a test to say
        # which statements a request waited for. Statements are their text's start, never their values.
        self.trips: list[list[str]] | None = [[]] if record else None

    @property
    def statements(self) -> int:
        with self._lock:
            return self._statements

    @property
    def round_trips(self) -> int:
        with self._lock:
            return self._round_trips

    def add(self, statements: int, round_trips: int, what: Any = None) -> None:
        with self._lock:
            self._statements += statements
            self._round_trips += round_trips
            if self.trips is not None:
                if what is not None:
                    self.trips[-1].append(" ".join(str(what).split())[:60])
                if round_trips:
                    self.trips.append([])

    def waited_for(self) -> list[str]:
        """What each round trip recorded carried (``record``), one line each."""
        assert self.trips is not None
        with self._lock:
            return [" | ".join(trip) or "(a Sync)" for trip in self.trips[:-1]]


def _pipelined(cursor: psycopg.Cursor[Any]) -> bool:
    return cursor.connection._pipeline is not None


def _in_transaction(conn: psycopg.Connection[Any]) -> bool:
    return conn.info.transaction_status is not TransactionStatus.IDLE


def install(tally: Tally) -> Callable[[], None]:
    """Count into ``tally`` from now on; returns what takes the hooks away again."""
    if not _installed.acquire(blocking=False):
        raise RuntimeError("a round-trip tally is already installed")
    cursor, pipeline, connection = psycopg.Cursor, Pipeline, psycopg.Connection
    originals: list[tuple[type[Any], str, Any]] = [
        (cls, name, cls.__dict__[name])
        for cls, name in (
            (cursor, "execute"),
            (cursor, "executemany"),
            (cursor, "_fetch_pipeline"),
            (pipeline, "sync"),
            (pipeline, "__exit__"),
            (connection, "commit"),
            (connection, "rollback"),
        )
    ]
    execute, executemany, fetch_pipeline, sync, exit_, commit, rollback = (f for _, _, f in originals)

    def counted_execute(self: psycopg.Cursor[Any], *args: Any, **kwargs: Any) -> Any:
        tally.add(1, 0 if _pipelined(self) else 1, args[0] if args else kwargs.get("query"))
        return execute(self, *args, **kwargs)

    def counted_executemany(
        self: psycopg.Cursor[Any], query: Any, params_seq: Iterable[Any], **kwargs: Any
    ) -> None:
        # Each row is a statement, as SQLite counts them; outside a pipeline psycopg opens one, whose
        # end is the round trip (counted there).
        rows = list(params_seq)
        tally.add(len(rows), 0, f"{len(rows)} x {query}")
        executemany(self, query, rows, **kwargs)

    def counted_fetch_pipeline(self: psycopg.Cursor[Any]) -> None:
        # psycopg waits here only for a pipelined cursor whose rows have not come yet.
        if self._execmany_returning is not False and not self.pgresult and _pipelined(self):
            tally.add(0, 1)
        fetch_pipeline(self)

    def counted_sync(self: Pipeline) -> None:
        tally.add(0, 1)
        sync(self)

    def counted_exit(self: Pipeline, *args: Any) -> None:
        tally.add(0, 1)  # a Sync, and every answer still on its way
        exit_(self, *args)

    def counted_commit(self: psycopg.Connection[Any]) -> None:
        if _in_transaction(self):  # else psycopg sends nothing (the pool's, after autocommit work)
            tally.add(1, 1, "COMMIT")
        commit(self)

    def counted_rollback(self: psycopg.Connection[Any]) -> None:
        if _in_transaction(self):
            tally.add(1, 1, "ROLLBACK")
        rollback(self)

    counted = (
        counted_execute,
        counted_executemany,
        counted_fetch_pipeline,
        counted_sync,
        counted_exit,
        counted_commit,
        counted_rollback,
    )
    for (cls, name, _), hook in zip(originals, counted, strict=True):
        setattr(cls, name, hook)

    def uninstall() -> None:
        for cls, name, original in originals:
            setattr(cls, name, original)
        _installed.release()

    return uninstall


@contextmanager
def counting(*, record: bool = False) -> Iterator[Tally]:
    """A :class:`Tally` installed for the block."""
    tally = Tally(record=record)
    uninstall = install(tally)
    try:
        yield tally
    finally:
        uninstall()
