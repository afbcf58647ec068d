"""The API keys port in SQL (server-only): keys as authentication reads them, and their usage."""

from __future__ import annotations

from typing import Any

import attrs

from livecore.scope import Environment, Permission
from livecore_server.storage.records import ApiKey
from livecore_server.storage.sqlport import SqlPort


@attrs.frozen
class KeyRow:
    """An active key as ``apply`` and rotation see it (never its secret)."""

    id: str
    env: Environment
    permission: Permission
    rate_limits: str  # JSON text, as stored


@attrs.frozen
class KeyListing:
    """A key as operators list it (never its secret); times in milliseconds."""

    id: str
    name: str
    env: Environment
    permission: Permission
    prefix: str
    rate_limits: str
    created_at: int
    revoked_at: int | None
    retires_at: int | None
    last_used_at: int | None
    last_operation: str | None


_LISTING = (
    "id, name, env, permission, prefix, rate_limits, created_at, revoked_at, retires_at, last_used_at,"
    " last_operation"
)


def _text(value: Any) -> str:
    """A JSON column as its text: SQLite reads it back as text, PostgreSQL as its bytes."""
    return value if isinstance(value, str) else bytes(value).decode()


def _listing(r: Any) -> KeyListing:
    return KeyListing(
        r[0], r[1], Environment(r[2]), Permission(r[3]), r[4], _text(r[5]), r[6], r[7], r[8], r[9], r[10]
    )


class SqlKeys(SqlPort):
    __slots__ = ()

    def by_hash(self, secret_hash: str, now_ms: int) -> ApiKey | None:
        """The key of that secret if it works at ``now_ms``: not revoked, and not past its retirement."""
        row = self.db.read(
            "SELECT k.id, k.game_id, g.studio_id, k.name, k.env, k.permission, k.prefix, k.rate_limits,"
            " k.retires_at FROM api_keys k JOIN games g ON g.id = k.game_id"
            " WHERE k.secret_hash = ? AND k.revoked_at IS NULL"
            " AND (k.retires_at IS NULL OR k.retires_at > ?)",
            (secret_hash, now_ms),
        ).fetchone()
        return None if row is None else ApiKey.from_row(row)

    def any_key(self) -> bool:
        """Whether the database holds an API key (revoked ones too)."""
        return self.db.read("SELECT 1 FROM api_keys LIMIT 1", ()).fetchone() is not None

    def record_usage(self, usage: dict[str, tuple[int, str, str | None]]) -> None:
        self.db.executemany(
            "UPDATE api_keys SET last_used_at = ?, last_operation = ?, last_sdk = COALESCE(?, last_sdk)"
            " WHERE id = ?",
            [(ms, op, sdk, key_id) for key_id, (ms, op, sdk) in usage.items()],
        )

    def active(self, game_id: str, name: str) -> KeyRow | None:
        """The game's active key of that name: not revoked, not rotated."""
        row = self.db.read(
            "SELECT id, env, permission, rate_limits FROM api_keys"
            " WHERE game_id = ? AND name = ? AND revoked_at IS NULL AND retires_at IS NULL",
            (game_id, name),
        ).fetchone()
        if row is None:
            return None
        return KeyRow(row[0], Environment(row[1]), Permission(row[2]), _text(row[3]))

    def insert(
        self,
        key_id: str,
        game_id: str,
        name: str,
        env: Environment,
        permission: Permission,
        secret_hash: str,
        prefix: str,
        rate_limits: str,
        now_ms: int,
    ) -> None:
        self.db.change(
            "api_keys",
            "INSERT INTO api_keys"
            " (id, game_id, name, env, permission, secret_hash, prefix, rate_limits, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (key_id, game_id, name, env.value, permission.value, secret_hash, prefix, rate_limits, now_ms),
        )

    def set_rate_limits(self, key_id: str, rate_limits: str) -> None:
        self.db.change("api_keys", "UPDATE api_keys SET rate_limits = ? WHERE id = ?", (rate_limits, key_id))

    def retire(self, key_id: str, retires_at_ms: int) -> None:
        """The key was rotated: it works until ``retires_at_ms``, and a successor is the active key."""
        self.db.change("api_keys", "UPDATE api_keys SET retires_at = ? WHERE id = ?", (retires_at_ms, key_id))

    def of_game(self, game_id: str) -> list[KeyListing]:
        """Every key of the game, revoked ones too, by name then newest first."""
        rows = self.db.read(
            f"SELECT {_LISTING} FROM api_keys WHERE game_id = ? ORDER BY name, created_at DESC, id DESC",
            (game_id,),
        ).fetchall()
        return [_listing(r) for r in rows]

    def listing(self, game_id: str, key_id: str) -> KeyListing | None:
        row = self.db.read(
            f"SELECT {_LISTING} FROM api_keys WHERE game_id = ? AND id = ?", (game_id, key_id)
        ).fetchone()
        return None if row is None else _listing(row)

    def revoke(self, key_id: str, now_ms: int) -> None:
        self.db.change("api_keys", "UPDATE api_keys SET revoked_at = ? WHERE id = ?", (now_ms, key_id))
