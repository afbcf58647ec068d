"""Operators in API tests: a member signed in (a session cookie and its CSRF token) or a personal key,
and calls to the admin API with either."""

from __future__ import annotations

from typing import Any

import attrs

from livecore_server.admin.access import CSRF_HEADER, SESSION_COOKIE
from livecore_server.admin.sessions import issue_login_link, redeem_link
from tests.conftest import World

GAME = "/admin/v1/studios/acme/games/space-race"
STUDIO = "/admin/v1/studios/acme"


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


async def sign_in(world: World, member: str) -> Operator:
    """A session of ``member`` (its key in the test manifest), as a sign-in link would start it."""
    token = issue_login_link(world.services, member)
    session = await redeem_link(world.services, token, "127.0.0.1")
    assert session is not None
    status, body, _ = await world.call(
        "GET", "/admin/v1/me", key=None, headers=Operator(session=session).headers()
    )
    assert status == 200, body
    return Operator(session=session, csrf=body["data"]["csrfToken"])


async def personal_key(world: World, member: str, **body: Any) -> Operator:
    """A personal key ``member`` made in the portal (``expiresInDays`` 30 unless given)."""
    op = await sign_in(world, member)
    status, answer, _ = await admin(
        world, "POST", f"{STUDIO}/personal-keys", op, json={"expiresInDays": 30, **body}
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
