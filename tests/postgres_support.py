"""PostgreSQL for tests: a fresh schema per test (or per state-machine example), dropped after.

The database is ``LIVECORE_TEST_POSTGRES`` (default ``postgresql://postgres@127.0.0.1:5432/test``). When
it cannot be reached, PostgreSQL tests are skipped and say why, unless ``LIVECORE_REQUIRE_POSTGRES=1``
(CI), which turns the skip into a failure.
"""

from __future__ import annotations

import functools
import os
import secrets
from collections.abc import Callable
from typing import Any

import psycopg
import pytest
from hypothesis.stateful import RuleBasedStateMachine
from psycopg import sql

from livecore.games import Game
from livecore.scope import Environment, Scope
from livecore_server.manifest import parse_manifest
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
    """The DSN to use; skips the calling test (or fails it, with LIVECORE_REQUIRE_POSTGRES=1) when no
    PostgreSQL answers there."""
    target = dsn()
    problem = _problem(target)
    if problem is not None:
        message = f"PostgreSQL not reachable at {target}; set LIVECORE_TEST_POSTGRES ({problem})"
        if os.environ.get("LIVECORE_REQUIRE_POSTGRES") == "1":
            pytest.fail(message + " [LIVECORE_REQUIRE_POSTGRES=1]")
        pytest.skip(message)
    return target


def new_store() -> PostgresStore:
    """A store on a new, empty schema ``lc_test_<random>`` (migrated); drop it with :func:`drop_store`."""
    return PostgresStore(require_postgres(), schema=f"lc_test_{secrets.token_hex(6)}")


def drop_store(store: PostgresStore) -> None:
    store.close()
    if store.schema is None or not store.schema.startswith("lc_test_"):
        raise ValueError(f"not a test schema: {store.schema!r}")
    with psycopg.connect(store.dsn, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(store.schema)))


def store_with_game(manifest: str, game_key: str = "g") -> tuple[PostgresStore, Scope]:
    """A fresh store holding the manifest's game (as ``apply`` would write it), and its test scope."""
    store = new_store()
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
    """A model-based machine run on PostgreSQL: each example gets a fresh schema, dropped at its end."""
    base = make_machine(lambda: store_with_game(manifest))

    class OnPostgres(base):  # type: ignore[valid-type, misc]
        def teardown(self) -> None:
            try:
                super().teardown()
            finally:
                store = getattr(self, "store", None)
                if isinstance(store, PostgresStore):
                    drop_store(store)

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
