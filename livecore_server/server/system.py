"""Server system routes: ping and the manual clock (docs/reference/manifest-and-cli.md#manual-clock)."""

from __future__ import annotations

from livecore.api import system as api
from livecore.errors import NOT_FOUND, LivecoreError, invalid_request
from livecore_server.http.endpoint import Binding, Call, bind_direct


async def ping(call: Call[None, None]) -> api.ServerPingResponse:
    return api.ServerPingResponse(
        ok=True,
        studio_id=call.scope.studio_id,
        game_id=call.scope.game_id,
        environment=call.scope.env.value,
        key_prefix=call.scope.actor.prefix or "",
        time=call.services.clock.now(),
    )


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


BINDINGS: list[Binding] = [
    bind_direct(api.PING, ping),
    bind_direct(api.CLOCK_ADVANCE, advance_clock),
]
