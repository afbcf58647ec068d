"""The friends and presence routes' calls, as the typed clients send them (``sdk.friends``,
``sdk.presence``, ``server.friends``) and a simulation runs them (``ada.friends``, ``ada.presence``): one
builder per route (:mod:`livecore.api.call`)."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from livecore.api.call import Call, SdkCalls, ServerCalls
from livecore.friends import api


def friend_target(friend_code: str | None, external_player_id: str | None) -> api.FriendTarget:
    """docs/reference/friends-and-presence.md: exactly one of the two; checked here so a wrong call never
    reaches the network."""
    if (friend_code is None) == (external_player_id is None):
        raise ValueError("pass exactly one of friend_code and external_player_id")
    return api.FriendTarget(friend_code=friend_code, external_player_id=external_player_id)


# Calls compare response types by identity, so the list calls name the routes' own list[...] types.
_SEARCH_HITS: type[list[api.SearchHit]] = api.FRIENDS_SEARCH.response


def _keys(progression: Sequence[str] | None) -> list[str] | None:
    """The ``progression`` economy keys as sent (a single string is one key); ``None`` or empty: none."""
    if progression is None:
        return None
    keys = [progression] if isinstance(progression, str) else list(progression)
    return keys or None


def _progression_query(progression: Sequence[str] | None) -> api.ProgressionQuery | None:
    keys = _keys(progression)
    return None if keys is None else api.ProgressionQuery(progression=keys)


class FriendsCalls(SdkCalls):
    """The ``/sdk/v1`` friends calls."""

    def _code(
        self,
        external_id: str,
        *,
        progression: Sequence[str] | None = None,
        player_secret: str | None = None,
    ) -> Call[api.FriendCodeResponse]:
        """The player's own friend code (6 characters, made on first use, kept for life) and display
        identity; ``progression`` adds the player's own balances of those economy keys."""
        return Call(
            api.FRIEND_CODE,
            api.FriendCodeResponse,
            path={"externalId": external_id},
            query=_progression_query(progression),
            player_secret=self._secret(player_secret),
        )

    def _search(
        self,
        external_id: str,
        q: str,
        *,
        limit: int | None = None,
        progression: Sequence[str] | None = None,
        player_secret: str | None = None,
    ) -> Call[list[api.SearchHit]]:
        """Players of this game and environment whose display name matches ``q`` (1 to 32 characters),
        each with its ``relationship`` to the caller; blocked players are left out. ``limit`` defaults
        to 20 and is clamped to 1..50 by the service."""
        query = api.SearchQuery(q=q, progression=_keys(progression))
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(
            api.FRIENDS_SEARCH,
            _SEARCH_HITS,
            path={"externalId": external_id},
            query=query,
            player_secret=self._secret(player_secret),
        )

    def _send_request(
        self,
        external_id: str,
        *,
        friend_code: str | None = None,
        external_player_id: str | None = None,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[api.SendRequestResponse]:
        """Ask a player to be friends, by ``friend_code`` or by ``external_player_id`` (exactly one).

        Answers ``status="pending"`` with the new ``request``, or, when that player had already asked the
        caller, ``status="accepted"`` with the new ``friend`` row. Raises
        :class:`~livecore_client.errors.CannotFriendSelfError`,
        :class:`~livecore_client.errors.AlreadyFriendsError`,
        :class:`~livecore_client.errors.FriendCodeInvalidError`,
        :class:`~livecore_client.errors.PlayerBlockedError` or
        :class:`~livecore_client.errors.FriendLimitReachedError`; ``ValueError`` (before any request)
        when both or neither target is given.
        """
        return Call(
            api.FRIEND_SEND_REQUEST,
            api.SendRequestResponse,
            path={"externalId": external_id},
            body=friend_target(friend_code, external_player_id),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _requests(
        self,
        external_id: str,
        *,
        progression: Sequence[str] | None = None,
        player_secret: str | None = None,
    ) -> Call[api.RequestsResponse]:
        """The player's pending friend requests: ``incoming`` (to accept or decline) and ``outgoing``
        (to cancel)."""
        return Call(
            api.FRIEND_REQUESTS,
            api.RequestsResponse,
            path={"externalId": external_id},
            query=_progression_query(progression),
            player_secret=self._secret(player_secret),
        )

    def _accept_request(
        self,
        external_id: str,
        request_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[api.FriendResponse]:
        """Accept an incoming request; answers the new ``friend`` row. Raises
        :class:`~livecore_client.errors.FriendRequestNotFoundError` for a request that is not
        incoming to this player and :class:`~livecore_client.errors.FriendLimitReachedError`."""
        return Call(
            api.FRIEND_ACCEPT,
            api.FriendResponse,
            path={"externalId": external_id, "requestId": request_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _decline_request(
        self,
        external_id: str,
        request_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[api.RequestDone]:
        """Decline an incoming request (``status="declined"``); raises
        :class:`~livecore_client.errors.FriendRequestNotFoundError` when it is not incoming to this
        player."""
        return Call(
            api.FRIEND_DECLINE,
            api.RequestDone,
            path={"externalId": external_id, "requestId": request_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _cancel_request(
        self,
        external_id: str,
        request_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[api.RequestDone]:
        """Cancel a request this player sent (``status="cancelled"``); raises
        :class:`~livecore_client.errors.FriendRequestNotFoundError` when it is not outgoing from this
        player."""
        return Call(
            api.FRIEND_CANCEL,
            api.RequestDone,
            path={"externalId": external_id, "requestId": request_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _list(
        self,
        external_id: str,
        *,
        progression: Sequence[str] | None = None,
        player_secret: str | None = None,
    ) -> Call[api.FriendsResponse]:
        """The player's friends with presence (``online``, ``last_active_at``, ``status``), gift
        cooldowns, and each friend's balances of the ``progression`` economy keys when given."""
        return Call(
            api.FRIENDS_LIST,
            api.FriendsResponse,
            path={"externalId": external_id},
            query=_progression_query(progression),
            player_secret=self._secret(player_secret),
        )

    def _remove(
        self,
        external_id: str,
        friend_external_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[api.RemovedResponse]:
        """End a friendship (for both players); raises :class:`~livecore_client.errors.NotFriendsError`
        when the two are not friends."""
        return Call(
            api.FRIEND_REMOVE,
            api.RemovedResponse,
            path={"externalId": external_id, "friendExternalId": friend_external_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _suggestions(
        self,
        external_id: str,
        *,
        limit: int | None = None,
        progression: Sequence[str] | None = None,
        player_secret: str | None = None,
    ) -> Call[api.SuggestionsResponse]:
        """A fresh random sample of recently active players the caller has no tie with (no friendship,
        request or block either way). ``limit`` defaults to 5 and is clamped to 1..25 by the service."""
        query = api.SuggestionsQuery(progression=_keys(progression))
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(
            api.FRIENDS_SUGGESTIONS,
            api.SuggestionsResponse,
            path={"externalId": external_id},
            query=query,
            player_secret=self._secret(player_secret),
        )

    def _block(
        self,
        external_id: str,
        *,
        friend_code: str | None = None,
        external_player_id: str | None = None,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[api.BlockResponse]:
        """Block a player, by ``friend_code`` or by ``external_player_id`` (exactly one): ends a
        friendship and pending requests either way, and hides each from the other's search and
        suggestions. Blocking again answers the existing block."""
        return Call(
            api.FRIEND_BLOCK,
            api.BlockResponse,
            path={"externalId": external_id},
            body=friend_target(friend_code, external_player_id),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _blocks(self, external_id: str, *, player_secret: str | None = None) -> Call[api.BlocksResponse]:
        """The players this player blocked."""
        return Call(
            api.FRIEND_BLOCKS,
            api.BlocksResponse,
            path={"externalId": external_id},
            player_secret=self._secret(player_secret),
        )

    def _unblock(
        self,
        external_id: str,
        blocked_external_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[api.UnblockedResponse]:
        """Lift this player's block of ``blocked_external_id``; raises
        :class:`~livecore_client.errors.NotBlockedError` when there is none."""
        return Call(
            api.FRIEND_UNBLOCK,
            api.UnblockedResponse,
            path={"externalId": external_id, "externalPlayerId": blocked_external_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )


class PresenceCalls(SdkCalls):
    """The ``/sdk/v1`` presence call."""

    def _heartbeat(
        self,
        external_id: str,
        status: str | None = None,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[api.PresenceResponse]:
        """Mark the player online (send about every 30 s; presence lapses 90 s after the last one) with
        an optional ``status`` label of up to 64 characters. ``None`` clears the label; the player
        stays online."""
        return Call(
            api.PRESENCE_HEARTBEAT,
            api.PresenceResponse,
            path={"externalId": external_id},
            body=api.HeartbeatRequest(status=status),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )


class ServerFriendsCalls(ServerCalls):
    """The ``/server/v1`` friends calls (read-only)."""

    def _list(self, external_id: str) -> Call[api.FriendsResponse]:
        """A player's friends with presence (``online``, ``last_active_at``, ``status``)."""
        return Call(api.SERVER_FRIENDS, api.FriendsResponse, path={"externalId": external_id})

    def _requests(self, external_id: str) -> Call[api.RequestsResponse]:
        """A player's pending friend requests, ``incoming`` and ``outgoing``."""
        return Call(api.SERVER_FRIEND_REQUESTS, api.RequestsResponse, path={"externalId": external_id})

    def _blocks(self, external_id: str) -> Call[api.BlocksResponse]:
        """The players a player blocked."""
        return Call(api.SERVER_BLOCKS, api.BlocksResponse, path={"externalId": external_id})
