"""The one description of a call that the sync and async clients share, so the two cannot drift.

A call goes: :class:`Call` (what a client method asked for) -> :func:`build_request` ->
:class:`PreparedRequest` (the exact bytes, built once) -> a sender loop (send, maybe sleep, send the same
bytes again) -> :func:`parse_response` -> the response model, or an exception from
:mod:`livecore_client.errors`.

Building the request once, before the retry loop, is what makes retries safe: the idempotency key is part of
the prepared bytes, so every attempt of a write carries the same key and the service applies it at most once
(docs/reference/conventions.md#idempotency). Only the ``send_*`` and ``retry_*`` pairs at the bottom know
about sync or async; the live stream (:mod:`livecore_client._stream`) opens through the same retry loops.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
import typing
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar
from urllib.parse import quote

import attrs
import cattrs
import httpx
import orjson

import livecore
from livecore.api.call import Call, new_idempotency_key, wire_body, wire_query
from livecore.api.convert import response_converter
from livecore.api.route import Auth
from livecore.errors import Code, LivecoreError
from livecore.platforms import APP_VERSION_HEADER, PLATFORM_HEADER, sent_build

from .errors import (
    APIConnectionError,
    APIResponseValidationError,
    APITimeoutError,
    LivecoreAPIError,
    LivecoreClientError,
    error_from_response,
    retry_after_seconds,
)

T = TypeVar("T")

SDK_IDENTIFICATION = f"livecore-python/{livecore.__version__}"


@attrs.frozen
class PreparedRequest:
    method: str
    path: str  # surface prefix included, path parameters filled in and escaped
    params: Mapping[str, str]
    headers: Mapping[str, str]
    content: bytes | None
    idempotency_key: str | None
    # False for a write without an idempotency key: resending after an unknown outcome could apply it
    # twice, so only a 429 (refused before any effect) may be retried.
    retry_safe: bool
    work_time: float = 0.0  # Call.work_time


def with_read_timeout(timeout: httpx.Timeout, read: float | None) -> httpx.Timeout:
    """``timeout`` with its read timeout replaced by ``read`` (None: wait for ever)."""
    return httpx.Timeout(connect=timeout.connect, read=read, write=timeout.write, pool=timeout.pool)


def request_timeout(timeout: httpx.Timeout, request: PreparedRequest) -> httpx.Timeout:
    """The timeout of ``request`` on an HTTP client whose timeout is ``timeout``: the client's, its read
    timeout lengthened by the request's work time."""
    if not request.work_time or timeout.read is None:
        return timeout
    return with_read_timeout(timeout, timeout.read + request.work_time)


def build_headers(platform: str | None, app_version: str | None) -> dict[str, str]:
    """The headers an SDK client sends on every request to report the game's build (its platform key and
    app version, docs/reference/players-and-identity.md#platform-and-app-version); ``ValueError`` at
    once for a value the service would refuse."""
    sent = [(PLATFORM_HEADER, platform), (APP_VERSION_HEADER, app_version)]
    headers = {name: value for name, value in sent if value is not None}
    try:
        sent_build(headers)
    except LivecoreError as exc:
        raise ValueError(exc.message) from None
    return headers


def build_request(
    call: Call[Any],
    *,
    api_key: str,
    new_key: Callable[[], str] = new_idempotency_key,
    headers: Mapping[str, str] | None = None,
) -> PreparedRequest:
    """The request of ``call``; ``headers``: what the client sends on every request besides (the build
    headers of an SDK client)."""
    route = call.route
    payload, key = wire_body(call, new_key)

    headers = {"Accept": "application/json", "X-Svc-SDK": SDK_IDENTIFICATION, **(headers or {})}
    if route.auth is not Auth.PUBLIC:
        # An API key, or on a member route (Auth.MEMBER, the admin API) a member's personal key.
        headers["Authorization"] = f"Bearer {api_key}"
    if route.auth is Auth.PLAYER:
        if not call.player_secret:
            # Fail before the network: the service would only answer 401 player_secret_invalid.
            raise ValueError(f"{route.name} needs the player's secret: pass player_secret")
        headers["X-Player-Secret"] = call.player_secret
    elif route.auth is Auth.KEY_OR_PLAYER and call.player_secret:
        headers["X-Player-Secret"] = call.player_secret
    if key is not None:
        headers["Idempotency-Key"] = key
    content = None
    if payload is not None:
        headers["Content-Type"] = "application/json"
        content = orjson.dumps(payload)

    return PreparedRequest(
        method=route.method,
        path=route.surface.value + _fill_path(route.path, call.path),
        params=wire_query(call),
        headers=headers,
        content=content,
        idempotency_key=key,
        # A route keyed on a body field applies a resend of the same body once, as a keyed write does.
        retry_safe=not route.is_write or key is not None or route.idempotent_on is not None,
        work_time=call.work_time,
    )


_PATH_PARAM = re.compile(r"\{(\w+)\}")


def _fill_path(template: str, values: Mapping[str, str]) -> str:
    names = set(_PATH_PARAM.findall(template))
    if names != set(values):
        raise ValueError(f"{template} takes path parameters {sorted(names)}, got {sorted(values)}")
    for name, value in values.items():
        if not value:
            # An empty segment would silently address a different route.
            raise ValueError(f"path parameter {name} must not be empty")
    # safe="": a "/" inside an id must stay inside its segment.
    return _PATH_PARAM.sub(lambda match: quote(values[match.group(1)], safe=""), template)


def parse_response(
    response: type[T],
    status: int,
    headers: Mapping[str, str],
    content: bytes,
    accepted: tuple[Code, type[T]] | None = None,
    variant: tuple[int, type[T]] | None = None,
) -> T:
    """The model inside ``data`` of a 2xx answer (the ``variant`` model for its status; inside
    ``error.details`` of the 2xx envelope ``accepted`` names), or the exception for an error answer.

    The lenient converter reads responses: The contract
    (docs/reference/conventions.md#versioning-and-deprecation) lets new fields appear in v1 without notice,
    and an old client must keep working when they do.
    """
    payload = _decode(content)
    is_envelope = isinstance(payload, dict) and "error" in payload and "data" not in payload
    # The 202 lobby_forming answer is an error envelope too, so the body decides, not the status.
    if not 200 <= status < 300 or is_envelope:
        error = error_from_response(status, headers, payload, content.decode("utf-8", "replace"))
        if accepted is None or not 200 <= status < 300 or error.code != accepted[0].value:
            raise error
        return _structure(error.details or {}, accepted[1], status, headers, content)
    if response is type(None):
        return None
    if not isinstance(payload, dict) or "data" not in payload:
        raise APIResponseValidationError(
            f"HTTP {status} answer has no data: {content[:200]!r}", status=status, headers=headers
        )
    if typing.get_origin(response) is list and not isinstance(payload["data"], list):
        # cattrs would iterate an object's keys into a list: a list answer must be a JSON array.
        raise APIResponseValidationError(
            f"HTTP {status} answer should be an array: {content[:200]!r}", status=status, headers=headers
        )
    model = variant[1] if variant is not None and status == variant[0] else response
    return _structure(payload["data"], model, status, headers, content)


def _structure(data: Any, response: type[T], status: int, headers: Mapping[str, str], content: bytes) -> T:
    try:
        return response_converter.structure(data, response)
    except (cattrs.BaseValidationError, ValueError, TypeError, KeyError) as exc:
        raise APIResponseValidationError(
            f"HTTP {status} answer does not match {getattr(response, '__name__', response)}: {exc}",
            status=status,
            headers=headers,
        ) from exc


def _decode(content: bytes) -> Any:
    if not content:
        return None
    try:
        return orjson.loads(content)
    except orjson.JSONDecodeError:
        return None


def connection_error(exc: httpx.TransportError) -> APIConnectionError:
    error_type = APITimeoutError if isinstance(exc, httpx.TimeoutException) else APIConnectionError
    error = error_type(f"{type(exc).__name__}: {exc}")
    error.__cause__ = exc
    return error


@attrs.frozen
class RetryPolicy:
    """When to retry and how long to wait. ``rand``, ``sleep`` and ``async_sleep`` are injectable so
    tests run fast and deterministically."""

    max_retries: int = attrs.field(default=2, validator=attrs.validators.ge(0))
    base_delay: float = 0.5
    max_delay: float = 20.0
    # A Retry-After beyond this is raised to the caller rather than slept through inside a call.
    max_retry_after: float = 60.0
    rand: Callable[[], float] = random.random
    sleep: Callable[[float], None] = time.sleep
    async_sleep: Callable[[float], Awaitable[None]] = asyncio.sleep

    def delay(self, attempt: int, error: LivecoreClientError, *, retry_safe: bool) -> float | None:
        """Seconds to wait before retrying after failed attempt number ``attempt`` (0-based), or
        ``None`` to raise ``error``."""
        if attempt >= self.max_retries or not self._retryable(error, retry_safe):
            return None
        hint = retry_after_seconds(error.headers) if isinstance(error, LivecoreAPIError) else None
        if hint is not None:
            return hint if hint <= self.max_retry_after else None
        # Full jitter: spreads the retries of many clients hit by the same outage.
        return self.rand() * min(self.max_delay, self.base_delay * 2.0**attempt)

    @staticmethod
    def _retryable(error: LivecoreClientError, retry_safe: bool) -> bool:
        if isinstance(error, LivecoreAPIError) and error.status == 429:
            return True  # refused before any effect, so safe even for an unkeyed write
        if not retry_safe:
            return False
        if isinstance(error, APIConnectionError):
            return True
        return isinstance(error, LivecoreAPIError) and error.status >= 500


def send_sync(
    http: httpx.Client,
    base_url: str,
    request: PreparedRequest,
    response: type[T],
    policy: RetryPolicy,
    accepted: tuple[Code, type[T]] | None = None,
    variant: tuple[int, type[T]] | None = None,
) -> T:
    def once() -> T:
        raw = http.request(
            request.method,
            base_url + request.path,
            params=request.params,
            headers=request.headers,
            content=request.content,
            timeout=request_timeout(http.timeout, request),
        )
        return parse_response(response, raw.status_code, raw.headers, raw.content, accepted, variant)

    return retry_sync(once, request, policy)


async def send_async(
    http: httpx.AsyncClient,
    base_url: str,
    request: PreparedRequest,
    response: type[T],
    policy: RetryPolicy,
    accepted: tuple[Code, type[T]] | None = None,
    variant: tuple[int, type[T]] | None = None,
) -> T:
    async def once() -> T:
        raw = await http.request(
            request.method,
            base_url + request.path,
            params=request.params,
            headers=request.headers,
            content=request.content,
            timeout=request_timeout(http.timeout, request),
        )
        return parse_response(response, raw.status_code, raw.headers, raw.content, accepted, variant)

    return await retry_async(once, request, policy)


def retry_sync(once: Callable[[], T], request: PreparedRequest, policy: RetryPolicy) -> T:
    """``once()`` (one exchange of ``request``) until it succeeds or the policy gives up."""
    attempt = 0
    while True:
        error: LivecoreClientError
        try:
            return once()
        except httpx.TransportError as exc:
            error = connection_error(exc)
        except LivecoreAPIError as exc:
            error = exc
        delay = policy.delay(attempt, error, retry_safe=request.retry_safe)
        if delay is None:
            raise error
        policy.sleep(delay)
        attempt += 1


async def retry_async(once: Callable[[], Awaitable[T]], request: PreparedRequest, policy: RetryPolicy) -> T:
    """:func:`retry_sync` for an awaitable exchange."""
    attempt = 0
    while True:
        error: LivecoreClientError
        try:
            return await once()
        except httpx.TransportError as exc:
            error = connection_error(exc)
        except LivecoreAPIError as exc:
            error = exc
        delay = policy.delay(attempt, error, retry_safe=request.retry_safe)
        if delay is None:
            raise error
        await policy.async_sleep(delay)
        attempt += 1
