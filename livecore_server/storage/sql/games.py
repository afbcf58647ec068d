"""The games port in SQL, for SQLite and PostgreSQL: settings parsed once per GAME_CACHE_TTL."""

from __future__ import annotations

import time
from typing import Any

import orjson

from livecore.games import Game, GameSettings
from livecore_server.storage.columns import Columns
from livecore_server.storage.records import settings_converter
from livecore_server.storage.sqlport import SqlPort, cached_game


class SqlGames(SqlPort):
    __slots__ = ()

    def get(self, game_id: str) -> Game | None:
        game = cached_game(self.db.game_cache, game_id)
        if game is None:
            game = self._load_game(game_id)
            if game is not None:
                self.db.game_cache[game_id] = (time.monotonic(), game)
        return game

    def every(self) -> list[Game]:
        # A deployment has few games, and their settings are cached: the areas filter the records.
        ids = [game_id for (game_id,) in self.db.read("SELECT id FROM games ORDER BY id", ())]
        return [g for g in map(self.get, ids) if g is not None]

    def _load_game(self, game_id: str) -> Game | None:
        row = self.db.read(f"SELECT {_GAME_COLUMNS.sql} FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else _GAME_COLUMNS.of(row)


def _game(id: Any, studio_id: Any, key: Any, name: Any, settings: Any, gifting_ever_enabled: Any) -> Game:
    return Game(
        id=id,
        studio_id=studio_id,
        key=key,
        name=name,
        settings=settings_converter.structure(orjson.loads(settings), GameSettings),
        gifting_ever_enabled=bool(gifting_ever_enabled),
    )


_GAME_COLUMNS = Columns(_game)
