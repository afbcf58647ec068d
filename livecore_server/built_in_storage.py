"""What the built-in areas keep in the database, and what both stores build from it: the schema, the
migrations that build it, and the SQL ports a transaction reaches it by. The tables and ports no area owns
(:mod:`livecore_server.storage.schema`, :mod:`~livecore_server.storage.migrations`,
:mod:`~livecore_server.storage.postgres_schema`, :mod:`livecore_server.storage.sql`) come first, then each
built-in area's own (``livecore_server/<area>/schema.py``: ``SCHEMA``, ``HISTORY``, ``PORTS``), the areas
in the core's order (:data:`livecore.areas.BUILT_IN`), so that a table comes after those it references.

It imports the areas' ``schema`` modules only (the storage declarations, their SQL ports and the core's
rules), never their handlers: the stores take their default from it without an import circle. A studio's
own area adds its migrations and ports apart, recorded under its name and reached as ``tx.ports.<name>``
(:mod:`livecore_server.storage.area_storage`).
"""

from __future__ import annotations

from livecore import areas as core_areas
from livecore_server.economy import schema as economy
from livecore_server.friends import schema as friends
from livecore_server.gifts import schema as gifts
from livecore_server.grants import schema as grants
from livecore_server.guilds import schema as guilds
from livecore_server.leaderboards import schema as leaderboards
from livecore_server.live_events import schema as live_events
from livecore_server.lobbies import schema as lobbies
from livecore_server.player_tools import schema as player_tools
from livecore_server.players import schema as players
from livecore_server.purchases import schema as purchases
from livecore_server.storage import migrations, postgres_schema
from livecore_server.storage.history import History, assembled
from livecore_server.storage.schema import POSTGRES, SHARED, SQLITE, Dialect, Schema
from livecore_server.storage.sql import SHARED_PORTS, OpenedPorts
from livecore_server.storage.sqlport import TxPort
from livecore_server.teams import schema as teams

# The built-in areas that keep anything, by name (the others keep nothing).
_OWN: dict[str, tuple[Schema, History, tuple[TxPort, ...]]] = {
    "players": (players.SCHEMA, players.HISTORY, players.PORTS),
    "economy": (economy.SCHEMA, economy.HISTORY, economy.PORTS),
    "grants": (grants.SCHEMA, grants.HISTORY, grants.PORTS),
    "friends": (friends.SCHEMA, friends.HISTORY, friends.PORTS),
    "gifts": (gifts.SCHEMA, gifts.HISTORY, gifts.PORTS),
    "player_tools": (player_tools.SCHEMA, player_tools.HISTORY, player_tools.PORTS),
    "purchases": (purchases.SCHEMA, purchases.HISTORY, purchases.PORTS),
    "live_events": (live_events.SCHEMA, live_events.HISTORY, live_events.PORTS),
    "lobbies": (lobbies.SCHEMA, lobbies.HISTORY, lobbies.PORTS),
    "leaderboards": (leaderboards.SCHEMA, leaderboards.HISTORY, leaderboards.PORTS),
    "teams": (teams.SCHEMA, teams.HISTORY, teams.PORTS),
    "guilds": (guilds.SCHEMA, guilds.HISTORY, guilds.PORTS),
}

_ORDERED = [area.name for area in core_areas.BUILT_IN if area.name in _OWN]

#: Each built-in area's schema and history, as ``(area name, schema, history)``, in the core's order.
AREAS: tuple[tuple[str, Schema, History], ...] = tuple((name, *_OWN[name][:2]) for name in _ORDERED)

#: The migrations of the tables no area owns, and the foundation's.
SHARED_HISTORY = History(sqlite=tuple(migrations.MIGRATIONS), postgres=tuple(postgres_schema.MIGRATIONS))


def _whole() -> Schema:
    whole = SHARED
    for _, declared, _ in AREAS:
        whole += declared
    return whole


#: Every table, index and dialect object of the service.
SCHEMA = _whole()

#: The one history each store applies, in the order of the names.
HISTORY = assembled([SHARED_HISTORY, *(history for _, _, history in AREAS)])

#: Every port a SQL transaction reaches by its own attribute: the shared ones, then each area's.
PORTS: tuple[TxPort, ...] = (*SHARED_PORTS, *(port for name in _ORDERED for port in _OWN[name][2]))


def _opened(dialect: Dialect) -> OpenedPorts:
    names = [port.name for port in PORTS]
    twice = sorted({name for name in names if names.count(name) > 1} | ({"ports"} & set(names)))
    if twice:  # one attribute, one port; ``ports`` is a studio's areas'
        raise ValueError(f"SQL ports claimed twice (or named ports): {', '.join(twice)}")
    return tuple((port.name, port.of(dialect)) for port in PORTS)


#: What each dialect's transaction opens, as ``(attribute, class)``: the loop :func:`open_ports` runs.
SQLITE_PORTS = _opened(SQLITE)
POSTGRES_PORTS = _opened(POSTGRES)
