"""What every request of a namespace passes through (:func:`namespace`, around each of its handlers): the
error envelope (docs/reference/conventions.md#errors) for every error, the API key, the rate limit and the
headers every response of that namespace carries.

Order inside a namespace: parse the key; an unknown key is counted against the caller's address and
answered 401; a known key takes a token from its own bucket (429 when empty) and is then checked for the
namespace's permission (403). Rate-limit and deprecation headers ride on every response, errors included.

A player-scoped route (and a key-or-player route that sends a player secret) first passes the brake on
wrong player secrets of its player and the caller's address (livecore_server.ratelimit.SecretBrake: 429
while it is on), and its secret must have the shape of one before anything reads the player (401). A
wrong secret is counted by the brake and gives the key's token back. The body must arrive within the
configured time once the handler may read it (408).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime, time
from email.utils import format_datetime

from aiohttp import web

from livecore.api.auth import credential_refusals
from livecore.api.route import Auth, Deprecation, Route, Surface, bucket_for, permission_for
from livecore.clock import to_millis
from livecore.errors import (
    INTERNAL_ERROR,
    INVALID_API_KEY,
    INVALID_REQUEST,
    METHOD_NOT_ALLOWED,
    NOT_FOUND,
    PAYLOAD_TOO_LARGE,
    PERMISSION_DENIED,
    RATE_LIMITED,
    REQUEST_TIMEOUT,
    UNSUPPORTED_MEDIA_TYPE,
    LivecoreError,
)
from livecore.ratelimit import BucketName, Decision
from livecore_server.area import Admit
from livecore_server.http.endpoint import (
    API_KEY,
    RESPONSE_HEADERS,
    authorization_problem,
    bearer_token,
    takes_player,
    unreadable_headers,
)
from livecore_server.http.envelope import error_response
from livecore_server.services import SERVICES, Services
from livecore_server.storage.records import ApiKey

log = logging.getLogger("livecore_server")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

_HTTP_ERRORS = {
    404: (NOT_FOUND, "No such route."),
    405: (METHOD_NOT_ALLOWED, "Method not allowed on this route."),
    413: (PAYLOAD_TOO_LARGE, "The request body is larger than 1 MiB."),
    415: (UNSUPPORTED_MEDIA_TYPE, "Send the body as application/json."),
}


class BodyTimeout(TimeoutError):
    """The request body did not arrive in time. A ``TimeoutError``: aiohttp then stops reading what is
    left of it and closes the connection once the answer is sent, without logging a traceback."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"The request body did not arrive within {seconds:g} s.")
        self.seconds = seconds


def envelope_for(exc: Exception, request: web.Request, headers: dict[str, str]) -> web.StreamResponse:
    """The error envelope (docs/reference/conventions.md#errors) to anything a namespaced request raised
    (aiohttp's own errors included)."""
    if isinstance(exc, LivecoreError):
        return error_response(exc, headers)
    if isinstance(exc, BodyTimeout):
        return error_response(LivecoreError(REQUEST_TIMEOUT, str(exc)), headers)
    if isinstance(exc, ConnectionError):
        # The client went away (mid-body, say): nobody reads this answer, and nothing is wrong here.
        log.info(
            "client went away during %s %s (%s): %s",
            request.method,
            request.path,
            headers.get("X-Request-Id"),
            exc,
        )
        return error_response(LivecoreError(INVALID_REQUEST, "The connection was lost."), headers)
    if isinstance(exc, web.HTTPException):
        if exc.status < 400:
            raise exc
        code, message = _HTTP_ERRORS.get(exc.status, (INVALID_REQUEST, exc.reason))
        if exc.status == 405 and "Allow" in exc.headers:
            headers = {**headers, "Allow": exc.headers["Allow"]}
        return error_response(LivecoreError(code, message), headers)
    # The message is generic on purpose: internals (and anything secret in them) stay in the log.
    log.exception(
        "unhandled error on %s %s (%s)",
        request.method,
        request.path,
        headers.get("X-Request-Id"),
        exc_info=exc,
    )
    return error_response(LivecoreError(INTERNAL_ERROR, "Internal error."), headers)


async def take_token(
    services: Services,
    request: web.Request,
    key: ApiKey | None,
    bucket: BucketName,
    now_ms: int,
    headers: dict[str, str],
) -> None:
    """A token from the key's bucket, or the caller's address's without a valid key (429 when empty); the
    bucket's rate-limit headers go into ``headers`` either way."""
    # Key ids (key_...) and addresses never collide, so either names the bucket's owner.
    subject = key.id if key is not None else f"addr:{services.auth_throttle.address(request)}"
    limits: dict[BucketName, int] | None
    if key is not None:
        limits = key.rate_limits
    else:
        per_address = services.config.address_requests_per_minute
        limits = None if per_address is None else dict.fromkeys(BucketName, per_address)
    decision = await services.ratelimiter.take(subject, bucket, now_ms, limits)
    headers.update(decision.headers())
    if not decision.allowed:
        raise LivecoreError(RATE_LIMITED, "Too many requests; retry after the Retry-After delay.")


def deprecation_headers(dep: Deprecation) -> dict[str, str]:
    """docs/reference/conventions.md#versioning-and-deprecation; ``Sunset`` is an IMF-fixdate (RFC 8594)."""
    headers = {"Deprecation": "true", "X-Svc-Deprecation-Reason": dep.reason}
    if dep.sunset is not None:
        headers["Sunset"] = format_datetime(datetime.combine(dep.sunset, time(0), UTC), usegmt=True)
    if dep.successor is not None:
        headers["Link"] = f'<{dep.successor}>; rel="successor-version"'
    return headers


def _wrong_secrets(decision: Decision, headers: dict[str, str]) -> LivecoreError:
    """The 429 of the brake on wrong player secrets, with the brake's rate-limit headers (not the key's:
    the key's bucket was not what ran out)."""
    headers.update(decision.headers())
    return LivecoreError(
        RATE_LIMITED,
        "Too many wrong player secrets for this player from this address; retry after the Retry-After delay.",
    )


async def handle_in_time(request: web.Request, handler: Handler, body_timeout: float) -> web.StreamResponse:
    """Run the handler; the body's reads fail with :class:`BodyTimeout` when it is not all there
    ``body_timeout`` seconds from now. The handler reads it first thing, so no earlier wait (the key, the
    rate limit) counts against the client."""
    if request.method in ("GET", "HEAD") or not request.body_exists or request.content.is_eof():
        return await handler(request)
    content = request.content

    def late() -> None:
        if not content.is_eof():
            content.set_exception(BodyTimeout(body_timeout))

    timer = asyncio.get_running_loop().call_later(body_timeout, late)
    try:
        return await handler(request)
    finally:
        timer.cancel()


class RequestIds:
    """``req_<process prefix><counter>``: unique per process start, and cheaper than random per request."""

    def __init__(self) -> None:
        self._prefix = f"req_{secrets.token_hex(4)}_"
        self._next = itertools.count(1).__next__

    def new(self) -> str:
        return f"{self._prefix}{self._next()}"


#: The root app's request ids: those of the answers no namespace guards (the root's own paths, ``/mcp``,
#: what the HTTP layer refuses), so that every answer carries one.
REQUEST_IDS = web.AppKey("request_ids", RequestIds)


def namespace(
    surface: Surface, app: web.Application, admission: Mapping[Auth, Admit]
) -> Callable[[Route | None, Handler], Handler]:
    """What every answer of one namespace passes through: ``guard(route, handler)`` is ``handler`` behind
    the namespace's request id, key, rate limit, headers and error envelope. ``route`` is what ``handler``
    answers, None for a path of the namespace no route takes (``handler`` then raises aiohttp's 404 or
    405); ``app`` is the root app, whose services it uses; ``admission``, how the areas served admit the
    credentials they own (:attr:`livecore_server.area.ServerArea.admission`: a member's, a player's).

    The root app routes every namespace path itself and each handler is guarded once, as the app is
    built: a sub-app per namespace and a middleware cost every request (docs/deployment.md, "Measured")."""
    permission = permission_for(surface)
    request_ids = RequestIds()

    def guard(route: Route | None, handler: Handler) -> Handler:
        deprecation = deprecation_headers(route.deprecated) if route is not None and route.deprecated else {}

        async def guarded(request: web.Request) -> web.StreamResponse:
            # A request id on every answer, so a studio can quote it and we can find it in our logs.
            headers: dict[str, str] = {"X-Request-Id": request_ids.new(), **deprecation}
            request[RESPONSE_HEADERS] = headers
            try:
                response = await admit_and_handle(request, route, handler, headers)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                return envelope_for(exc, request, headers)
            response.headers.update(headers)
            return response

        return guarded

    async def admit_and_handle(
        request: web.Request, route: Route | None, handler: Handler, headers: dict[str, str]
    ) -> web.StreamResponse:
        bucket = route.bucket if route is not None else bucket_for(surface, request.method)
        public = route is not None and route.auth is Auth.PUBLIC
        public = public or (surface is Surface.ADMIN and (route is None or route.auth is not Auth.MEMBER))
        # Headers that are not text are refused (400), counted against the address like a missing key.
        unreadable = unreadable_headers(request)
        secret = None if public or unreadable else bearer_token(request)
        services = app[SERVICES]
        now_ms = to_millis(services.clock.now())
        throttle = services.auth_throttle
        if not public:
            # A locked-out address (failed authentications) is refused before its credential is checked.
            throttle.check(request, now_ms, headers)
        if route is not None and route.auth is Auth.MEMBER:
            if unreadable is not None:
                await take(request, None, bucket, now_ms, headers)
                raise unreadable
            member = admission[Auth.MEMBER]
            assert member.admit is not None and member.sent is not None
            try:
                await member.admit(request, route, services, headers)
            except LivecoreError as exc:
                if exc.code is INVALID_API_KEY:
                    # Counted against the caller's address, like an unknown API key.
                    await take(request, None, bucket, now_ms, headers)
                    if member.sent(request):
                        await throttle.count(request, now_ms, headers)
                raise
            return await handle_in_time(request, handler, services.config.body_timeout)
        key = await services.key_cache.lookup(secret, now_ms) if secret else None
        if (
            route is None
            or not takes_player(route, request.headers)
            or key is None
            or key.permission is not permission
        ):
            await take(request, key, bucket, now_ms, headers)
            if unreadable is not None:
                raise unreadable
            if key is None and not public and "Authorization" in request.headers:
                await throttle.count(request, now_ms, headers)  # 429 once the address has none left
            admit(request, route, key, public, now_ms)
            return await handle_in_time(request, handler, services.config.body_timeout)
        # A player-scoped route: the brake on wrong secrets of this player from this address comes first,
        # so that while it is on nothing else is asked (nor the key's bucket charged).
        brake = services.secret_brake
        player = brake.subject(key.scope, request.match_info["externalId"], throttle.address(request))
        refused = await brake.admit(player, now_ms)
        if refused is not None:
            raise _wrong_secrets(refused, headers)
        # What a wrong secret is answered with, as the area that authenticates the player declares it.
        wrong_secret = credential_refusals(route.auth, services.runtime.contributions)
        shaped = admission[route.auth].shaped
        assert shaped is not None
        if not shaped(request.headers.get("X-Player-Secret")):
            # Refused before the key's bucket or the database is asked, and counted like any wrong secret.
            counted = await brake.wrong(player, now_ms)
            headers.update(counted.headers())
            if not counted.allowed:
                raise _wrong_secrets(counted, headers)
            raise LivecoreError(wrong_secret[0], "The player secret is missing or is not a player secret.")
        try:
            await take(request, key, bucket, now_ms, headers)
            admit(request, route, key, public, now_ms)
            response = await handle_in_time(request, handler, services.config.body_timeout)
        except LivecoreError as exc:
            if exc.code not in wrong_secret:
                brake.release(player)
                raise
            counted = await brake.wrong(player, now_ms)
            # The key's bucket is shared by every player of the game: it is not charged for wrong secrets.
            await services.ratelimiter.give_back(key.id, bucket, now_ms, key.rate_limits)
            if not counted.allowed:
                raise _wrong_secrets(counted, headers) from None
            raise
        except BaseException:
            brake.release(player)
            raise
        brake.release(player)
        return response

    async def take(
        request: web.Request, key: ApiKey | None, bucket: BucketName, now_ms: int, headers: dict[str, str]
    ) -> None:
        await take_token(app[SERVICES], request, key, bucket, now_ms, headers)

    def admit(
        request: web.Request, route: Route | None, key: ApiKey | None, public: bool, now_ms: int
    ) -> None:
        """Who may call: a valid key (401) of this namespace's permission (403); public routes need none."""
        if public:
            return
        if key is None:
            raise LivecoreError(
                INVALID_API_KEY,
                authorization_problem(request) or "The API key is unknown or revoked.",
            )
        app[SERVICES].usage.record(
            key.id,
            now_ms,
            route.name if route is not None else f"{request.method} {request.path}",
            request.headers.get("X-Svc-SDK"),
        )
        if key.permission is not permission:
            raise LivecoreError(
                PERMISSION_DENIED,
                f"This route needs a {permission.value} key; this key is {key.permission.value}.",
            )
        request[API_KEY] = key

    return guard
