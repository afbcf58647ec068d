"""The lobby routes' calls, as the typed clients send them (``sdk.lobbies``, ``server.lobbies``) and a
simulation runs them (``sim.lobby``, ``sim.server.lobbies``): one builder per route
(:mod:`livecore.api.call`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from livecore.api.call import Call, SdkCalls, ServerCalls
from livecore.lobbies import api


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
