"""PostgreSQL for tests: a fresh database per test run (per xdist worker), and in it a schema without
rows per test (or per state-machine example): a new one, or the emptied schema of an earlier test, which
saves each test the migrations of a new schema.

The server is ``LIVECORE_TEST_POSTGRES`` (default ``postgresql://postgres@127.0.0.1:5432/test``); each
run creates a database ``lc_run_<random>`` there and drops it at the end. When the server cannot be
reached, PostgreSQL tests are skipped and say why, unless ``LIVECORE_REQUIRE_POSTGRES=1`` (CI), which turns
the skip into a failure.
"""

from __future__ import annotations

import contextlib
import functools
import graphlib
import os
import secrets
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

import psycopg
import pytest
from hypothesis.stateful import RuleBasedStateMachine
from psycopg import sql

from livecore.games import Game
from livecore.scope import Environment, Scope
from livecore_server.manifest import parse_manifest
from livecore_server.registry import storage
from livecore_server.storage.postgres import PostgresStore

DEFAULT_DSN = "postgresql://postgres@127.0.0.1:5432/test"


def dsn() -> str:
    return os.environ.get("LIVECORE_TEST_POSTGRES") or DEFAULT_DSN


@functools.cache
def _problem(target: str) -> str | None:
    """Why ``target`` cannot be used, or None when it can (asked once per process)."""
    try:
        psycopg.connect(target, connect_timeout=3).close()
    except psycopg.Error as exc:
        return str(exc).strip() or type(exc).__name__
    return None


def require_postgres() -> str:
    """The DSN of this run's fresh database; skips the calling test (or fails it, with
    LIVECORE_REQUIRE_POSTGRES=1) when no PostgreSQL answers."""
    target = dsn()
    problem = _problem(target)
    if problem is not None:
        message = f"PostgreSQL not reachable at {target}; set LIVECORE_TEST_POSTGRES ({problem})"
        if os.environ.get("LIVECORE_REQUIRE_POSTGRES") == "1":
            pytest.fail(message + " [LIVECORE_REQUIRE_POSTGRES=1]")
        pytest.skip(message)
    return _run_database(target)


_created: list[tuple[str, str]] = []  # (server DSN, database) made by this process


@functools.cache
def _run_database(server: str) -> str:
    name = f"lc_run_{secrets.token_hex(6)}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        # A commit need not wait for its WAL to reach the disk: the tests stop servers, never PostgreSQL,
        # and a committed row is visible to every other connection at once either way.
        conn.execute(sql.SQL("ALTER DATABASE {} SET synchronous_commit = off").format(sql.Identifier(name)))
    _created.append((server, name))
    return _with(server, path=f"/{name}")


def drop_run_databases() -> None:
    """Drop the databases this process created (at the end of the test session)."""
    while _created:
        server, name = _created.pop()
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def new_schema() -> tuple[str, str]:
    """A new, empty schema in this run's database: (its DSN, with the schema as search path; its name)."""
    base = require_postgres()
    schema = f"lc_test_{secrets.token_hex(6)}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    return _schema_url(base, schema), schema


def _schema_url(base: str, schema: str) -> str:
    return _with(base, query=urlencode({"options": f"-csearch_path={schema}"}))


_given_back: list[str] = []  # schemas of earlier tests of this process, emptied (empty_schema)


def take_schema() -> tuple[str, str]:
    """A schema without rows, for one test or one state-machine example: (its DSN, its name). One that
    an earlier test of this process gave back (:func:`give_back`), migrated already, so that the store
    the test opens finds nothing to apply; else a new one. A test that needs a schema never migrated
    (one about the migrations themselves) takes :func:`new_schema` instead."""
    if not _given_back:
        return new_schema()
    schema = _given_back.pop()
    return _schema_url(require_postgres(), schema), schema


def give_back(schema: str) -> None:
    """Empty ``schema`` for the next test, or drop it if that fails."""
    try:
        empty_schema(schema)
    except BaseException:
        drop_schema(schema)
        raise
    _given_back.append(schema)


@contextlib.contextmanager
def reused_schema() -> Iterator[str]:
    """The DSN of a schema without rows for the block (:func:`take_schema`), given back after it."""
    url, schema = take_schema()
    try:
        yield url
    finally:
        give_back(schema)


def _with(url: str, **parts: str) -> str:
    """``url`` (a postgresql:// URL, as ``--db`` takes) with some of its parts replaced."""
    return urlunsplit(urlsplit(url)._replace(**parts))


def drop_schema(schema: str) -> None:
    if not schema.startswith("lc_test_"):
        raise ValueError(f"not a test schema: {schema!r}")
    with psycopg.connect(require_postgres(), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def new_store(pool_size: int = 8, schema: str | None = None) -> PostgresStore:
    """A store on a new, empty schema ``lc_test_<random>`` (migrated), or on ``schema``; drop it with
    :func:`drop_store`."""
    return PostgresStore(
        require_postgres(),
        schema=schema or f"lc_test_{secrets.token_hex(6)}",
        pool_size=pool_size,
        areas=storage(),
    )


def empty_schema(schema: str) -> None:
    """Delete every row of every table of ``schema`` but its record of migrations, and restart its
    sequences: as a newly migrated schema, in a fraction of the time (DELETE of a few rows is cheaper
    than TRUNCATE, which replaces every table's and index's files)."""
    if not schema.startswith("lc_test_"):
        raise ValueError(f"not a test schema: {schema!r}")
    with psycopg.connect(require_postgres(), autocommit=True) as conn, conn.transaction():
        tables = [
            row[0]
            for row in conn.execute(
                "SELECT table_name FROM information_schema.tables"
                " WHERE table_schema = %s AND table_type = 'BASE TABLE' AND table_name != '_migrations'",
                (schema,),
            )
        ]
        references = conn.execute(
            "SELECT referencing.relname, referenced.relname FROM pg_constraint c"
            " JOIN pg_class referencing ON referencing.oid = c.conrelid"
            " JOIN pg_class referenced ON referenced.oid = c.confrelid"
            " JOIN pg_namespace n ON n.oid = referencing.relnamespace"
            " WHERE c.contype = 'f' AND n.nspname = %s AND c.conrelid != c.confrelid",
            (schema,),
        ).fetchall()
        # A table's rows go before those of the tables it references.
        referenced_by: dict[str, set[str]] = {table: set() for table in tables}
        for referencing, referenced in references:
            referenced_by[referenced].add(referencing)
        statements = [
            sql.SQL("DELETE FROM {}").format(sql.Identifier(schema, table))
            for table in graphlib.TopologicalSorter(referenced_by).static_order()
        ]
        sequences = conn.execute(
            "SELECT sequence_name FROM information_schema.sequences WHERE sequence_schema = %s", (schema,)
        ).fetchall()
        statements += [
            sql.SQL("ALTER SEQUENCE {} RESTART").format(sql.Identifier(schema, sequence))
            for (sequence,) in sequences
        ]
        # One round trip for them all (a statement without parameters may hold several).
        conn.execute(sql.SQL("; ").join(statements))


def drop_store(store: PostgresStore) -> None:
    store.close()
    drop_schema(store.schema or "")


def waiting_for_queue(store: PostgresStore, queue: str) -> int:
    """How many sessions wait for the lock of the write queue ``queue`` of the store's database."""
    row = store.run(
        lambda tx: tx.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
            " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            " AND (classid::bigint << 32 | objid::bigint) = hashtextextended(?, 0)",
            (queue,),
        ).fetchone(),
        write=False,
    )
    return int(row[0])


@contextlib.contextmanager
def scratch_store(*statements: str, pool_size: int = 8) -> Iterator[PostgresStore]:
    """A store on a new schema with ``statements`` run in it (a scratch table, say), dropped after."""
    store = new_store(pool_size)
    try:
        for statement in statements:
            store.run(lambda tx, statement=statement: tx.execute(statement))
        yield store
    finally:
        drop_store(store)


def store_with_game(
    manifest: str, game_key: str = "g", schema: str | None = None
) -> tuple[PostgresStore, Scope]:
    """A fresh store holding the manifest's game (as ``apply`` would write it), and its test scope; on a
    new schema, or on the empty ``schema``."""
    store = new_store(schema=schema)
    try:
        parsed = parse_manifest(manifest)
        game = Game(
            id=f"gam_{secrets.token_hex(4)}",
            studio_id=f"std_{parsed.studio}",
            key=game_key,
            name=parsed.games[game_key].name,
            settings=parsed.games[game_key].settings(),
        )
        store.put_game(game)
    except BaseException:
        drop_store(store)
        raise
    return store, Scope(studio_id=game.studio_id, game_id=game.id, env=Environment.TEST)


def on_postgres(
    make_machine: Callable[[Callable[[], tuple[Any, Scope]]], type[RuleBasedStateMachine]], manifest: str
) -> type[RuleBasedStateMachine]:
    """A model-based machine run on PostgreSQL: each example gets a store of its own on a schema
    without rows (:func:`take_schema`), given back at its end."""

    def factory() -> tuple[PostgresStore, Scope]:
        return store_with_game(manifest, schema=take_schema()[1])

    base = make_machine(factory)

    class OnPostgres(base):  # type: ignore[valid-type, misc]
        def teardown(self) -> None:
            try:
                super().teardown()
            finally:
                store = getattr(self, "store", None)
                if isinstance(store, PostgresStore):
                    store.close()
                    give_back(store.schema or "")

    OnPostgres.__name__ = OnPostgres.__qualname__ = base.__name__ + "OnPostgres"
    return OnPostgres


@pytest.fixture
def pg_store() -> Any:
    """A migrated store on a fresh schema (skips or fails the test when PostgreSQL is not reachable)."""
    store = new_store()
    try:
        yield store
    finally:
        drop_store(store)
