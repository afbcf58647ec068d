"""Live events, their attempts and boards: ``sdk.live_events`` and ``server.live_events``
(``admin.live_events``, the operators' attempt calls: :mod:`livecore_client.resources.admin_attempts`).

``sdk.live_events.stream_leaderboard`` is the one hand-written sync/async pair (an iterator of events
cannot be one builder): it prepares the builder's call and reads the stream through
:mod:`livecore_client._stream`. Each other method is its route's builder (:mod:`livecore.live_events.calls`,
and the start's here) sent over HTTP."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any

from livecore.api.call import Call
from livecore.live_events.api import SDK_START
from livecore.live_events.calls import LiveEventsCalls, ServerLiveEventsCalls
from livecore.live_events.errors import LOBBY_FORMING

from .. import models as m
from .._client import AsyncClient, AsyncResource, SyncClient, SyncResource, async_method, sync_method
from .._stream import StreamEvent, iter_stream_async, iter_stream_sync
from .._surfaces import AsyncSdkSurface, SdkSurface

__all__ = [
    "AsyncLiveEvents",
    "AsyncServerLiveEvents",
    "LiveEvents",
    "ServerLiveEvents",
]


class _LiveEventsCalls(LiveEventsCalls):
    """The ``/sdk/v1`` live event calls: the core's builders (:mod:`livecore.live_events.calls`) and the
    start's, whose 202 answer reads into the lobbies' ``LobbyForming``, which live events (the core's
    builders' area) does not import."""

    def _start_attempt(
        self,
        external_id: str,
        event_key: str,
        *,
        player_context: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.AttemptResponse | m.LobbyForming]:
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
            m.AttemptResponse,
            path={"externalId": external_id, "eventKey": event_key},
            body=None
            if player_context is None
            else m.StartAttemptRequest(player_context=dict(player_context)),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
            accepted=(LOBBY_FORMING, m.LobbyForming),
        )


class LiveEvents(SyncResource[SdkSurface], _LiveEventsCalls):
    """``sdk.live_events``: the ``/sdk/v1`` live event calls."""

    list = sync_method(_LiveEventsCalls._list)
    start_attempt = sync_method(_LiveEventsCalls._start_attempt)
    report_progress = sync_method(_LiveEventsCalls._report_progress)
    leaderboard = sync_method(_LiveEventsCalls._leaderboard)

    def stream_leaderboard(self, leaderboard_id: str) -> Iterator[StreamEvent]:
        """The board's live stream (the client key alone): ``StreamReady`` first (the
        board's ``version`` and its top 50 ``entries``), then a ``StreamScoreUpdate`` per change of
        the board (the changed ``entry`` with its rank now, and the new ``version``), and
        ``StreamClosed`` when the board is finalized, which ends the iteration. Post progress only
        after ``ready``. Heartbeats are skipped; a connection lost before ``closed`` raises
        :class:`~livecore_client.errors.APIConnectionError` (open the stream again: the new ``ready``
        carries the board as it is then). Leaving the loop early closes the connection once the
        iterator is closed or collected (``contextlib.closing``)."""
        client = self._client
        call = client._prepare(self._stream_call(leaderboard_id))
        return iter_stream_sync(client._http, client.base_url, call, client._retry)


class AsyncLiveEvents(AsyncResource[AsyncSdkSurface], _LiveEventsCalls):
    """The methods of :class:`LiveEvents`, awaited."""

    list = async_method(_LiveEventsCalls._list)
    start_attempt = async_method(_LiveEventsCalls._start_attempt)
    report_progress = async_method(_LiveEventsCalls._report_progress)
    leaderboard = async_method(_LiveEventsCalls._leaderboard)

    def stream_leaderboard(self, leaderboard_id: str) -> AsyncIterator[StreamEvent]:
        """The board's live stream (the client key alone): ``StreamReady`` first (the
        board's ``version`` and its top 50 ``entries``), then a ``StreamScoreUpdate`` per change of
        the board (the changed ``entry`` with its rank now, and the new ``version``), and
        ``StreamClosed`` when the board is finalized, which ends the iteration. Post progress only
        after ``ready``. Heartbeats are skipped; a connection lost before ``closed`` raises
        :class:`~livecore_client.errors.APIConnectionError` (open the stream again: the new ``ready``
        carries the board as it is then). Leaving the loop early closes the connection once the
        iterator is closed or collected (``contextlib.aclosing``); ``async for``."""
        client = self._client
        call = client._prepare(self._stream_call(leaderboard_id))
        return iter_stream_async(client._http, client.base_url, call, client._retry)


class ServerLiveEvents(SyncResource[SyncClient], ServerLiveEventsCalls):
    """``server.live_events``: the ``/server/v1`` live event call."""

    end_now = sync_method(ServerLiveEventsCalls._end_now)


class AsyncServerLiveEvents(AsyncResource[AsyncClient], ServerLiveEventsCalls):
    """The methods of :class:`ServerLiveEvents`, awaited."""

    end_now = async_method(ServerLiveEventsCalls._end_now)
