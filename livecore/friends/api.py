"""Friends and presence: friend codes, search, requests, the friend list, suggestions, blocks and the
presence heartbeat."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any, ClassVar, TypeVar, cast

import attrs

from livecore.api.convert import OMIT_IF_NONE
from livecore.api.parts import WIRE_PARTS
from livecore.api.route import Route, Surface
from livecore.api.views import Counterparty, Direction, IdentityView
from livecore.errors import METHOD_NOT_ALLOWED
from livecore.friends.errors import (
    ALREADY_FRIENDS,
    CANNOT_FRIEND_SELF,
    FRIEND_CODE_INVALID,
    FRIEND_LIMIT_REACHED,
    FRIEND_REQUEST_NOT_FOUND,
    NOT_BLOCKED,
    NOT_FRIENDS_YET,
    PLAYER_BLOCKED,
)
from livecore.friends.rules import CODE, PROGRESSION_KEYS, SEARCH_TEXT
from livecore.idempotency import KEY
from livecore.limits import ID, limited
from livecore.parts import PartKey, by_key
from livecore.players.errors import PLAYER_NOT_FOUND
from livecore.players.presence import STATUS
from livecore.players.routes import PLAYER_PATH, PLAYER_WRITE_ERRORS, player_route

T = TypeVar("T")

_PROGRESSION = limited(ID, count=PROGRESSION_KEYS)


@attrs.frozen
class ProgressionQuery:
    """``progression``: up to 8 economy keys, comma-separated or repeated
    (docs/reference/friends-and-presence.md)."""

    progression: list[str] | None = attrs.field(default=None, metadata=_PROGRESSION)


@attrs.frozen
class SuggestionsQuery:
    limit: int = 5
    progression: list[str] | None = attrs.field(default=None, metadata=_PROGRESSION)


@attrs.frozen
class SearchQuery:
    q: str = attrs.field(metadata=limited(SEARCH_TEXT))
    limit: int = 20
    progression: list[str] | None = attrs.field(default=None, metadata=_PROGRESSION)


@attrs.frozen
class FriendRow:
    """A friend row (docs/reference/friends-and-presence.md)."""

    external_player_id: str
    display_identity: IdentityView
    friends_since: datetime
    online: bool
    last_active_at: datetime | None
    status: str | None
    #: The fields the areas building on friends add to the row (the gifts' cooldown), flat on the wire
    #: where this field stands (:mod:`livecore.api.parts`); read with :meth:`of`.
    parts: dict[PartKey[Any], Any] = attrs.field(
        factory=dict, converter=by_key, hash=False, metadata=WIRE_PARTS
    )
    progression: dict[str, int] | None = attrs.field(default=None, metadata=OMIT_IF_NONE)

    def of(self, key: PartKey[T]) -> T:
        """The part ``key`` names, or its default when the row has none."""
        return cast(T, self.parts.get(key, key.default))


@attrs.frozen
class SuggestionRow:
    """A suggestion row (docs/reference/friends-and-presence.md): the friend row without ``friendsSince`` and
    the fields other areas add to it."""

    external_player_id: str
    display_identity: IdentityView
    online: bool
    last_active_at: datetime | None
    status: str | None
    progression: dict[str, int] | None = attrs.field(default=None, metadata=OMIT_IF_NONE)


class RelationshipView(enum.StrEnum):
    NONE = "none"
    FRIENDS = "friends"
    REQUEST_INCOMING = "request_incoming"
    REQUEST_OUTGOING = "request_outgoing"


@attrs.frozen
class SearchHit:
    """A search hit (docs/reference/friends-and-presence.md)."""

    display_identity: IdentityView
    external_player_id: str
    relationship: RelationshipView
    progression: dict[str, int] | None = attrs.field(default=None, metadata=OMIT_IF_NONE)


@attrs.frozen
class RequestRow:
    """A friend request row (docs/reference/friends-and-presence.md)."""

    request_id: str
    direction: Direction
    player: Counterparty
    created_at: datetime
    progression: dict[str, int] | None = attrs.field(default=None, metadata=OMIT_IF_NONE)


@attrs.frozen
class BlockRow:
    """A block row (docs/reference/friends-and-presence.md)."""

    external_player_id: str
    display_identity: IdentityView
    blocked_at: datetime


@attrs.frozen
class FriendTarget:
    """Exactly one of ``friendCode`` and ``externalPlayerId`` (docs/reference/friends-and-presence.md)."""

    EXACTLY_ONE_OF: ClassVar[tuple[str, ...]] = ("friend_code", "external_player_id")

    friend_code: str | None = attrs.field(default=None, metadata=limited(CODE))
    external_player_id: str | None = attrs.field(default=None, metadata=limited(ID))
    idempotency_key: str | None = attrs.field(default=None, metadata=limited(KEY))


@attrs.frozen
class SendRequestResponse:
    status: str  # "pending" or "accepted"
    request: RequestRow | None = attrs.field(default=None, metadata=OMIT_IF_NONE)
    friend: FriendRow | None = attrs.field(default=None, metadata=OMIT_IF_NONE)


@attrs.frozen
class FriendResponse:
    friend: FriendRow


@attrs.frozen
class RequestDone:
    request_id: str
    status: str  # "declined" or "cancelled"


@attrs.frozen
class FriendsResponse:
    friends: list[FriendRow]


@attrs.frozen
class SuggestionsResponse:
    suggestions: list[SuggestionRow]


@attrs.frozen
class RequestsResponse:
    incoming: list[RequestRow]
    outgoing: list[RequestRow]


@attrs.frozen
class RemovedResponse:
    removed: bool


@attrs.frozen
class BlockResponse:
    block: BlockRow


@attrs.frozen
class BlocksResponse:
    blocks: list[BlockRow]


@attrs.frozen
class UnblockedResponse:
    unblocked: bool


@attrs.frozen
class FriendCodeResponse:
    friend_code: str
    display_identity: IdentityView
    progression: dict[str, int] | None = attrs.field(default=None, metadata=OMIT_IF_NONE)


@attrs.frozen
class HeartbeatRequest:
    status: str | None = attrs.field(default=None, metadata=limited(STATUS))


@attrs.frozen
class PresenceResponse:
    online: bool
    last_active_at: datetime | None
    status: str | None


_TARGET_ERRORS = (
    *PLAYER_WRITE_ERRORS,
    CANNOT_FRIEND_SELF,
    FRIEND_CODE_INVALID,
    PLAYER_BLOCKED,
)


FRIEND_CODE = player_route(
    "friends.code",
    "GET",
    "/friends/code",
    "The player's own friend code (made on first use).",
    FriendCodeResponse,
    query=ProgressionQuery,
)


FRIENDS_SEARCH = player_route(
    "friends.search",
    "GET",
    "/friends/search",
    "Search players by display name (blocked players omitted).",
    list[SearchHit],
    query=SearchQuery,
)


FRIEND_SEND_REQUEST = player_route(
    "friends.requests.send",
    "POST",
    "/friends/requests",
    "Send a friend request by friend code or external id; accepted at once when they asked you first.",
    SendRequestResponse,
    status=201,
    request=FriendTarget,
    body_idempotency_field=True,
    errors=(*_TARGET_ERRORS, ALREADY_FRIENDS, FRIEND_LIMIT_REACHED),
)


FRIEND_REQUESTS = player_route(
    "friends.requests.list",
    "GET",
    "/friends/requests",
    "Pending requests, incoming and outgoing.",
    RequestsResponse,
    query=ProgressionQuery,
)


FRIEND_ACCEPT = player_route(
    "friends.requests.accept",
    "POST",
    "/friends/requests/{requestId}/accept",
    "Accept a request you received.",
    FriendResponse,
    errors=(*PLAYER_WRITE_ERRORS, FRIEND_REQUEST_NOT_FOUND, FRIEND_LIMIT_REACHED),
)


FRIEND_DECLINE = player_route(
    "friends.requests.decline",
    "POST",
    "/friends/requests/{requestId}/decline",
    "Decline a request you received.",
    RequestDone,
    errors=(*PLAYER_WRITE_ERRORS, FRIEND_REQUEST_NOT_FOUND),
)


FRIEND_CANCEL = player_route(
    "friends.requests.cancel",
    "POST",
    "/friends/requests/{requestId}/cancel",
    "Cancel a request you sent.",
    RequestDone,
    errors=(*PLAYER_WRITE_ERRORS, FRIEND_REQUEST_NOT_FOUND),
)


FRIENDS_LIST = player_route(
    "friends.list",
    "GET",
    "/friends",
    "Your friends with presence.",
    FriendsResponse,
    query=ProgressionQuery,
)


FRIEND_REMOVE = player_route(
    "friends.remove",
    "DELETE",
    "/friends/{friendExternalId}",
    "Remove a friend.",
    RemovedResponse,
    # A friend id that is one of the literal segments beside it (`code`, `blocks`, ...) names that path,
    # which takes no DELETE: 405.
    errors=(*PLAYER_WRITE_ERRORS, NOT_FRIENDS_YET, METHOD_NOT_ALLOWED),
)


FRIENDS_SUGGESTIONS = player_route(
    "friends.suggestions",
    "GET",
    "/friends/suggestions",
    "Recently active players you have no tie with, re-drawn on every call.",
    SuggestionsResponse,
    query=SuggestionsQuery,
)


FRIEND_BLOCK = player_route(
    "friends.blocks.add",
    "POST",
    "/friends/blocks",
    "Block a player: ends a friendship and pending requests either way.",
    BlockResponse,
    status=201,
    request=FriendTarget,
    body_idempotency_field=True,
    errors=_TARGET_ERRORS,
)


FRIEND_BLOCKS = player_route(
    "friends.blocks.list", "GET", "/friends/blocks", "Players you blocked.", BlocksResponse
)


FRIEND_UNBLOCK = player_route(
    "friends.blocks.remove",
    "DELETE",
    "/friends/blocks/{externalPlayerId}",
    "Unblock a player.",
    UnblockedResponse,
    errors=(*PLAYER_WRITE_ERRORS, NOT_BLOCKED),
)


PRESENCE_HEARTBEAT = player_route(
    "presence.heartbeat",
    "POST",
    "/presence",
    "Heartbeat (about every 30 s) with an optional status label.",
    PresenceResponse,
    request=HeartbeatRequest,
    request_optional=True,
)


def _server_read(name: str, path: str, summary: str, response: Any) -> Route:
    return Route(
        name=name,
        surface=Surface.SERVER,
        method="GET",
        path=f"{PLAYER_PATH}{path}",
        summary=summary,
        response=response,
        errors=(PLAYER_NOT_FOUND,),
    )


SERVER_FRIENDS = _server_read(
    "server.friends.list", "/friends", "A player's friends with presence.", FriendsResponse
)


SERVER_FRIEND_REQUESTS = _server_read(
    "server.friends.requests", "/friends/requests", "A player's pending requests.", RequestsResponse
)


SERVER_BLOCKS = _server_read(
    "server.friends.blocks", "/blocks", "The players a player blocked.", BlocksResponse
)


ROUTES = (
    FRIEND_CODE,
    FRIENDS_SEARCH,
    FRIEND_SEND_REQUEST,
    FRIEND_REQUESTS,
    FRIEND_ACCEPT,
    FRIEND_DECLINE,
    FRIEND_CANCEL,
    FRIENDS_LIST,
    FRIEND_REMOVE,
    FRIENDS_SUGGESTIONS,
    FRIEND_BLOCK,
    FRIEND_BLOCKS,
    FRIEND_UNBLOCK,
    PRESENCE_HEARTBEAT,
    SERVER_FRIENDS,
    SERVER_FRIEND_REQUESTS,
    SERVER_BLOCKS,
)
