"""The player tools area's server side: its tables, SQL ports and the handlers of the merge, erasure and
migration routes (its other routes' handlers are the core's, :mod:`livecore.player_tools.handlers`)."""

from __future__ import annotations

from livecore.player_tools.area import AREA
from livecore_server.area import ServerArea
from livecore_server.player_tools import migrate, schema, server, sql

SERVER_AREA = ServerArea(
    AREA,
    bindings=(*server.BINDINGS, *migrate.BINDINGS),
    schema=schema.SCHEMA,
    migrations=schema.MIGRATIONS,
    sql_ports=sql.SQL_PORTS,
)
