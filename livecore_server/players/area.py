"""The players area's server side: the handler bound to each of its routes."""

from __future__ import annotations

from livecore.players.area import AREA
from livecore_server.area import ServerArea
from livecore_server.players import schema, sdk, server

SERVER_AREA = ServerArea(
    AREA,
    bindings=(*sdk.BINDINGS, *server.BINDINGS),
    schema=schema.SCHEMA,
    history=schema.HISTORY,
    sql_ports=schema.SQL_PORTS,
)
