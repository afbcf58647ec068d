"""Signing in to the portal through OpenID Connect, end to end: the portal sends the browser to a local
provider, the provider sends it back, and the verified email starts a member's session
(docs/operators.md#openid-connect)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import attrs
import httpx
import pytest
from aiohttp.test_utils import TestServer

from livecore_server.embedded import free_port
from livecore_server.operators.access import SESSION_COOKIE
from livecore_server.operators.oidc import OidcSettings
from livecore_server.services import SERVICES
from tests.conftest import apply_test_manifest, make_app
from tests.oidc_provider import OidcProvider


@pytest.fixture
def backend() -> str:
    return "sqlite"  # sign-in is store-independent; the store's side is tested on both in test_admin_sessions


@attrs.frozen
class Sso:
    provider: OidcProvider
    base_url: str
    services: Any


@pytest.fixture
async def sso(db_url: str) -> AsyncIterator[Sso]:
    async with OidcProvider(users={"Gina@Acme.Test": "gina-sub", "stranger@else.test": "s-sub"}) as provider:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        settings = OidcSettings(
            provider.issuer, provider.client_id, provider.client_secret, f"{base}/portal/sso/callback"
        )
        server = TestServer(make_app(db_url, oidc=settings), port=port)
        await server.start_server()
        try:
            await asyncio.to_thread(apply_test_manifest, server.app[SERVICES])
            yield Sso(provider, base, server.app[SERVICES])
        finally:
            await server.close()


async def _follow(client: httpx.AsyncClient, sso: Sso) -> httpx.Response:
    """Press "Sign in with your identity provider" and follow the provider's redirect back."""
    start = await client.get(f"{sso.base_url}/portal/sso")
    assert start.status_code == 302, start.text
    assert start.headers["location"].startswith(sso.provider.issuer)
    at_provider = await client.get(start.headers["location"])
    assert at_provider.status_code == 302
    return await client.get(at_provider.headers["location"])


async def test_a_verified_email_of_a_member_starts_its_session(sso: Sso) -> None:
    async with httpx.AsyncClient() as client:
        page = await client.get(f"{sso.base_url}/portal/")
        assert "Sign in with your identity provider" in page.text
        back = await _follow(client, sso)
        assert back.status_code == 200, back.text
        assert "Continue to the portal" in back.text
        assert SESSION_COOKIE in client.cookies
        me = await client.get(f"{sso.base_url}/admin/v1/me")
        assert me.status_code == 200, me.text
        assert me.json()["data"]["member"]["key"] == "gina"  # matched case-insensitively
        games = await client.get(f"{sso.base_url}/portal/games")
        assert games.status_code == 200 and "Space Race" in games.text


async def test_an_email_no_member_has_signs_nobody_in(sso: Sso) -> None:
    sso.provider.next_user = "stranger@else.test"
    async with httpx.AsyncClient() as client:
        back = await _follow(client, sso)
        assert back.status_code == 403
        assert "No member has the email stranger@else.test" in back.text
        assert SESSION_COOKIE not in client.cookies


async def test_an_unverified_email_signs_nobody_in(sso: Sso) -> None:
    sso.provider.tamper.add("unverified_email")
    async with httpx.AsyncClient() as client:
        back = await _follow(client, sso)
        assert back.status_code == 403
        assert SESSION_COOKIE not in client.cookies


async def test_a_callback_that_did_not_start_here_is_refused(sso: Sso) -> None:
    async with httpx.AsyncClient() as client:
        start = await client.get(f"{sso.base_url}/portal/sso")
        at_provider = await client.get(start.headers["location"])
        client.cookies.clear()  # another browser: no pending sign-in
        back = await client.get(at_provider.headers["location"])
        assert back.status_code == 403
        assert "did not start here" in back.text
        assert SESSION_COOKIE not in client.cookies


async def test_without_a_provider_the_portal_offers_links_only(world: Any) -> None:
    status, page, _ = await world.call("GET", "/portal/", key=None)
    assert status == 200 and "identity provider" not in page
    status, _, _ = await world.call("GET", "/portal/sso", key=None, allow_redirects=False)
    assert status == 404
