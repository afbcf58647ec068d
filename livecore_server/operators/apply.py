"""Applying a manifest to the database (docs/reference/manifest-and-cli.md#manifest): create or update the
studio, its games and their settings, API keys and webhook endpoints, in one transaction; idempotent.

- A game is matched by (studio, key) and its name and settings are replaced, its live events included:
  an event left out of the manifest leaves the settings and opens no new window, while its windows,
  attempts, boards and grants stay in their own tables.
- An API key is matched by (game, name). Changing its rate limits updates it in place; changing its
  environment or permission rotates it: a successor is minted with the new ones (a key never silently
  gains another environment's data or another surface's power), and the old key keeps working as it was
  for :data:`~livecore.operators.keys.ROTATION_GRACE` of service time, as every rotation does.
- A webhook endpoint is matched by (game, name); URL, events and environment update in place.
- A member is matched by (studio, key); email and role update in place, and a member left out of the
  manifest is removed (its sessions end, its personal keys stop working).
- The studio's ``[plugins] areas`` replace what this studio recorded, and only that: a server serves
  the areas every studio of its database names (livecore_server/plugins.py).
- Secrets (API keys, webhook signing secrets) are minted only on creation and appear in the result
  only then (null otherwise). Keys and endpoints missing from the manifest are left as they are.
"""

from __future__ import annotations

from typing import Any

import orjson

from livecore import registry
from livecore.clock import to_millis
from livecore.commands import Runtime
from livecore.ids import Prefix, new_id, new_secret
from livecore.manifest import ApiKeyManifest, Manifest, WebhookManifest
from livecore.operators.keys import MintedKey, mint_api_key, retire_api_key, rotate_api_key
from livecore.operators.rules import MEMBER_ID_PREFIX
from livecore.scope import Environment, Permission
from livecore.webhooks.delivery import Endpoint
from livecore_server.crypto import ServerKeys
from livecore_server.operators.sql import OperatorsTransaction, operators_tx
from livecore_server.operators.sql.members import Member
from livecore_server.plugins import BY_STUDIO, RECORDED
from livecore_server.storage.records import settings_converter
from livecore_server.storage.server_store import ServerStore, ServerTransaction


def apply_manifest(store: ServerStore, keys: ServerKeys, rt: Runtime, manifest: Manifest) -> dict[str, Any]:
    return store.run(lambda tx: _apply(tx, keys, rt, manifest))


def _apply(tx: ServerTransaction, keys: ServerKeys, rt: Runtime, manifest: Manifest) -> dict[str, Any]:
    now = to_millis(rt.clock.now())
    studio_id = tx.manifest.studio_id(manifest.studio)
    if studio_id is None:
        studio_id = new_id(Prefix.STUDIO, rt.clock.now(), rt.rng)
        tx.manifest.insert_studio(studio_id, manifest.studio, now)
    _record_areas(tx, manifest, now)
    games: dict[str, Any] = {}
    for game_key, game in manifest.games.items():
        settings = game.settings()
        stored = orjson.dumps(settings_converter.unstructure(settings)).decode()
        game_id = tx.manifest.game_id(studio_id, game_key)
        if game_id is None:
            game_id = new_id(Prefix.GAME, rt.clock.now(), rt.rng)
            tx.manifest.insert_game(game_id, studio_id, game_key, game.name, stored, now)
        tx.manifest.update_game(
            game_id, game.name, stored, now, enabled=registry.remembered_on(settings, registry.installed())
        )
        games[game_key] = {
            "id": game_id,
            "apiKeys": {name: _api_key(tx, rt, game_id, name, k) for name, k in game.api_keys.items()},
            "webhooks": {name: _webhook(tx, keys, rt, game_id, name, w) for name, w in game.webhooks.items()},
        }
    return {
        "studio": {"key": manifest.studio, "id": studio_id},
        "games": games,
        "members": _members(operators_tx(tx), rt, studio_id, manifest),
    }


def _record_areas(tx: ServerTransaction, manifest: Manifest, now_ms: int) -> None:
    """The studio's own areas, replacing only this studio's record, and the union of every studio's, which
    a server starting on this database serves (livecore_server/plugins.py): one studio's manifest never
    stops another's areas."""
    kept = tx.meta.get(BY_STUDIO)
    by_studio: dict[str, list[str]]
    if kept is not None:
        by_studio = orjson.loads(kept)
    else:
        # Recorded before each studio's were kept apart: the one list (the last applied manifest's) counts
        # as every studio's until each applies again. Which studio named it is not known, and serving it
        # is what the database did.
        before = orjson.loads(tx.meta.get(RECORDED) or "[]")
        by_studio = {key: before for key in tx.manifest.studio_keys()}
    by_studio[manifest.studio] = list(manifest.plugins.areas)
    tx.meta.put(BY_STUDIO, orjson.dumps(dict(sorted(by_studio.items()))).decode(), now_ms)
    union = dict.fromkeys(name for key in sorted(by_studio) for name in by_studio[key])
    tx.meta.put(RECORDED, orjson.dumps(list(union)).decode(), now_ms)


def _members(tx: OperatorsTransaction, rt: Runtime, studio_id: str, manifest: Manifest) -> dict[str, Any]:
    """Members are matched by (studio, key); email and role update in place. A member the manifest no
    longer names is removed: its sessions end and its personal keys stop working (docs/operators.md)."""
    now = rt.clock.now()
    out: dict[str, Any] = {}
    for key, spec in manifest.members.items():
        member = tx.members.by_key(studio_id, key)
        if member is None:
            member = Member(new_id(MEMBER_ID_PREFIX, now, rt.rng), studio_id, key, spec.email, spec.role)
            tx.members.insert(member, to_millis(now))
        elif (member.email, member.role, member.removed_at_ms) != (spec.email, spec.role, None):
            tx.members.update(member.id, spec.email, spec.role, to_millis(now))
        out[key] = {"id": member.id, "email": spec.email, "role": spec.role.value}
    for member in tx.members.of_studio(studio_id):
        if member.key not in manifest.members:
            tx.members.remove(member.id, to_millis(now))
    return out


def _api_key(
    tx: ServerTransaction, rt: Runtime, game_id: str, name: str, spec: ApiKeyManifest
) -> dict[str, Any]:
    limits = orjson.dumps({b.value: n for b, n in spec.rate_limits.items()}).decode()
    active = tx.keys.active(game_id, name)
    if active is not None and (active.env, active.permission) == (spec.env, spec.permission):
        tx.keys.set_rate_limits(active.id, limits)
        return {"id": active.id, "env": spec.env.value, "permission": spec.permission.value, "secret": None}
    if active is not None:
        retire_api_key(tx, rt, active.id)
    return mint_key(tx, rt, game_id, name, spec.env, spec.permission, limits)


def mint_key(
    tx: ServerTransaction,
    rt: Runtime,
    game_id: str,
    name: str,
    env: Environment,
    permission: Permission,
    rate_limits: str = "{}",
) -> dict[str, Any]:
    return _minted(mint_api_key(tx, rt, game_id, name, env, permission, rate_limits))


def _minted(key: MintedKey) -> dict[str, Any]:
    return {"id": key.id, "env": key.env.value, "permission": key.permission.value, "secret": key.secret}


def rotate_key(store: ServerStore, rt: Runtime, game_id: str, name: str) -> dict[str, Any]:
    """Mint a successor with the same settings for the active key of that name; the old key keeps working
    for :data:`~livecore.operators.keys.ROTATION_GRACE` of service time, then stops."""

    return store.run(lambda tx: rotate_in(tx, rt, game_id, name))


def rotate_in(tx: ServerTransaction, rt: Runtime, game_id: str, name: str) -> dict[str, Any]:
    """:func:`rotate_key` in a transaction of the caller's."""
    return _minted(rotate_api_key(tx, rt, game_id, name))


def _webhook(
    tx: ServerTransaction, keys: ServerKeys, rt: Runtime, game_id: str, name: str, spec: WebhookManifest
) -> dict[str, Any]:
    now = to_millis(rt.clock.now())
    endpoint_id = tx.webhooks.endpoint_id(game_id, name)
    if endpoint_id is not None:
        tx.webhooks.update_endpoint_target(endpoint_id, spec.env, spec.url, tuple(spec.events), now)
        return {"id": endpoint_id, "env": spec.env.value, "secret": None}
    endpoint_id = new_id(Prefix.WEBHOOK_ENDPOINT, rt.clock.now(), rt.rng)
    secret = new_secret(rt.rng, prefix="whsec_")
    endpoint = Endpoint(endpoint_id, game_id, name, spec.env, spec.url, tuple(spec.events))
    tx.webhooks.insert_endpoint(endpoint, keys.encrypt(secret, context=endpoint_id), now)
    return {"id": endpoint_id, "env": spec.env.value, "secret": secret}
