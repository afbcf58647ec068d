"""The live-event invariants of tests/core/events_machine.py on the server's SQLite store."""

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
from tests.core.events_machine import SETTINGS, make_machine
from tests.kept import keep_every_event_in


def sqlite_store() -> tuple[Any, Scope]:
    store = SqliteStore(str(Path(tempfile.mkdtemp()) / "events.db"), storage())
    store.conn.execute("INSERT INTO studios (id, key, created_at) VALUES ('std_1', 's', 0)")
    store.conn.execute(
        "INSERT INTO games (id, studio_id, key, name, settings, created_at, updated_at)"
        " VALUES ('gam_1', 'std_1', 'g', 'G', ?, 0, 0)",
        (orjson.dumps(settings_converter.unstructure(SETTINGS)).decode(),),
    )
    keep_every_event_in(store)  # the machine reads what the commands emit from the outbox
    return store, Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)


class _Closing(make_machine(sqlite_store)):  # type: ignore[misc]
    def teardown(self) -> None:
        self.store.close()


TestEventsOnSqlite = _Closing.TestCase
TestEventsOnSqlite.settings = settings(max_examples=examples(20), stateful_step_count=30, deadline=None)
