"""The teams' part of a simulated season (docs/simulation.md#playing-a-season): a session plays an open
team event by its segment's ``teams`` chance (teaming up first), and the studio's backend puts a player
on an external team by the same chance."""

from __future__ import annotations

from typing import Any

from livecore.simulation.part import EventRate, Rate, SeasonPart

#: A session's chance to play each open team event.
TEAMS = Rate("teams", 0.5, {"engaged": 0.7, "regular": 0.4, "casual": 0.15})


def _team_event(event: Any) -> bool:
    return event.teams is not None


SEASON = SeasonPart(rates=(TEAMS,), events=(EventRate(TEAMS, _team_event),))
