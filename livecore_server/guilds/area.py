"""The guilds area's server side: its tables, SQL ports and report part, and what it reads ahead of a
donation (its binding declares the reads, :data:`~livecore_server.guilds.read_ahead.READ_AHEAD` reads
them). A donation runs beside its game's other writes, holding its donor and the help request it adds to
(docs/architecture.md, "Concurrency"). Its routes' handlers are the core's
(:mod:`livecore.guilds.handlers`)."""

from __future__ import annotations

from livecore.guilds import api, handlers
from livecore.guilds.area import AREA
from livecore_server.area import ServerArea
from livecore_server.guilds import schema, sql
from livecore_server.guilds.read_ahead import READ_AHEAD
from livecore_server.guilds.report import REPORT
from livecore_server.http.endpoint import bind
from livecore_server.storage.concurrency import Concurrency

SERVER_AREA = ServerArea(
    AREA,
    report=REPORT,
    bindings=(
        bind(api.SDK_DONATE, handlers.donate, reads=handlers.donate_reads, concurrency=Concurrency.PLAYERS),
    ),
    schema=schema.SCHEMA,
    migrations=schema.MIGRATIONS,
    sql_ports=sql.SQL_PORTS,
    read_ahead=READ_AHEAD,
)
