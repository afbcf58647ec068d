"""The manifest port in SQL (server-only): the studio and game rows ``apply`` creates and updates."""

from __future__ import annotations

from collections.abc import Iterable

from livecore import registry
from livecore_server.storage.sqlport import GAME_CHANGED, SqlPort


class SqlManifest(SqlPort):
    __slots__ = ()

    def studio_id(self, key: str) -> str | None:
        row = self.db.read("SELECT id FROM studios WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def insert_studio(self, studio_id: str, key: str, now_ms: int) -> None:
        self.db.change(
            "studios", "INSERT INTO studios (id, key, created_at) VALUES (?, ?, ?)", (studio_id, key, now_ms)
        )

    def studio_keys(self) -> list[str]:
        return [str(key) for (key,) in self.db.read("SELECT key FROM studios ORDER BY key", ())]

    def studio_key(self, studio_id: str) -> str | None:
        row = self.db.read("SELECT key FROM studios WHERE id = ?", (studio_id,)).fetchone()
        return None if row is None else str(row[0])

    def games_of(self, studio_id: str) -> list[tuple[str, str, str]]:
        """The studio's games as (id, key, name), by key."""
        rows = self.db.read("SELECT id, key, name FROM games WHERE studio_id = ? ORDER BY key", (studio_id,))
        return [(str(game_id), str(key), str(name)) for game_id, key, name in rows]

    def game_id(self, studio_id: str, key: str) -> str | None:
        row = self.db.read(
            "SELECT id FROM games WHERE studio_id = ? AND key = ?", (studio_id, key)
        ).fetchone()
        return None if row is None else str(row[0])

    def insert_game(
        self, game_id: str, studio_id: str, key: str, name: str, settings: str, now_ms: int
    ) -> None:
        """``settings``: the game settings as stored (JSON text)."""
        self.db.change(
            "games",
            "INSERT INTO games (id, studio_id, key, name, settings, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, studio_id, key, name, settings, now_ms, now_ms),
        )
        self.db.config_changed(GAME_CHANGED + game_id)

    def update_game(
        self, game_id: str, name: str, settings: str, now_ms: int, *, enabled: Iterable[str]
    ) -> None:
        """Replace the name and settings; each remembered section ``enabled`` names stays in the game's
        ``ever_enabled`` (:func:`livecore.registry.remembered`)."""
        self.db.change(
            "games",
            "UPDATE games SET name = ?, settings = ?, updated_at = ? WHERE id = ?",
            (name, settings, now_ms, game_id),
        )
        for key in sorted(set(enabled) & set(registry.remembered(registry.installed()))):
            self.db.change("games", f"UPDATE games SET {key}_ever_enabled = TRUE WHERE id = ?", (game_id,))
        self.db.config_changed(GAME_CHANGED + game_id)
