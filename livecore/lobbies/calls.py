"""The lobby routes' calls, as the typed clients send them (``sdk.lobbies``, ``server.lobbies``) and a
simulation runs them (``sim.lobby``, ``sim.server.lobbies``): one builder per route
(:mod:`livecore.api.call`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from livecore.api.call import Call, SdkCalls, ServerCalls
from livecore.live_events.api import SDK_START, AttemptResponse, StartAttemptRequest
from livecore.live_events.calls import LiveEventsCalls
from livecore.live_events.errors import LOBBY_FORMING
from livecore.lobbies import api
from livecore.lobbies.forming import LobbyForming


class LobbiesCalls(SdkCalls):
    """The ``/sdk/v1`` lobby call."""

    def _get(self, lobby_id: str) -> Call[api.LobbyResponse]:
        """A lobby (the client key alone): its ``status`` (``forming``, ``active``, ``closed``),
        ``capacity``, ``participant_count`` (bots included) and ``bot_count``, its ``participants`` in
        the order the seats were taken (a bot's ``external_player_id`` is ``None``), ``fill_by``,
        ``started_at``, ``ends_at``, ``closed_at``, ``promotion_reason``, the ``leaderboard_id`` of its
        own board and a push's ``metadata``. Raises :class:`~livecore_client.errors.LobbyNotFoundError`
        for a lobby of another game or environment, or an unknown id.
        """
        return Call(api.SDK_LOBBY, api.LobbyResponse, path={"lobbyId": lobby_id})


class ServerLobbiesCalls(ServerCalls):
    """The ``/server/v1`` lobby calls."""

    def _push(
        self,
        game_id: str,
        event_key: str,
        key: str,
        external_player_ids: Sequence[str],
        *,
        capacity: int | None = None,
        fill_bots: bool = False,
        metadata: Mapping[str, Any] | None = None,
    ) -> Call[api.LobbyResponse]:
        """Seat these players in a new lobby of the event's open window, active at once
        (``promotion_reason`` ``external_push``), players created on first contact; ``game_id`` is the
        key's own game's ``gam_`` id (``ping()`` tells it). ``capacity`` defaults to the event's
        ``lobby.capacity``; ``fill_bots=True`` seats bots in the empty seats at once. Answers the
        lobby.

        ``key`` is the push's idempotency key, per game and environment: the same key with the same
        players answers the lobby it made (and retries are safe), with other players
        :class:`~livecore_client.errors.IdempotencyConflictError`. Refusals, in this order, each
        changing nothing: :class:`~livecore_client.errors.NotFoundError` (another game's id),
        :class:`~livecore_client.errors.EventNotFoundError`,
        :class:`~livecore_client.errors.InvalidRequestError` (an event without lobbies; no players, a
        player named twice, more players than seats, a capacity outside 2 to 10,000),
        :class:`~livecore_client.errors.EventNotOpenError` and
        :class:`~livecore_client.errors.ConflictError` (a player seated in another lobby of the window:
        ``details["externalPlayerIds"]``).
        """
        return Call(
            api.SERVER_PUSH,
            api.LobbyResponse,
            path={"gameId": game_id, "eventKey": event_key},
            body=api.LobbyPushRequest(
                key=key,
                external_player_ids=list(external_player_ids),
                capacity=capacity,
                fill_bots=fill_bots,
                metadata=None if metadata is None else dict(metadata),
            ),
        )

    def _get(self, game_id: str, lobby_id: str) -> Call[api.LobbyResponse]:
        """A lobby of the key's game, as the SDK's ``lobby`` reads it. Raises
        :class:`~livecore_client.errors.NotFoundError` for another game's ``game_id`` and
        :class:`~livecore_client.errors.LobbyNotFoundError` for a lobby of another game or environment,
        or an unknown id.
        """
        return Call(api.SERVER_LOBBY, api.LobbyResponse, path={"gameId": game_id, "lobbyId": lobby_id})


class StartingCalls(LiveEventsCalls):
    """The ``/sdk/v1`` live event calls with the start's: a lobby event's start seats its player in a
    lobby first, and its 202 answer is this area's :class:`~livecore.lobbies.forming.LobbyForming`, so the
    lobbies, which build on live events, complete the events' calls with it."""

    def _start_attempt(
        self,
        external_id: str,
        event_key: str,
        *,
        player_context: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[AttemptResponse | LobbyForming]:
        """Start an attempt in the event's open window, paying its entry cost in the same step; the
        attempt comes back ``in_progress`` (201) with its ``leaderboard_id`` and ``ends_at``.
        ``player_context`` (at most 4 KiB as JSON) picks the board of a segmented event: each segment
        key's value, a string (``country`` falls back to the player's resolved country).

        On a lobby event the player is seated first (docs/lobbies.md#starting-on-a-lobby-event): while
        its lobby forms the answer is a :class:`~livecore_client.models.LobbyForming` (202
        ``lobby_forming``: its ``lobby_id``, ``participant_count``, ``capacity`` and ``fill_by``), and
        nothing is charged; start again once the lobby is active to get the attempt on the lobby's
        board. Any other event always answers an :class:`~livecore_client.models.AttemptResponse`.

        Refusals, checked in this order (nothing is charged or written):
        :class:`~livecore_client.errors.PlayerBannedError`,
        :class:`~livecore_client.errors.EventNotFoundError`,
        :class:`~livecore_client.errors.EventNotOpenError` (also a lobby closed early: its
        ``details["lobbyId"]``),
        :class:`~livecore_client.errors.AttemptInProgressError` (its ``attempt_id``),
        :class:`~livecore_client.errors.MaxAttemptsReachedError` and
        :class:`~livecore_client.errors.InsufficientEntryCostError`.
        """
        return Call(
            SDK_START,
            AttemptResponse,
            path={"externalId": external_id, "eventKey": event_key},
            body=None if player_context is None else StartAttemptRequest(player_context=dict(player_context)),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
            accepted=(LOBBY_FORMING, LobbyForming),
        )
