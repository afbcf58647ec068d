"""Operators in API tests: a member signed in (a session cookie and its CSRF token) or a personal key,
and calls to the admin API with either; a second studio; what a refused call must leave unchanged."""

from __future__ import annotations

import asyncio
from typing import Any

import attrs

from livecore_server.manifest import parse_manifest
from livecore_server.operators.access import CSRF_HEADER, SESSION_COOKIE
from livecore_server.operators.apply import apply_manifest
from livecore_server.operators.sessions import issue_login_link, redeem_link
from livecore_server.players.presence import PRESENCE_BOARD
from tests.conftest import TEST_MANIFEST, World, apply_test_manifest

GAME = "/admin/v1/studios/acme/games/space-race"
STUDIO = "/admin/v1/studios/acme"

#: The test manifest's members (tests/conftest.py) by key, with their roles.
MEMBERS = {
    "olga": "OWNER",
    "gina": "GAME_ADMIN",
    "dev": "GAME_DEVELOPER",
    "debby": "GAME_DEBUGGER",
    "vic": "VIEWER",
}

#: A second studio, with its own game and member (:func:`second_studio`).
BETA_MANIFEST = """
studio = "beta"

[games.rocket]
name = "Rocket"

[games.rocket.api_keys.test-server]
env = "test"
permission = "server_integration"

[members.bob]
email = "bob@beta.test"
role = "OWNER"
"""


@attrs.frozen
class Operator:
    """A credential: a session (cookie and CSRF token) or a personal key."""

    session: str | None = None
    csrf: str | None = None
    key: str | None = None

    def headers(self, *, csrf: bool = True) -> dict[str, str]:
        if self.key is not None:
            return {"Authorization": f"Bearer {self.key}"}
        assert self.session is not None
        h = {"Cookie": f"{SESSION_COOKIE}={self.session}"}
        if csrf and self.csrf:
            h[CSRF_HEADER] = self.csrf
        return h


async def sign_in(world: World, member: str, studio: str = "acme") -> Operator:
    """A session of ``member`` (its key in the studio's manifest), as a sign-in link would start it."""
    token = await asyncio.to_thread(issue_login_link, world.services, member, studio)
    session = await redeem_link(world.services, token, "127.0.0.1")
    assert session is not None
    status, body, _ = await world.call(
        "GET", "/admin/v1/me", key=None, headers=Operator(session=session).headers()
    )
    assert status == 200, body
    return Operator(session=session, csrf=body["data"]["csrfToken"])


async def personal_key(world: World, member: str, studio: str = "acme", **body: Any) -> Operator:
    """A personal key ``member`` made in the portal (``expiresInDays`` 30 unless given)."""
    op = await sign_in(world, member, studio)
    status, answer, _ = await admin(
        world, "POST", f"/admin/v1/studios/{studio}/personal-keys", op, json={"expiresInDays": 30, **body}
    )
    assert status == 201, answer
    return Operator(key=answer["data"]["secret"])


async def admin(
    world: World,
    method: str,
    path: str,
    op: Operator | None,
    *,
    json: Any = None,
    csrf: bool = True,
    **kw: Any,
) -> tuple[int, Any, Any]:
    headers = {**(op.headers(csrf=csrf) if op is not None else {}), **kw.pop("headers", {})}
    return await world.call(method, path, key=None, json=json, headers=headers, **kw)


def ok(answer: tuple[int, Any, Any], status: int = 200) -> Any:
    """The answer's ``data``, which must come with ``status``."""
    got, body, _ = answer
    assert got == status, body
    return body["data"]


def refused(answer: tuple[int, Any, Any], status: int, code: str) -> dict[str, Any]:
    """The answer's error, which must be ``status`` and ``code``."""
    got, body, _ = answer
    seen = body["error"]["code"] if isinstance(body, dict) and "error" in body else body
    assert (got, seen) == (status, code), (got, body)
    error: dict[str, Any] = body["error"]
    return error


async def second_studio(world: World) -> dict[str, Any]:
    """Apply :data:`BETA_MANIFEST` beside the test manifest: studio ``beta``, game ``rocket``, member
    ``bob`` (an owner). Returns what ``apply`` answered."""
    services = world.services
    beta = parse_manifest(BETA_MANIFEST)
    return await asyncio.to_thread(apply_manifest, services.store, services.keys, services.runtime, beta)


async def remove_member(world: World, member: str, extra: str = "") -> None:
    """Re-apply the test manifest (with ``extra``) without ``member``, as a studio would."""
    role = MEMBERS[member]
    stanza = f'[members.{member}]\nemail = "{member}@acme.test"\nrole = "{role}"\n'
    assert stanza in TEST_MANIFEST
    services = world.services
    await asyncio.to_thread(
        apply_manifest,
        services.store,
        services.keys,
        services.runtime,
        parse_manifest(TEST_MANIFEST.replace(stanza, "") + extra),
    )
    services.store.clear_caches()


async def change_role(world: World, member: str, role: str, extra: str = "") -> None:
    """Re-apply the test manifest (with ``extra``) with ``member`` in another role."""
    old = f'[members.{member}]\nemail = "{member}@acme.test"\nrole = "{MEMBERS[member]}"\n'
    new = f'[members.{member}]\nemail = "{member}@acme.test"\nrole = "{role}"\n'
    services = world.services
    await asyncio.to_thread(
        apply_manifest,
        services.store,
        services.keys,
        services.runtime,
        parse_manifest(TEST_MANIFEST.replace(old, new) + extra),
    )
    services.store.clear_caches()


# What an operator's call may change, without the columns that change on their own (a key's last use,
# a delivery's progress, the rate-limit buckets).
_SNAPSHOT = {
    "players": "*",
    "grants": "*",
    "ledger": "*",
    "holdings": "*",
    "attempts": "*",
    "board_entries": "*",
    "outbox": "id, kind, game_id, env, data",
    "audit_log": "*",
    "api_keys": "id, game_id, name, env, permission, secret_hash, created_at, revoked_at, retires_at",
    "personal_keys": "id, member_id, secret_hash, role, read_only, expires_at, revoked_at",
    "webhook_endpoints": "id, game_id, name, env, url, events, status, secret_enc, previous_secret_enc,"
    " previous_secret_until",
    "webhook_deliveries": "id, endpoint_id, event_seq",
    "members": "*",
    "member_sessions": "*",
}


async def snapshot(world: World) -> dict[str, list[Any]]:
    """Every row an operator's call could touch (after the dispatcher is done with what is due, and with
    the presence board's pending writes flushed: its timer would write them whenever it runs)."""
    await world.dispatcher.drain_due()
    await world.services.of(PRESENCE_BOARD).flush_async(world.services.store)
    return {t: sorted(world.rows(f"SELECT {cols} FROM {t}"), key=repr) for t, cols in _SNAPSHOT.items()}


__all__ = [
    "BETA_MANIFEST",
    "GAME",
    "MEMBERS",
    "STUDIO",
    "Operator",
    "admin",
    "apply_test_manifest",
    "change_role",
    "ok",
    "personal_key",
    "refused",
    "remove_member",
    "second_studio",
    "sign_in",
    "snapshot",
]
