"""The purchases area's server side: its tables, SQL ports and report part (a season's revenue), and its
two writes bound to run beside the game's other writes (their handlers are the core's,
:mod:`livecore.purchases.handlers`). A purchase
tracked (by the client or the studio) decides on its player's purchases and on its transaction id, unique
in its game and environment: it holds its player's lock, and a second player's purchase under the same
id, racing it, loses the unique key, runs again and answers the conflict (docs/architecture.md,
"Concurrency")."""

from __future__ import annotations

from livecore.purchases import api, handlers
from livecore.purchases.area import AREA
from livecore_server.area import ServerArea
from livecore_server.http.endpoint import bind
from livecore_server.purchases import schema, sql
from livecore_server.purchases.report import REPORT
from livecore_server.storage.concurrency import Concurrency

SERVER_AREA = ServerArea(
    AREA,
    report=REPORT,
    bindings=(
        bind(api.SDK_TRACK_PURCHASE, handlers.sdk_track, concurrency=Concurrency.PLAYERS),
        bind(api.SERVER_TRACK_PURCHASE, handlers.server_track, concurrency=Concurrency.PLAYERS),
    ),
    schema=schema.SCHEMA,
    migrations=schema.MIGRATIONS,
    sql_ports=sql.SQL_PORTS,
)
