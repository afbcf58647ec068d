"""The erasures port in SQL, for SQLite and PostgreSQL."""

from __future__ import annotations

from livecore.player_tools.erasure import ErasureRecord
from livecore_server.player_tools.rows import ERASURE
from livecore_server.storage.sqlport import SqlPort


class SqlErasures(SqlPort):
    __slots__ = ()

    def get(self, game_id: str, external_id_hash: str) -> ErasureRecord | None:
        row = self.db.read(
            f"SELECT {ERASURE.columns.sql} FROM erasures"
            " WHERE game_id = ? AND external_id_hash = ? ORDER BY erased_at DESC LIMIT 1",
            (game_id, external_id_hash),
        ).fetchone()
        return None if row is None else ERASURE.columns.of(row)

    def insert(self, record: ErasureRecord) -> None:
        self.db.change("erasures", ERASURE.insert.sql, ERASURE.params(record))
