"""The teams area's server side: the handler bound to each of its routes."""

from __future__ import annotations

from livecore.teams.area import AREA
from livecore_server.area import ServerArea
from livecore_server.teams import schema, sdk, server
from livecore_server.teams.report import REPORT

SERVER_AREA = ServerArea(
    AREA,
    report=REPORT,
    bindings=(*sdk.BINDINGS, *server.BINDINGS),
    schema=schema.SCHEMA,
    history=schema.HISTORY,
    sql_ports=schema.SQL_PORTS,
)
