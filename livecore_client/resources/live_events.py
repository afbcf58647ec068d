"""Live events, their attempts and boards: ``sdk.live_events`` and ``server.live_events``
(``admin.live_events``, the operators' attempt calls: :mod:`livecore_client.resources.admin_attempts`).

``sdk.live_events.stream_leaderboard`` is the one hand-written sync/async pair (an iterator of events
cannot be one builder): it prepares the builder's call and reads the stream through
:mod:`livecore_client._stream`."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any

import attrs

from livecore.api.call import Call
from livecore.live_events.api import (
    SDK_BOARD,
    SDK_BOARD_STREAM,
    SDK_EVENTS,
    SDK_PROGRESS,
    SDK_START,
    SERVER_END_NOW,
)
from livecore.live_events.errors import LOBBY_FORMING

from .. import models as m
from .._client import AsyncClient, AsyncResource, SyncClient, SyncResource, async_method, sync_method
from .._stream import StreamEvent, iter_stream_async, iter_stream_sync
from .._surfaces import AsyncSdkSurface, SdkSurface
from ._base import SdkCalls, ServerCalls

__all__ = [
    "AsyncLiveEvents",
    "AsyncServerLiveEvents",
    "LiveEvents",
    "ServerLiveEvents",
]


class _LiveEventsCalls(SdkCalls):
    """The ``/sdk/v1`` live event calls."""

    def _list(
        self, external_id: str, *, with_attempts: bool = True, player_secret: str | None = None
    ) -> Call[m.EventListResponse]:
        """The game's events, in key order: each with its ``state`` (``open`` while a window is open,
        then ``window`` is it; ``scheduled`` while another is due; else ``ended``),
        ``next_window_starts_at``, ``entry_cost``, ``max_attempts`` and ``target``.

        With the player's secret (the call's, else the client's) each event also carries the player's
        ``attempts`` in its open window. ``with_attempts=False`` sends the client key alone, as does a
        client without a secret; ``attempts`` is then ``None``. A wrong secret raises
        :class:`~livecore_client.errors.PlayerSecretInvalidError`.
        """
        return Call(
            SDK_EVENTS,
            m.EventListResponse,
            path={"externalId": external_id},
            player_secret=self._secret(player_secret) if with_attempts else None,
        )

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

    def _report_progress(
        self,
        external_id: str,
        event_key: str,
        attempt_id: str,
        metrics: Mapping[str, float],
        *,
        complete: bool = False,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.ProgressResponse]:
        """Report an attempt's ``metrics``: each value is the metric's current total (set, not added);
        metrics not named keep their values. The event's score metric moves the attempt's ``score``
        (its best value) and the board; crossing milestones creates one pending grant each
        (``milestones_granted``); reaching the event's ``target``, or ``complete=True``, completes the
        attempt.

        Refusals, in this order (nothing is applied):
        :class:`~livecore_client.errors.PlayerBannedError`,
        :class:`~livecore_client.errors.AttemptNotFoundError` (also another player's attempt),
        :class:`~livecore_client.errors.InvalidRequestError` (a metric the event does not take, or a
        value that is not a finite number),
        :class:`~livecore_client.errors.AttemptNotInProgressError` (completed, expired, or past its
        ``ends_at``) and :class:`~livecore_client.errors.AntiCheatRejectedError` (its ``validator``).
        """
        return Call(
            SDK_PROGRESS,
            m.ProgressResponse,
            path={"externalId": external_id, "eventKey": event_key, "attemptId": attempt_id},
            body=m.ProgressRequest(metrics=dict(metrics), complete=complete),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _leaderboard(
        self,
        leaderboard_id: str,
        *,
        limit: int | None = None,
        cursor: str | None = None,
        around: str | None = None,
    ) -> Call[m.BoardResponse]:
        """A page of an event leaderboard (the client key alone): the ``leaderboard`` (``status``
        ``open`` or ``finalized``, ``closes_at``) and its ``entries``, ranked 1, 2, 3, ... with no rank
        shared. ``limit`` (default 50, 1 to 200) entries from the top, or after ``cursor`` (a page's
        ``next_cursor``, ``None`` on the last page), or ``around`` an external player id: at most
        ``limit`` consecutive entries holding that player, centred on it as far as the board allows
        (the top when the player has no entry). ``ValueError`` (before any request) for both
        ``cursor`` and ``around``; :class:`~livecore_client.errors.LeaderboardNotFoundError` for an
        unknown board.
        """
        if cursor is not None and around is not None:
            raise ValueError("pass cursor or around, not both")
        query = m.BoardQuery(cursor=cursor, around=around)
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(SDK_BOARD, m.BoardResponse, path={"leaderboardId": leaderboard_id}, query=query)

    def _stream_call(self, leaderboard_id: str) -> Call[None]:
        return Call(SDK_BOARD_STREAM, type(None), path={"leaderboardId": leaderboard_id})


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


class _ServerLiveEventsCalls(ServerCalls):
    """The ``/server/v1`` live event call."""

    def _end_now(self, event_key: str) -> Call[m.EndNowResponse]:
        """Close the event's open window now, as its end would (test keys only): expire the attempts in
        progress, finalize its boards (their streams send ``closed``), create the rank-reward grants.
        Answers the ids of the windows it closed (``[]`` when none was open); the next window still
        opens on schedule. Raises :class:`~livecore_client.errors.EventNotFoundError` for an unknown
        event and :class:`~livecore_client.errors.PermissionDeniedError` for a live key.

        Not retried after a timeout or 5xx (it takes no idempotency key); calling it again is harmless,
        since a closed window is never closed twice.
        """
        return Call(SERVER_END_NOW, m.EndNowResponse, path={"eventKey": event_key})


class ServerLiveEvents(SyncResource[SyncClient], _ServerLiveEventsCalls):
    """``server.live_events``: the ``/server/v1`` live event call."""

    end_now = sync_method(_ServerLiveEventsCalls._end_now)


class AsyncServerLiveEvents(AsyncResource[AsyncClient], _ServerLiveEventsCalls):
    """The methods of :class:`ServerLiveEvents`, awaited."""

    end_now = async_method(_ServerLiveEventsCalls._end_now)
