"""The players area's server side: its tables, SQL ports, the registration's handler and the operators'
rotation of a player's secret (its other routes' handlers are the core's, :mod:`livecore.players.handlers`)
and its part of a season's report."""

from __future__ import annotations

from livecore.api.route import Auth
from livecore.players.area import AREA
from livecore_server.area import Admit, ServerArea
from livecore_server.players import admin, schema, sdk
from livecore_server.players.cache import PLAYER_CACHE, PlayerCache
from livecore_server.players.presence import PRESENCE_BOARD, PresenceBoard
from livecore_server.players.read_ahead import READ_AHEAD
from livecore_server.players.report import REPORT
from livecore_server.players.secrets import player_secret_shaped

SERVER_AREA = ServerArea(
    AREA,
    bindings=(*sdk.BINDINGS, *admin.BINDINGS),
    schema=schema.SCHEMA,
    migrations=schema.MIGRATIONS,
    sql_ports=schema.SQL_PORTS,
    read_ahead=READ_AHEAD,
    report=REPORT,
    # A player's secret, on a player route and a key-or-player route that sends one.
    admission={
        Auth.PLAYER: Admit(shaped=player_secret_shaped),
        Auth.KEY_OR_PLAYER: Admit(shaped=player_secret_shaped),
    },
    services={
        PRESENCE_BOARD.name: lambda config, store: PresenceBoard(),
        PLAYER_CACHE.name: lambda config, store: PlayerCache(
            config.player_cache_ttl, config.player_cache_watched_ttl
        ),
    },
)
