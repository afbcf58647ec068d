"""The players' part of a simulated season (docs/simulation.md#fitting-a-population): no driver (a
session's heartbeat is the friends' driver's, whose route it is), but the sessions a population is fitted
from: the players active in a period with their sessions on record, counted as the rules count them (a
new one after 30 minutes of silence)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from livecore.players.rules import SESSION_GAP
from livecore.simulation.part import FitPeriod, SeasonPart, Sessions


def _read(tx: Any, period: FitPeriod) -> dict[str, tuple[datetime, int]]:
    found = tx.players.active_in(period.game_id, period.env, period.since, period.until)
    return {player_id: (a.first_seen_at, a.sessions) for player_id, a in found.items()}


SEASON = SeasonPart(sessions=Sessions(read=_read, gap=SESSION_GAP))
