"""The lobby matchmaking invariants of tests/core/lobbies_machine.py on the server's SQLite store."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import orjson
from hypothesis import settings

from livecore.scope import Environment, Scope
from livecore_server.registry import storage
from livecore_server.storage.records import settings_converter
from livecore_server.storage.sqlite import SqliteStore
from tests.budget import examples
from tests.core.lobbies_machine import SETTINGS, make_machine


def sqlite_store() -> tuple[Any, Scope]:
    store = SqliteStore(str(Path(tempfile.mkdtemp()) / "lobbies.db"), storage())
    store.conn.execute("INSERT INTO studios (id, key, created_at) VALUES ('std_1', 's', 0)")
    store.conn.execute(
        "INSERT INTO games (id, studio_id, key, name, settings, created_at, updated_at)"
        " VALUES ('gam_1', 'std_1', 'g', 'G', ?, 0, 0)",
        (orjson.dumps(settings_converter.unstructure(SETTINGS)).decode(),),
    )
    return store, Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)


class _Closing(make_machine(sqlite_store)):  # type: ignore[misc]
    def teardown(self) -> None:
        self.store.close()


TestLobbiesOnSqlite = _Closing.TestCase
TestLobbiesOnSqlite.settings = settings(max_examples=examples(20), stateful_step_count=30, deadline=None)
