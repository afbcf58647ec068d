"""The teams area's rows: each record's columns declared once (read by name) and the
values it writes, in the order of its declaration's ``names`` (:mod:`livecore_server.storage.rows`)."""

from __future__ import annotations

from typing import Any

import orjson

from livecore.clock import from_millis, to_millis
from livecore.scope import Environment
from livecore.teams.rules import LeaveReason, PartnerInvite, Team, TeamMember
from livecore.teams.settings import Formation
from livecore_server.storage.columns import Columns
from livecore_server.storage.rows import dt, ms


def team_row(t: Team) -> tuple[Any, ...]:
    # ``rank_key`` is the score negated: the team board's order (best first) is one ascending index.
    return (
        t.id,
        t.game_id,
        t.env.value,
        t.event_key,
        t.event_id,
        t.window_id,
        t.key,
        t.name,
        t.formation.value,
        t.goal,
        to_millis(t.created_at),
        None if t.attributes is None else orjson.dumps(t.attributes).decode(),
        t.member_count,
        t.score,
        -t.score,
        ms(t.completed_at),
        orjson.dumps(t.milestones).decode(),
        t.final_rank,
        ms(t.finalized_at),
    )


def _team(
    id: Any,
    game_id: Any,
    env: Any,
    event_key: Any,
    event_id: Any,
    window_id: Any,
    key: Any,
    name: Any,
    formation: Any,
    goal: Any,
    created_at: Any,
    attributes: Any,
    member_count: Any,
    score: Any,
    rank_key: Any,
    completed_at: Any,
    milestones: Any,
    final_rank: Any,
    finalized_at: Any,
) -> Team:
    return Team(
        id=id,
        game_id=game_id,
        env=Environment(env),
        event_key=event_key,
        event_id=event_id,
        window_id=window_id,
        key=key,
        name=name,
        formation=Formation(formation),
        goal=goal,
        created_at=from_millis(created_at),
        attributes=None if attributes is None else orjson.loads(attributes),
        member_count=member_count,
        score=score,
        completed_at=dt(completed_at),
        milestones=tuple(orjson.loads(milestones)),
        final_rank=final_rank,
        finalized_at=dt(finalized_at),
    )


TEAM_COLUMNS = Columns(_team)


def team_member_row(m: TeamMember) -> tuple[Any, ...]:
    return (
        m.seat_id,
        m.team_id,
        m.window_id,
        m.player_id,
        m.external_player_id,
        to_millis(m.joined_at),
        m.contribution,
        ms(m.left_at),
        None if m.left_reason is None else m.left_reason.value,
    )


def _team_member(
    seat_id: Any,
    team_id: Any,
    window_id: Any,
    player_id: Any,
    external_player_id: Any,
    joined_at: Any,
    contribution: Any,
    left_at: Any,
    left_reason: Any,
) -> TeamMember:
    return TeamMember(
        seat_id=seat_id,
        team_id=team_id,
        window_id=window_id,
        player_id=player_id,
        external_player_id=external_player_id,
        joined_at=from_millis(joined_at),
        contribution=contribution,
        left_at=dt(left_at),
        left_reason=None if left_reason is None else LeaveReason(left_reason),
    )


TEAM_MEMBER_COLUMNS = Columns(_team_member)


def invite_row(i: PartnerInvite) -> tuple[Any, ...]:
    return (
        i.id,
        i.game_id,
        i.env.value,
        i.event_key,
        i.window_id,
        i.from_player_id,
        i.from_external_id,
        i.to_player_id,
        i.to_external_id,
        to_millis(i.created_at),
        to_millis(i.expires_at),
        ms(i.accepted_at),
        i.team_id,
    )


def _invite(
    id: Any,
    game_id: Any,
    env: Any,
    event_key: Any,
    window_id: Any,
    from_player_id: Any,
    from_external_id: Any,
    to_player_id: Any,
    to_external_id: Any,
    created_at: Any,
    expires_at: Any,
    accepted_at: Any,
    team_id: Any,
) -> PartnerInvite:
    return PartnerInvite(
        id=id,
        game_id=game_id,
        env=Environment(env),
        event_key=event_key,
        window_id=window_id,
        from_player_id=from_player_id,
        from_external_id=from_external_id,
        to_player_id=to_player_id,
        to_external_id=to_external_id,
        created_at=from_millis(created_at),
        expires_at=from_millis(expires_at),
        accepted_at=dt(accepted_at),
        team_id=team_id,
    )


INVITE_COLUMNS = Columns(_invite)
