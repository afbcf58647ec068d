"""The players area's server side: its tables, SQL ports, the registration's handler and the operators'
rotation of a player's secret (its other routes' handlers are the core's, :mod:`livecore.players.handlers`)
and its part of a season's report."""

from __future__ import annotations

from livecore.players.area import AREA
from livecore_server.area import ServerArea
from livecore_server.players import admin, schema, sdk
from livecore_server.players.read_ahead import READ_AHEAD
from livecore_server.players.report import REPORT

SERVER_AREA = ServerArea(
    AREA,
    bindings=(*sdk.BINDINGS, *admin.BINDINGS),
    schema=schema.SCHEMA,
    migrations=schema.MIGRATIONS,
    sql_ports=schema.SQL_PORTS,
    read_ahead=READ_AHEAD,
    report=REPORT,
)
