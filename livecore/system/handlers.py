"""The system routes' handlers that need nothing but the request: the public health probe and the server
key's ping (an advance of the manual clock runs the server's scheduler, so it is the server's alone,
:mod:`livecore_server.system.bindings`). Neither reads the store: the server runs them without a
transaction."""

from __future__ import annotations

from livecore.api.request import Handler, Request
from livecore.api.route import Route
from livecore.system import api
from livecore.version import __version__


def health(request: Request[None, None], tx: object) -> api.HealthResponse:
    return api.HealthResponse(status="ok", version=__version__, time=request.rt.clock.now())


def ping(request: Request[None, None], tx: object) -> api.ServerPingResponse:
    scope = request.scope
    return api.ServerPingResponse(
        ok=True,
        studio_id=scope.studio_id,
        game_id=scope.game_id,
        environment=scope.env.value,
        key_prefix=scope.actor.prefix or "",
        time=request.rt.clock.now(),
    )


HANDLERS: dict[Route, Handler] = {api.HEALTH: health, api.PING: ping}
