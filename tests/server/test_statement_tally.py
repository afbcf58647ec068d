"""The statement count a benchmark asks a SQLite server for (livecore_server/statement_tally.py): every
statement of every connection of the store, written to a file on SIGUSR1; nothing at all when not asked."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from livecore_server.cli_options import server_config
from livecore_server.registry import storage
from livecore_server.statement_tally import ENV_VAR, StatementTally
from livecore_server.storage.sqlite import SqliteStore
from tests.conftest import World, start_world
from tests.waiting import until, until_sync

TALLY = "tally.json"


@pytest.fixture
def backend() -> str:
    return "sqlite"  # only SQLite counts its statements


@pytest.fixture
def world_config(tmp_path: Path) -> dict[str, Any]:
    return {"statement_tally": str(tmp_path / TALLY)}


def _store(tmp_path: Path) -> SqliteStore:
    """A store with a table whose writes fire a trigger into a full-text index (as players' do)."""
    store = SqliteStore(str(tmp_path / "test.db"), storage())
    store.conn.executescript(
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);"
        "CREATE VIRTUAL TABLE note_words USING fts5(body);"
        "CREATE TRIGGER notes_words AFTER INSERT ON notes BEGIN"
        " INSERT INTO note_words (rowid, body) VALUES (new.id, new.body); END;"
    )
    return store


def test_a_transaction_counts_its_statements_and_begin_and_commit(tmp_path: Path) -> None:
    store = _store(tmp_path)
    tally = StatementTally(tmp_path / TALLY)
    try:
        store.on_connection(tally.watch)

        def work(tx: Any) -> None:
            tx.execute(
                "INSERT INTO notes (id, body) VALUES (1, 'hello there')"
            )  # traced again by its trigger
            tx.execute("SELECT body FROM notes WHERE id = 1").fetchone()
            tx.execute("SELECT body FROM notes WHERE id = 1").fetchone()  # a read twice is two reads

        store.run(work)
        assert tally.statements == 5  # BEGIN IMMEDIATE, INSERT, SELECT, SELECT, COMMIT
        tally.write()
        assert json.loads((tmp_path / TALLY).read_text()) == {"statements": 5, "seq": 1}
        store.run(lambda tx: tx.conn.execute("INSERT INTO notes (id, body) VALUES (2, 'again')"))
        tally.write()
        assert json.loads((tmp_path / TALLY).read_text()) == {"statements": 8, "seq": 2}
        assert sorted(p.name for p in tmp_path.iterdir() if "tally" in p.name) == [TALLY]  # no temp left
    finally:
        store.close()


def test_the_checkpointer_connection_is_counted_too(tmp_path: Path) -> None:
    store = _store(tmp_path)
    tally = StatementTally(tmp_path / TALLY)
    try:
        store.on_connection(tally.watch)
        store.start_checkpointer(every=0.01)
        # Its PRAGMA wal_checkpoint, each time, and no transaction of ours.
        until_sync(lambda: tally.statements >= 2, "the checkpointer's statements counted")
    finally:
        store.close()


def test_the_server_reads_the_file_from_its_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    assert server_config("x.db").statement_tally is None
    monkeypatch.setenv(ENV_VAR, "/tmp/statements.json")
    assert server_config("x.db").statement_tally == "/tmp/statements.json"


async def _written(path: Path, seq: int) -> dict[str, int]:
    """The count the server wrote once it has written its ``seq``-th (the signal is handled on the loop)."""

    def found() -> dict[str, int]:
        written: dict[str, int] = json.loads(path.read_text()) if path.exists() else {}
        return written if written.get("seq", 0) >= seq else {}

    return await until(found, f"count {seq} in {path}")


async def test_a_serving_app_writes_its_count_on_sigusr1(world: World, tmp_path: Path) -> None:
    await world.register("ann")
    grant = {"entries": [{"type": "currency", "key": "coins", "amount": 5}], "idempotencyKey": "g1"}
    os.kill(os.getpid(), signal.SIGUSR1)
    before = await _written(tmp_path / TALLY, 1)
    status, body, _ = await world.call("POST", "/server/v1/players/ann/grants", json=grant)
    assert status == 201, body
    os.kill(os.getpid(), signal.SIGUSR1)
    after = await _written(tmp_path / TALLY, 2)
    assert after["seq"] == 2 and after["statements"] - before["statements"] >= 5  # the grant's own, at least
    await world.client.close()  # the app stops: SIGUSR1 is no longer answered
    assert signal.getsignal(signal.SIGUSR1) == signal.SIG_DFL


async def test_without_the_setting_nothing_is_traced(tmp_path: Path) -> None:
    world = await start_world(tmp_path / "plain.db")
    try:
        store = world.services.store
        assert isinstance(store, SqliteStore) and store._connection_watchers == []
        assert signal.getsignal(signal.SIGUSR1) == signal.SIG_DFL
    finally:
        await world.client.close()
