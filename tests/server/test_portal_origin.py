"""Cross-site requests to the portal (docs/portal.md#cross-site-requests): every state-changing request
under /portal/, sign-in included, must come from the portal's own origin (``Origin``, else ``Referer``;
neither is refused), whatever else it carries; a refusal changes nothing and sets no cookie."""

from __future__ import annotations

import asyncio
from typing import Any

from livecore_server.operators.access import SESSION_COOKIE
from livecore_server.operators.sessions import issue_login_link
from tests.conftest import World, start_world
from tests.server.admin_support import sign_in

FOREIGN = "https://attacker.example"


def own(world: World) -> str:
    url = world.client.make_url("/")
    return f"{url.scheme}://{url.host}:{url.port}"


async def post(world: World, path: str, headers: dict[str, str], **kw: Any) -> tuple[int, str, Any]:
    resp = await world.client.post(path, headers=headers, allow_redirects=False, **kw)
    return resp.status, await resp.text(), resp.headers


async def test_a_sign_in_post_from_a_foreign_origin_is_refused_and_sets_no_cookie(world: World) -> None:
    link = await asyncio.to_thread(issue_login_link, world.services, "gina")
    status, page, headers = await post(world, f"/portal/login/{link}", {"Origin": FOREIGN})
    assert status == 403 and "csrf_invalid" in page
    assert "Set-Cookie" not in headers
    # Nothing was used up: the member's own press of the button still signs in.
    status, _, headers = await post(world, f"/portal/login/{link}", {"Origin": own(world)})
    assert status == 303 and f"{SESSION_COOKIE}=" in headers["Set-Cookie"]


async def test_a_sign_in_post_without_origin_or_referer_is_refused(world: World) -> None:
    link = await asyncio.to_thread(issue_login_link, world.services, "gina")
    status, _, headers = await post(world, f"/portal/login/{link}", {})
    assert status == 403 and "Set-Cookie" not in headers


async def test_a_same_origin_referer_stands_in_for_a_missing_origin(world: World) -> None:
    link = await asyncio.to_thread(issue_login_link, world.services, "gina")
    referer = f"{own(world)}/portal/login/{link}"
    status, _, _ = await post(world, f"/portal/login/{link}", {"Referer": "https://attacker.example/x"})
    assert status == 403
    status, _, headers = await post(world, f"/portal/login/{link}", {"Referer": referer})
    assert status == 303 and f"{SESSION_COOKIE}=" in headers["Set-Cookie"]


async def test_a_portal_form_from_a_foreign_origin_is_refused_even_with_a_valid_csrf_token(
    world: World,
) -> None:
    op = await sign_in(world, "olga")
    cookie = {"Cookie": f"{SESSION_COOKIE}={op.session}"}
    form = {"csrf": op.csrf or "", "expiresInDays": "30"}
    before = world.rows("SELECT COUNT(*) FROM personal_keys")
    for sent in ({"Origin": FOREIGN}, {"Origin": "null"}, {}):
        status, page, _ = await post(world, "/portal/personal-keys", {**cookie, **sent}, data=form)
        assert status == 403 and "csrf_invalid" in page, sent
    assert world.rows("SELECT COUNT(*) FROM personal_keys") == before
    status, page, _ = await post(world, "/portal/personal-keys", {**cookie, "Origin": own(world)}, data=form)
    assert status == 200 and "svc_pk_" in page
    assert world.rows("SELECT COUNT(*) FROM personal_keys") != before


async def test_behind_a_proxy_the_forwarded_host_and_scheme_are_the_portals_origin(world: World) -> None:
    link = await asyncio.to_thread(issue_login_link, world.services, "gina")
    proxied = {"X-Forwarded-Host": "ops.example.com", "X-Forwarded-Proto": "https"}
    status, _, _ = await post(world, f"/portal/login/{link}", {**proxied, "Origin": own(world)})
    assert status == 403
    status, _, headers = await post(
        world, f"/portal/login/{link}", {**proxied, "Origin": "https://ops.example.com"}
    )
    assert status == 303 and f"{SESSION_COOKIE}=" in headers["Set-Cookie"]


async def test_a_configured_public_url_is_the_portals_origin(db_url: str) -> None:
    world = await start_world(db_url, public_url="https://ops.example.com/")
    try:
        link = await asyncio.to_thread(issue_login_link, world.services, "gina")
        status, _, _ = await post(world, f"/portal/login/{link}", {"Origin": own(world)})
        assert status == 403
        # The default port is the scheme's, written or not.
        status, _, _ = await post(world, f"/portal/login/{link}", {"Origin": "https://ops.example.com:443"})
        assert status == 303
    finally:
        await world.client.close()
