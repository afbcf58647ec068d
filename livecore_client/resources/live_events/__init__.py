"""Live events, their attempts and boards: ``sdk.live_events`` and ``server.live_events``
(``admin.live_events``, the operators' attempt calls: :mod:`livecore_client.resources.operators.attempts`).

``sdk.live_events.stream_leaderboard`` is the one hand-written sync/async pair (an iterator of events
cannot be one builder): it prepares the builder's call and reads the stream through
:mod:`livecore_client.resources.live_events.stream`. Each other method is its route's builder
(:mod:`livecore.live_events.calls`; the start's is the lobbies',
:class:`livecore.lobbies.calls.LiveEventsCalls`) sent over HTTP."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

from livecore.live_events.calls import LiveEventsCalls, ServerLiveEventsCalls

from ..._client import AsyncClient, AsyncResource, SyncClient, SyncResource, async_method, sync_method
from ..._surfaces import AsyncSdkSurface, SdkSurface
from .stream import StreamEvent, iter_stream_async, iter_stream_sync

__all__ = [
    "AsyncLiveEvents",
    "AsyncServerLiveEvents",
    "LiveEvents",
    "ServerLiveEvents",
]


class LiveEvents(SyncResource[SdkSurface], LiveEventsCalls):
    """``sdk.live_events``: the ``/sdk/v1`` live event calls."""

    list = sync_method(LiveEventsCalls._list)
    report_progress = sync_method(LiveEventsCalls._report_progress)
    leaderboard = sync_method(LiveEventsCalls._leaderboard)

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


class AsyncLiveEvents(AsyncResource[AsyncSdkSurface], LiveEventsCalls):
    """The methods of :class:`LiveEvents`, awaited."""

    list = async_method(LiveEventsCalls._list)
    report_progress = async_method(LiveEventsCalls._report_progress)
    leaderboard = async_method(LiveEventsCalls._leaderboard)

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
