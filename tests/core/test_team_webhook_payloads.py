"""The event team and partner payloads built from their records (``livecore/teams/webhooks.py``): each
kind's wire JSON exactly, the team's ids first on every kind, ``eventTeamId`` null on an invite not yet
accepted, the event's leave and completion rules as booleans, the team board's fields null without one;
and the records of another moment refused."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import attrs
import orjson
import pytest

from livecore.games import Milestone
from livecore.scope import Environment
from livecore.teams.rules import LeaveReason, PartnerInvite, Team, TeamMember
from livecore.teams.settings import Formation, OnComplete, OnLeave, TeamSettings
from livecore.teams.webhooks import (
    EventTeamFinalized,
    EventTeamFormed,
    EventTeamGoalCompleted,
    EventTeamMemberJoined,
    EventTeamMemberLeft,
    EventTeamMilestoneUnlocked,
    PartnerInviteAccepted,
    PartnerInviteSent,
    PayState,
)
from livecore.webhooks.payload import WebhookPayload

AT = datetime(2026, 3, 2, 12, 0, 0, 250999, tzinfo=UTC)
ENDS = datetime(2026, 3, 2, 13, 0, tzinfo=UTC)
IDS = b'{"eventTeamId":"team_1","teamKey":"red","eventKey":"raid","windowId":"win_1",'

SETTINGS = TeamSettings(formation=Formation.EXTERNAL, size=4, goal=5000)
HALF = Milestone(key="half", threshold=2500)
TEAM = Team(
    id="team_1",
    game_id="gam_1",
    env=Environment.LIVE,
    event_key="raid",
    event_id="ev_1",
    window_id="win_1",
    key="red",
    name="Red Raiders",
    formation=Formation.EXTERNAL,
    goal=5000.0,
    created_at=AT,
    attributes={"guild": "g-7"},
    member_count=3,
    score=1200.5,
)
MEMBER = TeamMember(
    seat_id="tms_1",
    team_id="team_1",
    window_id="win_1",
    player_id="plr_1",
    external_player_id="ada",
    joined_at=AT,
    contribution=400.5,
)
LEFT = attrs.evolve(MEMBER, left_at=ENDS, left_reason=LeaveReason.KICKED)
INVITE = PartnerInvite(
    id="inv_1",
    game_id="gam_1",
    env=Environment.LIVE,
    event_key="raid",
    window_id="win_1",
    from_player_id="plr_1",
    from_external_id="ada",
    to_player_id="plr_2",
    to_external_id="bob",
    created_at=AT,
    expires_at=AT + timedelta(hours=24),
)
PAIR = attrs.evolve(
    TEAM, id="team_2", key="inv_1", name=None, formation=Formation.PARTNER, attributes=None, member_count=2
)
ACCEPTED = attrs.evolve(INVITE, accepted_at=ENDS, team_id="team_2")


def wire(payload: WebhookPayload) -> bytes:
    return orjson.dumps(payload.to_wire())


def test_event_team_formed_carries_name_formation_goal_and_attributes() -> None:
    assert wire(EventTeamFormed.of(TEAM)) == IDS + (
        b'"name":"Red Raiders","formation":"external","memberCount":3,"goalTarget":5000,'
        b'"attributes":{"guild":"g-7"},"formedAt":"2026-03-02T12:00:00.250Z"}'
    )


def test_event_team_formed_without_name_goal_or_attributes_has_nulls() -> None:
    bare = attrs.evolve(TEAM, name=None, goal=None, attributes=None, member_count=0)
    assert wire(EventTeamFormed.of(bare)) == IDS + (
        b'"name":null,"formation":"external","memberCount":0,"goalTarget":null,"attributes":null,'
        b'"formedAt":"2026-03-02T12:00:00.250Z"}'
    )


def test_event_team_member_joined_counts_the_new_member() -> None:
    assert wire(EventTeamMemberJoined.of(TEAM, MEMBER)) == IDS + (
        b'"seatId":"tms_1","playerId":"plr_1","externalPlayerId":"ada","memberCount":3,'
        b'"joinedAt":"2026-03-02T12:00:00.250Z"}'
    )


def test_a_member_who_left_does_not_join_and_a_seat_of_another_team_is_refused() -> None:
    with pytest.raises(ValueError, match="member_left"):
        EventTeamMemberJoined.of(TEAM, LEFT)
    with pytest.raises(ValueError, match="another team"):
        EventTeamMemberJoined.of(TEAM, attrs.evolve(MEMBER, team_id="team_9"))
    with pytest.raises(ValueError, match="another team"):
        EventTeamMemberLeft.of(TEAM, attrs.evolve(LEFT, team_id="team_9"), SETTINGS)


def test_event_team_member_left_keeps_its_contribution_by_default() -> None:
    after = attrs.evolve(TEAM, member_count=2)
    assert wire(EventTeamMemberLeft.of(after, LEFT, SETTINGS)) == IDS + (
        b'"seatId":"tms_1","playerId":"plr_1","externalPlayerId":"ada","reason":"kicked",'
        b'"contribution":400.5,"contributionRemoved":false,"memberCount":2,'
        b'"leftAt":"2026-03-02T13:00:00.000Z"}'
    )


def test_event_team_member_left_says_contribution_removed_under_remove_contribution() -> None:
    removing = attrs.evolve(SETTINGS, on_leave=OnLeave.REMOVE_CONTRIBUTION)
    left = attrs.evolve(LEFT, left_reason=LeaveReason.LEFT)
    data = EventTeamMemberLeft.of(TEAM, left, removing).to_wire()
    assert data["reason"] == "left" and data["contributionRemoved"] is True


def test_a_seated_member_has_not_left() -> None:
    with pytest.raises(ValueError, match="no leave reason"):
        EventTeamMemberLeft.of(TEAM, MEMBER, SETTINGS)


def test_event_team_milestone_unlocked_counts_seats_and_paid_seats() -> None:
    unlocked = attrs.evolve(TEAM, score=2600.0, milestones=("half",))
    assert wire(EventTeamMilestoneUnlocked.of(unlocked, HALF, 3)) == IDS + (
        b'"milestoneKey":"half","threshold":2500,"teamScore":2600,"seatCount":3,"paidSeatCount":3,'
        b'"payState":"inline_done"}'
    )
    pending = EventTeamMilestoneUnlocked.of(unlocked, HALF, 0, PayState.PENDING).to_wire()
    assert pending["paidSeatCount"] == 0 and pending["payState"] == "pending"


def test_a_milestone_not_unlocked_or_overpaid_is_refused() -> None:
    with pytest.raises(ValueError, match="not unlocked"):
        EventTeamMilestoneUnlocked.of(TEAM, HALF, 3)
    unlocked = attrs.evolve(TEAM, milestones=("half",))
    with pytest.raises(ValueError, match="more seats paid"):
        EventTeamMilestoneUnlocked.of(unlocked, HALF, 4)


def test_event_team_goal_completed_says_whether_the_score_froze() -> None:
    done = attrs.evolve(TEAM, score=5000.0, completed_at=ENDS)
    assert wire(EventTeamGoalCompleted.of(done, SETTINGS)) == IDS + (
        b'"score":5000,"goalTarget":5000,"memberCount":3,"scoreFrozen":false,'
        b'"completedAt":"2026-03-02T13:00:00.000Z"}'
    )
    stopping = attrs.evolve(SETTINGS, on_complete=OnComplete.STOP_CONTRIBUTIONS)
    assert EventTeamGoalCompleted.of(done, stopping).to_wire()["scoreFrozen"] is True


def test_a_team_short_of_its_goal_or_without_one_has_not_completed() -> None:
    with pytest.raises(ValueError, match="no completion"):
        EventTeamGoalCompleted.of(TEAM, SETTINGS)
    with pytest.raises(ValueError, match="no goal"):
        EventTeamGoalCompleted.of(attrs.evolve(TEAM, goal=None, completed_at=ENDS), SETTINGS)


def test_event_team_finalized_on_a_team_board() -> None:
    final = attrs.evolve(TEAM, score=5200.0, completed_at=AT, final_rank=2, finalized_at=ENDS)
    assert wire(EventTeamFinalized.of(final, 7)) == IDS + (
        b'"rank":2,"boardSize":7,"segmentValues":{},"score":5200,"goalTarget":5000,"completed":true,'
        b'"memberCount":3,"finalizedAt":"2026-03-02T13:00:00.000Z"}'
    )


def test_event_team_finalized_without_a_team_board_has_null_rank_size_and_segments() -> None:
    final = attrs.evolve(TEAM, finalized_at=ENDS)
    assert wire(EventTeamFinalized.of(final, None)) == IDS + (
        b'"rank":null,"boardSize":null,"segmentValues":null,"score":1200.5,"goalTarget":5000,'
        b'"completed":false,"memberCount":3,"finalizedAt":"2026-03-02T13:00:00.000Z"}'
    )


def test_a_final_rank_goes_with_a_team_board_and_an_open_team_is_not_final() -> None:
    with pytest.raises(ValueError, match="team board"):
        EventTeamFinalized.of(attrs.evolve(TEAM, finalized_at=ENDS), 7)
    with pytest.raises(ValueError, match="team board"):
        EventTeamFinalized.of(attrs.evolve(TEAM, final_rank=1, finalized_at=ENDS), None)
    with pytest.raises(ValueError, match="no finalization"):
        EventTeamFinalized.of(TEAM, None)


def test_partner_invite_sent_names_the_team_to_be_by_the_invite_with_a_null_team_id() -> None:
    assert wire(PartnerInviteSent.of(INVITE)) == (
        b'{"eventTeamId":null,"teamKey":"inv_1","eventKey":"raid","windowId":"win_1","inviteId":"inv_1",'
        b'"fromPlayerId":"plr_1","fromExternalPlayerId":"ada","toPlayerId":"plr_2","toExternalPlayerId":"bob",'
        b'"sentAt":"2026-03-02T12:00:00.250Z","expiresAt":"2026-03-03T12:00:00.250Z"}'
    )
    with pytest.raises(ValueError, match="invite_accepted"):
        PartnerInviteSent.of(ACCEPTED)


def test_partner_invite_accepted_adds_the_team_its_acceptance_and_goal() -> None:
    assert wire(PartnerInviteAccepted.of(ACCEPTED, PAIR)) == (
        b'{"eventTeamId":"team_2","teamKey":"inv_1","eventKey":"raid","windowId":"win_1","inviteId":"inv_1",'
        b'"fromPlayerId":"plr_1","fromExternalPlayerId":"ada","toPlayerId":"plr_2","toExternalPlayerId":"bob",'
        b'"sentAt":"2026-03-02T12:00:00.250Z","expiresAt":"2026-03-03T12:00:00.250Z",'
        b'"acceptedAt":"2026-03-02T13:00:00.000Z","goalTarget":5000}'
    )


def test_an_invite_accepted_needs_its_own_team_and_an_acceptance() -> None:
    with pytest.raises(ValueError, match="not formed by this invite"):
        PartnerInviteAccepted.of(ACCEPTED, TEAM)
    with pytest.raises(ValueError, match="not formed by this invite"):
        PartnerInviteAccepted.of(INVITE, PAIR)
    with pytest.raises(ValueError, match="no acceptance"):
        PartnerInviteAccepted.of(attrs.evolve(INVITE, team_id="team_2"), PAIR)
