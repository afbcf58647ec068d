"""The guilds area's server side: the handler bound to each of its routes."""

from __future__ import annotations

from livecore.guilds.area import AREA
from livecore_server.area import ServerArea
from livecore_server.guilds import schema, sdk, server
from livecore_server.guilds.report import REPORT

SERVER_AREA = ServerArea(
    AREA,
    report=REPORT,
    bindings=(*sdk.BINDINGS, *server.BINDINGS),
    schema=schema.SCHEMA,
    history=schema.HISTORY,
    sql_ports=schema.SQL_PORTS,
)
