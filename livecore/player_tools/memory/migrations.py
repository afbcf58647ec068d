"""The migrations port in memory."""

from __future__ import annotations

from datetime import datetime

from livecore.memory.journal import MemoryPort
from livecore.player_tools.migration import MigrationKind
from livecore.scope import Environment


class MemoryMigrationKeys(MemoryPort):
    __slots__ = ()

    def fingerprints(
        self, game_id: str, env: Environment, kind: MigrationKind, keys: list[str]
    ) -> dict[str, str]:
        table = self._s.migration_keys
        return {k: fp for k in keys if (fp := table.get((game_id, env.value, kind.value, k))) is not None}

    def put(
        self, game_id: str, env: Environment, kind: MigrationKind, key: str, fingerprint: str, at: datetime
    ) -> None:
        self._tx.put(self._s.migration_keys, (game_id, env.value, kind.value, key), fingerprint)
