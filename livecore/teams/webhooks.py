"""Event team and partner webhooks (docs/webhooks.md#event-catalog-as-implemented): a team formed, a member
joined or left, a team milestone unlocked, the goal completed, the team finalized at its window's close;
a partner invite sent and accepted.

Every payload starts with the team's ids (docs/teams.md#webhooks): ``eventTeamId`` (null on an invite
not yet accepted), ``teamKey`` (a partner team's key is its invite's id, so an invite names it before the
team exists), ``eventKey`` and ``windowId``. The rest, in the style of the lobby payloads:

- ``event_team.formed``: ``name`` (the display name, as the team read has it; null when none),
  ``formation``, ``memberCount`` (members seated), ``goalTarget`` (the team's resolved goal, null when
  none), ``attributes`` (the roster's, null when none) and ``formedAt``.
- ``event_team.member_joined``: ``seatId``, ``playerId``, ``externalPlayerId``, ``memberCount`` (with
  this member) and ``joinedAt``; ``event_team.member_left`` the same ids, then ``reason`` (``left``,
  ``kicked``), ``contribution`` (the member's, as it stood), ``contributionRemoved`` (true when the event's
  ``on_leave`` is ``remove_contribution``), ``memberCount`` (without this member) and ``leftAt``.
- ``event_team.goal_completed``: ``score``, ``goalTarget``, ``memberCount``, ``scoreFrozen`` (true when
  the event's ``on_complete`` is ``stop_contributions``: the team's score and milestones stop here) and
  ``completedAt``.
- ``event_team.finalized`` adds ``finalizedAt``. Without a team board ``rank``, ``boardSize`` and
  ``segmentValues`` are null; a team board is the window's one board of teams, unsegmented (``{}``).
- ``partner.invite_*``: ``inviteId``, both players as ``fromPlayerId, fromExternalPlayerId, toPlayerId,
  toExternalPlayerId`` (as ``player.merged`` names two players), ``sentAt`` and ``expiresAt``;
  ``partner.invite_accepted`` adds ``acceptedAt`` and ``goalTarget``.

Scores are numbers, as the board holds them.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any, ClassVar, Self

import attrs

from livecore.games import Milestone
from livecore.teams.rules import PartnerInvite, Team, TeamMember
from livecore.teams.settings import OnComplete, OnLeave, TeamSettings
from livecore.webhooks.payload import WebhookPayload, known


class PayState(enum.StrEnum):
    INLINE_DONE = "inline_done"  # the rewards were granted in the transaction that unlocked the milestone
    PENDING = "pending"  # the rewards are granted later


def team_ids(team: Team) -> dict[str, str]:
    """The ids every team payload starts with (each class lists them first, in this order)."""
    return {
        "event_team_id": team.id,
        "team_key": team.key,
        "event_key": team.event_key,
        "window_id": team.window_id,
    }


def _seat_of(team: Team, member: TeamMember) -> dict[str, str]:
    """``team``'s ids and ``member``'s, refusing a seat of another team."""
    if member.team_id != team.id:
        raise ValueError("the seat is on another team")
    return {
        **team_ids(team),
        "seat_id": member.seat_id,
        "player_id": member.player_id,
        "external_player_id": member.external_player_id,
    }


@attrs.frozen
class EventTeamFormed(WebhookPayload):
    KIND: ClassVar[str] = "event_team.formed"

    event_team_id: str
    team_key: str
    event_key: str
    window_id: str
    name: str | None
    formation: str
    member_count: int
    goal_target: float | None
    attributes: dict[str, Any] | None
    formed_at: datetime

    @classmethod
    def of(cls, team: Team) -> Self:
        return cls(
            **team_ids(team),
            name=team.name,
            formation=team.formation.value,
            member_count=team.member_count,
            goal_target=team.goal,
            attributes=team.attributes,
            formed_at=team.created_at,
        )


@attrs.frozen
class EventTeamMemberJoined(WebhookPayload):
    KIND: ClassVar[str] = "event_team.member_joined"

    event_team_id: str
    team_key: str
    event_key: str
    window_id: str
    seat_id: str
    player_id: str
    external_player_id: str
    member_count: int
    joined_at: datetime

    @classmethod
    def of(cls, team: Team, member: TeamMember) -> Self:
        """``team`` as it is with ``member``'s seat taken."""
        if not member.seated:
            raise ValueError("a member who left is announced by event_team.member_left")
        return cls(**_seat_of(team, member), member_count=team.member_count, joined_at=member.joined_at)


@attrs.frozen
class EventTeamMemberLeft(WebhookPayload):
    KIND: ClassVar[str] = "event_team.member_left"

    event_team_id: str
    team_key: str
    event_key: str
    window_id: str
    seat_id: str
    player_id: str
    external_player_id: str
    reason: str
    contribution: float
    contribution_removed: bool
    member_count: int
    left_at: datetime

    @classmethod
    def of(cls, team: Team, member: TeamMember, settings: TeamSettings) -> Self:
        """``team`` as it is once ``member`` left (or was kicked); ``settings`` the event's teams."""
        return cls(
            **_seat_of(team, member),
            reason=known(member.left_reason, "leave reason").value,
            contribution=member.contribution,
            contribution_removed=settings.on_leave is OnLeave.REMOVE_CONTRIBUTION,
            member_count=team.member_count,
            left_at=known(member.left_at, "leave"),
        )


@attrs.frozen
class EventTeamMilestoneUnlocked(WebhookPayload):
    KIND: ClassVar[str] = "event_team.milestone_unlocked"

    event_team_id: str
    team_key: str
    event_key: str
    window_id: str
    milestone_key: str
    threshold: float
    team_score: float
    seat_count: int
    paid_seat_count: int
    pay_state: str

    @classmethod
    def of(
        cls,
        team: Team,
        milestone: Milestone,
        paid_seat_count: int,
        pay_state: PayState = PayState.INLINE_DONE,
    ) -> Self:
        """``team`` as it is once ``milestone`` unlocked: ``seatCount`` is its members then seated, and
        ``paid_seat_count`` how many of them the milestone's rewards were granted to."""
        if milestone.key not in team.milestones:
            raise ValueError(f"milestone {milestone.key!r} is not unlocked")
        if not 0 <= paid_seat_count <= team.member_count:
            raise ValueError("more seats paid than seated")
        return cls(
            **team_ids(team),
            milestone_key=milestone.key,
            threshold=milestone.threshold,
            team_score=team.score,
            seat_count=team.member_count,
            paid_seat_count=paid_seat_count,
            pay_state=pay_state.value,
        )


@attrs.frozen
class EventTeamGoalCompleted(WebhookPayload):
    KIND: ClassVar[str] = "event_team.goal_completed"

    event_team_id: str
    team_key: str
    event_key: str
    window_id: str
    score: float
    goal_target: float
    member_count: int
    score_frozen: bool
    completed_at: datetime

    @classmethod
    def of(cls, team: Team, settings: TeamSettings) -> Self:
        """``team`` as it is once its score reached its goal; ``settings`` the event's teams."""
        return cls(
            **team_ids(team),
            score=team.score,
            goal_target=known(team.goal, "goal"),
            member_count=team.member_count,
            score_frozen=settings.on_complete is OnComplete.STOP_CONTRIBUTIONS,
            completed_at=known(team.completed_at, "completion"),
        )


@attrs.frozen
class EventTeamFinalized(WebhookPayload):
    KIND: ClassVar[str] = "event_team.finalized"

    event_team_id: str
    team_key: str
    event_key: str
    window_id: str
    rank: int | None
    board_size: int | None
    segment_values: dict[str, Any] | None
    score: float
    goal_target: float | None
    completed: bool
    member_count: int
    finalized_at: datetime

    @classmethod
    def of(cls, team: Team, board_size: int | None) -> Self:
        """``team`` as it is once its window closed; ``board_size`` how many teams the window's team board
        ranked, None when the event has no team board."""
        if (board_size is None) != (team.final_rank is None):
            raise ValueError("a team has a final rank exactly when its window has a team board")
        return cls(
            **team_ids(team),
            rank=team.final_rank,
            board_size=board_size,
            segment_values=None if board_size is None else {},
            score=team.score,
            goal_target=team.goal,
            completed=team.completed,
            member_count=team.member_count,
            finalized_at=known(team.finalized_at, "finalization"),
        )


@attrs.frozen
class PartnerInvitePayload(WebhookPayload):
    """The fields both partner kinds carry: the team the invite names, the invite and its two players."""

    event_team_id: str | None
    team_key: str
    event_key: str
    window_id: str
    invite_id: str
    from_player_id: str
    from_external_player_id: str
    to_player_id: str
    to_external_player_id: str
    sent_at: datetime
    expires_at: datetime


def _invite_fields(invite: PartnerInvite) -> dict[str, Any]:
    return {
        "event_team_id": invite.team_id,
        "team_key": invite.id,
        "event_key": invite.event_key,
        "window_id": invite.window_id,
        "invite_id": invite.id,
        "from_player_id": invite.from_player_id,
        "from_external_player_id": invite.from_external_id,
        "to_player_id": invite.to_player_id,
        "to_external_player_id": invite.to_external_id,
        "sent_at": invite.created_at,
        "expires_at": invite.expires_at,
    }


@attrs.frozen
class PartnerInviteSent(PartnerInvitePayload):
    KIND: ClassVar[str] = "partner.invite_sent"

    @classmethod
    def of(cls, invite: PartnerInvite) -> Self:
        """``invite`` as it was sent (not accepted: ``eventTeamId`` is null)."""
        if invite.accepted_at is not None or invite.team_id is not None:
            raise ValueError("an accepted invite is announced by partner.invite_accepted")
        return cls(**_invite_fields(invite))


@attrs.frozen
class PartnerInviteAccepted(PartnerInvitePayload):
    KIND: ClassVar[str] = "partner.invite_accepted"

    accepted_at: datetime
    goal_target: float | None

    @classmethod
    def of(cls, invite: PartnerInvite, team: Team) -> Self:
        """``invite`` as it is once accepted, and ``team`` the pair it formed."""
        if invite.team_id != team.id or team.key != invite.id:
            raise ValueError("the team was not formed by this invite")
        return cls(
            **_invite_fields(invite),
            accepted_at=known(invite.accepted_at, "acceptance"),
            goal_target=team.goal,
        )


#: The kinds this area sends, as its area declares them (:attr:`livecore.area.Area.webhooks`).
PAYLOADS: tuple[type[WebhookPayload], ...] = (
    EventTeamFormed,
    EventTeamMemberJoined,
    EventTeamMemberLeft,
    EventTeamMilestoneUnlocked,
    EventTeamGoalCompleted,
    EventTeamFinalized,
    PartnerInviteSent,
    PartnerInviteAccepted,
)
