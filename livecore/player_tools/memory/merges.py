"""The merges port in memory."""

from __future__ import annotations

from livecore.memory.journal import MemoryPort
from livecore.player_tools.merge import MergeRecord
from livecore.scope import Environment


class MemoryMerges(MemoryPort):
    __slots__ = ()

    def get(self, game_id: str, env: Environment, from_external_id: str) -> MergeRecord | None:
        return self._s.merges.get((game_id, env.value, from_external_id))

    def insert(self, record: MergeRecord) -> None:
        self._tx.put(self._s.merges, (record.game_id, record.env.value, record.from_external_id), record)

    def forget_into(self, player_id: str) -> None:
        for key in [k for k, r in self._s.merges.items() if r.to_player_id == player_id]:
            self._tx.drop(self._s.merges, key)
