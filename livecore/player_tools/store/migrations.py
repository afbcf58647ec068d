"""The migrations port. Migration row keys: kind + key -> the fingerprint of the row that was imported under
it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from livecore.player_tools.migration import MigrationKind
from livecore.scope import Environment


class MigrationKeys(Protocol):
    def fingerprints(
        self, game_id: str, env: Environment, kind: MigrationKind, keys: list[str]
    ) -> dict[str, str]: ...

    def put(
        self, game_id: str, env: Environment, kind: MigrationKind, key: str, fingerprint: str, at: datetime
    ) -> None: ...


class HasMigrations(Protocol):
    """A transaction that reaches the migrations port."""

    @property
    def migrations(self) -> MigrationKeys: ...
