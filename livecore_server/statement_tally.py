"""A count of the statements a server runs (and on PostgreSQL of the round trips it waits for), for the
benchmark report's statements and round trips per request.

A benchmarking aid, off unless asked for: with ``LIVECORE_STATEMENT_TALLY=<file>`` in its environment,
``serve`` on SQLite counts the statements of every connection of its store (the event loop's, which the
webhook dispatcher shares, and the WAL checkpointer's) with SQLite's trace callback, and whenever the
process gets SIGUSR1 it writes the running count to ``<file>`` as ``{"statements": N, "seq": K}``, K
counting the writes so that a reader can wait for a fresh one (a temporary file, then ``os.replace``: a
reader never sees half of one). On PostgreSQL it counts the statements its connections send and the
round trips its threads wait for (:mod:`livecore_server.storage.postgres_tally`), and reads the store's
count of write transactions committed and retried (``PostgresStore.write_counts``; 0s on a store without
it), written as ``{"statements": N, "round_trips": R, "writes": W, "retries": T, "retried": {cause: n},
"seq": K}``. Each server process writes its own file (the harness gives each its own path). The benchmark
harness reads them before and after each slice and sums them over the processes (benchmarks/README.md,
"Reading the table"). Without the variable no callback or hook is installed
and nothing costs; with it, each statement costs about half a microsecond more.

What counts is everything the server ran, the transactions' BEGIN, SAVEPOINT, RELEASE and COMMIT
included. Not counted: SQLite's inner statements (a full-text index's own, traced as lines starting with
``--``), and the extra traces of a write that fires triggers: Python's trace callback reports each
trigger program of a statement with that statement's own text, so a write traced again right after
itself is one statement (the same write run twice in a row with the same values would count once too).
Only counts are kept: a statement's text (which holds its bound values) is
compared with the next one and dropped, never stored or logged.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from livecore_server.storage.server_store import ServerStore
from livecore_server.storage.sqlite import SqliteStore

if TYPE_CHECKING:
    from livecore_server.storage.postgres_tally import Tally

ENV_VAR = "LIVECORE_STATEMENT_TALLY"
# The statements that can fire a trigger, hence be traced again with their own text.
_WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")

log = logging.getLogger("livecore_server")


def not_its_own(statement: str, previous: str) -> bool:
    """Whether the trace of ``statement``, right after ``previous``, is no statement of its own: SQLite's
    inner statement (a full-text index's, traced as ``--``), or the same write traced again for one of the
    trigger programs it fires."""
    if statement.startswith("--"):
        return True
    return statement == previous and statement.lstrip()[:7].upper().startswith(_WRITES)


class StatementTally:
    """The statements of the connections it watches, counted together (each on its own thread)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.seq = 0
        self._statements = 0
        self._lock = threading.Lock()

    @property
    def statements(self) -> int:
        with self._lock:
            return self._statements

    def watch(self, conn: sqlite3.Connection) -> None:
        """Count the statements ``conn`` runs from now on."""
        last = ""

        def traced(statement: str) -> None:
            nonlocal last
            if not_its_own(statement, last):
                return
            last = statement
            with self._lock:
                self._statements += 1

        conn.set_trace_callback(traced)

    def counts(self) -> dict[str, Any]:
        return {"statements": self.statements}

    def write(self) -> None:
        """Write the running count to the file, replacing the previous one at once."""
        self.seq += 1
        tmp = self.path.with_name(f".{self.path.name}.tmp")
        tmp.write_text(json.dumps({**self.counts(), "seq": self.seq}))
        os.replace(tmp, self.path)


class RoundTripTally(StatementTally):
    """A PostgreSQL server's statements and round trips, counted in psycopg (postgres_tally), and its
    store's write transactions committed and retried."""

    def __init__(self, path: str | Path, counted: Tally, store: ServerStore | None = None) -> None:
        super().__init__(path)
        self._counted = counted
        self._store = store

    @property
    def statements(self) -> int:
        return self._counted.statements

    def counts(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "statements": self._counted.statements,
            "round_trips": self._counted.round_trips,
        }
        # Read by name: a store without the count (an older one) reports none committed or retried. The
        # transactions on threads (a tool's) may add to it meanwhile: dict() copies it in one step under the
        # GIL.
        written = getattr(self._store, "write_counts", None)
        retried: dict[str, int] = (
            {} if written is None else {str(k): int(v) for k, v in dict(written.retried).items()}
        )
        out["writes"] = 0 if written is None else int(written.committed)
        out["retries"] = sum(retried.values())
        out["retried"] = retried
        return out


def start(store: ServerStore, path: str | None) -> Callable[[], None]:
    """Count ``store``'s statements (and round trips, on PostgreSQL), written to ``path`` on each SIGUSR1
    (on the running loop); returns what stops answering the signal and counting. Nothing when ``path``
    is None. Called before ``store.start()``, so that the WAL checkpointer's connection is counted from
    its start."""
    if path is None:
        return lambda: None
    tally: StatementTally
    uncount: Callable[[], None] = lambda: None  # noqa: E731
    if isinstance(store, SqliteStore):
        tally = StatementTally(path)
        store.on_connection(tally.watch)
    else:
        from livecore_server.storage.postgres import PostgresStore
        from livecore_server.storage.postgres_tally import Tally, install

        if not isinstance(store, PostgresStore):
            log.warning("%s is set, but this store does not count its statements: ignored", ENV_VAR)
            return lambda: None
        counted = Tally()
        uncount = install(counted)
        tally = RoundTripTally(path, counted, store)

    def write() -> None:
        try:
            tally.write()
        except OSError:
            log.exception("could not write the statement count to %s", path)

    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGUSR1, write)

    def stop() -> None:
        loop.remove_signal_handler(signal.SIGUSR1)
        uncount()

    return stop
