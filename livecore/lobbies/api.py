"""Lobbies: the lobby read (client and server) and the studio's server push (docs/events.md#lobbies)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import attrs

from livecore.api.route import Route, Surface, server_route
from livecore.api.views import IdentityView
from livecore.errors import CONFLICT, IDEMPOTENCY_CONFLICT, NOT_FOUND
from livecore.idempotency import KEY
from livecore.limits import FREE_FORM, ID, limited
from livecore.live_events.errors import EVENT_NOT_FOUND, EVENT_NOT_OPEN
from livecore.lobbies.errors import LOBBY_NOT_FOUND
from livecore.lobbies.forming import LobbyForming as LobbyForming  # where the client's models find it
from livecore.lobbies.rules import PUSH_CAPACITY, PUSH_PLAYERS, Lobby, LobbyStatus, PromotionReason, Seat
from livecore.players.rules import Player
from livecore.players.views import display_view

if TYPE_CHECKING:
    from livecore.lobbies.commands import LobbyRead


@attrs.frozen
class ParticipantView:
    """A taken seat: a bot's ``externalPlayerId`` is null and its identity is the seat's own."""

    external_player_id: str | None
    display_identity: IdentityView
    is_bot: bool
    joined_at: datetime

    @classmethod
    def of(cls, seat: Seat, players_by_id: Mapping[str, Player]) -> ParticipantView:
        if seat.is_bot:
            assert seat.identity is not None
            identity = IdentityView.of(seat.identity, seat.identity.country)
            return cls(
                external_player_id=None, display_identity=identity, is_bot=True, joined_at=seat.joined_at
            )
        # A player's identity as it is at read time, as on its boards.
        player = players_by_id[seat.seat_id]
        return cls(
            external_player_id=player.external_id,
            display_identity=display_view(player),
            is_bot=False,
            joined_at=seat.joined_at,
        )


@attrs.frozen
class LobbyView:
    """The lobby (docs/events.md#lobbies): ``participantCount`` counts every seat taken, bots included;
    ``participants`` in the order the seats were taken."""

    lobby_id: str
    event_key: str
    window_id: str
    leaderboard_id: str
    status: LobbyStatus
    capacity: int
    participant_count: int
    bot_count: int
    participants: list[ParticipantView]
    fill_by: datetime | None
    started_at: datetime | None
    ends_at: datetime
    closed_at: datetime | None
    promotion_reason: PromotionReason | None
    metadata: dict[str, Any] | None

    @classmethod
    def of(cls, lobby: Lobby, seats: Sequence[Seat], players_by_id: Mapping[str, Player]) -> LobbyView:
        """``seats`` as the store reads them (in the order taken); ``players_by_id`` holds the player of
        each seat that is not a bot's."""
        return cls(
            lobby_id=lobby.id,
            event_key=lobby.event_key,
            window_id=lobby.window_id,
            leaderboard_id=lobby.board_id,
            status=lobby.status,
            capacity=lobby.capacity,
            participant_count=lobby.participant_count,
            bot_count=lobby.bot_count,
            participants=[ParticipantView.of(s, players_by_id) for s in seats],
            fill_by=lobby.fill_by,
            started_at=lobby.started_at,
            ends_at=lobby.ends_at,
            closed_at=lobby.closed_at,
            promotion_reason=lobby.promotion_reason,
            metadata=lobby.metadata,
        )


@attrs.frozen
class LobbyResponse:
    lobby: LobbyView

    @classmethod
    def of(cls, found: LobbyRead) -> LobbyResponse:
        """A lobby as a command read it, its participants' identities as they are now."""
        return cls(lobby=LobbyView.of(found.lobby, found.seats, found.players))


@attrs.frozen
class LobbyPushRequest:
    """A lobby the studio's server forms (docs/events.md#lobbies): ``key`` is the push's idempotency key;
    ``capacity`` defaults to the event's ``lobby.capacity``; with ``fillBots`` bots take the empty seats
    at once. The players are seated in the order given. More players than the ``capacity`` (the
    request's, else the event's) is 400 ``invalid_request`` naming ``externalPlayerIds``."""

    key: str = attrs.field(metadata=limited(KEY))
    # Empty, repeated and too many ids are the push's own refusals (livecore.lobbies.rules.check_push), in its
    # order; the wire bounds only the list's size.
    external_player_ids: list[str] = attrs.field(metadata=limited(ID, count=PUSH_PLAYERS))
    capacity: int | None = attrs.field(default=None, metadata=limited(PUSH_CAPACITY))
    fill_bots: bool = False
    metadata: dict[str, Any] | None = attrs.field(default=None, metadata=limited(FREE_FORM))


SDK_LOBBY = Route(
    name="lobbies.read",
    surface=Surface.SDK,
    method="GET",
    path="/lobbies/{lobbyId}",
    summary="A lobby: its status, seats and participants (players and bots).",
    response=LobbyResponse,
    errors=(LOBBY_NOT_FOUND,),
)

SERVER_LOBBY = server_route(
    "server.lobbies.read",
    "GET",
    "/games/{gameId}/lobbies/{lobbyId}",
    "A lobby of the key's game (another game's id: 404).",
    LobbyResponse,
    errors=(NOT_FOUND, LOBBY_NOT_FOUND),
)

SERVER_PUSH = Route(
    name="server.lobbies.push",
    surface=Surface.SERVER,
    method="POST",
    path="/games/{gameId}/events/{eventKey}/lobbies",
    summary="Form a lobby of the given players in the event's open window, active at once (bots fill it "
    "on request); players are created on first contact.",
    response=LobbyResponse,
    status=201,
    request=LobbyPushRequest,
    # The body's ``key`` is the push's idempotency key, kept on the lobby: the command answers its replay.
    idempotent_on="key",
    errors=(
        NOT_FOUND,
        EVENT_NOT_FOUND,
        EVENT_NOT_OPEN,
        IDEMPOTENCY_CONFLICT,
        CONFLICT,
    ),
)

ROUTES = (SDK_LOBBY, SERVER_LOBBY, SERVER_PUSH)
