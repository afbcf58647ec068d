"""The system routes as the server binds them (docs/reference/manifest-and-cli.md#manual-clock).

Each is bound here, not from the core's handlers alone (:attr:`livecore.area.Area.handlers`, which the
server would run in a store transaction): the health probe and the ping read nothing stored, so they run
the core's handlers (:mod:`livecore.system.handlers`) without a transaction, and a probe answers while
the database is busy; an advance of the manual clock needs what only a server has (whether its clock is
manual, its scheduler, the buffers the sweeps must see flushed)."""

from __future__ import annotations

from livecore.errors import NOT_FOUND, LivecoreError, invalid_request
from livecore.system import api, handlers
from livecore_server.http.endpoint import Binding, Call, bind_direct


async def health(call: Call[None, None]) -> api.HealthResponse:
    return handlers.health(call, None)


async def ping(call: Call[None, None]) -> api.ServerPingResponse:
    return handlers.ping(call, None)


async def advance_clock(call: Call[api.ClockAdvanceRequest, None]) -> api.ClockAdvanceResponse:
    if not call.services.manual_clock:
        raise LivecoreError(NOT_FOUND, "The clock is not manual (serve --clock manual).")
    if not call.body.seconds > 0:
        raise invalid_request("seconds must be greater than 0.", {"seconds": "must be greater than 0"})
    api.CLOCK_STEP.check(call.body.seconds, "seconds")
    # The sweeps on the way must see every request answered before: a lastSeenAt still in memory would
    # let a guild hand over a leader seen a moment ago.
    await call.services.flush_buffers()
    now = await call.services.scheduler.advance(call.body.seconds)
    return api.ClockAdvanceResponse(now=now)


BINDINGS: tuple[Binding, ...] = (
    bind_direct(api.HEALTH, health),
    bind_direct(api.PING, ping),
    bind_direct(api.CLOCK_ADVANCE, advance_clock),
)
