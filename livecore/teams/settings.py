"""The teams area's settings: an event's ``[...teams]`` table (docs/teams.md), read from the manifest by
:data:`livecore.teams.manifest.TEAMS`; the event's settings hold it as
their part (:class:`livecore.live_events.settings.EventSettings`, read with ``event.of(TEAM_SETTINGS)``).
"""

from __future__ import annotations

import enum

import attrs

from livecore.games import Milestone, RankBand, SettingsKey


class Formation(enum.StrEnum):
    EXTERNAL = "external"  # the studio's server sets each team's roster (PUT)
    PARTNER = "partner"  # players pair up by invitation: a team of two


class OnLeave(enum.StrEnum):
    KEEP_CONTRIBUTION = "keep_contribution"  # a member who leaves still counts in the team's score
    REMOVE_CONTRIBUTION = "remove_contribution"  # the team's score loses what the member contributed


class OnComplete(enum.StrEnum):
    CONTINUE = "continue"
    STOP_CONTRIBUTIONS = "stop_contributions"  # the team's score and milestones freeze at the goal


@attrs.frozen
class TeamSettings:
    """``[games.<game>.events.<key>.teams]``: players play the event's windows as teams of at most ``size``
    members, whose score is the sum of their members' contributions (docs/teams.md)."""

    formation: Formation
    size: int
    goal: float | None = None
    on_leave: OnLeave = OnLeave.KEEP_CONTRIBUTION
    on_complete: OnComplete = OnComplete.CONTINUE
    board: bool = False
    milestones: tuple[Milestone, ...] = ()
    rank_rewards: tuple[RankBand, ...] = ()


#: An event's teams (None: not a team event), a part of its settings.
TEAM_SETTINGS: SettingsKey[TeamSettings | None] = SettingsKey("teams", TeamSettings | None, None)
