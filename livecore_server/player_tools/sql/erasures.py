"""The erasures port in SQL, for SQLite and PostgreSQL."""

from __future__ import annotations

from livecore.clock import from_millis, to_millis
from livecore.player_tools.erasure import ErasureReason, ErasureRecord
from livecore_server.storage.sqlport import SqlPort


class SqlErasures(SqlPort):
    __slots__ = ()

    def get(self, game_id: str, external_id_hash: str) -> ErasureRecord | None:
        row = self.db.read(
            "SELECT game_id, external_id_hash, player_id, placeholder, reason, erased_at FROM erasures"
            " WHERE game_id = ? AND external_id_hash = ? ORDER BY erased_at DESC LIMIT 1",
            (game_id, external_id_hash),
        ).fetchone()
        if row is None:
            return None
        game_id, external_id_hash, player_id, placeholder, reason, erased_at = row
        return ErasureRecord(
            game_id, external_id_hash, player_id, placeholder, ErasureReason(reason), from_millis(erased_at)
        )

    def insert(self, record: ErasureRecord) -> None:
        self.db.change(
            "erasures",
            "INSERT INTO erasures (game_id, external_id_hash, player_id, placeholder, reason, erased_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (
                record.game_id,
                record.external_id_hash,
                record.player_id,
                record.placeholder,
                record.reason.value,
                to_millis(record.erased_at),
            ),
        )
