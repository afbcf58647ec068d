"""The lobbies area's rows: each record's columns declared once (read by name) and the
values it writes, in the order of its declaration's ``names`` (:mod:`livecore_server.storage.rows`)."""

from __future__ import annotations

from typing import Any

import orjson

from livecore.clock import from_millis, to_millis
from livecore.lobbies.rules import Lobby, LobbyStatus, PromotionReason, Seat, SeatSource
from livecore.players.identity import Identity
from livecore.scope import Environment
from livecore_server.storage.columns import Columns
from livecore_server.storage.rows import dt, ms


def lobby_row(lobby: Lobby) -> tuple[Any, ...]:
    return (
        lobby.id,
        lobby.game_id,
        lobby.env.value,
        lobby.event_key,
        lobby.event_id,
        lobby.window_id,
        lobby.board_id,
        lobby.status.value,
        lobby.capacity,
        orjson.dumps(lobby.segment_values).decode(),
        lobby.segment_key,
        to_millis(lobby.created_at),
        to_millis(lobby.ends_at),
        ms(lobby.fill_by),
        lobby.participant_count,
        lobby.bot_count,
        ms(lobby.started_at),
        ms(lobby.closed_at),
        None if lobby.promotion_reason is None else lobby.promotion_reason.value,
        None if lobby.metadata is None else orjson.dumps(lobby.metadata).decode(),
        lobby.push_key,
        lobby.terminated_by,
    )


def _lobby(
    id: Any,
    game_id: Any,
    env: Any,
    event_key: Any,
    event_id: Any,
    window_id: Any,
    board_id: Any,
    status: Any,
    capacity: Any,
    segment_values: Any,
    segment_key: Any,
    created_at: Any,
    ends_at: Any,
    fill_by: Any,
    participant_count: Any,
    bot_count: Any,
    started_at: Any,
    closed_at: Any,
    promotion_reason: Any,
    metadata: Any,
    push_key: Any,
    terminated_by: Any,
) -> Lobby:
    return Lobby(
        id=id,
        game_id=game_id,
        env=Environment(env),
        event_key=event_key,
        event_id=event_id,
        window_id=window_id,
        board_id=board_id,
        status=LobbyStatus(status),
        capacity=capacity,
        segment_values=orjson.loads(segment_values),
        segment_key=segment_key,
        created_at=from_millis(created_at),
        ends_at=from_millis(ends_at),
        fill_by=dt(fill_by),
        participant_count=participant_count,
        bot_count=bot_count,
        started_at=dt(started_at),
        closed_at=dt(closed_at),
        promotion_reason=None if promotion_reason is None else PromotionReason(promotion_reason),
        metadata=None if metadata is None else orjson.loads(metadata),
        push_key=push_key,
        terminated_by=terminated_by,
    )


LOBBY_COLUMNS = Columns(_lobby)


def seat_row(s: Seat) -> tuple[Any, ...]:
    # A seat's identity is a bot's, drawn from the pool: a name and an avatar (no country).
    identity = s.identity
    return (
        s.lobby_id,
        s.window_id,
        s.seat_id,
        to_millis(s.joined_at),
        s.source.value,
        s.external_player_id,
        None if identity is None else identity.name,
        None if identity is None else identity.avatar,
        s.final_score,
        s.position,
    )


def _seat(
    lobby_id: Any,
    window_id: Any,
    seat_id: Any,
    joined_at: Any,
    source: Any,
    external_player_id: Any,
    identity_name: Any,
    identity_avatar: Any,
    final_score: Any,
    seat_position: Any,
) -> Seat:
    return Seat(
        lobby_id=lobby_id,
        window_id=window_id,
        seat_id=seat_id,
        joined_at=from_millis(joined_at),
        source=SeatSource(source),
        external_player_id=external_player_id,
        identity=None if identity_name is None else Identity(name=identity_name, avatar=identity_avatar),
        final_score=final_score,
        position=seat_position,
    )


SEAT_COLUMNS = Columns(_seat)
