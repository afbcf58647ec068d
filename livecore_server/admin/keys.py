"""API keys and personal keys, as operators manage them (docs/operators.md#api-keys,
docs/operators.md#personal-keys). Every action here is dashboard-only: a personal key gets 403
``dashboard_only`` (``livecore.operators.rules.DASHBOARD_ONLY``). Secrets are shown once, in the answer that
made them, and stored as keyed hashes."""

from __future__ import annotations

from livecore.clock import format_ts, from_millis, to_millis
from livecore.errors import CONFLICT, LivecoreError
from livecore.ids import new_id, new_secret
from livecore.limits import ID
from livecore.operators import api
from livecore.operators.errors import API_KEY_NOT_FOUND, PERSONAL_KEY_NOT_FOUND
from livecore.operators.rules import (
    PERSONAL_KEY_ID_PREFIX,
    PERSONAL_KEY_PREFIX,
    check_key_role,
    key_expiry,
    may_revoke_key,
    sees_every_key,
)
from livecore_server.admin.audit import record
from livecore_server.apply import mint_key, rotate_in
from livecore_server.http.endpoint import Binding, Call, bind
from livecore_server.storage.server_store import ServerTransaction
from livecore_server.storage.sql.keys import KeyListing
from livecore_server.storage.sql.members import Member, PersonalKey

# --- API keys ---------------------------------------------------------------------------------------------


def api_key_view(k: KeyListing) -> api.ApiKeyView:
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


def _listing(tx: ServerTransaction, game_id: str, key_id: str) -> KeyListing:
    found = tx.keys.listing(game_id, key_id)
    if found is None:
        raise LivecoreError(API_KEY_NOT_FOUND, "No such API key.", {"keyId": key_id})
    return found


def api_keys(call: Call[None, None], tx: ServerTransaction) -> api.ApiKeysResponse:
    return api.ApiKeysResponse(keys=[api_key_view(k) for k in tx.keys.of_game(call.scope.game_id)])


def create_api_key(
    call: Call[api.CreateApiKeyRequest, None], tx: ServerTransaction
) -> api.ApiKeySecretResponse:
    body = call.body
    ID.check(body.name, "name")
    if tx.keys.active(call.scope.game_id, body.name) is not None:
        raise LivecoreError(
            CONFLICT,
            "The game has an active key of that name: rotate it instead.",
            {"name": body.name},
        )
    minted = mint_key(tx, call.rt, call.scope.game_id, body.name, body.env, body.permission)
    made = _listing(tx, call.scope.game_id, minted["id"])
    record(
        tx,
        call,
        f"api_key:{made.id}",
        after={"name": made.name, "env": made.env.value, "prefix": made.prefix},
    )
    return api.ApiKeySecretResponse(key=api_key_view(made), secret=minted["secret"])


def rotate_api_key(call: Call[None, None], tx: ServerTransaction) -> api.ApiKeySecretResponse:
    old = _listing(tx, call.scope.game_id, call.params["keyId"])
    if old.revoked_at is not None or old.retires_at is not None:
        raise LivecoreError(CONFLICT, "Only the active key of a name is rotated.", {"keyId": old.id})
    minted = rotate_in(tx, call.rt, call.scope.game_id, old.name)
    made = _listing(tx, call.scope.game_id, minted["id"])
    retiring = _listing(tx, call.scope.game_id, old.id)
    record(
        tx,
        call,
        f"api_key:{old.id}",
        metadata={"successorId": made.id, "successorPrefix": made.prefix},
        before={"status": "active"},
        after={"status": "retiring", "retiresAt": format_ts(from_millis(retiring.retires_at or 0))},
    )
    return api.ApiKeySecretResponse(
        key=api_key_view(made), secret=minted["secret"], retiring=api_key_view(retiring)
    )


def revoke_api_key(call: Call[None, None], tx: ServerTransaction) -> api.ApiKeyResponse:
    key = _listing(tx, call.scope.game_id, call.params["keyId"])
    if key.revoked_at is None:
        tx.keys.revoke(key.id, to_millis(call.rt.clock.now()))
    revoked = _listing(tx, call.scope.game_id, key.id)
    record(
        tx,
        call,
        f"api_key:{key.id}",
        before={"status": api_key_view(key).status},
        after={"status": "revoked"},
    )
    return api.ApiKeyResponse(key=api_key_view(revoked))


# --- personal keys ----------------------------------------------------------------------------------------


def personal_key_view(k: PersonalKey, member: Member) -> api.PersonalKeyView:
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


def personal_keys(call: Call[None, None], tx: ServerTransaction) -> api.PersonalKeysResponse:
    operator = call.operator
    assert operator is not None
    rows = tx.members.keys_of_studio(call.scope.studio_id)
    return api.PersonalKeysResponse(
        keys=[
            personal_key_view(k, m) for k, m in rows if sees_every_key(operator) or m.id == operator.member_id
        ]
    )


def create_personal_key(
    call: Call[api.CreatePersonalKeyRequest, None], tx: ServerTransaction
) -> api.PersonalKeySecretResponse:
    operator = call.operator
    assert operator is not None
    member = tx.members.get(operator.member_id)
    assert member is not None  # its session was read with the member
    check_key_role(member.role, call.body.role)
    now = call.rt.clock.now()
    secret = new_secret(call.rt.rng, prefix=PERSONAL_KEY_PREFIX)
    key = PersonalKey(
        id=new_id(PERSONAL_KEY_ID_PREFIX, now, call.rt.rng),
        member_id=member.id,
        prefix=secret[: len(PERSONAL_KEY_PREFIX) + 8],
        role=call.body.role,
        read_only=call.body.read_only,
        created_at_ms=to_millis(now),
        expires_at_ms=to_millis(key_expiry(now, call.body.expires_in_days)),
        revoked_at_ms=None,
        last_used_at_ms=None,
    )
    tx.members.insert_key(key, call.rt.hasher.hash(secret))
    record(
        tx,
        call,
        f"personal_key:{key.id}",
        after={
            "prefix": key.prefix,
            "readOnly": key.read_only,
            "role": key.role.value if key.role else None,
            "expiresAt": format_ts(from_millis(key.expires_at_ms)),
        },
    )
    return api.PersonalKeySecretResponse(key=personal_key_view(key, member), secret=secret)


def revoke_personal_key(call: Call[None, None], tx: ServerTransaction) -> api.PersonalKeyResponse:
    operator = call.operator
    assert operator is not None
    key_id = call.params["keyId"]
    key = tx.members.key(key_id)
    member = tx.members.get(key.member_id) if key is not None else None
    if key is None or member is None or member.studio_id != call.scope.studio_id:
        raise LivecoreError(PERSONAL_KEY_NOT_FOUND, "No such personal key.", {"keyId": key_id})
    if not may_revoke_key(operator, member.id):
        # Another member's key, to a member who may not see it: as if it did not exist.
        raise LivecoreError(PERSONAL_KEY_NOT_FOUND, "No such personal key.", {"keyId": key_id})
    applied = tx.members.revoke_key(key.id, to_millis(call.rt.clock.now()))
    record(tx, call, f"personal_key:{key.id}", metadata={"memberId": member.id, "applied": applied})
    revoked = tx.members.key(key.id)
    assert revoked is not None
    return api.PersonalKeyResponse(key=personal_key_view(revoked, member))


BINDINGS: list[Binding] = [
    bind(api.API_KEYS, api_keys),
    bind(api.API_KEY_CREATE, create_api_key),
    bind(api.API_KEY_ROTATE, rotate_api_key),
    bind(api.API_KEY_REVOKE, revoke_api_key),
    bind(api.PERSONAL_KEYS, personal_keys),
    bind(api.PERSONAL_KEY_CREATE, create_personal_key),
    bind(api.PERSONAL_KEY_REVOKE, revoke_personal_key),
]
