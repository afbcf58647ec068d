"""The teams area's server side: its tables, SQL ports and report part (its routes' handlers are the
core's, :mod:`livecore.teams.handlers`)."""

from __future__ import annotations

from livecore.teams.area import AREA
from livecore_server.area import ServerArea
from livecore_server.teams import schema, sql
from livecore_server.teams.report import REPORT

SERVER_AREA = ServerArea(
    AREA,
    report=REPORT,
    schema=schema.SCHEMA,
    migrations=schema.MIGRATIONS,
    sql_ports=sql.SQL_PORTS,
)
