"""The teams area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from livecore.area import Area
from livecore.teams import api
from livecore.teams.webhooks import (
    EventTeamFinalized,
    EventTeamFormed,
    EventTeamGoalCompleted,
    EventTeamMemberJoined,
    EventTeamMemberLeft,
    EventTeamMilestoneUnlocked,
    PartnerInviteAccepted,
    PartnerInviteSent,
)

AREA = Area(
    name="teams",
    summary="Event teams: rosters, partner invites, team scores, milestones and goals.",
    page="events",
    routes=api.ROUTES,
    webhooks=(
        EventTeamFormed,
        EventTeamMemberJoined,
        EventTeamMemberLeft,
        EventTeamMilestoneUnlocked,
        EventTeamGoalCompleted,
        EventTeamFinalized,
        PartnerInviteSent,
        PartnerInviteAccepted,
    ),
)
