"""The grants area's server side: what a grant's creation reads ahead, its tables, SQL ports and report
part (its routes' handlers are the core's, :mod:`livecore.grants.handlers`)."""

from __future__ import annotations

from livecore.grants.area import AREA
from livecore_server.area import ServerArea
from livecore_server.grants import schema, server, sql
from livecore_server.grants.report import REPORT

SERVER_AREA = ServerArea(
    AREA,
    report=REPORT,
    bindings=tuple(server.BINDINGS),
    schema=schema.SCHEMA,
    migrations=schema.MIGRATIONS,
    sql_ports=sql.SQL_PORTS,
)
