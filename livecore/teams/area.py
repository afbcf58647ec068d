"""The teams area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from livecore.area import Area
from livecore.commands import Runtime
from livecore.players.rules import Player
from livecore.scope import Scope
from livecore.store import Transaction
from livecore.teams import api, samples
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


def _move_records(tx: Transaction, rt: Runtime, scope: Scope, player: Player, to: Player) -> None:
    """A merge or an erasure: the player's team seats and partner invites become ``to``'s (one seat per
    window: where both sit on a team, the target keeps its own)."""
    tx.teams.reassign(player.id, to)


AREA = Area(
    name="teams",
    summary="Event teams: rosters, partner invites, team scores, milestones and goals.",
    page="events",
    routes=api.ROUTES,
    merge=_move_records,
    erase=_move_records,
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
    samples=samples.SAMPLES,
)
