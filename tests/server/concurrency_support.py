"""One database opened twice, by two stores, for the races the store-level concurrency tests run."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import orjson

from livecore.games import Game
from livecore_server.registry import storage
from livecore_server.storage.records import settings_converter
from livecore_server.storage.server_store import ServerStore, open_store
from livecore_server.storage.sqlite import SqliteStore
from tests.postgres_support import require_postgres, reused_schema


@contextmanager
def opened_twice(kind: str, tmp_path: Path, game: Game) -> Iterator[tuple[ServerStore, ServerStore]]:
    """``kind`` (``sqlite`` or ``postgres``) opened twice, with ``game`` and its studio written."""
    if kind == "sqlite":
        path = str(tmp_path / "race.db")
        first = SqliteStore(path, storage())
        first.conn.execute("INSERT INTO studios (id, key, created_at) VALUES (?, 's', 0)", (game.studio_id,))
        first.conn.execute(
            "INSERT INTO games (id, studio_id, key, name, settings, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, 0, 0)",
            (
                game.id,
                game.studio_id,
                game.key,
                game.name,
                orjson.dumps(settings_converter.unstructure(game.settings)),
            ),
        )
        second = open_store(path, areas=storage())
        try:
            yield first, second
        finally:
            first.close()
            second.close()
        return
    require_postgres()
    with reused_schema() as url:
        first, second = (
            open_store(url, pool_size=2, areas=storage()),
            open_store(url, pool_size=2, areas=storage()),
        )
        try:
            first.put_game(game)  # type: ignore[attr-defined]
            yield first, second
        finally:
            first.close()
            second.close()
