"""The player tools area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from livecore import limits
from livecore.area import Area
from livecore.errors import Code, ErrorCode
from livecore.player_tools import api, migration
from livecore.player_tools.hooks import PlayerToolSpecs
from livecore.player_tools.memory import PlayerToolTables
from livecore.player_tools.memory.erasures import MemoryErasures
from livecore.player_tools.memory.merges import MemoryMerges
from livecore.player_tools.memory.migrations import MemoryMigrationKeys
from livecore.players import rules as players

_MEANINGS: Mapping[ErrorCode | Code, str] = {
    ErrorCode.INVALID_MERGE: "The merge is not possible: the same player twice, or a banned, merged or "
    "erased target, or a source merged elsewhere or erased.",
}


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
    builds_on=("grants",),
    routes=api.ROUTES,
    error_meanings=_MEANINGS,
    limits=_limits,
    hookspecs=PlayerToolSpecs,
    tables=PlayerToolTables,
    ports={"merges": MemoryMerges, "erasures": MemoryErasures, "migrations": MemoryMigrationKeys},
)
