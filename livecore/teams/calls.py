"""The team routes' calls, as the typed clients send them (``sdk.teams``, ``server.teams``) and a
simulation runs them (``ada.teams``, ``sim.server.teams``): one builder per route
(:mod:`livecore.api.call`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from livecore.api.call import Call, SdkCalls, ServerCalls, new_idempotency_key
from livecore.teams import api


class TeamsCalls(SdkCalls):
    """The ``/sdk/v1`` team calls."""

    def _mine(
        self, external_id: str, event_key: str, *, player_secret: str | None = None
    ) -> Call[api.MyTeamResponse]:
        """The player's team in the event's window open now (``team`` ``None`` when it sits on none, or
        no window is open): its ``score``, ``goal``, ``completed``, and its seated ``members`` in rank
        order, each with its ``contribution`` (its best attempt score in the window) and ``rank`` (ties
        rank the earlier seated first, then by external id). Raises
        :class:`~livecore_client.errors.EventNotFoundError` for an unknown event and
        :class:`~livecore_client.errors.InvalidRequestError` for an event without teams.
        """
        return Call(
            api.SDK_MY_TEAM,
            api.MyTeamResponse,
            path={"externalId": external_id, "eventKey": event_key},
            player_secret=self._secret(player_secret),
        )

    def _invite_partner(
        self,
        external_id: str,
        event_key: str,
        external_player_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[api.InviteResponse]:
        """Invite a friend to pair up in the event's open window (an event whose teams form by
        ``partner``): the invite (201) expires 24 hours after it is sent; the friend accepts it with
        :meth:`accept_invite`.

        Refusals, in this order (nothing is written):
        :class:`~livecore_client.errors.EventNotFoundError`,
        :class:`~livecore_client.errors.InvalidRequestError` (an event without partner teams),
        :class:`~livecore_client.errors.EventNotOpenError`,
        :class:`~livecore_client.errors.PlayerNotFoundError` (an unknown friend),
        :class:`~livecore_client.errors.InvalidRequestError` (yourself),
        :class:`~livecore_client.errors.GiftNotFriendsError` (403 ``not_friends``),
        :class:`~livecore_client.errors.AlreadyOnTeamError` (either of you on a team of the window) and
        :class:`~livecore_client.errors.InvitePendingError` (an invite between you, either way).
        """
        return Call(
            api.SDK_INVITE,
            api.InviteResponse,
            path={"externalId": external_id, "eventKey": event_key},
            body=api.InviteRequest(external_player_id=external_player_id),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _accept_invite(
        self,
        external_id: str,
        event_key: str,
        invite_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[api.TeamResponse]:
        """Accept a partner invite made to this player: the two form a team of the window (its ``key``
        is the invite's id), answered with its two members.

        Refusals, in this order: :class:`~livecore_client.errors.InviteNotFoundError` (unknown, or made
        to another player), :class:`~livecore_client.errors.AlreadyOnTeamError` (accepted already),
        :class:`~livecore_client.errors.InviteExpiredError` and
        :class:`~livecore_client.errors.AlreadyOnTeamError` (either player on a team of the window).
        """
        return Call(
            api.SDK_ACCEPT,
            api.TeamResponse,
            path={"externalId": external_id, "eventKey": event_key, "inviteId": invite_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )


class ServerTeamsCalls(ServerCalls):
    """The ``/server/v1`` team calls."""

    def _put_roster(
        self,
        event_key: str,
        team_key: str,
        external_player_ids: Sequence[str],
        *,
        name: str | None = None,
        attributes: Mapping[str, Any] | None = None,
        window_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[api.TeamResponse]:
        """Make ``external_player_ids`` the whole roster of team ``team_key`` (an event whose teams form
        ``external``) in one window: ``window_id``, else the window open now, else the next scheduled
        one; the answer's ``window_id`` names it. The team forms on its first PUT; players missing from
        the roster leave it (reason ``kicked``); ``name`` and ``attributes`` are kept when not given.
        All or nothing.

        Refusals, in this order, each changing nothing:
        :class:`~livecore_client.errors.EventNotFoundError`,
        :class:`~livecore_client.errors.InvalidRequestError` (an event without external teams, a window
        id of another event, a player named twice, more players than the team's size),
        :class:`~livecore_client.errors.EventNotOpenError` (the window has ended),
        :class:`~livecore_client.errors.PlayerNotFoundError` (a player never registered) and
        :class:`~livecore_client.errors.LockedElsewhereError` (players on another team of the window:
        its ``external_player_ids``).

        A repeated PUT with the same ``idempotency_key`` and body answers the first one's team. Without
        one, a random key is made once per call and reused by its retries.
        """
        # The body field is required by the model, so the key is made here, once, before any retry.
        key = new_idempotency_key() if idempotency_key is None else idempotency_key
        return Call(
            api.SERVER_PUT_ROSTER,
            api.TeamResponse,
            path={"eventKey": event_key, "teamKey": team_key},
            body=api.RosterRequest(
                external_player_ids=list(external_player_ids),
                name=name,
                attributes=None if attributes is None else dict(attributes),
                window_id=window_id,
                idempotency_key=key,
            ),
            idempotency_key=key,
        )

    def _get(self, event_key: str, team_key: str, *, window_id: str | None = None) -> Call[api.TeamResponse]:
        """Team ``team_key`` of window ``window_id`` (default: the window open now), its seated
        ``members`` in rank order (by contribution; ties: the earlier seated first, then by external
        id) and, once its window closed on a team board, its ``final_rank``. Raises
        :class:`~livecore_client.errors.TeamNotFoundError` when the window has no such team and
        :class:`~livecore_client.errors.EventNotFoundError` for an unknown event.
        """
        return Call(
            api.SERVER_TEAM,
            api.TeamResponse,
            path={"eventKey": event_key, "teamKey": team_key},
            query=api.TeamQuery(window_id=window_id),
        )
