"""The lobbies' part of a simulated season (docs/simulation.md#playing-a-season): a session plays an open
lobby event by its segment's ``lobbies`` chance (the season waits for its lobby to start)."""

from __future__ import annotations

from typing import Any

from livecore.simulation.part import EventRate, Rate, SeasonPart

#: A session's chance to play each open lobby event.
LOBBIES = Rate("lobbies", 0.5, {"engaged": 0.6, "regular": 0.4, "casual": 0.2})


def _lobby_event(event: Any) -> bool:
    return event.lobby is not None


SEASON = SeasonPart(rates=(LOBBIES,), events=(EventRate(LOBBIES, _lobby_event),))
