"""The gifts area's server side: the handler bound to each of its routes."""

from __future__ import annotations

from livecore.gifts.area import AREA
from livecore_server.area import ServerArea
from livecore_server.gifts import schema, sdk, server
from livecore_server.gifts.read_ahead import READ_AHEAD
from livecore_server.gifts.report import REPORT

SERVER_AREA = ServerArea(
    AREA,
    report=REPORT,
    bindings=(*sdk.BINDINGS, *server.BINDINGS),
    schema=schema.SCHEMA,
    history=schema.HISTORY,
    sql_ports=schema.SQL_PORTS,
    read_ahead=READ_AHEAD,
)
