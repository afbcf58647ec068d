"""Applying a manifest to the database (DECISIONS 1.1): create or update the studio, its games and
their settings, API keys and webhook endpoints, in one transaction; idempotent.

- A game is matched by (studio, key) and its name and settings are replaced.
- An API key is matched by (game, name). Changing its rate limits updates it in place; changing its
  environment or permission revokes it and mints a successor, since a key must never silently gain
  another environment's data or another surface's power.
- A webhook endpoint is matched by (game, name); URL, events and environment update in place.
- Secrets (API keys, webhook signing secrets) are minted only on creation and appear in the result
  only then (null otherwise). Keys and endpoints missing from the manifest are left as they are.
"""

from __future__ import annotations

from typing import Any

import orjson

from livecore.clock import to_millis
from livecore.commands import Runtime
from livecore.ids import Prefix, new_id, new_secret
from livecore.scope import Environment, Permission
from livecore_server.crypto import ServerKeys
from livecore_server.manifest import ApiKeyManifest, Manifest, WebhookManifest
from livecore_server.storage.records import settings_converter
from livecore_server.storage.server_store import ServerStore
from livecore_server.storage.sqlport import SqlTransaction

KEY_PREFIX_LEN = 16  # "lc_test_" plus 8 random characters: enough to tell keys apart in logs


def apply_manifest(store: ServerStore, keys: ServerKeys, rt: Runtime, manifest: Manifest) -> dict[str, Any]:
    return store.run(lambda tx: _apply(tx, keys, rt, manifest))


def _apply(tx: SqlTransaction, keys: ServerKeys, rt: Runtime, manifest: Manifest) -> dict[str, Any]:
    now = to_millis(rt.clock.now())
    row = tx.execute("SELECT id FROM studios WHERE key = ?", (manifest.studio,)).fetchone()
    if row is None:
        studio_id = new_id(Prefix.STUDIO, rt.clock.now(), rt.rng)
        tx.execute(
            "INSERT INTO studios (id, key, created_at) VALUES (?, ?, ?)", (studio_id, manifest.studio, now)
        )
    else:
        studio_id = row[0]
    games: dict[str, Any] = {}
    for game_key, game in manifest.games.items():
        settings = orjson.dumps(settings_converter.unstructure(game.settings())).decode()
        row = tx.execute(
            "SELECT id FROM games WHERE studio_id = ? AND key = ?", (studio_id, game_key)
        ).fetchone()
        if row is None:
            game_id = new_id(Prefix.GAME, rt.clock.now(), rt.rng)
            tx.execute(
                "INSERT INTO games (id, studio_id, key, name, settings, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, studio_id, game_key, game.name, settings, now, now),
            )
        else:
            game_id = row[0]
            tx.execute(
                "UPDATE games SET name = ?, settings = ?, updated_at = ? WHERE id = ?",
                (game.name, settings, now, game_id),
            )
        if game.gifting.enabled:
            tx.execute("UPDATE games SET gifting_ever_enabled = TRUE WHERE id = ?", (game_id,))
        games[game_key] = {
            "id": game_id,
            "apiKeys": {name: _api_key(tx, rt, game_id, name, k) for name, k in game.api_keys.items()},
            "webhooks": {name: _webhook(tx, keys, rt, game_id, name, w) for name, w in game.webhooks.items()},
        }
    return {"studio": {"key": manifest.studio, "id": studio_id}, "games": games}


def _api_key(
    tx: SqlTransaction, rt: Runtime, game_id: str, name: str, spec: ApiKeyManifest
) -> dict[str, Any]:
    limits = orjson.dumps({b.value: n for b, n in spec.rate_limits.items()}).decode()
    row = tx.execute(
        "SELECT id, env, permission FROM api_keys WHERE game_id = ? AND name = ? AND revoked_at IS NULL",
        (game_id, name),
    ).fetchone()
    if row is not None and (row[1], row[2]) == (spec.env.value, spec.permission.value):
        tx.execute("UPDATE api_keys SET rate_limits = ? WHERE id = ?", (limits, row[0]))
        return {"id": row[0], "env": spec.env.value, "permission": spec.permission.value, "secret": None}
    if row is not None:
        revoke_key(tx, rt, row[0])
    return mint_key(tx, rt, game_id, name, spec.env, spec.permission, limits)


def mint_key(
    tx: SqlTransaction,
    rt: Runtime,
    game_id: str,
    name: str,
    env: Environment,
    permission: Permission,
    rate_limits: str = "{}",
) -> dict[str, Any]:
    now = rt.clock.now()
    key_id = new_id(Prefix.API_KEY, now, rt.rng)
    secret = new_secret(rt.rng, prefix=f"lc_{env.value}_")
    tx.execute(
        "INSERT INTO api_keys"
        " (id, game_id, name, env, permission, secret_hash, prefix, rate_limits, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            key_id,
            game_id,
            name,
            env.value,
            permission.value,
            rt.hasher.hash(secret),
            secret[:KEY_PREFIX_LEN],
            rate_limits,
            to_millis(now),
        ),
    )
    return {"id": key_id, "env": env.value, "permission": permission.value, "secret": secret}


def revoke_key(tx: SqlTransaction, rt: Runtime, key_id: str) -> None:
    tx.execute("UPDATE api_keys SET revoked_at = ? WHERE id = ?", (to_millis(rt.clock.now()), key_id))


def rotate_key(store: ServerStore, rt: Runtime, game_id: str, name: str) -> dict[str, Any]:
    """Revoke the active key of that name and mint a successor with the same settings."""

    def rotate(tx: SqlTransaction) -> dict[str, Any]:
        row = tx.execute(
            "SELECT id, env, permission, rate_limits FROM api_keys"
            " WHERE game_id = ? AND name = ? AND revoked_at IS NULL",
            (game_id, name),
        ).fetchone()
        if row is None:
            raise LookupError(f"no active key named {name!r}")
        revoke_key(tx, rt, row[0])
        # JSON columns read back as text (SQLite) or its bytes (PostgreSQL).
        limits = row[3] if isinstance(row[3], str) else bytes(row[3]).decode()
        return mint_key(tx, rt, game_id, name, Environment(row[1]), Permission(row[2]), limits)

    return store.run(rotate)


def _webhook(
    tx: SqlTransaction, keys: ServerKeys, rt: Runtime, game_id: str, name: str, spec: WebhookManifest
) -> dict[str, Any]:
    now = to_millis(rt.clock.now())
    events = orjson.dumps(list(spec.events)).decode()
    row = tx.execute(
        "SELECT id FROM webhook_endpoints WHERE game_id = ? AND name = ?", (game_id, name)
    ).fetchone()
    if row is not None:
        tx.execute(
            "UPDATE webhook_endpoints SET env = ?, url = ?, events = ?, updated_at = ? WHERE id = ?",
            (spec.env.value, spec.url, events, now, row[0]),
        )
        return {"id": row[0], "env": spec.env.value, "secret": None}
    endpoint_id = new_id(Prefix.WEBHOOK_ENDPOINT, rt.clock.now(), rt.rng)
    secret = new_secret(rt.rng, prefix="whsec_")
    encrypted = keys.encrypt(secret, context=endpoint_id)
    tx.execute(
        "INSERT INTO webhook_endpoints"
        " (id, game_id, name, env, url, events, secret_enc, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            endpoint_id,
            game_id,
            name,
            spec.env.value,
            spec.url,
            events,
            encrypted,
            now,
            now,
        ),
    )
    return {"id": endpoint_id, "env": spec.env.value, "secret": secret}
