"""OpenID Connect sign-in for members (operators), the relying party's side.

When the reference server is configured with a provider (``LIVECORE_OIDC_*``,
:meth:`livecore_server.config.OidcSettings.from_env`), the portal's "Sign in with SSO" calls
:meth:`OidcClient.begin`, keeps the returned :class:`OidcPending`
(server-side keyed by its state, or sealed in a cookie) and sends the browser to the returned URL. The
provider's callback hands its query parameters to :meth:`OidcClient.finish`, which redeems the code and
returns the provider-verified email as an :class:`OidcIdentity`; matching it to a member is the caller's.

The protocol is authlib's, not ours: it is well kept and does the parts that are easy to get subtly wrong
properly: the authorization URL and the token request with PKCE (S256) and client authentication
(``client_secret_basic``, or ``client_secret_post`` when the provider only takes that), and JOSE for the ID
token: its signature against the provider's published keys and its registered claims. This module only adds
the OpenID Connect rules on top: discovery with an issuer check, state, nonce, audience, a verified email.

Errors become :class:`OidcError`, whose message is short and safe to show: it never holds a code, a token or
the client secret. Discovery and the keys go through ``http`` (an httpx client); the token request goes
through authlib's own client (built on httpx2 when that is installed, which authlib then prefers).
"""

from __future__ import annotations

import re
import secrets
import warnings
from collections.abc import Mapping
from typing import Any

import attrs
import httpx
from authlib.common.security import generate_token  # type: ignore[import-untyped]
from authlib.deprecate import AuthlibDeprecationWarning  # type: ignore[import-untyped]
from authlib.integrations.base_client import OAuthError  # type: ignore[import-untyped]
from authlib.integrations.httpx_client import AsyncOAuth2Client  # type: ignore[import-untyped]

from livecore_server.config import OidcSettings

with warnings.catch_warnings():
    # authlib 1.7 deprecated authlib.jose for joserfc (its successor, by the same author), to go in authlib
    # 2.0; it warns on every import. Until then it is the JOSE of every authlib this project allows.
    warnings.simplefilter("ignore", AuthlibDeprecationWarning)
    from authlib.jose import JsonWebKey, JsonWebToken  # type: ignore[import-untyped]
    from authlib.jose.errors import JoseError  # type: ignore[import-untyped]

# How authlib's token request fails besides an OAuth error: its HTTP client's errors (httpx2's when that is
# installed, else httpx's), and ValueError for an answer that is not a JSON object.
try:
    from httpx2 import HTTPError as _Httpx2Error

    _TOKEN_FAILURES: tuple[type[Exception], ...] = (httpx.HTTPError, _Httpx2Error, ValueError)
except ImportError:  # pragma: no cover
    _TOKEN_FAILURES = (httpx.HTTPError, ValueError)

TIMEOUT = 10.0  # seconds, for each request to the provider
LEEWAY = 60  # seconds of clock skew allowed on the ID token's exp and iat

# Signed with the provider's published (asymmetric) keys only: never HMAC with a public key, never "none".
_ID_TOKEN = JsonWebToken(["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "EdDSA"])
_ERROR_CODE = re.compile(r"[a-z_]{1,40}")  # RFC 6749's error codes; anything else is not shown


class OidcError(Exception):
    """A sign-in that did not succeed; the message is safe to show to the person signing in."""


@attrs.frozen
class OidcPending:
    """What the portal keeps between the redirect to the provider and the callback; all three are secret."""

    state: str
    nonce: str = attrs.field(repr=False)
    code_verifier: str = attrs.field(repr=False)


@attrs.frozen
class OidcIdentity:
    subject: str
    email: str  # lower-cased
    email_verified: bool


class OidcClient:
    """The relying party for one provider; one instance serves every sign-in (it caches the discovery)."""

    def __init__(self, settings: OidcSettings, *, http: httpx.AsyncClient | None = None) -> None:
        self.settings = settings
        self._http = http if http is not None else httpx.AsyncClient(timeout=TIMEOUT)
        self._owns_http = http is None
        self._discovery: dict[str, Any] | None = None

    async def aclose(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    async def begin(self) -> tuple[str, OidcPending]:
        """The provider's authorization URL to send the browser to, and what to keep for :meth:`finish`."""
        discovery = await self._discover()
        pending = OidcPending(
            state=generate_token(32), nonce=generate_token(32), code_verifier=generate_token(64)
        )
        async with self._oauth(discovery) as oauth:
            url, _ = oauth.create_authorization_url(
                discovery["authorization_endpoint"],
                state=pending.state,
                code_verifier=pending.code_verifier,
                nonce=pending.nonce,
            )
        return url, pending

    async def finish(self, pending: OidcPending, params: Mapping[str, str]) -> OidcIdentity:
        """The identity from the callback's query ``params``, for the sign-in ``pending`` was kept for."""
        if not secrets.compare_digest(params.get("state", "").encode(), pending.state.encode()):
            raise OidcError("This sign-in link is stale or was not started here; please sign in again.")
        if "error" in params:
            reason = params["error"] if _ERROR_CODE.fullmatch(params["error"]) else "error"
            raise OidcError(f"The identity provider did not sign you in ({reason}).")
        if not params.get("code"):
            raise OidcError("The identity provider's answer has no authorization code.")

        discovery = await self._discover()
        try:
            async with self._oauth(discovery) as oauth:
                token = await oauth.fetch_token(
                    discovery["token_endpoint"],
                    grant_type="authorization_code",
                    code=params["code"],
                    code_verifier=pending.code_verifier,
                )
        except OAuthError as error:
            reason = error.error if _ERROR_CODE.fullmatch(str(error.error)) else "error"
            raise OidcError(f"The identity provider refused the sign-in ({reason}).") from None
        except _TOKEN_FAILURES as error:
            raise OidcError(f"The identity provider's token endpoint failed ({_describe(error)}).") from None
        if not isinstance(token.get("id_token"), str):
            raise OidcError("The identity provider returned no ID token.")

        jwks = await self._get_json(discovery["jwks_uri"], "keys")
        claims = self._validate(token["id_token"], jwks, pending.nonce)
        email = claims.get("email")
        if not isinstance(email, str) or "@" not in email:
            raise OidcError("The identity provider did not share your email address.")
        if claims.get("email_verified") is not True:
            raise OidcError("The identity provider has not verified your email address.")
        return OidcIdentity(subject=str(claims["sub"]), email=email.lower(), email_verified=True)

    def _validate(self, id_token: str, jwks: dict[str, Any], nonce: str) -> Mapping[str, Any]:
        """The ID token's claims, once its signature is one of ``jwks`` and its claims are ours."""
        client_id = self.settings.client_id
        options = {
            "iss": {"essential": True, "value": self.settings.issuer},
            "aud": {"essential": True, "value": client_id},
            "sub": {"essential": True},
            "exp": {"essential": True},
            "iat": {"essential": True},
            "nonce": {"essential": True, "value": nonce},
            "azp": {"validate": lambda _claims, azp: azp is None or azp == client_id},
        }
        try:
            keys = JsonWebKey.import_key_set(jwks)
        except (ValueError, KeyError, TypeError):
            raise OidcError("The identity provider's keys do not parse.") from None
        try:
            claims = _ID_TOKEN.decode(id_token, keys, claims_options=options)
            claims.validate(leeway=LEEWAY)
        except JoseError as error:
            reason = error.description or error.error
            raise OidcError(f"The identity provider's ID token was refused ({reason}).") from None
        except ValueError:  # no key with the token's kid
            raise OidcError("The identity provider's ID token was refused (unknown key).") from None
        return claims  # type: ignore[no-any-return]

    async def _discover(self) -> dict[str, Any]:
        if self._discovery is None:
            url = self.settings.issuer.rstrip("/") + "/.well-known/openid-configuration"
            discovery = await self._get_json(url, "discovery document")
            if discovery.get("issuer") != self.settings.issuer:
                raise OidcError("The identity provider's discovery document names another issuer.")
            for key in ("authorization_endpoint", "token_endpoint", "jwks_uri"):
                if not isinstance(discovery.get(key), str):
                    raise OidcError(f"The identity provider's discovery document has no {key}.")
            self._discovery = discovery
        return self._discovery

    async def _get_json(self, url: str, what: str) -> dict[str, Any]:
        try:
            response = await self._http.get(url)
            response.raise_for_status()
            document = response.json()
        except (httpx.HTTPError, ValueError) as error:
            raise OidcError(f"Could not fetch the identity provider's {what} ({_describe(error)}).") from None
        if not isinstance(document, dict):
            raise OidcError(f"The identity provider's {what} is not a JSON object.")
        return document

    def _oauth(self, discovery: Mapping[str, Any]) -> Any:
        """authlib's client for one authorization URL or one token request: no token outlives the call."""
        methods = discovery.get("token_endpoint_auth_methods_supported") or ["client_secret_basic"]
        return AsyncOAuth2Client(
            client_id=self.settings.client_id,
            client_secret=self.settings.client_secret,
            token_endpoint_auth_method=(
                "client_secret_post" if "client_secret_basic" not in methods else "client_secret_basic"
            ),
            scope=self.settings.scope,
            redirect_uri=self.settings.redirect_uri,
            code_challenge_method="S256",
            timeout=TIMEOUT,
        )


def _describe(error: Exception) -> str:
    """A transport or HTTP failure in a few words: the status, or the kind of error (never a body)."""
    response = getattr(error, "response", None)
    status = getattr(response, "status_code", None)
    return f"HTTP {status}" if status is not None else type(error).__name__
