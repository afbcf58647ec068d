"""The live events area's server side: its tables, SQL ports, report part and the routes it binds itself,
a start with the request's country, a progress write that declares what it reads (read ahead by
:data:`~livecore_server.live_events.read_ahead.READ_AHEAD`) and a board's live stream (the others'
handlers are the core's, :mod:`livecore.live_events.handlers`)."""

from __future__ import annotations

from livecore.live_events.area import AREA
from livecore_server.area import ServerArea
from livecore_server.live_events import schema, sdk
from livecore_server.live_events.read_ahead import READ_AHEAD
from livecore_server.live_events.report import REPORT
from livecore_server.live_events.sql.attempts import SqlAttempts
from livecore_server.live_events.sql.boards import SqlBoards
from livecore_server.live_events.sql.windows import SqlWindows
from livecore_server.live_events.streams import BOARD_HUBS, BoardHubs

SERVER_AREA = ServerArea(
    AREA,
    report=REPORT,
    bindings=tuple(sdk.BINDINGS),
    schema=schema.SCHEMA,
    migrations=schema.MIGRATIONS,
    sql_ports={"windows": SqlWindows, "attempts": SqlAttempts, "boards": SqlBoards},
    read_ahead=READ_AHEAD,
    services={BOARD_HUBS.name: lambda config, store: BoardHubs(store)},
)
