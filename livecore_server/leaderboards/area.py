"""The leaderboards area's server side: its tables, SQL ports, report part and the routes it binds itself,
the rollover-now and the score submission (:mod:`livecore_server.leaderboards.server`)."""

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
