"""The merges port in memory."""

from __future__ import annotations

from livecore.memory.journal import AreaPort
from livecore.player_tools.memory import PlayerToolTables
from livecore.player_tools.merge import MergeRecord
from livecore.player_tools.store.merges import MergeStore
from livecore.scope import Environment


class MemoryMerges(AreaPort[PlayerToolTables]):
    __slots__ = ()
    TABLES = PlayerToolTables

    def get(self, game_id: str, env: Environment, from_external_id: str) -> MergeRecord | None:
        return self._t.merges.get((game_id, env.value, from_external_id))

    def insert(self, record: MergeRecord) -> None:
        self._tx.put(self._t.merges, (record.game_id, record.env.value, record.from_external_id), record)

    def forget_into(self, player_id: str) -> None:
        for key in [k for k, r in self._t.merges.items() if r.to_player_id == player_id]:
            self._tx.drop(self._t.merges, key)


def _implements_the_port(port: MemoryMerges) -> MergeStore:
    return port  # mypy checks the class against the area's port here
