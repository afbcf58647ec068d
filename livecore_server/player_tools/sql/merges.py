"""The merges port in SQL, for SQLite and PostgreSQL."""

from __future__ import annotations

from livecore.clock import from_millis, to_millis
from livecore.player_tools.merge import MergeRecord
from livecore.scope import Environment
from livecore_server.storage.sqlport import SqlPort


class SqlMerges(SqlPort):
    __slots__ = ()

    def get(self, game_id: str, env: Environment, from_external_id: str) -> MergeRecord | None:
        row = self.db.read(
            "SELECT game_id, env, from_external_id, from_player_id, to_player_id, placeholder, merged_at"
            " FROM merges WHERE game_id = ? AND env = ? AND from_external_id = ?"
            " ORDER BY merged_at DESC LIMIT 1",
            (game_id, env.value, from_external_id),
        ).fetchone()
        if row is None:
            return None
        game_id, env, from_external_id, from_player_id, to_player_id, placeholder, merged_at = row
        return MergeRecord(
            game_id,
            Environment(env),
            from_external_id,
            from_player_id,
            to_player_id,
            placeholder,
            from_millis(merged_at),
        )

    def insert(self, record: MergeRecord) -> None:
        self.db.change(
            "merges",
            "INSERT INTO merges (game_id, env, from_external_id, from_player_id, to_player_id, placeholder,"
            " merged_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                record.game_id,
                record.env.value,
                record.from_external_id,
                record.from_player_id,
                record.to_player_id,
                record.placeholder,
                to_millis(record.merged_at),
            ),
        )

    def forget_into(self, player_id: str) -> None:
        self.db.change("merges", "DELETE FROM merges WHERE to_player_id = ?", (player_id,))
