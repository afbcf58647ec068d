"""The guilds area's rows: each record's columns declared once (read by name) and the
values it writes, in the order of its declaration's ``names`` (:mod:`livecore_server.storage.rows`)."""

from __future__ import annotations

from typing import Any

import orjson

from livecore.clock import from_millis, to_millis
from livecore.games import ResourceType
from livecore.guilds.rules import (
    By,
    DisbandReason,
    Donation,
    Guild,
    HelpRequest,
    HelpStatus,
    JoinRequest,
    JoinType,
    JoinVia,
    LeftReason,
    RequestStatus,
    Role,
    Stint,
)
from livecore.scope import Environment
from livecore_server.storage.columns import Columns
from livecore_server.storage.rows import dt, ms


def guild_row(g: Guild) -> tuple[Any, ...]:
    return (
        g.id,
        g.game_id,
        g.env.value,
        g.name,
        g.name_key,
        g.join_type.value,
        to_millis(g.created_at),
        g.description,
        g.badge,
        g.country,
        None if g.metadata is None else orjson.dumps(g.metadata).decode(),
        g.member_count,
        ms(g.disbanded_at),
        None if g.disband_reason is None else g.disband_reason.value,
    )


def _guild(
    id: Any,
    game_id: Any,
    env: Any,
    name: Any,
    name_key: Any,
    join_type: Any,
    created_at: Any,
    description: Any,
    badge: Any,
    country: Any,
    metadata: Any,
    member_count: Any,
    disbanded_at: Any,
    disband_reason: Any,
) -> Guild:
    return Guild(
        id=id,
        game_id=game_id,
        env=Environment(env),
        name=name,
        join_type=JoinType(join_type),
        created_at=from_millis(created_at),
        description=description,
        badge=badge,
        country=country,
        metadata=None if metadata is None else orjson.loads(metadata),
        member_count=member_count,
        disbanded_at=dt(disbanded_at),
        disband_reason=None if disband_reason is None else DisbandReason(disband_reason),
    )


GUILD_COLUMNS = Columns(_guild)


def by_json(by: By | None) -> str | None:
    """Who made a stint start or end, as the webhooks' ``by`` (JSON)."""
    return None if by is None else orjson.dumps(by.to_wire()).decode()


def by_of(text: str | None) -> By | None:
    return None if text is None else By.from_wire(orjson.loads(text))


def stint_row(s: Stint) -> tuple[Any, ...]:
    return (
        s.id,
        s.guild_id,
        s.game_id,
        s.env.value,
        s.player_id,
        s.external_player_id,
        s.role.value,
        s.via.value,
        to_millis(s.joined_at),
        by_json(s.joined_by),
        ms(s.left_at),
        None if s.left_reason is None else s.left_reason.value,
        by_json(s.left_by),
    )


def _stint(
    id: Any,
    guild_id: Any,
    game_id: Any,
    env: Any,
    player_id: Any,
    external_player_id: Any,
    role: Any,
    via: Any,
    joined_at: Any,
    joined_by: Any,
    left_at: Any,
    left_reason: Any,
    left_by: Any,
) -> Stint:
    return Stint(
        id=id,
        guild_id=guild_id,
        game_id=game_id,
        env=Environment(env),
        player_id=player_id,
        external_player_id=external_player_id,
        role=Role(role),
        via=JoinVia(via),
        joined_at=from_millis(joined_at),
        joined_by=By.from_wire(orjson.loads(joined_by)),
        left_at=dt(left_at),
        left_reason=None if left_reason is None else LeftReason(left_reason),
        left_by=by_of(left_by),
    )


STINT_COLUMNS = Columns(_stint)


def join_request_row(j: JoinRequest) -> tuple[Any, ...]:
    return (
        j.id,
        j.guild_id,
        j.game_id,
        j.player_id,
        j.external_player_id,
        j.message,
        to_millis(j.created_at),
        j.status.value,
        ms(j.resolved_at),
    )


def _join_request(
    id: Any,
    guild_id: Any,
    game_id: Any,
    player_id: Any,
    external_player_id: Any,
    message: Any,
    created_at: Any,
    status: Any,
    resolved_at: Any,
) -> JoinRequest:
    return JoinRequest(
        id=id,
        guild_id=guild_id,
        game_id=game_id,
        player_id=player_id,
        external_player_id=external_player_id,
        message=message,
        created_at=from_millis(created_at),
        status=RequestStatus(status),
        resolved_at=dt(resolved_at),
    )


JOIN_REQUEST_COLUMNS = Columns(_join_request)


def help_row(h: HelpRequest) -> tuple[Any, ...]:
    return (
        h.id,
        h.guild_id,
        h.game_id,
        h.player_id,
        h.external_player_id,
        h.type.value,
        h.resource_key,
        h.amount,
        to_millis(h.created_at),
        to_millis(h.expires_at),
        h.donated,
        h.status.value,
        ms(h.closed_at),
    )


def _help(
    id: Any,
    guild_id: Any,
    game_id: Any,
    player_id: Any,
    external_player_id: Any,
    type: Any,
    resource_key: Any,
    amount: Any,
    created_at: Any,
    expires_at: Any,
    donated: Any,
    status: Any,
    closed_at: Any,
) -> HelpRequest:
    return HelpRequest(
        id=id,
        guild_id=guild_id,
        game_id=game_id,
        player_id=player_id,
        external_player_id=external_player_id,
        type=ResourceType(type),
        resource_key=resource_key,
        amount=amount,
        created_at=from_millis(created_at),
        expires_at=from_millis(expires_at),
        donated=donated,
        status=HelpStatus(status),
        closed_at=dt(closed_at),
    )


HELP_COLUMNS = Columns(_help)


def donation_row(d: Donation) -> tuple[Any, ...]:
    return (
        d.id,
        d.request_id,
        d.guild_id,
        d.game_id,
        d.donor_player_id,
        d.donor_external_player_id,
        d.amount,
        d.grant_id,
        d.reward_grant_id,
        to_millis(d.donated_at),
    )


def _donation(
    id: Any,
    request_id: Any,
    guild_id: Any,
    game_id: Any,
    donor_player_id: Any,
    donor_external_player_id: Any,
    amount: Any,
    grant_id: Any,
    reward_grant_id: Any,
    donated_at: Any,
) -> Donation:
    return Donation(
        id=id,
        request_id=request_id,
        guild_id=guild_id,
        game_id=game_id,
        donor_player_id=donor_player_id,
        donor_external_player_id=donor_external_player_id,
        amount=amount,
        grant_id=grant_id,
        reward_grant_id=reward_grant_id,
        donated_at=from_millis(donated_at),
    )


DONATION_COLUMNS = Columns(_donation)
