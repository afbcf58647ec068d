"""API keys and personal keys, as operators manage them (docs/operators.md#api-keys,
docs/operators.md#personal-keys). Every action here is dashboard-only: a personal key gets 403
``dashboard_only`` (:data:`livecore.operators.rules.DASHBOARD_ONLY`). Secrets are shown once, in the answer
that made them, and stored as keyed hashes. ``apply`` mints and rotates API keys with the same functions
(:func:`mint_api_key`, :func:`rotate_api_key`)."""

from __future__ import annotations

from datetime import timedelta
from typing import Protocol

import attrs

from livecore.clock import format_ts, from_millis, to_millis
from livecore.commands import Runtime
from livecore.errors import CONFLICT, LivecoreError
from livecore.ids import Prefix, new_id, new_secret
from livecore.limits import ID
from livecore.operators import api
from livecore.operators.area_action import actions_of, roles_of
from livecore.operators.audit import record
from livecore.operators.errors import API_KEY_NOT_FOUND, PERSONAL_KEY_NOT_FOUND
from livecore.operators.request import OperatorRequest, operator_of
from livecore.operators.rules import (
    PERSONAL_KEY_ID_PREFIX,
    PERSONAL_KEY_PREFIX,
    check_key_role,
    key_expiry,
    may_revoke_key,
    sees_every_key,
)
from livecore.operators.store import (
    ApiKeyRecord,
    ApiKeys,
    MemberRecord,
    NewPersonalKey,
    OperatorsTx,
    PersonalKeyRecord,
)
from livecore.scope import Environment, Permission

# How long a rotated key keeps working beside its successor (docs/api.md#authentication).
ROTATION_GRACE = timedelta(days=60)
# "lc_test_" plus 8 random characters: enough to tell keys apart in logs.
KEY_PREFIX_LEN = 16


class HasApiKeys(Protocol):
    @property
    def keys(self) -> ApiKeys: ...


@attrs.frozen
class MintedKey:
    """A new API key, with its secret (shown once)."""

    id: str
    env: Environment
    permission: Permission
    secret: str


def mint_api_key(
    tx: HasApiKeys,
    rt: Runtime,
    game_id: str,
    name: str,
    env: Environment,
    permission: Permission,
    rate_limits: str = "{}",
) -> MintedKey:
    """A new key of the game, stored as a keyed hash of its secret."""
    now = rt.clock.now()
    key_id = new_id(Prefix.API_KEY, now, rt.rng)
    secret = new_secret(rt.rng, prefix=f"lc_{env.value}_")
    tx.keys.insert(
        key_id,
        game_id,
        name,
        env,
        permission,
        rt.hasher.hash(secret),
        secret[:KEY_PREFIX_LEN],
        rate_limits,
        to_millis(now),
    )
    return MintedKey(key_id, env, permission, secret)


def retire_api_key(tx: HasApiKeys, rt: Runtime, key_id: str) -> None:
    """A rotated key works for :data:`ROTATION_GRACE` of service time more, then stops."""
    tx.keys.retire(key_id, to_millis(rt.clock.now() + ROTATION_GRACE))


def rotate_api_key(tx: HasApiKeys, rt: Runtime, game_id: str, name: str) -> MintedKey:
    """A successor with the same settings for the game's active key of that name, which retires."""
    active = tx.keys.active(game_id, name)
    if active is None:
        raise LookupError(f"no active key named {name!r}")
    retire_api_key(tx, rt, active.id)
    return mint_api_key(tx, rt, game_id, name, active.env, active.permission, active.rate_limits)


# --- API keys ---------------------------------------------------------------------------------------------


def api_key_view(k: ApiKeyRecord) -> api.ApiKeyView:
    status = "revoked" if k.revoked_at is not None else "retiring" if k.retires_at is not None else "active"
    return api.ApiKeyView(
        key_id=k.id,
        name=k.name,
        env=k.env,
        permission=k.permission,
        prefix=k.prefix,
        status=status,
        created_at=from_millis(k.created_at),
        retires_at=from_millis(k.retires_at) if k.retires_at is not None else None,
        revoked_at=from_millis(k.revoked_at) if k.revoked_at is not None else None,
        last_used_at=from_millis(k.last_used_at) if k.last_used_at is not None else None,
        last_operation=k.last_operation,
    )


def api_key_listing(tx: OperatorsTx, game_id: str, key_id: str) -> ApiKeyRecord:
    """The game's API key, or 404 ``api_key_not_found``."""
    found = tx.keys.listing(game_id, key_id)
    if found is None:
        raise LivecoreError(API_KEY_NOT_FOUND, "No such API key.", {"keyId": key_id})
    return found


def api_keys(request: OperatorRequest[None, None], tx: OperatorsTx) -> api.ApiKeysResponse:
    return api.ApiKeysResponse(keys=[api_key_view(k) for k in tx.keys.of_game(request.scope.game_id)])


def create_api_key(
    request: OperatorRequest[api.CreateApiKeyRequest, None], tx: OperatorsTx
) -> api.ApiKeySecretResponse:
    body, game_id = request.body, request.scope.game_id
    ID.check(body.name, "name")
    if tx.keys.active(game_id, body.name) is not None:
        raise LivecoreError(
            CONFLICT,
            "The game has an active key of that name: rotate it instead.",
            {"name": body.name},
        )
    minted = mint_api_key(tx, request.rt, game_id, body.name, body.env, body.permission)
    made = api_key_listing(tx, game_id, minted.id)
    record(
        tx,
        request,
        f"api_key:{made.id}",
        after={"name": made.name, "env": made.env.value, "prefix": made.prefix},
    )
    return api.ApiKeySecretResponse(key=api_key_view(made), secret=minted.secret)


def rotate_api_key_route(request: OperatorRequest[None, None], tx: OperatorsTx) -> api.ApiKeySecretResponse:
    game_id = request.scope.game_id
    old = api_key_listing(tx, game_id, request.params["keyId"])
    if old.revoked_at is not None or old.retires_at is not None:
        raise LivecoreError(CONFLICT, "Only the active key of a name is rotated.", {"keyId": old.id})
    minted = rotate_api_key(tx, request.rt, game_id, old.name)
    made = api_key_listing(tx, game_id, minted.id)
    retiring = api_key_listing(tx, game_id, old.id)
    record(
        tx,
        request,
        f"api_key:{old.id}",
        metadata={"successorId": made.id, "successorPrefix": made.prefix},
        before={"status": "active"},
        after={"status": "retiring", "retiresAt": format_ts(from_millis(retiring.retires_at or 0))},
    )
    return api.ApiKeySecretResponse(
        key=api_key_view(made), secret=minted.secret, retiring=api_key_view(retiring)
    )


def revoke_api_key(request: OperatorRequest[None, None], tx: OperatorsTx) -> api.ApiKeyResponse:
    game_id = request.scope.game_id
    key = api_key_listing(tx, game_id, request.params["keyId"])
    if key.revoked_at is None:
        tx.keys.revoke(key.id, to_millis(request.rt.clock.now()))
    revoked = api_key_listing(tx, game_id, key.id)
    record(
        tx,
        request,
        f"api_key:{key.id}",
        before={"status": api_key_view(key).status},
        after={"status": "revoked"},
    )
    return api.ApiKeyResponse(key=api_key_view(revoked))


# --- personal keys ----------------------------------------------------------------------------------------


def personal_key_view(k: PersonalKeyRecord, member: MemberRecord) -> api.PersonalKeyView:
    return api.PersonalKeyView(
        key_id=k.id,
        member_id=member.id,
        member_key=member.key,
        prefix=k.prefix,
        role=k.role,
        read_only=k.read_only,
        created_at=from_millis(k.created_at_ms),
        expires_at=from_millis(k.expires_at_ms),
        revoked_at=from_millis(k.revoked_at_ms) if k.revoked_at_ms is not None else None,
        last_used_at=from_millis(k.last_used_at_ms) if k.last_used_at_ms is not None else None,
    )


def personal_keys(request: OperatorRequest[None, None], tx: OperatorsTx) -> api.PersonalKeysResponse:
    operator = operator_of(request)
    rows = tx.members.keys_of_studio(request.scope.studio_id)
    return api.PersonalKeysResponse(
        keys=[
            personal_key_view(k, m) for k, m in rows if sees_every_key(operator) or m.id == operator.member_id
        ]
    )


def create_personal_key(
    request: OperatorRequest[api.CreatePersonalKeyRequest, None], tx: OperatorsTx
) -> api.PersonalKeySecretResponse:
    operator, body, rt = operator_of(request), request.body, request.rt
    member = tx.members.get(operator.member_id)
    assert member is not None  # its session was read with the member
    served = actions_of(route for area in request.services.areas for route in area.routes)
    check_key_role(member.role, body.role, (roles_of(action) for action in served.values()))
    now = rt.clock.now()
    secret = new_secret(rt.rng, prefix=PERSONAL_KEY_PREFIX)
    key = NewPersonalKey(
        id=new_id(PERSONAL_KEY_ID_PREFIX, now, rt.rng),
        member_id=member.id,
        prefix=secret[: len(PERSONAL_KEY_PREFIX) + 8],
        role=body.role,
        read_only=body.read_only,
        created_at_ms=to_millis(now),
        expires_at_ms=to_millis(key_expiry(now, body.expires_in_days)),
    )
    tx.members.insert_key(key, rt.hasher.hash(secret))
    record(
        tx,
        request,
        f"personal_key:{key.id}",
        after={
            "prefix": key.prefix,
            "readOnly": key.read_only,
            "role": key.role.value if key.role else None,
            "expiresAt": format_ts(from_millis(key.expires_at_ms)),
        },
    )
    return api.PersonalKeySecretResponse(key=personal_key_view(key, member), secret=secret)


def revoke_personal_key(request: OperatorRequest[None, None], tx: OperatorsTx) -> api.PersonalKeyResponse:
    operator = operator_of(request)
    key_id = request.params["keyId"]
    key = tx.members.key(key_id)
    member = tx.members.get(key.member_id) if key is not None else None
    if key is None or member is None or member.studio_id != request.scope.studio_id:
        raise LivecoreError(PERSONAL_KEY_NOT_FOUND, "No such personal key.", {"keyId": key_id})
    if not may_revoke_key(operator, member.id):
        # Another member's key, to a member who may not see it: as if it did not exist.
        raise LivecoreError(PERSONAL_KEY_NOT_FOUND, "No such personal key.", {"keyId": key_id})
    applied = tx.members.revoke_key(key.id, to_millis(request.rt.clock.now()))
    record(tx, request, f"personal_key:{key.id}", metadata={"memberId": member.id, "applied": applied})
    revoked = tx.members.key(key.id)
    assert revoked is not None
    return api.PersonalKeyResponse(key=personal_key_view(revoked, member))
