"""The migrations port in SQL, for SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import datetime

from livecore.clock import to_millis
from livecore.player_tools.migration import MigrationKind
from livecore.scope import Environment
from livecore_server.storage.sqlport import SqlPort


class SqlMigrationKeys(SqlPort):
    __slots__ = ()

    def fingerprints(
        self, game_id: str, env: Environment, kind: MigrationKind, keys: list[str]
    ) -> dict[str, str]:
        found: dict[str, str] = {}
        for start in range(0, len(keys), self.db.MAX_IN_LIST):
            in_keys, key_params = self.db.in_list("key", keys[start : start + self.db.MAX_IN_LIST])
            rows = self.db.read(
                f"SELECT key, fingerprint FROM migration_keys WHERE game_id = ? AND env = ? AND kind = ?"
                f" AND {in_keys}",
                (game_id, env.value, kind.value, *key_params),
            )
            found.update(dict(rows))
        return found

    def put(
        self, game_id: str, env: Environment, kind: MigrationKind, key: str, fingerprint: str, at: datetime
    ) -> None:
        self.db.change(
            "migration_keys",
            "INSERT INTO migration_keys (game_id, env, kind, key, fingerprint, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, env.value, kind.value, key, fingerprint, to_millis(at)),
        )
