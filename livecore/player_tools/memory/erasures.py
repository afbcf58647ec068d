"""The erasures port in memory."""

from __future__ import annotations

from livecore.memory.journal import AreaPort
from livecore.player_tools.erasure import ErasureRecord
from livecore.player_tools.memory import PlayerToolTables
from livecore.player_tools.store.erasures import ErasureStore


class MemoryErasures(AreaPort[PlayerToolTables]):
    __slots__ = ()
    TABLES = PlayerToolTables

    def get(self, game_id: str, external_id_hash: str) -> ErasureRecord | None:
        return self._t.erasures.get((game_id, external_id_hash))

    def insert(self, record: ErasureRecord) -> None:
        self._tx.put(self._t.erasures, (record.game_id, record.external_id_hash), record)


def _implements_the_port(port: MemoryErasures) -> ErasureStore:
    return port  # mypy checks the class against the area's port here
