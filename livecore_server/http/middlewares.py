"""Middlewares: the error envelope (docs/reference/conventions.md#errors) for every error (root app), and per
namespace the API key, the rate limit and the headers every response of that namespace carries.

Order inside a namespace: parse the key; an unknown key is counted against the caller's address and
answered 401; a known key takes a token from its own bucket (429 when empty) and is then checked for the
namespace's permission (403). Rate-limit and deprecation headers ride on every response, errors included.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, time
from email.utils import format_datetime

from aiohttp import web

from livecore.api.route import Auth, Deprecation, Route, Surface, bucket_for, permission_for
from livecore.clock import to_millis
from livecore.errors import ErrorCode, LivecoreError
from livecore_server.http.endpoint import API_KEY, unreadable_headers
from livecore_server.http.envelope import error_response
from livecore_server.services import SERVICES

log = logging.getLogger("livecore_server")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

_HTTP_ERRORS = {
    404: (ErrorCode.NOT_FOUND, "No such route."),
    405: (ErrorCode.METHOD_NOT_ALLOWED, "Method not allowed on this route."),
    413: (ErrorCode.PAYLOAD_TOO_LARGE, "The request body is larger than 1 MiB."),
    415: (ErrorCode.UNSUPPORTED_MEDIA_TYPE, "Send the body as application/json."),
}


def envelope_for(exc: Exception, request: web.Request, headers: dict[str, str]) -> web.StreamResponse:
    """The error envelope (docs/reference/conventions.md#errors) to anything a namespaced request raised
    (aiohttp's own errors included)."""
    if isinstance(exc, LivecoreError):
        return error_response(exc, headers)
    if isinstance(exc, web.HTTPException):
        if exc.status < 400:
            raise exc
        code, message = _HTTP_ERRORS.get(exc.status, (ErrorCode.INVALID_REQUEST, exc.reason))
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
    return error_response(LivecoreError(ErrorCode.INTERNAL_ERROR, "Internal error."), headers)


def deprecation_headers(dep: Deprecation) -> dict[str, str]:
    """docs/reference/conventions.md#versioning-and-deprecation; ``Sunset`` is an IMF-fixdate (RFC 8594)."""
    headers = {"Deprecation": "true", "X-Svc-Deprecation-Reason": dep.reason}
    if dep.sunset is not None:
        headers["Sunset"] = format_datetime(datetime.combine(dep.sunset, time(0), UTC), usegmt=True)
    if dep.successor is not None:
        headers["Link"] = f'<{dep.successor}>; rel="successor-version"'
    return headers


def _bearer(request: web.Request) -> str | None:
    header = request.headers.get("Authorization")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


class RequestIds:
    """``req_<process prefix><counter>``: unique per process start, and cheaper than random per request."""

    def __init__(self) -> None:
        self._prefix = f"req_{secrets.token_hex(4)}_"
        self._next = itertools.count(1).__next__

    def new(self) -> str:
        return f"{self._prefix}{self._next()}"


def namespace(
    surface: Surface, routes: dict[str, Route], app: web.Application
) -> Callable[..., Awaitable[web.StreamResponse]]:
    """The middleware of one namespace sub-app; ``routes`` maps aiohttp route names to declarations;
    ``app`` is the root app, whose services it uses.

    One middleware rather than an envelope layer plus an auth layer: every layer costs each request."""
    permission = permission_for(surface)
    request_ids = RequestIds()
    deprecations = {name: deprecation_headers(r.deprecated) for name, r in routes.items() if r.deprecated}

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        # A request id on every answer, so a studio can quote it and we can find it in our logs.
        headers: dict[str, str] = {"X-Request-Id": request_ids.new()}
        try:
            response = await admit_and_handle(request, handler, headers)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            return envelope_for(exc, request, headers)
        response.headers.update(headers)
        return response

    async def admit_and_handle(
        request: web.Request, handler: Handler, headers: dict[str, str]
    ) -> web.StreamResponse:
        route_name = request.match_info.route.name or ""
        route = routes.get(route_name)
        if route_name in deprecations:
            headers.update(deprecations[route_name])
        bucket = route.bucket if route is not None else bucket_for(surface, request.method)
        public = (route is not None and route.auth is Auth.PUBLIC) or surface is Surface.ADMIN
        # Headers that are not text are refused (400), counted against the address like a missing key.
        unreadable = unreadable_headers(request)
        secret = None if public or unreadable else _bearer(request)
        services = app[SERVICES]
        key = await services.key_cache.lookup(secret) if secret else None
        # Key ids (key_...) and addresses never collide, so either names the bucket's owner.
        subject = key.id if key is not None else f"addr:{request.remote}"
        now_ms = to_millis(services.clock.now())
        decision = await services.ratelimiter.take(
            subject, bucket, now_ms, key.rate_limits if key is not None else None
        )
        headers.update(decision.headers())
        if not decision.allowed:
            raise LivecoreError(
                ErrorCode.RATE_LIMITED, "Too many requests; retry after the Retry-After delay."
            )
        if unreadable is not None:
            raise unreadable
        if not public:
            if key is None:
                raise LivecoreError(ErrorCode.INVALID_API_KEY, "Missing or invalid API key.")
            services.usage.record(
                key.id,
                now_ms,
                route.name if route is not None else f"{request.method} {request.path}",
                request.headers.get("X-Svc-SDK"),
            )
            if key.permission is not permission:
                raise LivecoreError(
                    ErrorCode.PERMISSION_DENIED,
                    f"This route needs a {permission.value} key; this key is {key.permission.value}.",
                )
            request[API_KEY] = key
        return await handler(request)

    return middleware
