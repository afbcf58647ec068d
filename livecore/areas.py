"""The service's own areas, listed once, as Django's ``INSTALLED_APPS`` lists a project's applications.

Nothing imports this module: the package's metadata names it (its entry point ``livecore`` / ``areas``,
pyproject.toml), and the registry reads it from there once (:func:`livecore.registry.installed`). Their
order is the order their routes are mounted and listed in the OpenAPI documents, their jobs run when due at
the same time, and the reference lists them; each area comes after those it builds on. A studio's own areas
come after them (docs/extending.md).
"""

from __future__ import annotations

from livecore.area import Area
from livecore.crates.area import AREA as CRATES
from livecore.economy.area import AREA as ECONOMY
from livecore.friends.area import AREA as FRIENDS
from livecore.gifts.area import AREA as GIFTS
from livecore.grants.area import AREA as GRANTS
from livecore.guilds.area import AREA as GUILDS
from livecore.leaderboards.area import AREA as LEADERBOARDS
from livecore.live_events.area import AREA as LIVE_EVENTS
from livecore.lobbies.area import AREA as LOBBIES
from livecore.operators.area import AREA as OPERATORS
from livecore.player_tools.area import AREA as PLAYER_TOOLS
from livecore.players.area import AREA as PLAYERS
from livecore.purchases.area import AREA as PURCHASES
from livecore.system.area import AREA as SYSTEM
from livecore.teams.area import AREA as TEAMS

BUILT_IN: tuple[Area, ...] = (
    SYSTEM,
    PLAYERS,
    ECONOMY,
    PURCHASES,
    GRANTS,
    CRATES,
    FRIENDS,
    GIFTS,
    LIVE_EVENTS,
    LOBBIES,
    PLAYER_TOOLS,
    LEADERBOARDS,
    TEAMS,
    GUILDS,
    OPERATORS,
)
