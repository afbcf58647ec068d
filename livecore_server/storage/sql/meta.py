"""The meta port in SQL (server-only): facts about the database itself, by name (table ``server_meta``)."""

from __future__ import annotations

from livecore_server.storage.sqlport import SqlPort


class SqlMeta(SqlPort):
    __slots__ = ()

    def get(self, name: str) -> str | None:
        row = self.db.read("SELECT value FROM server_meta WHERE name = ?", (name,)).fetchone()
        return None if row is None else str(row[0])

    def put_new(self, name: str, value: str, now_ms: int) -> str:
        """Keep ``value`` under ``name`` unless a value is there already (another process may have put
        one meanwhile); the value kept."""
        self.db.change(
            "server_meta",
            "INSERT INTO server_meta (name, value, created_at) VALUES (?, ?, ?)"
            " ON CONFLICT (name) DO NOTHING",
            (name, value, now_ms),
        )
        kept = self.get(name)
        assert kept is not None
        return kept

    def delete(self, name: str) -> None:
        self.db.change("server_meta", "DELETE FROM server_meta WHERE name = ?", (name,))

    def put(self, name: str, value: str, now_ms: int) -> None:
        """Keep ``value`` under ``name``, replacing what was there."""
        self.db.change(
            "server_meta",
            "INSERT INTO server_meta (name, value, created_at) VALUES (?, ?, ?)"
            " ON CONFLICT (name) DO UPDATE SET value = excluded.value, created_at = excluded.created_at",
            (name, value, now_ms),
        )

    def starting_with(self, prefix: str) -> dict[str, str]:
        """Every value whose name starts with ``prefix``, by name."""
        rows = self.db.read(
            "SELECT name, value FROM server_meta WHERE substr(name, 1, ?) = ?", (len(prefix), prefix)
        )
        return {str(name): str(value) for name, value in rows}
