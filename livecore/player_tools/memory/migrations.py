"""The migrations port in memory."""

from __future__ import annotations

from datetime import datetime

from livecore.memory.journal import AreaPort
from livecore.player_tools.memory import PlayerToolTables
from livecore.player_tools.migration import MigrationKind
from livecore.player_tools.store.migrations import MigrationKeys
from livecore.scope import Environment


class MemoryMigrationKeys(AreaPort[PlayerToolTables]):
    __slots__ = ()
    TABLES = PlayerToolTables

    def fingerprints(
        self, game_id: str, env: Environment, kind: MigrationKind, keys: list[str]
    ) -> dict[str, str]:
        table = self._t.migration_keys
        return {k: fp for k in keys if (fp := table.get((game_id, env.value, kind.value, k))) is not None}

    def put(
        self, game_id: str, env: Environment, kind: MigrationKind, key: str, fingerprint: str, at: datetime
    ) -> None:
        self._tx.put(self._t.migration_keys, (game_id, env.value, kind.value, key), fingerprint)


def _implements_the_port(port: MemoryMigrationKeys) -> MigrationKeys:
    return port  # mypy checks the class against the area's port here
