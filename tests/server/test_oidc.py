"""OpenID Connect sign-in (livecore_server/operators/oidc.py) against the local provider
(tests/oidc_provider.py).

No browser: begin() gives the authorization URL, an httpx client GETs it without following the redirect,
and the Location's query is the callback's, which finish() turns into an identity or an OidcError.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import AsyncIterator

import attrs
import httpx
import pytest

from livecore_server.config import OidcSettings
from livecore_server.operators.oidc import OidcClient, OidcError, OidcIdentity, OidcPending
from tests.oidc_provider import OidcProvider, Tamper

REDIRECT_URI = "https://portal.test/sso/callback"
USERS = {"Ana@Studio.Test": "ana-1", "bo@studio.test": "bo-2"}


def settings_for(provider: OidcProvider, **changes: str) -> OidcSettings:
    settings = OidcSettings(provider.issuer, provider.client_id, provider.client_secret, REDIRECT_URI)
    return attrs.evolve(settings, **changes)


@pytest.fixture
async def provider() -> AsyncIterator[OidcProvider]:
    async with OidcProvider(users=USERS) as provider:
        yield provider


@pytest.fixture
async def browser() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient() as browser:  # httpx follows no redirect unless told to
        yield browser


@pytest.fixture
async def client(provider: OidcProvider) -> AsyncIterator[OidcClient]:
    client = OidcClient(settings_for(provider))
    yield client
    await client.aclose()


async def authorize(
    client: OidcClient, browser: httpx.AsyncClient, login_hint: str | None = None
) -> tuple[OidcPending, dict[str, str]]:
    """begin(), then the provider's redirect back: what the portal kept, and the callback's parameters."""
    url, pending = await client.begin()
    if login_hint is not None:
        url = str(httpx.URL(url).copy_merge_params({"login_hint": login_hint}))
    response = await browser.get(url)
    assert response.status_code == 302, response.text
    location = httpx.URL(response.headers["location"])
    assert str(location.copy_with(query=None)) == REDIRECT_URI
    return pending, dict(location.params)


async def refused(
    client: OidcClient, provider: OidcProvider, pending: OidcPending, params: dict[str, str]
) -> str:
    """finish()'s OidcError message, checked to hold no secret."""
    with pytest.raises(OidcError) as caught:
        await client.finish(pending, params)
    message = str(caught.value)
    secrets = (provider.client_secret, params.get("code"), pending.code_verifier, pending.nonce)
    assert not [secret for secret in secrets if secret and secret in message], message
    return message


async def test_sign_in_gives_the_verified_email_lower_cased(
    client: OidcClient, provider: OidcProvider, browser: httpx.AsyncClient
) -> None:
    pending, params = await authorize(client, browser)

    identity = await client.finish(pending, params)

    assert identity == OidcIdentity(subject="ana-1", email="ana@studio.test", email_verified=True)
    assert provider.token_auth == ["client_secret_basic"]
    assert provider.outstanding_codes == 0


async def test_the_authorization_url_carries_state_nonce_and_an_s256_challenge(client: OidcClient) -> None:
    url, pending = await client.begin()

    query = httpx.URL(url).params
    challenge = base64.urlsafe_b64encode(hashlib.sha256(pending.code_verifier.encode()).digest()).rstrip(b"=")
    assert query["state"] == pending.state
    assert query["nonce"] == pending.nonce
    assert query["code_challenge"] == challenge.decode()
    assert query["code_challenge_method"] == "S256"
    assert query["scope"] == "openid email"
    assert query["redirect_uri"] == REDIRECT_URI
    assert "client_secret" not in query
    assert len({pending.state, pending.nonce, (await client.begin())[1].state}) == 3
    assert pending.nonce not in repr(pending) and pending.code_verifier not in repr(pending)


async def test_the_login_hint_picks_the_user(client: OidcClient, browser: httpx.AsyncClient) -> None:
    pending, params = await authorize(client, browser, login_hint="bo@studio.test")

    assert (await client.finish(pending, params)).subject == "bo-2"


async def test_client_secret_post_when_the_provider_takes_only_that(
    client: OidcClient, provider: OidcProvider, browser: httpx.AsyncClient
) -> None:
    provider.auth_methods = ["client_secret_post"]
    pending, params = await authorize(client, browser)

    assert (await client.finish(pending, params)).email == "ana@studio.test"
    assert provider.token_auth == ["client_secret_post"]


@pytest.mark.parametrize("state", ["forged", "", "état", None])
async def test_a_state_that_does_not_match_is_refused_before_the_code_is_redeemed(
    client: OidcClient, provider: OidcProvider, browser: httpx.AsyncClient, state: str | None
) -> None:
    pending, params = await authorize(client, browser)
    params = {key: value for key, value in params.items() if key != "state"}
    if state is not None:
        params["state"] = state

    assert "please sign in again" in await refused(client, provider, pending, params)
    assert provider.outstanding_codes == 1
    assert provider.token_auth == []


async def test_the_provider_declining_is_refused(
    client: OidcClient, provider: OidcProvider, browser: httpx.AsyncClient
) -> None:
    provider.next_user = None
    pending, params = await authorize(client, browser)
    assert params == {"error": "access_denied", "state": pending.state}

    assert "(access_denied)" in await refused(client, provider, pending, params)


@pytest.mark.parametrize(
    ("tamper", "reason"),
    [
        ("nonce", "nonce"),
        ("audience", "aud"),
        ("expired", "expired"),
        ("unverified_email", "not verified your email"),
        ("no_email", "did not share your email"),
        ("signature", "signature"),
    ],
)
async def test_a_wrong_id_token_is_refused(
    client: OidcClient, provider: OidcProvider, browser: httpx.AsyncClient, tamper: Tamper, reason: str
) -> None:
    provider.tamper = {tamper}
    pending, params = await authorize(client, browser)

    assert reason in await refused(client, provider, pending, params)


async def test_a_code_used_twice_is_refused_by_the_provider(
    client: OidcClient, provider: OidcProvider, browser: httpx.AsyncClient
) -> None:
    pending, params = await authorize(client, browser)
    await client.finish(pending, params)

    assert "(invalid_grant)" in await refused(client, provider, pending, params)


async def test_a_wrong_code_verifier_is_refused_by_the_provider(
    client: OidcClient, provider: OidcProvider, browser: httpx.AsyncClient
) -> None:
    pending, params = await authorize(client, browser)
    other = attrs.evolve(pending, code_verifier=(await client.begin())[1].code_verifier)

    assert "(invalid_grant)" in await refused(client, provider, other, params)


async def test_a_wrong_client_secret_is_refused_by_the_provider(
    provider: OidcProvider, browser: httpx.AsyncClient
) -> None:
    client = OidcClient(settings_for(provider, client_secret="not-the-secret"))
    try:
        pending, params = await authorize(client, browser)
        message = await refused(client, provider, pending, params)
    finally:
        await client.aclose()

    assert "(invalid_client)" in message
    assert "not-the-secret" not in message


async def test_a_discovery_document_naming_another_issuer_is_refused(
    provider: OidcProvider, browser: httpx.AsyncClient
) -> None:
    client = OidcClient(settings_for(provider, issuer=provider.issuer + "/"), http=browser)

    with pytest.raises(OidcError, match="another issuer"):
        await client.begin()


async def test_an_unreachable_provider_is_an_oidc_error() -> None:
    async with OidcProvider(users=USERS) as gone:
        settings = settings_for(gone)
    client = OidcClient(settings)
    try:
        with pytest.raises(OidcError, match="discovery document"):
            await client.begin()
    finally:
        await client.aclose()


ISSUER = "https://id.studio.test"


def test_from_env_without_an_issuer_is_none() -> None:
    assert OidcSettings.from_env({}, REDIRECT_URI) is None
    assert (
        OidcSettings.from_env({"LIVECORE_OIDC_ISSUER": " ", "LIVECORE_OIDC_CLIENT_ID": "x"}, REDIRECT_URI)
        is None
    )


def test_from_env_reads_the_three_variables() -> None:
    environ = {
        "LIVECORE_OIDC_ISSUER": ISSUER,
        "LIVECORE_OIDC_CLIENT_ID": "portal",
        "LIVECORE_OIDC_CLIENT_SECRET": "s3cret",
    }

    settings = OidcSettings.from_env(environ, REDIRECT_URI)

    assert settings == OidcSettings(ISSUER, "portal", "s3cret", REDIRECT_URI, scope="openid email")
    assert "s3cret" not in repr(settings)


@pytest.mark.parametrize(
    ("environ", "missing"),
    [
        ({"LIVECORE_OIDC_CLIENT_ID": "portal"}, "needs LIVECORE_OIDC_CLIENT_SECRET too"),
        ({"LIVECORE_OIDC_CLIENT_SECRET": "s3cret"}, "needs LIVECORE_OIDC_CLIENT_ID too"),
        (
            {"LIVECORE_OIDC_CLIENT_ID": ""},
            "needs LIVECORE_OIDC_CLIENT_ID and LIVECORE_OIDC_CLIENT_SECRET too",
        ),
    ],
)
def test_from_env_with_an_issuer_needs_the_client(environ: dict[str, str], missing: str) -> None:
    with pytest.raises(ValueError, match=missing):
        OidcSettings.from_env({"LIVECORE_OIDC_ISSUER": ISSUER, **environ}, REDIRECT_URI)


@pytest.mark.parametrize("issuer", ["http://id.studio.test", "id.studio.test", "https://"])
def test_from_env_wants_an_https_issuer(issuer: str) -> None:
    environ = {
        "LIVECORE_OIDC_ISSUER": issuer,
        "LIVECORE_OIDC_CLIENT_ID": "p",
        "LIVECORE_OIDC_CLIENT_SECRET": "s",
    }

    with pytest.raises(ValueError, match="https://"):
        OidcSettings.from_env(environ, REDIRECT_URI)


def test_from_env_allows_http_on_this_machine() -> None:
    environ = {
        "LIVECORE_OIDC_ISSUER": "http://127.0.0.1:8080",
        "LIVECORE_OIDC_CLIENT_ID": "p",
        "LIVECORE_OIDC_CLIENT_SECRET": "s",
    }

    assert OidcSettings.from_env(environ, REDIRECT_URI) is not None
