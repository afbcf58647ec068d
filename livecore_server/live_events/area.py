"""The live events area's server side: the handler bound to each of its routes."""

from __future__ import annotations

from livecore.live_events.area import AREA
from livecore_server.area import ServerArea
from livecore_server.live_events import sdk, server

SERVER_AREA = ServerArea(AREA, bindings=(*sdk.BINDINGS, *server.BINDINGS))
