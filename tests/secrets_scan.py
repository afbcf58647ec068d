"""Secrets at rest: no API key, player secret, webhook signing secret, personal key, portal session or
sign-in link is stored in clear
(docs/server.md#secrets-at-rest). ``secrets_in_clear`` reads every table of a world's database, as its
catalogue lists them; the ``world`` fixture runs it after every test that uses it, so a whole run of the
suite is scanned, and ``tests/security/test_secrets_at_rest.py`` after a workload that mints every kind."""

from __future__ import annotations

import re
import sqlite3
from typing import TYPE_CHECKING, Any

import psycopg

from livecore.operators.rules import PERSONAL_KEY_PREFIX
from livecore.players.commands import PLAYER_SECRET_PREFIX
from livecore.scope import Environment
from livecore_server.config import sqlite_path
from livecore_server.operators.sessions import LINK_PREFIX, SESSION_PREFIX

if TYPE_CHECKING:
    from tests.conftest import World

# Every kind of secret the service mints, by its prefix, followed by more random characters than any
# stored prefix keeps (key prefixes keep 8, player secret prefixes 5).
PREFIXES = (
    PLAYER_SECRET_PREFIX,
    *(f"lc_{env.value}_" for env in Environment),
    "whsec_",
    PERSONAL_KEY_PREFIX,
    SESSION_PREFIX,
    LINK_PREFIX,
)
IN_CLEAR = re.compile("(?:" + "|".join(map(re.escape, PREFIXES)) + r")[A-Za-z0-9_-]{20,}")


def every_value(world: World) -> dict[str, list[str]]:
    """Every value of every table the database's catalogue lists, as text, by table. Read on a
    connection of its own: the test may have stopped the world's services (a restart, say)."""
    db = world.services.config.db
    if world.on_postgres:
        with psycopg.connect(db) as pg:
            names = pg.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
            catalogue = [str(name) for (name,) in names]
            # Every table's rows in one round trip rather than one each.
            with pg.pipeline():
                cursors = {name: pg.execute(_select(name)) for name in catalogue}
            return _values({name: [tuple(r) for r in cursor] for name, cursor in cursors.items()})
    lite = sqlite3.connect(sqlite_path(db))
    try:
        names = [str(name) for (name,) in lite.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return _values({name: lite.execute(_select(name)).fetchall() for name in names})
    finally:
        lite.close()


def _select(table: str) -> str:
    return f'SELECT * FROM "{table}"'


def _values(tables: dict[str, list[tuple[Any, ...]]]) -> dict[str, list[str]]:
    assert {"players", "idempotency", "api_keys", "webhook_endpoints", "outbox"} <= set(tables)
    return {name: [_text(value) for row in rows for value in row] for name, rows in tables.items()}


def secrets_in_clear(world: World) -> dict[str, list[str]]:
    """The tables that hold something shaped like a minted secret, with what they hold."""
    found = {
        table: sorted({m for value in values for m in IN_CLEAR.findall(value)})
        for table, values in every_value(world).items()
    }
    return {table: hits for table, hits in found.items() if hits}


def _text(value: Any) -> str:
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).decode("latin-1")
    return str(value)
