"""The areas the server serves: the built-in ones (:data:`BUILT_IN`, in the core's order) and a studio's
own, loaded by name (:mod:`livecore_server.plugins`); the app mounts their bindings in this order, and a
store keeps what they declare (:func:`storage`)."""

from __future__ import annotations

import functools
from collections.abc import Iterable

from livecore import areas as core_areas
from livecore_server.area import ServerArea, storage_of
from livecore_server.crates.area import SERVER_AREA as CRATES
from livecore_server.economy.area import SERVER_AREA as ECONOMY
from livecore_server.friends.area import SERVER_AREA as FRIENDS
from livecore_server.gifts.area import SERVER_AREA as GIFTS
from livecore_server.grants.area import SERVER_AREA as GRANTS
from livecore_server.guilds.area import SERVER_AREA as GUILDS
from livecore_server.leaderboards.area import SERVER_AREA as LEADERBOARDS
from livecore_server.live_events.area import SERVER_AREA as LIVE_EVENTS
from livecore_server.lobbies.area import SERVER_AREA as LOBBIES
from livecore_server.operators.area import SERVER_AREA as OPERATORS
from livecore_server.player_tools.area import SERVER_AREA as PLAYER_TOOLS
from livecore_server.players.area import SERVER_AREA as PLAYERS
from livecore_server.purchases.area import SERVER_AREA as PURCHASES
from livecore_server.storage.area_storage import AreaStorage
from livecore_server.system.area import SERVER_AREA as SYSTEM
from livecore_server.teams.area import SERVER_AREA as TEAMS

_OWN = {
    a.name: a
    for a in (
        SYSTEM,
        PLAYERS,
        ECONOMY,
        GRANTS,
        CRATES,
        FRIENDS,
        GIFTS,
        PLAYER_TOOLS,
        PURCHASES,
        LIVE_EVENTS,
        LOBBIES,
        LEADERBOARDS,
        TEAMS,
        GUILDS,
        OPERATORS,
    )
}
# The core's order: the route table, the documents and the mounted routes agree.
BUILT_IN: tuple[ServerArea, ...] = tuple(_OWN[a.name] for a in core_areas.BUILT_IN)


@functools.cache
def _built_in_storage() -> AreaStorage:
    return storage_of(BUILT_IN)


def storage(studio: Iterable[ServerArea] = ()) -> AreaStorage:
    """What a store of the built-in areas and the ``studio``'s own keeps (the stores' ``areas``)."""
    studio = tuple(studio)
    return storage_of((*BUILT_IN, *studio)) if studio else _built_in_storage()
