"""Public liveness probe."""

from __future__ import annotations

from livecore import __version__
from livecore.api import system as api
from livecore_server.http.endpoint import Binding, Call, bind_direct


async def health(call: Call[None, None]) -> api.HealthResponse:
    return api.HealthResponse(status="ok", version=__version__, time=call.services.clock.now())


BINDINGS: list[Binding] = [bind_direct(api.HEALTH, health)]
