"""System routes: the public health probe, the server key's ping and the test clock's advance."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

import attrs

from livecore.api.route import Auth, Route, Surface
from livecore.area import Area
from livecore.errors import Code, ErrorCode
from livecore.limits import Range, limited


@attrs.frozen
class HealthResponse:
    status: str
    version: str
    time: datetime


@attrs.frozen
class ServerPingResponse:
    ok: bool
    studio_id: str
    game_id: str
    environment: str
    key_prefix: str
    time: datetime


#: How far one advance of the manual clock may go: a month. Every piece of scheduled work that comes
#: due on the way runs, so a larger step would hold the request for minutes; call again to go further.
CLOCK_STEP = Range(0, 31 * 86_400)


@attrs.frozen
class ClockAdvanceRequest:
    seconds: float = attrs.field(metadata=limited(CLOCK_STEP))


@attrs.frozen
class ClockAdvanceResponse:
    now: datetime


HEALTH = Route(
    name="health",
    surface=Surface.ADMIN,
    method="GET",
    path="/health",
    summary="Public liveness probe.",
    auth=Auth.PUBLIC,
    response=HealthResponse,
)


PING = Route(
    name="ping",
    surface=Surface.SERVER,
    method="GET",
    path="/ping",
    summary="Connectivity and key probe.",
    response=ServerPingResponse,
)


CLOCK_ADVANCE = Route(
    name="dev.clock_advance",
    surface=Surface.SERVER,
    method="POST",
    path="/dev/clock/advance",
    summary="Move the manual clock forward and run the work that came due (serve --clock manual only).",
    request=ClockAdvanceRequest,
    response=ClockAdvanceResponse,
    test_only=True,
    errors=(ErrorCode.NOT_FOUND,),
)

ROUTES = (HEALTH, PING, CLOCK_ADVANCE)

_MEANINGS: Mapping[ErrorCode | Code, str] = {
    ErrorCode.INVALID_REQUEST: "The body, query or a header failed validation; `details.fields` names each "
    "offending field by its wire path.",
    ErrorCode.INVALID_API_KEY: "The API key is missing, unknown or revoked.",
    ErrorCode.PERMISSION_DENIED: "The key's permission set does not fit the surface, or a test-only route "
    "or option was called with a live key.",
    ErrorCode.NOT_FOUND: "No such route, or a record id in the path names nothing the caller may see.",
    ErrorCode.METHOD_NOT_ALLOWED: "The path exists but not with this method (see the `Allow` header).",
    ErrorCode.PAYLOAD_TOO_LARGE: "The body is over 1 MiB.",
    ErrorCode.UNSUPPORTED_MEDIA_TYPE: "A body that is not `application/json`.",
    ErrorCode.REQUEST_TIMEOUT: "The body did not arrive within the server's body timeout (30 s unless "
    "the operator changed it); the connection is closed.",
    ErrorCode.RATE_LIMITED: "The key's bucket is empty, or too many wrong player secrets came for this "
    "player from this address; `Retry-After` says when to retry.",
    ErrorCode.IDEMPOTENCY_CONFLICT: "The idempotency key was used before with a different request, or that "
    "request is still in flight.",
    ErrorCode.INTERNAL_ERROR: "A fault of the service; quote the `X-Request-Id`.",
    ErrorCode.STORAGE_UNAVAILABLE: "The server cannot write to its database: its SQLite file was moved, "
    "deleted or replaced while it ran (the server logs why). Nothing was applied; the operator restarts it.",
    ErrorCode.CONFLICT: "The request conflicts with the record's current state.",
}


SYSTEM = Area(
    name="system",
    summary="The service itself: health, ping, and the test environment's clock.",
    page="conventions",
    routes=(HEALTH, PING, CLOCK_ADVANCE),
    error_meanings=_MEANINGS,
)
