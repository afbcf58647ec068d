"""The leaderboards area's server side: its tables, SQL ports, report part and the one route it answers
itself, the rollover-now (the others' handlers are the core's, :mod:`livecore.leaderboards.handlers`)."""

from __future__ import annotations

from livecore.leaderboards.area import AREA
from livecore_server.area import ServerArea
from livecore_server.leaderboards import schema, server, sql
from livecore_server.leaderboards.report import REPORT

SERVER_AREA = ServerArea(
    AREA,
    report=REPORT,
    bindings=tuple(server.BINDINGS),
    schema=schema.SCHEMA,
    migrations=schema.MIGRATIONS,
    sql_ports=sql.SQL_PORTS,
)
