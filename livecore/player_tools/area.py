"""The player tools area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from livecore.area import Area
from livecore.player_tools import api

AREA = Area(
    name="player_tools",
    summary="Player tools for studio backends: profile, moderation, merge, erasure, export, migration.",
    page="player-tools",
    routes=api.ROUTES,
)
