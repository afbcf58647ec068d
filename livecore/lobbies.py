"""Lobbies: small rooms of one event window that fill, start, compete on their own board and close
(docs/lobbies.md).

A lobby event (``[games.<game>.events.<key>.lobby]``) seats each starting player in the oldest ``forming``
lobby of the open window and segment, or opens a new one. A lobby becomes ``active`` when its last seat is
taken (``capacity``), at its ``fill_by`` deadline (``timeout``: bots first take the empty seats when the
event says so), or at once when the studio's server pushes it (``external_push``); it closes with its
window. Each lobby has its own event board, on which its bots' scores grow from 0 at the start to their
drawn final score at the window's end.

The records are here; the rules follow them, then the transition table.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

import attrs

from livecore.identity import Identity
from livecore.scope import Environment


class LobbyStatus(enum.StrEnum):
    FORMING = "forming"
    ACTIVE = "active"
    CLOSED = "closed"


class PromotionReason(enum.StrEnum):
    """Why a lobby became active (``promotionReason``)."""

    CAPACITY = "capacity"
    TIMEOUT = "timeout"
    EXTERNAL_PUSH = "external_push"


class SeatSource(enum.StrEnum):
    """How a seat was taken: a client's start (matchmaking), the studio's push, or a bot filling it."""

    MATCHMAKING = "matchmaking"
    SERVER_PUSH = "server_push"
    BOT = "bot"


@attrs.frozen
class Lobby:
    """One lobby. ``segment_key`` is the canonical text of ``segment_values`` (what matchmaking matches
    on); ``fill_by`` is set while forming and stays as it was; ``push_key`` is a pushed lobby's ``key``
    (its idempotency key, per game and environment). ``terminated_by`` is the label of the sudden-death
    trigger that ended its session, if one did."""

    id: str
    game_id: str
    env: Environment
    event_key: str
    event_id: str
    window_id: str
    board_id: str
    status: LobbyStatus
    capacity: int
    segment_values: dict[str, str | None]
    segment_key: str
    created_at: datetime
    ends_at: datetime
    fill_by: datetime | None = None
    participant_count: int = 0
    bot_count: int = 0
    started_at: datetime | None = None
    closed_at: datetime | None = None
    promotion_reason: PromotionReason | None = None
    metadata: dict[str, Any] | None = None
    push_key: str | None = None
    terminated_by: str | None = None

    @property
    def free_seats(self) -> int:
        return self.capacity - self.participant_count


@attrs.frozen
class Seat:
    """A taken seat. A player's: ``seat_id`` is the player's id, ``external_player_id`` its external id,
    and its identities are read from the player at read time. A bot's: ``seat_id`` is a ``bot_`` id, with
    the ``identity`` drawn from the identity pool and the ``final_score`` drawn when it was seated."""

    lobby_id: str
    window_id: str
    seat_id: str
    joined_at: datetime
    source: SeatSource
    external_player_id: str | None = None
    identity: Identity | None = None
    final_score: float | None = None

    @property
    def is_bot(self) -> bool:
        return self.source is SeatSource.BOT
