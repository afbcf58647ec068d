"""Friends, friend requests, blocks and presence: ``sdk.friends``, ``sdk.presence``, and the
read-only ``server.friends``."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from livecore.api.call import Call
from livecore.friends.api import (
    FRIEND_ACCEPT,
    FRIEND_BLOCK,
    FRIEND_BLOCKS,
    FRIEND_CANCEL,
    FRIEND_CODE,
    FRIEND_DECLINE,
    FRIEND_REMOVE,
    FRIEND_REQUESTS,
    FRIEND_SEND_REQUEST,
    FRIEND_UNBLOCK,
    FRIENDS_LIST,
    FRIENDS_SEARCH,
    FRIENDS_SUGGESTIONS,
    PRESENCE_HEARTBEAT,
    SERVER_BLOCKS,
    SERVER_FRIEND_REQUESTS,
    SERVER_FRIENDS,
)

from .. import models as m
from .._client import AsyncClient, AsyncResource, SyncClient, SyncResource, async_method, sync_method
from .._surfaces import AsyncSdkSurface, SdkSurface
from ._base import SdkCalls, ServerCalls, friend_target

__all__ = ["AsyncFriends", "AsyncPresence", "AsyncServerFriends", "Friends", "Presence", "ServerFriends"]


# Calls compare response types by identity, so the list calls name the routes' own list[...] types.
_SEARCH_HITS: type[list[m.SearchHit]] = FRIENDS_SEARCH.response


def _keys(progression: Sequence[str] | None) -> list[str] | None:
    """The ``progression`` economy keys as sent (a single string is one key); ``None`` or empty: none."""
    if progression is None:
        return None
    keys = [progression] if isinstance(progression, str) else list(progression)
    return keys or None


def _progression_query(progression: Sequence[str] | None) -> m.ProgressionQuery | None:
    keys = _keys(progression)
    return None if keys is None else m.ProgressionQuery(progression=keys)


class _FriendsCalls(SdkCalls):
    """The ``/sdk/v1`` friends calls."""

    def _code(
        self,
        external_id: str,
        *,
        progression: Sequence[str] | None = None,
        player_secret: str | None = None,
    ) -> Call[m.FriendCodeResponse]:
        """The player's own friend code (6 characters, made on first use, kept for life) and display
        identity; ``progression`` adds the player's own balances of those economy keys."""
        return Call(
            FRIEND_CODE,
            m.FriendCodeResponse,
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
    ) -> Call[list[m.SearchHit]]:
        """Players of this game and environment whose display name matches ``q`` (1 to 32 characters),
        each with its ``relationship`` to the caller; blocked players are left out. ``limit`` defaults
        to 20 and is clamped to 1..50 by the service."""
        query = m.SearchQuery(q=q, progression=_keys(progression))
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(
            FRIENDS_SEARCH,
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
    ) -> Call[m.SendRequestResponse]:
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
            FRIEND_SEND_REQUEST,
            m.SendRequestResponse,
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
    ) -> Call[m.RequestsResponse]:
        """The player's pending friend requests: ``incoming`` (to accept or decline) and ``outgoing``
        (to cancel)."""
        return Call(
            FRIEND_REQUESTS,
            m.RequestsResponse,
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
    ) -> Call[m.FriendResponse]:
        """Accept an incoming request; answers the new ``friend`` row. Raises
        :class:`~livecore_client.errors.FriendRequestNotFoundError` for a request that is not
        incoming to this player and :class:`~livecore_client.errors.FriendLimitReachedError`."""
        return Call(
            FRIEND_ACCEPT,
            m.FriendResponse,
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
    ) -> Call[m.RequestDone]:
        """Decline an incoming request (``status="declined"``); raises
        :class:`~livecore_client.errors.FriendRequestNotFoundError` when it is not incoming to this
        player."""
        return Call(
            FRIEND_DECLINE,
            m.RequestDone,
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
    ) -> Call[m.RequestDone]:
        """Cancel a request this player sent (``status="cancelled"``); raises
        :class:`~livecore_client.errors.FriendRequestNotFoundError` when it is not outgoing from this
        player."""
        return Call(
            FRIEND_CANCEL,
            m.RequestDone,
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
    ) -> Call[m.FriendsResponse]:
        """The player's friends with presence (``online``, ``last_active_at``, ``status``), gift
        cooldowns, and each friend's balances of the ``progression`` economy keys when given."""
        return Call(
            FRIENDS_LIST,
            m.FriendsResponse,
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
    ) -> Call[m.RemovedResponse]:
        """End a friendship (for both players); raises :class:`~livecore_client.errors.NotFriendsError`
        when the two are not friends."""
        return Call(
            FRIEND_REMOVE,
            m.RemovedResponse,
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
    ) -> Call[m.SuggestionsResponse]:
        """A fresh random sample of recently active players the caller has no tie with (no friendship,
        request or block either way). ``limit`` defaults to 5 and is clamped to 1..25 by the service."""
        query = m.SuggestionsQuery(progression=_keys(progression))
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(
            FRIENDS_SUGGESTIONS,
            m.SuggestionsResponse,
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
    ) -> Call[m.BlockResponse]:
        """Block a player, by ``friend_code`` or by ``external_player_id`` (exactly one): ends a
        friendship and pending requests either way, and hides each from the other's search and
        suggestions. Blocking again answers the existing block."""
        return Call(
            FRIEND_BLOCK,
            m.BlockResponse,
            path={"externalId": external_id},
            body=friend_target(friend_code, external_player_id),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _blocks(self, external_id: str, *, player_secret: str | None = None) -> Call[m.BlocksResponse]:
        """The players this player blocked."""
        return Call(
            FRIEND_BLOCKS,
            m.BlocksResponse,
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
    ) -> Call[m.UnblockedResponse]:
        """Lift this player's block of ``blocked_external_id``; raises
        :class:`~livecore_client.errors.NotBlockedError` when there is none."""
        return Call(
            FRIEND_UNBLOCK,
            m.UnblockedResponse,
            path={"externalId": external_id, "externalPlayerId": blocked_external_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )


class Friends(SyncResource[SdkSurface], _FriendsCalls):
    """``sdk.friends``: the ``/sdk/v1`` friends calls."""

    code = sync_method(_FriendsCalls._code)
    search = sync_method(_FriendsCalls._search)
    send_request = sync_method(_FriendsCalls._send_request)
    requests = sync_method(_FriendsCalls._requests)
    accept_request = sync_method(_FriendsCalls._accept_request)
    decline_request = sync_method(_FriendsCalls._decline_request)
    cancel_request = sync_method(_FriendsCalls._cancel_request)
    list = sync_method(_FriendsCalls._list)
    remove = sync_method(_FriendsCalls._remove)
    suggestions = sync_method(_FriendsCalls._suggestions)
    block = sync_method(_FriendsCalls._block)
    blocks = sync_method(_FriendsCalls._blocks)
    unblock = sync_method(_FriendsCalls._unblock)


class AsyncFriends(AsyncResource[AsyncSdkSurface], _FriendsCalls):
    """The methods of :class:`Friends`, awaited."""

    code = async_method(_FriendsCalls._code)
    search = async_method(_FriendsCalls._search)
    send_request = async_method(_FriendsCalls._send_request)
    requests = async_method(_FriendsCalls._requests)
    accept_request = async_method(_FriendsCalls._accept_request)
    decline_request = async_method(_FriendsCalls._decline_request)
    cancel_request = async_method(_FriendsCalls._cancel_request)
    list = async_method(_FriendsCalls._list)
    remove = async_method(_FriendsCalls._remove)
    suggestions = async_method(_FriendsCalls._suggestions)
    block = async_method(_FriendsCalls._block)
    blocks = async_method(_FriendsCalls._blocks)
    unblock = async_method(_FriendsCalls._unblock)


class _PresenceCalls(SdkCalls):
    """The ``/sdk/v1`` presence call."""

    def _heartbeat(
        self,
        external_id: str,
        status: str | None = None,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.PresenceResponse]:
        """Mark the player online (send about every 30 s; presence lapses 90 s after the last one) with
        an optional ``status`` label of up to 64 characters. ``None`` clears the label; the player
        stays online."""
        return Call(
            PRESENCE_HEARTBEAT,
            m.PresenceResponse,
            path={"externalId": external_id},
            body=m.HeartbeatRequest(status=status),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )


class Presence(SyncResource[SdkSurface], _PresenceCalls):
    """``sdk.presence``: the ``/sdk/v1`` presence call."""

    heartbeat = sync_method(_PresenceCalls._heartbeat)


class AsyncPresence(AsyncResource[AsyncSdkSurface], _PresenceCalls):
    """The methods of :class:`Presence`, awaited."""

    heartbeat = async_method(_PresenceCalls._heartbeat)


class _ServerFriendsCalls(ServerCalls):
    """The ``/server/v1`` friends calls (read-only)."""

    def _list(self, external_id: str) -> Call[m.FriendsResponse]:
        """A player's friends with presence (``online``, ``last_active_at``, ``status``)."""
        return Call(SERVER_FRIENDS, m.FriendsResponse, path={"externalId": external_id})

    def _requests(self, external_id: str) -> Call[m.RequestsResponse]:
        """A player's pending friend requests, ``incoming`` and ``outgoing``."""
        return Call(SERVER_FRIEND_REQUESTS, m.RequestsResponse, path={"externalId": external_id})

    def _blocks(self, external_id: str) -> Call[m.BlocksResponse]:
        """The players a player blocked."""
        return Call(SERVER_BLOCKS, m.BlocksResponse, path={"externalId": external_id})


class ServerFriends(SyncResource[SyncClient], _ServerFriendsCalls):
    """``server.friends``: the ``/server/v1`` friends calls."""

    list = sync_method(_ServerFriendsCalls._list)
    requests = sync_method(_ServerFriendsCalls._requests)
    blocks = sync_method(_ServerFriendsCalls._blocks)


class AsyncServerFriends(AsyncResource[AsyncClient], _ServerFriendsCalls):
    """The methods of :class:`ServerFriends`, awaited."""

    list = async_method(_ServerFriendsCalls._list)
    requests = async_method(_ServerFriendsCalls._requests)
    blocks = async_method(_ServerFriendsCalls._blocks)
