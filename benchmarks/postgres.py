"""PostgreSQL for a benchmark run: a fresh database per run, dropped at the end, and the CPU time its
backend processes spend (when the PostgreSQL server runs on this machine).

The server is ``--pg-server`` (default ``$LIVECORE_BENCH_POSTGRES``, else
``postgresql://postgres@127.0.0.1:5432/test``): the harness connects there only to ``CREATE DATABASE
lc_bench_<random>`` and, at the end, to drop it. A database left behind by a killed run (SIGKILL) is
recognisable by that prefix.
"""

from __future__ import annotations

import os
import secrets
from types import TracebackType
from typing import Self
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql
from psycopg.rows import TupleRow

from benchmarks.server import clock_ticks, proc_stat

DEFAULT_SERVER = "postgresql://postgres@127.0.0.1:5432/test"
SERVER_ENV = "LIVECORE_BENCH_POSTGRES"
PREFIX = "lc_bench_"


class PostgresError(RuntimeError):
    """The PostgreSQL server could not be used for a run."""


def default_server() -> str:
    return os.environ.get(SERVER_ENV) or DEFAULT_SERVER


def with_database(url: str, name: str) -> str:
    """``url`` (a ``postgresql://`` URL, as ``--db`` takes) pointing at database ``name``."""
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def redact(url: str) -> str:
    """``url`` without its password, for logs and the JSON."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@", 1)))


class BenchDatabase:
    """``CREATE DATABASE lc_bench_<random>`` on ``server``; dropped on exit (errors and interrupts too).

    Stop every process using it first: the drop is ``WITH (FORCE)``, so it would end their sessions.
    """

    def __init__(self, server: str) -> None:
        self.server = server
        self.name = f"{PREFIX}{secrets.token_hex(6)}"
        self.url = with_database(server, self.name)
        self._created = False

    def __enter__(self) -> Self:
        try:
            with psycopg.connect(self.server, autocommit=True, connect_timeout=5) as conn:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(self.name)))
        except psycopg.Error as exc:
            raise PostgresError(
                f"cannot create a database on {redact(self.server)} (--pg-server, ${SERVER_ENV}): "
                f"{str(exc).strip()}"
            ) from exc
        self._created = True
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.drop()

    def drop(self) -> None:
        if not self._created:
            return
        with psycopg.connect(self.server, autocommit=True, connect_timeout=5) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(self.name)))
        self._created = False


def exists(server: str, name: str) -> bool:
    with psycopg.connect(server, autocommit=True, connect_timeout=5) as conn:
        row = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
    return row is not None


def _proc_cpu_seconds(pid: int) -> tuple[str, float] | None:
    """(command name, user + system CPU seconds) of ``pid`` from ``/proc``, or None."""
    found = proc_stat(pid)
    return None if found is None else (found[0], clock_ticks(found[1][11:13]))


class BackendCpu:
    """CPU time of the PostgreSQL backends serving one database (the server processes' connections).

    Works when PostgreSQL runs on this machine, in this PID namespace (its backends' ``/proc`` entries
    are readable and named ``postgres``); otherwise :meth:`snapshot` returns None and no figure is given.
    Only the backends count, not PostgreSQL's shared processes (WAL writer, checkpointer, autovacuum).
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self._conn: psycopg.Connection[TupleRow] | None = None

    def __enter__(self) -> Self:
        self._conn = psycopg.connect(self.url, autocommit=True, connect_timeout=5)
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def snapshot(self) -> dict[int, float] | None:
        """CPU seconds so far of each backend of the database (this monitor's own excluded)."""
        if self._conn is None:
            return None
        rows = self._conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
        out: dict[int, float] = {}
        for (pid,) in rows:
            found = _proc_cpu_seconds(int(pid))
            if found is None or found[0] != "postgres":
                return None  # not this machine's (or not this namespace's) PostgreSQL
            out[int(pid)] = found[1]
        return out

    @staticmethod
    def spent(before: dict[int, float] | None, after: dict[int, float] | None) -> float | None:
        """CPU seconds between two snapshots. A backend started in between counts from zero; one that
        ended in between is lost (the server processes keep their pools open, so that is rare)."""
        if before is None or after is None:
            return None
        return sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items())
