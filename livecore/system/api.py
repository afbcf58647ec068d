"""The system routes: the public health probe, the server key's ping and the test clock's advance."""

from __future__ import annotations

from datetime import datetime

import attrs

from livecore.api.route import Auth, Route, Surface
from livecore.errors import NOT_FOUND
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
    errors=(NOT_FOUND,),
)

ROUTES = (HEALTH, PING, CLOCK_ADVANCE)
