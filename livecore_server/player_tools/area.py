"""The player tools area's server side: the handler bound to each of its routes."""

from __future__ import annotations

from livecore.player_tools.area import AREA
from livecore_server.area import ServerArea
from livecore_server.player_tools import migrate, schema, server

SERVER_AREA = ServerArea(
    AREA,
    bindings=(*server.BINDINGS, *migrate.BINDINGS),
    schema=schema.SCHEMA,
    history=schema.HISTORY,
    sql_ports=schema.SQL_PORTS,
)
