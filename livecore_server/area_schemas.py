"""The schema both stores build, and the migrations that build it: the tables no area owns and their
migrations (:mod:`livecore_server.storage.schema`, :mod:`~livecore_server.storage.migrations`,
:mod:`~livecore_server.storage.postgres_schema`) plus each built-in area's own
(``livecore_server/<area>/schema.py``), the areas in the core's order (:data:`livecore.areas.BUILT_IN`),
so that a table comes after those it references.

It imports the areas' ``schema`` modules only (the storage declarations and the core's rules), never
their handlers: the stores take their default from it without an import circle. A studio's own area adds
its migrations apart, recorded under its name (:mod:`livecore_server.storage.area_storage`).
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
from livecore_server.storage.schema import SHARED, Schema
from livecore_server.teams import schema as teams

# The built-in areas that have tables, by name (the others keep none).
_OWN: dict[str, tuple[Schema, History]] = {
    "players": (players.SCHEMA, players.HISTORY),
    "economy": (economy.SCHEMA, economy.HISTORY),
    "grants": (grants.SCHEMA, grants.HISTORY),
    "friends": (friends.SCHEMA, friends.HISTORY),
    "gifts": (gifts.SCHEMA, gifts.HISTORY),
    "player_tools": (player_tools.SCHEMA, player_tools.HISTORY),
    "purchases": (purchases.SCHEMA, purchases.HISTORY),
    "live_events": (live_events.SCHEMA, live_events.HISTORY),
    "lobbies": (lobbies.SCHEMA, lobbies.HISTORY),
    "leaderboards": (leaderboards.SCHEMA, leaderboards.HISTORY),
    "teams": (teams.SCHEMA, teams.HISTORY),
    "guilds": (guilds.SCHEMA, guilds.HISTORY),
}

#: Each built-in area's schema and history, as ``(area name, schema, history)``, in the core's order.
AREAS: tuple[tuple[str, Schema, History], ...] = tuple(
    (area.name, *_OWN[area.name]) for area in core_areas.BUILT_IN if area.name in _OWN
)

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
