"""The live events area's server side: the handler bound to each of its routes."""

from __future__ import annotations

from livecore.live_events.area import AREA
from livecore_server.area import ServerArea
from livecore_server.live_events import schema, sdk, server
from livecore_server.live_events.report import REPORT

SERVER_AREA = ServerArea(
    AREA,
    report=REPORT,
    bindings=(*sdk.BINDINGS, *server.BINDINGS),
    schema=schema.SCHEMA,
    history=schema.HISTORY,
    sql_ports=schema.SQL_PORTS,
)
