"""The players' part of a simulated season (docs/simulation.md#fitting-a-population): no driver (a
session's heartbeat is the friends' driver's, whose route it is), but the sessions a population is fitted
from: the players active in a period with their sessions on record, counted as the rules count them (a
new one after 30 minutes of silence), and the days each played since it was first seen."""

from __future__ import annotations

from typing import Any

from livecore.players.rules import DAYS_KEPT, SESSION_GAP
from livecore.simulation.part import FitPeriod, OnRecord, SeasonPart, Sessions


def _read(tx: Any, period: FitPeriod) -> dict[str, OnRecord]:
    found = tx.players.active_in(period.game_id, period.env, period.since, period.until)
    return {
        player_id: OnRecord(
            a.first_seen_at,
            a.sessions,
            # Days counted from its first sighting, or not at all: a player imported with an earlier
            # first sighting than its first activity here has its days from another day.
            a.days if a.first_day == a.first_seen_at.date() else None,
        )
        for player_id, a in found.items()
    }


SEASON = SeasonPart(sessions=Sessions(read=_read, gap=SESSION_GAP, days_kept=DAYS_KEPT))
