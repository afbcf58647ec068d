"""The purchases area's server side: its tables and SQL ports (its routes' handlers are the core's,
:mod:`livecore.purchases.handlers`)."""

from __future__ import annotations

from livecore.purchases.area import AREA
from livecore_server.area import ServerArea
from livecore_server.purchases import schema, sql

SERVER_AREA = ServerArea(
    AREA,
    schema=schema.SCHEMA,
    migrations=schema.MIGRATIONS,
    sql_ports=sql.SQL_PORTS,
)
