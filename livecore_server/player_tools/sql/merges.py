"""The merges port in SQL, for SQLite and PostgreSQL."""

from __future__ import annotations

from livecore.player_tools.merge import MergeRecord
from livecore.scope import Environment
from livecore_server.player_tools.rows import MERGE
from livecore_server.storage.sqlport import SqlPort


class SqlMerges(SqlPort):
    __slots__ = ()

    def get(self, game_id: str, env: Environment, from_external_id: str) -> MergeRecord | None:
        row = self.db.read(
            f"SELECT {MERGE.columns.sql} FROM merges WHERE game_id = ? AND env = ? AND from_external_id = ?"
            " ORDER BY merged_at DESC LIMIT 1",
            (game_id, env.value, from_external_id),
        ).fetchone()
        return None if row is None else MERGE.columns.of(row)

    def insert(self, record: MergeRecord) -> None:
        self.db.change("merges", MERGE.insert.sql, MERGE.params(record))

    def forget_into(self, player_id: str) -> None:
        self.db.change("merges", "DELETE FROM merges WHERE to_player_id = ?", (player_id,))
