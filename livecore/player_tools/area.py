"""The player tools area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from livecore import limits
from livecore.area import Area, ClientPart
from livecore.player_tools import admin, api, migration
from livecore.player_tools.errors import CODES
from livecore.player_tools.handlers import HANDLERS
from livecore.player_tools.memory import PlayerToolTables
from livecore.player_tools.memory.erasures import MemoryErasures
from livecore.player_tools.memory.merges import MemoryMerges
from livecore.player_tools.memory.migrations import MemoryMigrationKeys
from livecore.players import rules as players


def _limits() -> Mapping[str, Sequence[tuple[str, str]]]:
    return {
        "player-tools": [
            ("Ban reason", players.BAN_REASON.describe()),
            ("Debug-flag reason", limits.FREE_TEXT.describe()),
            ("Migration rows per call", migration.ROWS.describe()),
        ],
    }


AREA = Area(
    name="player_tools",
    summary="Player tools for studio backends: profile, moderation, merge, erasure, export, migration.",
    page="player-tools",
    builds_on=("grants", "purchases", "lobbies"),
    routes=(*api.ROUTES, *admin.ROUTES),
    handlers=HANDLERS,
    errors=CODES,
    limits=_limits,
    tables=PlayerToolTables,
    ports={"merges": MemoryMerges, "erasures": MemoryErasures, "migrations": MemoryMigrationKeys},
    client=(
        ClientPart("server", "players", "livecore_client.resources.player_tools", "ServerPlayerTools"),
        ClientPart(
            "server",
            "migration",
            "livecore_client.resources.player_tools.migration",
            "ServerMigration",
            simulated=False,
        ),
    ),
)
