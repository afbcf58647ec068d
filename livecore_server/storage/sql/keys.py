"""The API keys port in SQL (server-only): keys as authentication reads them, and their usage."""

from __future__ import annotations

from typing import Any

import attrs
import orjson

from livecore.ratelimit import BucketName
from livecore.scope import Actor, Environment, Permission, Scope
from livecore_server.storage.columns import Columns
from livecore_server.storage.records import ApiKey
from livecore_server.storage.sqlport import KEYS_CHANGED, SqlPort


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


def _text(value: Any) -> str:
    """A JSON column as its text: SQLite reads it back as text, PostgreSQL as its bytes."""
    return value if isinstance(value, str) else bytes(value).decode()


def _listing(
    id: Any,
    name: Any,
    env: Any,
    permission: Any,
    prefix: Any,
    rate_limits: Any,
    created_at: Any,
    revoked_at: Any,
    retires_at: Any,
    last_used_at: Any,
    last_operation: Any,
) -> KeyListing:
    return KeyListing(
        id,
        name,
        Environment(env),
        Permission(permission),
        prefix,
        _text(rate_limits),
        created_at,
        revoked_at,
        retires_at,
        last_used_at,
        last_operation,
    )


_LISTING_COLUMNS = Columns(_listing)


def _key_row(id: Any, env: Any, permission: Any, rate_limits: Any) -> KeyRow:
    return KeyRow(id, Environment(env), Permission(permission), _text(rate_limits))


_KEY_ROW_COLUMNS = Columns(_key_row)


def _api_key(
    id: Any,
    game_id: Any,
    studio_id: Any,
    name: Any,
    env: Any,
    permission: Any,
    prefix: Any,
    rate_limits: Any,
    retires_at: Any,
) -> ApiKey:
    environment = Environment(env)
    return ApiKey(
        id=id,
        game_id=game_id,
        studio_id=studio_id,
        name=name,
        env=environment,
        permission=Permission(permission),
        prefix=prefix,
        rate_limits={BucketName(k): int(v) for k, v in orjson.loads(rate_limits).items()},
        scope=Scope(
            studio_id=studio_id, game_id=game_id, env=environment, actor=Actor(kind="api_key", prefix=prefix)
        ),
        retires_at_ms=retires_at,
    )


# Of a key joined with its game (``g``), which holds the studio.
_API_KEY_COLUMNS = Columns(_api_key, "k", studio_id="g.studio_id")


class SqlKeys(SqlPort):
    __slots__ = ()

    def by_hash(self, secret_hash: str, now_ms: int) -> ApiKey | None:
        """The key of that secret if it works at ``now_ms``: not revoked, and not past its retirement."""
        row = self.db.read(
            f"SELECT {_API_KEY_COLUMNS.sql} FROM api_keys k JOIN games g ON g.id = k.game_id"
            " WHERE k.secret_hash = ? AND k.revoked_at IS NULL"
            " AND (k.retires_at IS NULL OR k.retires_at > ?)",
            (secret_hash, now_ms),
        ).fetchone()
        return None if row is None else _API_KEY_COLUMNS.of(row)

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
            f"SELECT {_KEY_ROW_COLUMNS.sql} FROM api_keys"
            " WHERE game_id = ? AND name = ? AND revoked_at IS NULL AND retires_at IS NULL",
            (game_id, name),
        ).fetchone()
        return None if row is None else _KEY_ROW_COLUMNS.of(row)

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
        self.db.config_changed(KEYS_CHANGED)  # unknown keys are cached too

    def set_rate_limits(self, key_id: str, rate_limits: str) -> None:
        self.db.change("api_keys", "UPDATE api_keys SET rate_limits = ? WHERE id = ?", (rate_limits, key_id))
        self.db.config_changed(KEYS_CHANGED)

    def retire(self, key_id: str, retires_at_ms: int) -> None:
        """The key was rotated: it works until ``retires_at_ms``, and a successor is the active key."""
        self.db.change("api_keys", "UPDATE api_keys SET retires_at = ? WHERE id = ?", (retires_at_ms, key_id))
        self.db.config_changed(KEYS_CHANGED)

    def of_game(self, game_id: str) -> list[KeyListing]:
        """Every key of the game, revoked ones too, by name then newest first."""
        rows = self.db.read(
            f"SELECT {_LISTING_COLUMNS.sql} FROM api_keys WHERE game_id = ?"
            " ORDER BY name, created_at DESC, id DESC",
            (game_id,),
        ).fetchall()
        return [_LISTING_COLUMNS.of(r) for r in rows]

    def listing(self, game_id: str, key_id: str) -> KeyListing | None:
        row = self.db.read(
            f"SELECT {_LISTING_COLUMNS.sql} FROM api_keys WHERE game_id = ? AND id = ?", (game_id, key_id)
        ).fetchone()
        return None if row is None else _LISTING_COLUMNS.of(row)

    def revoke(self, key_id: str, now_ms: int) -> None:
        self.db.change("api_keys", "UPDATE api_keys SET revoked_at = ? WHERE id = ?", (now_ms, key_id))
        self.db.config_changed(KEYS_CHANGED)
