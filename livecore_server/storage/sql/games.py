"""The games port in SQL, for SQLite and PostgreSQL: settings parsed once per GAME_CACHE_TTL."""

from __future__ import annotations

import time
from typing import Any

import attrs
import orjson

from livecore import registry
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
        # The game's record, then a flag for each remembered section (livecore.section.Section.remembered).
        keys = registry.remembered(registry.installed())
        flags = "".join(f", {key}_ever_enabled" for key in keys)
        sql = f"SELECT {_GAME_COLUMNS.sql}{flags} FROM games WHERE id = ?"
        row = self.db.read(sql, (game_id,)).fetchone()
        if row is None:
            return None
        game, ever = _GAME_COLUMNS.split(row)
        on = frozenset(key for key, flag in zip(keys, ever, strict=True) if flag)
        return attrs.evolve(game, ever_enabled=on)


def _game(id: Any, studio_id: Any, key: Any, name: Any, settings: Any) -> Game:
    return Game(
        id=id,
        studio_id=studio_id,
        key=key,
        name=name,
        settings=settings_converter.structure(orjson.loads(settings), GameSettings),
    )


_GAME_COLUMNS = Columns(_game)
