"""Lobby and sudden-death webhooks (docs/webhooks.md#event-catalog-as-implemented): a lobby created, joined,
filled with bots, started, closed, and a sudden-death session ended early and its attempts frozen.

``lobby.player_joined``, ``lobby.bot_filled``, ``lobby.started``, ``lobby.fill_timeout`` (the same as
``lobby.started``) and ``session.terminated`` carry the fields docs/lobbies.md#webhooks lists. The others
follow the lobby read (docs/lobbies.md#reading-a-lobby):

- ``lobby.created``: the read's ``lobbyId, eventKey, windowId, leaderboardId, status, capacity,
  participantCount, botCount`` (with ``eventId`` after ``lobbyId``), then ``segmentValues, fillBy, endsAt,
  metadata, createdAt``, and ``source`` as ``lobby.player_joined`` has it (omitted for matchmaking,
  ``server_push`` for a pushed lobby). A matchmade lobby is announced before its first player joins
  (``forming``, no seats); a pushed one as it was created.
- ``lobby.closed``: the same ids, the seat counts, ``startedAt`` (null if it closed while forming),
  ``endsAt, closedAt, promotionReason`` (null likewise) and ``firedTrigger``: the label of the sudden-death
  trigger that ended its session, null when none did. Its board's ranking is ``leaderboard.finalized``'s.
- ``session.terminated``: ``lobbyId, eventId, eventKey, eventWindowId, leaderboardId, firedTrigger,
  firedTriggerType, resolution, frozenCount, terminatedAt``; ``frozenCount`` is 0 with ``close``.
- ``session.frozen``: the attempt's ids as the attempt webhooks carry them, ``lobbyId``, the ``score``
  that stands, ``firedTrigger`` and ``frozenAt``.

``lobby.*`` name the window ``windowId``, as the lobby read does; ``session.*`` name it ``eventWindowId``,
as the attempt webhooks do.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar, Self

import attrs

from livecore.api.convert import OMIT_IF_NONE
from livecore.live_events.attempts import Attempt
from livecore.live_events.webhooks import attempt_ids
from livecore.lobbies.rules import Lobby, Seat, SeatSource
from livecore.lobbies.settings import SuddenDeath
from livecore.webhooks.payload import WebhookPayload, known


def _push_source(pushed: bool) -> str | None:
    """``source``: omitted for matchmaking, ``server_push`` for the studio's push."""
    return SeatSource.SERVER_PUSH.value if pushed else None


@attrs.frozen
class LobbyCreated(WebhookPayload):
    KIND: ClassVar[str] = "lobby.created"

    lobby_id: str
    event_id: str
    event_key: str
    window_id: str
    leaderboard_id: str
    status: str
    capacity: int
    participant_count: int
    bot_count: int
    segment_values: dict[str, Any]
    fill_by: datetime | None
    ends_at: datetime
    metadata: dict[str, Any] | None
    created_at: datetime
    source: str | None = attrs.field(default=None, metadata=OMIT_IF_NONE)

    @classmethod
    def of(cls, lobby: Lobby) -> Self:
        return cls(
            lobby_id=lobby.id,
            event_id=lobby.event_id,
            event_key=lobby.event_key,
            window_id=lobby.window_id,
            leaderboard_id=lobby.board_id,
            status=lobby.status.value,
            capacity=lobby.capacity,
            participant_count=lobby.participant_count,
            bot_count=lobby.bot_count,
            segment_values=lobby.segment_values,
            fill_by=lobby.fill_by,
            ends_at=lobby.ends_at,
            metadata=lobby.metadata,
            created_at=lobby.created_at,
            source=_push_source(lobby.push_key is not None),
        )


@attrs.frozen
class LobbyPlayerJoined(WebhookPayload):
    KIND: ClassVar[str] = "lobby.player_joined"

    lobby_id: str
    event_id: str
    player_id: str
    external_player_id: str
    participant_count: int
    capacity: int
    joined_at: datetime
    source: str | None = attrs.field(default=None, metadata=OMIT_IF_NONE)

    @classmethod
    def of(cls, lobby: Lobby, seat: Seat) -> Self:
        """``lobby`` as it is with ``seat`` taken (a player's seat: its ``seat_id`` is the player's id)."""
        if seat.is_bot:
            raise ValueError("a bot's seat is announced by lobby.bot_filled")
        return cls(
            lobby_id=lobby.id,
            event_id=lobby.event_id,
            player_id=seat.seat_id,
            external_player_id=known(seat.external_player_id, "external player id"),
            participant_count=lobby.participant_count,
            capacity=lobby.capacity,
            joined_at=seat.joined_at,
            source=_push_source(seat.source is SeatSource.SERVER_PUSH),
        )


@attrs.frozen
class FilledBot:
    """One bot of ``lobby.bot_filled``: ``id`` is its seat's id and ``botId`` the bot's, one ``bot_`` id
    (a bot is its seat; its board entries carry it as ``playerId``); ``name`` its drawn display name."""

    id: str
    bot_id: str
    name: str


@attrs.frozen
class LobbyBotFilled(WebhookPayload):
    KIND: ClassVar[str] = "lobby.bot_filled"

    lobby_id: str
    leaderboard_id: str
    bot_count: int
    bots: tuple[FilledBot, ...]

    @classmethod
    def of(cls, lobby: Lobby, bots: tuple[Seat, ...]) -> Self:
        """``bots``: the seats this fill added (``botCount`` counts them, not the lobby's earlier bots)."""
        if not all(seat.is_bot for seat in bots):
            raise ValueError("only bot seats are filled")
        return cls(
            lobby_id=lobby.id,
            leaderboard_id=lobby.board_id,
            bot_count=len(bots),
            bots=tuple(
                FilledBot(id=s.seat_id, bot_id=s.seat_id, name=known(s.identity, "bot identity").name)
                for s in bots
            ),
        )


@attrs.frozen
class LobbyPromotion(WebhookPayload):
    """``lobby.started`` (every promotion) and ``lobby.fill_timeout`` (a ``timeout`` one, as well)."""

    lobby_id: str
    leaderboard_id: str
    capacity: int
    participant_count: int
    bot_count: int
    started_at: datetime
    ends_at: datetime
    promotion_reason: str

    @classmethod
    def of(cls, lobby: Lobby) -> Self:
        """``lobby`` as it is once active."""
        return cls(
            lobby_id=lobby.id,
            leaderboard_id=lobby.board_id,
            capacity=lobby.capacity,
            participant_count=lobby.participant_count,
            bot_count=lobby.bot_count,
            started_at=known(lobby.started_at, "start"),
            ends_at=lobby.ends_at,
            promotion_reason=known(lobby.promotion_reason, "promotion reason").value,
        )


@attrs.frozen
class LobbyStarted(LobbyPromotion):
    KIND: ClassVar[str] = "lobby.started"


@attrs.frozen
class LobbyFillTimeout(LobbyPromotion):
    KIND: ClassVar[str] = "lobby.fill_timeout"


@attrs.frozen
class LobbyClosed(WebhookPayload):
    KIND: ClassVar[str] = "lobby.closed"

    lobby_id: str
    event_id: str
    event_key: str
    window_id: str
    leaderboard_id: str
    capacity: int
    participant_count: int
    bot_count: int
    started_at: datetime | None
    ends_at: datetime
    closed_at: datetime
    promotion_reason: str | None
    fired_trigger: str | None

    @classmethod
    def of(cls, lobby: Lobby) -> Self:
        """``lobby`` as it is once closed."""
        return cls(
            lobby_id=lobby.id,
            event_id=lobby.event_id,
            event_key=lobby.event_key,
            window_id=lobby.window_id,
            leaderboard_id=lobby.board_id,
            capacity=lobby.capacity,
            participant_count=lobby.participant_count,
            bot_count=lobby.bot_count,
            started_at=lobby.started_at,
            ends_at=lobby.ends_at,
            closed_at=known(lobby.closed_at, "close"),
            promotion_reason=lobby.promotion_reason.value if lobby.promotion_reason else None,
            fired_trigger=lobby.terminated_by,
        )


@attrs.frozen
class SessionTerminated(WebhookPayload):
    KIND: ClassVar[str] = "session.terminated"

    lobby_id: str
    event_id: str
    event_key: str
    event_window_id: str
    leaderboard_id: str
    fired_trigger: str
    fired_trigger_type: str
    resolution: str
    frozen_count: int
    terminated_at: datetime

    @classmethod
    def of(cls, lobby: Lobby, trigger: SuddenDeath, frozen_count: int, now: datetime) -> Self:
        """``lobby`` as the trigger ends its session; ``frozen_count`` how many still-active attempts it
        froze (0 with ``close``)."""
        return cls(
            lobby_id=lobby.id,
            event_id=lobby.event_id,
            event_key=lobby.event_key,
            event_window_id=lobby.window_id,
            leaderboard_id=lobby.board_id,
            fired_trigger=trigger.label,
            fired_trigger_type=trigger.type.value,
            resolution=trigger.resolution.value,
            frozen_count=frozen_count,
            terminated_at=now,
        )


@attrs.frozen
class SessionFrozen(WebhookPayload):
    KIND: ClassVar[str] = "session.frozen"

    attempt_id: str
    event_id: str
    event_key: str
    event_window_id: str
    leaderboard_id: str
    player_id: str
    external_player_id: str
    lobby_id: str
    score: float | None
    fired_trigger: str
    frozen_at: datetime

    @classmethod
    def of(cls, a: Attempt, lobby: Lobby, now: datetime) -> Self:
        """The frozen attempt ``a`` of ``lobby`` as it is once terminated."""
        return cls(
            **attempt_ids(a),
            lobby_id=lobby.id,
            score=a.score,
            fired_trigger=known(lobby.terminated_by, "fired trigger"),
            frozen_at=now,
        )


#: The kinds this area sends, as its area declares them (:attr:`livecore.area.Area.webhooks`).
PAYLOADS: tuple[type[WebhookPayload], ...] = (
    LobbyCreated,
    LobbyPlayerJoined,
    LobbyBotFilled,
    LobbyStarted,
    LobbyFillTimeout,
    LobbyClosed,
    SessionTerminated,
    SessionFrozen,
)
