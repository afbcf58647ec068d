"""The player tools area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from collections.abc import Mapping

from livecore.area import Area
from livecore.errors import Code, ErrorCode
from livecore.player_tools import api

_MEANINGS: Mapping[ErrorCode | Code, str] = {
    ErrorCode.INVALID_MERGE: "The merge is not possible: the same player twice, or a banned, merged or "
    "erased target, or a source merged elsewhere or erased.",
}


AREA = Area(
    name="player_tools",
    summary="Player tools for studio backends: profile, moderation, merge, erasure, export, migration.",
    page="player-tools",
    routes=api.ROUTES,
    error_meanings=_MEANINGS,
)
