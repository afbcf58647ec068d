"""The gifts area's server side: its tables, SQL ports and report part, and what it reads ahead of a send
and a claim (their bindings declare the reads, :data:`~livecore_server.gifts.read_ahead.READ_AHEAD` reads
them). Its routes' handlers are the core's (:mod:`livecore.gifts.handlers`)."""

from __future__ import annotations

from livecore.gifts import api, handlers
from livecore.gifts.area import AREA
from livecore_server.area import ServerArea
from livecore_server.gifts import schema, sql
from livecore_server.gifts.read_ahead import READ_AHEAD
from livecore_server.gifts.report import REPORT
from livecore_server.http.endpoint import bind
from livecore_server.storage.concurrency import Concurrency

SERVER_AREA = ServerArea(
    AREA,
    report=REPORT,
    bindings=(
        bind(api.GIFT_SEND, handlers.send, reads=handlers.send_reads, concurrency=Concurrency.PLAYERS),
        bind(api.GIFT_CLAIM, handlers.claim, reads=handlers.claim_reads, concurrency=Concurrency.PLAYERS),
    ),
    schema=schema.SCHEMA,
    migrations=schema.MIGRATIONS,
    sql_ports=sql.SQL_PORTS,
    read_ahead=READ_AHEAD,
)
