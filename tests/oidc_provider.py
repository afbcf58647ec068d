"""A tiny OpenID Connect provider for tests, served on 127.0.0.1 (an aiohttp app on a free port).

    async with OidcProvider(users={"ana@studio.test": "ana-sub"}) as provider:
        settings = OidcSettings(provider.issuer, provider.client_id, provider.client_secret, redirect_uri)

It has no login page: ``/authorize`` signs in at once as the user its ``login_hint`` names, else as
``provider.next_user`` (None: the user declines, and the callback gets ``error=access_denied``), and
redirects back with a code. ``/token`` checks the client's credentials (basic or post), the code (one use),
the redirect URI and the PKCE verifier against the S256 challenge, and returns an RS256 ID token.

Its JOSE is written here on ``cryptography``, not taken from authlib, so the tests check the relying party
against another implementation rather than authlib against itself. ``provider.tamper`` makes the next ID
tokens wrong in one way each (:data:`TAMPERS`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from collections.abc import Mapping
from types import TracebackType
from typing import Any, Literal

import attrs
import orjson
from aiohttp import web
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from yarl import URL

Tamper = Literal["nonce", "audience", "expired", "unverified_email", "no_email", "signature"]
TAMPERS: tuple[Tamper, ...] = ("nonce", "audience", "expired", "unverified_email", "no_email", "signature")


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _b64_int(n: int) -> str:
    return _b64(n.to_bytes((n.bit_length() + 7) // 8, "big"))


def _sign_rs256(claims: Mapping[str, Any], key: rsa.RSAPrivateKey, kid: str) -> str:
    header = {"alg": "RS256", "typ": "JWT", "kid": kid}
    signing_input = f"{_b64(orjson.dumps(header))}.{_b64(orjson.dumps(claims))}"
    signature = key.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256())
    return f"{signing_input}.{_b64(signature)}"


@attrs.define
class _Grant:
    client_id: str
    redirect_uri: str
    code_challenge: str
    nonce: str | None
    email: str


@attrs.define(eq=False)
class OidcProvider:
    users: Mapping[str, str]  # email (as the provider spells it) -> subject
    client_id: str = "livecore-portal"
    client_secret: str = attrs.field(factory=lambda: secrets.token_urlsafe(24), repr=False)
    next_user: str | None = None  # who /authorize signs in without a login_hint; the first user by default
    tamper: set[Tamper] = attrs.field(factory=set)
    # The discovery's token_endpoint_auth_methods_supported; token_auth records what each /token call used.
    auth_methods: list[str] = attrs.field(factory=lambda: ["client_secret_basic", "client_secret_post"])
    token_auth: list[str] = attrs.field(factory=list)
    issuer: str = attrs.field(init=False, default="")
    _key: rsa.RSAPrivateKey = attrs.field(init=False, factory=lambda: rsa.generate_private_key(65537, 2048))
    _kid: str = attrs.field(init=False, factory=lambda: secrets.token_hex(8))
    _grants: dict[str, _Grant] = attrs.field(init=False, factory=dict)
    _runner: web.AppRunner | None = attrs.field(init=False, default=None)

    def __attrs_post_init__(self) -> None:
        if self.next_user is None and self.users:
            self.next_user = next(iter(self.users))

    async def __aenter__(self) -> OidcProvider:
        app = web.Application()
        app.router.add_get("/.well-known/openid-configuration", self._discovery)
        app.router.add_get("/authorize", self._authorize)
        app.router.add_post("/token", self._token)
        app.router.add_get("/jwks", self._jwks)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        host, port = self._runner.addresses[0][:2]
        self.issuer = f"http://{host}:{port}"
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        assert self._runner is not None
        await self._runner.cleanup()

    @property
    def outstanding_codes(self) -> int:
        """Codes issued and not yet redeemed."""
        return len(self._grants)

    async def _discovery(self, request: web.Request) -> web.Response:
        return web.json_response(
            {
                "issuer": self.issuer,
                "authorization_endpoint": f"{self.issuer}/authorize",
                "token_endpoint": f"{self.issuer}/token",
                "jwks_uri": f"{self.issuer}/jwks",
                "response_types_supported": ["code"],
                "subject_types_supported": ["public"],
                "id_token_signing_alg_values_supported": ["RS256"],
                "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported": self.auth_methods,
                "scopes_supported": ["openid", "email"],
            }
        )

    async def _jwks(self, request: web.Request) -> web.Response:
        public = self._key.public_key().public_numbers()
        jwk = {"kty": "RSA", "use": "sig", "alg": "RS256", "kid": self._kid}
        return web.json_response({"keys": [{**jwk, "n": _b64_int(public.n), "e": _b64_int(public.e)}]})

    async def _authorize(self, request: web.Request) -> web.Response:
        query = request.query
        if query.get("client_id") != self.client_id or not query.get("redirect_uri"):
            return web.Response(status=400, text="unknown client or no redirect_uri")  # never redirects
        back = query["redirect_uri"]
        state = {"state": query["state"]} if "state" in query else {}
        email = query.get("login_hint") or self.next_user
        if email is None or email not in self.users:
            raise web.HTTPFound(_with_query(back, {"error": "access_denied", **state}))
        if (
            query.get("response_type") != "code"
            or "openid" not in query.get("scope", "").split()
            or query.get("code_challenge_method") != "S256"
            or not query.get("code_challenge")
        ):
            raise web.HTTPFound(_with_query(back, {"error": "invalid_request", **state}))
        code = secrets.token_urlsafe(24)
        self._grants[code] = _Grant(self.client_id, back, query["code_challenge"], query.get("nonce"), email)
        raise web.HTTPFound(_with_query(back, {"code": code, **state}))

    async def _token(self, request: web.Request) -> web.Response:
        form = await request.post()
        client = self._authenticate(request, form)
        if client is None:
            return web.json_response({"error": "invalid_client"}, status=401)
        if form.get("grant_type") != "authorization_code":
            return web.json_response({"error": "unsupported_grant_type"}, status=400)
        grant = self._grants.pop(str(form.get("code", "")), None)  # one use, whatever happens next
        verifier = str(form.get("code_verifier", ""))
        challenge = _b64(hashlib.sha256(verifier.encode()).digest())
        if (
            grant is None
            or grant.client_id != client
            or grant.redirect_uri != form.get("redirect_uri")
            or not hmac.compare_digest(challenge, grant.code_challenge)
        ):
            return web.json_response({"error": "invalid_grant"}, status=400)
        id_token = self._id_token(grant)
        return web.json_response(
            {
                "access_token": secrets.token_urlsafe(24),
                "token_type": "Bearer",
                "expires_in": 3600,
                "id_token": id_token,
            }
        )

    def _authenticate(self, request: web.Request, form: Mapping[str, Any]) -> str | None:
        """The client's id when its credentials are right (client_secret_basic or client_secret_post)."""
        header = request.headers.get("Authorization", "")
        if header.startswith("Basic "):
            method = "client_secret_basic"
            client_id, _, secret = base64.b64decode(header[6:]).decode("latin1").partition(":")
        else:
            method = "client_secret_post"
            client_id, secret = str(form.get("client_id", "")), str(form.get("client_secret", ""))
        self.token_auth.append(method)
        if method not in self.auth_methods or client_id != self.client_id:
            return None
        return client_id if hmac.compare_digest(secret, self.client_secret) else None

    def _id_token(self, grant: _Grant) -> str:
        now = int(time.time())
        claims: dict[str, Any] = {
            "iss": self.issuer,
            "sub": self.users[grant.email],
            "aud": "someone-else" if "audience" in self.tamper else grant.client_id,
            "iat": now - 7200 if "expired" in self.tamper else now,
            "exp": now - 3600 if "expired" in self.tamper else now + 300,
            "email": grant.email,
            "email_verified": "unverified_email" not in self.tamper,
        }
        if grant.nonce is not None:
            claims["nonce"] = "not-the-nonce" if "nonce" in self.tamper else grant.nonce
        if "no_email" in self.tamper:
            del claims["email"], claims["email_verified"]
        key = rsa.generate_private_key(65537, 2048) if "signature" in self.tamper else self._key
        return _sign_rs256(claims, key, self._kid)


def _with_query(url: str, params: Mapping[str, str]) -> str:
    return str(URL(url).update_query(params))
