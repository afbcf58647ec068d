"""The erasures port in memory."""

from __future__ import annotations

from livecore.memory.journal import MemoryPort
from livecore.player_tools.erasure import ErasureRecord


class MemoryErasures(MemoryPort):
    __slots__ = ()

    def get(self, game_id: str, external_id_hash: str) -> ErasureRecord | None:
        return self._s.erasures.get((game_id, external_id_hash))

    def insert(self, record: ErasureRecord) -> None:
        self._tx.put(self._s.erasures, (record.game_id, record.external_id_hash), record)
