"""The shared-leaderboard routes' calls, as the typed clients send them (``sdk.leaderboards``,
``server.leaderboards``) and a simulation runs them (``sim.leaderboard``, ``sim.server.leaderboards``):
one builder per route (:mod:`livecore.api.call`)."""

from __future__ import annotations

import attrs

from livecore.api.call import Call, SdkCalls, ServerCalls, new_idempotency_key
from livecore.leaderboards import api


class LeaderboardsCalls(SdkCalls):
    """The ``/sdk/v1`` shared leaderboard call."""

    def _get(
        self,
        leaderboard_key: str,
        *,
        limit: int | None = None,
        cursor: str | None = None,
        around: str | None = None,
        division: str | None = None,
        period: str | None = None,
        previous: bool = False,
    ) -> Call[api.LeaderboardResponse]:
        """A page of a shared leaderboard (the client key alone): the ``leaderboard`` (its ``period`` kind,
        the ``period_id`` read with its ``period_starts_at`` and ``period_ends_at``, and the
        ``division`` shown, ``None`` on a board without divisions) and its ``entries``, ranked 1, 2, 3,
        ... within the division. ``limit`` (default 50, 1 to 200) entries from the top, or after
        ``cursor`` (a page's ``next_cursor``, ``None`` on the last page), or ``around`` an external
        player id (centred on that player's entry as far as the board allows).

        The current period by default; ``period`` (a period id, as in ``period_id`` or the
        ``leaderboard.period_finalized`` webhook) or ``previous=True`` (the latest finalized period)
        read a past one. On a board with divisions the page shows ``around``'s player's division, else
        ``division`` (a division id), else the first division of the highest tier.

        ``ValueError`` (before any request) for both ``cursor`` and ``around``, or both ``period`` and
        ``previous``. :class:`~livecore_client.errors.LeaderboardNotFoundError` for an unknown board,
        :class:`~livecore_client.errors.PlayerNotFoundError` for an unknown ``around`` player, and
        :class:`~livecore_client.errors.InvalidRequestError` for an unknown period or division, a
        ``division`` on a board without divisions, ``previous`` before any period finished, or a
        forged or stale cursor.
        """
        if cursor is not None and around is not None:
            raise ValueError("pass cursor or around, not both")
        if period is not None and previous:
            raise ValueError("pass period or previous, not both")
        query = api.LeaderboardQuery(
            cursor=cursor, around=around, division=division, period=period, previous=previous
        )
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(
            api.SDK_LEADERBOARD,
            api.LeaderboardResponse,
            path={"leaderboardKey": leaderboard_key},
            query=query,
        )


class ServerLeaderboardsCalls(ServerCalls):
    """The ``/server/v1`` shared leaderboard calls."""

    def _submit_score(
        self,
        leaderboard_key: str,
        external_player_id: str,
        score: int,
        *,
        idempotency_key: str | None = None,
    ) -> Call[api.ScoreResponse]:
        """Submit a player's score to a shared leaderboard (the player is created on first contact): a
        whole number from -(2**53 - 1) to 2**53 - 1, combined into the player's entry of the current
        period by the board's aggregation (``sum``, ``best`` or ``latest``). Answers the ``entry`` as
        it is now, with its rank (within the player's division on a board with divisions).

        Derive ``idempotency_key`` from your own match or run id: a repeated submit with the same key
        and body answers the first one's entry and is not counted twice. Without one, a random key is
        made once per call and reused by its retries. Raises
        :class:`~livecore_client.errors.LeaderboardNotFoundError` for an unknown board and
        :class:`~livecore_client.errors.InvalidRequestError` for a score out of range.
        """
        # The body field is required by the model, so the key is made here, once, before any retry.
        key = new_idempotency_key() if idempotency_key is None else idempotency_key
        return Call(
            api.SERVER_SUBMIT_SCORE,
            api.ScoreResponse,
            path={"leaderboardKey": leaderboard_key},
            body=api.SubmitScoreRequest(
                external_player_id=external_player_id, score=score, idempotency_key=key
            ),
            idempotency_key=key,
        )

    def _rollover_now(self, leaderboard_key: str) -> Call[api.RolloverResponse]:
        """End the board's current period now, as its boundary would (test keys only): pay its rank
        rewards, promote and relegate, fire ``leaderboard.period_finalized``. The next period runs from
        now to the next regular boundary. Answers ``rolled_over`` and the finalized period's
        ``period_id`` (read it with ``leaderboard(key, period=...)``); an all-time board or a period
        with no entries answers ``rolled_over=False`` and changes nothing. Raises
        :class:`~livecore_client.errors.LeaderboardNotFoundError` for an unknown board and
        :class:`~livecore_client.errors.PermissionDeniedError` for a live key.

        Not retried after a timeout or 5xx (it takes no idempotency key): a resend could end the next
        period too.
        """
        return Call(api.SERVER_ROLLOVER_NOW, api.RolloverResponse, path={"leaderboardKey": leaderboard_key})
