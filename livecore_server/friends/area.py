"""The friends area's server side: the handler bound to each of its routes."""

from __future__ import annotations

from livecore.friends.area import AREA
from livecore_server.area import ServerArea
from livecore_server.friends import schema, sdk, sdk_presence, server

SERVER_AREA = ServerArea(
    AREA,
    bindings=(*sdk.BINDINGS, *sdk_presence.BINDINGS, *server.BINDINGS),
    schema=schema.SCHEMA,
    history=schema.HISTORY,
    sql_ports=schema.SQL_PORTS,
)
