"""The games port in SQL, for SQLite and PostgreSQL: settings parsed once per GAME_CACHE_TTL."""

from __future__ import annotations

import time

import orjson

from livecore.games import Game, GameSettings
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
        ids = [row[0] for row in self.db.read("SELECT id FROM games ORDER BY id", ())]
        return [g for g in map(self.get, ids) if g is not None]

    def _load_game(self, game_id: str) -> Game | None:
        row = self.db.read(
            "SELECT id, studio_id, key, name, settings, gifting_ever_enabled FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            return None
        settings = settings_converter.structure(orjson.loads(row[4]), GameSettings)
        return Game(
            id=row[0],
            studio_id=row[1],
            key=row[2],
            name=row[3],
            settings=settings,
            gifting_ever_enabled=bool(row[5]),
        )
