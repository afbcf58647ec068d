"""The live-event routes' calls, as the typed clients send them (``sdk.live_events``,
``server.live_events``) and a simulation runs them (``ada.live_events``, ``sim.board``,
``sim.server.live_events``): one builder per route (:mod:`livecore.api.call`). A start's builder is the
lobbies' (:class:`livecore.lobbies.calls.StartingCalls`): its 202 answer reads into the lobbies'
``LobbyForming``, an area built on this one."""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from livecore.api.call import Call, SdkCalls, ServerCalls
from livecore.live_events import api


class LiveEventsCalls(SdkCalls):
    """The ``/sdk/v1`` live event calls."""

    def _list(
        self, external_id: str, *, with_attempts: bool = True, player_secret: str | None = None
    ) -> Call[api.EventListResponse]:
        """The game's events, in key order: each with its ``state`` (``open`` while a window is open,
        then ``window`` is it; ``scheduled`` while another is due; else ``ended``),
        ``next_window_starts_at``, ``entry_cost``, ``max_attempts`` and ``target``.

        With the player's secret (the call's, else the client's) each event also carries the player's
        ``attempts`` in its open window. ``with_attempts=False`` sends the client key alone, as does a
        client without a secret; ``attempts`` is then ``None``. A wrong secret raises
        :class:`~livecore_client.errors.PlayerSecretInvalidError`.
        """
        return Call(
            api.SDK_EVENTS,
            api.EventListResponse,
            path={"externalId": external_id},
            player_secret=self._secret(player_secret) if with_attempts else None,
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
    ) -> Call[api.ProgressResponse]:
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
            api.SDK_PROGRESS,
            api.ProgressResponse,
            path={"externalId": external_id, "eventKey": event_key, "attemptId": attempt_id},
            body=api.ProgressRequest(metrics=dict(metrics), complete=complete),
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
    ) -> Call[api.BoardResponse]:
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
        query = api.BoardQuery(cursor=cursor, around=around)
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(api.SDK_BOARD, api.BoardResponse, path={"leaderboardId": leaderboard_id}, query=query)

    def _stream_call(self, leaderboard_id: str) -> Call[None]:
        return Call(api.SDK_BOARD_STREAM, type(None), path={"leaderboardId": leaderboard_id})


class ServerLiveEventsCalls(ServerCalls):
    """The ``/server/v1`` live event call."""

    def _end_now(self, event_key: str) -> Call[api.EndNowResponse]:
        """Close the event's open window now, as its end would (test keys only): expire the attempts in
        progress, finalize its boards (their streams send ``closed``), create the rank-reward grants.
        Answers the ids of the windows it closed (``[]`` when none was open); the next window still
        opens on schedule. Raises :class:`~livecore_client.errors.EventNotFoundError` for an unknown
        event and :class:`~livecore_client.errors.PermissionDeniedError` for a live key.

        Not retried after a timeout or 5xx (it takes no idempotency key); calling it again is harmless,
        since a closed window is never closed twice.
        """
        return Call(api.SERVER_END_NOW, api.EndNowResponse, path={"eventKey": event_key})
