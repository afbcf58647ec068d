"""Placeholder payloads of the teams area's webhook kinds, for sample deliveries
(:attr:`livecore.area.Area.samples`)."""

from __future__ import annotations

from typing import Any

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
from livecore.webhooks.payload import WebhookPayload
from livecore.webhooks.sample_values import EVENT, FRIEND_EXTERNAL_ID, FRIEND_ID, PLAYER, SAMPLE_TS

_INVITE_ID = "inv_sample0000000000000000000"
_TEAM: dict[str, Any] = {
    "event_team_id": "team_sample00000000000000000000",
    "team_key": "sample-team",
    "event_key": EVENT["event_key"],
    "window_id": EVENT["event_window_id"],
}
_SEAT: dict[str, Any] = {**_TEAM, "seat_id": "tms_sample0000000000000000000", **PLAYER}
_INVITE: dict[str, Any] = {
    "team_key": _INVITE_ID,
    "event_key": EVENT["event_key"],
    "window_id": EVENT["event_window_id"],
    "invite_id": _INVITE_ID,
    "from_player_id": PLAYER["player_id"],
    "from_external_player_id": PLAYER["external_player_id"],
    "to_player_id": FRIEND_ID,
    "to_external_player_id": FRIEND_EXTERNAL_ID,
    "sent_at": SAMPLE_TS,
    "expires_at": SAMPLE_TS,
}

SAMPLES: tuple[WebhookPayload, ...] = (
    EventTeamFormed(
        **_TEAM,
        name="Sample Team",
        formation="external",
        member_count=1,
        goal_target=1000.0,
        attributes=None,
        formed_at=SAMPLE_TS,
    ),
    EventTeamMemberJoined(**_SEAT, member_count=1, joined_at=SAMPLE_TS),
    EventTeamMemberLeft(
        **_SEAT,
        reason="left",
        contribution=100.0,
        contribution_removed=False,
        member_count=0,
        left_at=SAMPLE_TS,
    ),
    EventTeamMilestoneUnlocked(
        **_TEAM,
        milestone_key="sample-milestone",
        threshold=500.0,
        team_score=500.0,
        seat_count=1,
        paid_seat_count=1,
        pay_state="inline_done",
    ),
    EventTeamGoalCompleted(
        **_TEAM,
        score=1000.0,
        goal_target=1000.0,
        member_count=1,
        score_frozen=False,
        completed_at=SAMPLE_TS,
    ),
    EventTeamFinalized(
        **_TEAM,
        rank=1,
        board_size=1,
        segment_values={},
        score=1000.0,
        goal_target=1000.0,
        completed=True,
        member_count=1,
        finalized_at=SAMPLE_TS,
    ),
    PartnerInviteSent(event_team_id=None, **_INVITE),
    PartnerInviteAccepted(
        event_team_id="team_sample00000000000000000001",
        **_INVITE,
        accepted_at=SAMPLE_TS,
        goal_target=1000.0,
    ),
)
