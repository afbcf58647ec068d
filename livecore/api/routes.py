"""Route declarations: every route of the service, once.

A :class:`Route` says everything both ends need: method and path, the auth it takes, its rate-limit
bucket, how idempotency applies, the request and response models and the success status. The server
binds a handler to each route by name; the clients call routes by these declarations; the OpenAPI
documents are generated from them.
"""

from __future__ import annotations

import enum
from datetime import date
from typing import Any

import attrs

from livecore.api import models as m
from livecore.errors import ErrorCode
from livecore.ratelimit import BucketName
from livecore.scope import Permission


class Surface(enum.StrEnum):
    SDK = "/sdk/v1"
    SERVER = "/server/v1"
    ADMIN = "/admin/v1"


class Auth(enum.Enum):
    PUBLIC = "public"
    KEY = "key"  # API key of the surface's permission
    PLAYER = "player"  # client key plus the player's secret for ``{externalId}``


class Idempotency(enum.Enum):
    NONE = "none"  # reads
    OPTIONAL = "optional"  # SDK writes: applied when the client sends a key (our SDKs always do)
    REQUIRED = "required"  # server writes (DECISIONS 7): a missing key is a 400


def bucket_for(surface: Surface, method: str) -> BucketName:
    """SPEC 8: SDK reads and writes are limited apart; server and admin have one bucket each."""
    if surface is Surface.SDK:
        return BucketName.SDK_READ if method in ("GET", "HEAD") else BucketName.SDK_WRITE
    return BucketName.SERVER_API if surface is Surface.SERVER else BucketName.ADMIN


def permission_for(surface: Surface) -> Permission:
    return Permission.CLIENT_SDK if surface is Surface.SDK else Permission.SERVER_INTEGRATION


@attrs.frozen
class Deprecation:
    """SPEC 9 rule 3: ``Deprecation: true``, then ``Sunset``, successor ``Link`` and a reason."""

    reason: str
    sunset: date | None = None
    successor: str | None = None


@attrs.frozen
class Route:
    name: str
    surface: Surface
    method: str
    path: str
    summary: str
    auth: Auth = Auth.KEY
    status: int = 200
    request: type | None = None
    request_optional: bool = False
    response: Any = None  # an attrs model, or list[model] where DECISIONS pins a bare array
    query: type | None = None  # attrs model of the query parameters
    idempotency: Idempotency = Idempotency.NONE
    # SPEC names an ``idempotencyKey`` body field for this route (else only the header is read).
    body_idempotency_field: bool = False
    test_only: bool = False  # test-environment key only; a live key gets 403
    deprecated: Deprecation | None = None
    errors: tuple[ErrorCode, ...] = ()

    @property
    def full_path(self) -> str:
        return f"{self.surface.value}{self.path}"

    @property
    def permission(self) -> Permission | None:
        return None if self.auth is Auth.PUBLIC else permission_for(self.surface)

    @property
    def bucket(self) -> BucketName:
        return bucket_for(self.surface, self.method)

    @property
    def is_write(self) -> bool:
        return self.method not in ("GET", "HEAD", "OPTIONS")


HEALTH = Route(
    name="health",
    surface=Surface.ADMIN,
    method="GET",
    path="/health",
    summary="Public liveness probe.",
    auth=Auth.PUBLIC,
    response=m.HealthResponse,
)

PING = Route(
    name="ping",
    surface=Surface.SERVER,
    method="GET",
    path="/ping",
    summary="Connectivity and key probe.",
    response=m.ServerPingResponse,
)

CLOCK_ADVANCE = Route(
    name="dev.clock_advance",
    surface=Surface.SERVER,
    method="POST",
    path="/dev/clock/advance",
    summary="Move the manual clock forward and run the work that came due (serve --clock manual only).",
    request=m.ClockAdvanceRequest,
    response=m.ClockAdvanceResponse,
    test_only=True,
    errors=(ErrorCode.NOT_FOUND,),
)

REGISTER = Route(
    name="players.register",
    surface=Surface.SDK,
    method="POST",
    path="/players/{externalId}/register",
    summary="Register a player and mint its secret (force=true rotates it, test keys only).",
    status=201,
    request=m.RegisterRequest,
    request_optional=True,
    response=m.RegisterResponse,
    query=m.RegisterQuery,
    idempotency=Idempotency.OPTIONAL,
    errors=(
        ErrorCode.PLAYER_ALREADY_REGISTERED,
        ErrorCode.PLAYER_BANNED,
        ErrorCode.PLAYER_NOT_FOUND,
        ErrorCode.PERMISSION_DENIED,
    ),
)

SDK_SET_IDENTITY = Route(
    name="players.set_identity",
    surface=Surface.SDK,
    method="PUT",
    path="/players/{externalId}/identity",
    summary="Set the player's own display identity.",
    auth=Auth.PLAYER,
    request=m.SetIdentityRequest,
    response=m.IdentityResponse,
    idempotency=Idempotency.OPTIONAL,
    errors=(ErrorCode.PLAYER_SECRET_INVALID, ErrorCode.PLAYER_BANNED, ErrorCode.PLAYER_NOT_FOUND),
)

SERVER_SET_IDENTITY = Route(
    name="server.players.set_identity",
    surface=Surface.SERVER,
    method="PUT",
    path="/players/{externalId}/identity",
    summary="Set a player's display identity from the studio backend.",
    request=m.SetIdentityRequest,
    response=m.IdentityResponse,
    idempotency=Idempotency.REQUIRED,
    errors=(ErrorCode.PLAYER_NOT_FOUND,),
)

# --- Economy and grants (issue #4) -----------------------------------------------------------------

_PLAYER_WRITE_ERRORS = (ErrorCode.PLAYER_SECRET_INVALID, ErrorCode.PLAYER_BANNED, ErrorCode.PLAYER_NOT_FOUND)
_SPEND_ERRORS = (
    *_PLAYER_WRITE_ERRORS,
    ErrorCode.RESOURCE_NOT_FOUND,
    ErrorCode.SYSTEM_RESOURCE_LOCKED,
    ErrorCode.STUDIO_MANAGED_ECONOMY,
)

SDK_WALLET = Route(
    name="wallet.get",
    surface=Surface.SDK,
    method="GET",
    path="/players/{externalId}/wallet",
    summary="The player's currency balances (every declared currency; 0 when never earned).",
    auth=Auth.PLAYER,
    response=m.WalletResponse,
    errors=(ErrorCode.PLAYER_SECRET_INVALID, ErrorCode.PLAYER_NOT_FOUND),
)

SDK_WALLET_DEBIT = Route(
    name="wallet.debit",
    surface=Surface.SDK,
    method="POST",
    path="/players/{externalId}/wallet/{economyKey}/debit",
    summary="Spend currency (platform-managed games); never below zero.",
    auth=Auth.PLAYER,
    request=m.AdjustWalletRequest,
    response=m.WalletAdjustResponse,
    idempotency=Idempotency.OPTIONAL,
    body_idempotency_field=True,
    errors=(*_SPEND_ERRORS, ErrorCode.INSUFFICIENT_BALANCE),
)

SDK_INVENTORY = Route(
    name="inventory.get",
    surface=Surface.SDK,
    method="GET",
    path="/players/{externalId}/inventory",
    summary="The player's items with their parameters, and the system items sessions and login_streak.",
    auth=Auth.PLAYER,
    response=m.InventoryResponse,
    errors=(ErrorCode.PLAYER_SECRET_INVALID, ErrorCode.PLAYER_NOT_FOUND),
)

SDK_INVENTORY_CONSUME = Route(
    name="inventory.consume",
    surface=Surface.SDK,
    method="POST",
    path="/players/{externalId}/inventory/{itemKey}/consume",
    summary="Use up items (platform-managed games); never below zero.",
    auth=Auth.PLAYER,
    request=m.AdjustItemRequest,
    response=m.ItemAdjustResponse,
    idempotency=Idempotency.OPTIONAL,
    body_idempotency_field=True,
    errors=(*_SPEND_ERRORS, ErrorCode.INSUFFICIENT_QUANTITY),
)

SDK_PENDING_GRANTS = Route(
    name="grants.pending",
    surface=Surface.SDK,
    method="GET",
    path="/players/{externalId}/pending-grants",
    summary="Grants waiting to be claimed, oldest first.",
    auth=Auth.PLAYER,
    response=m.GrantListResponse,
    errors=(ErrorCode.PLAYER_SECRET_INVALID, ErrorCode.PLAYER_NOT_FOUND),
)

SDK_CLAIM_GRANT = Route(
    name="grants.claim",
    surface=Surface.SDK,
    method="POST",
    path="/players/{externalId}/grants/{grantId}/claim",
    summary="Claim a pending grant: its entries are credited now.",
    auth=Auth.PLAYER,
    response=m.GrantResponse,
    idempotency=Idempotency.OPTIONAL,
    errors=(
        *_PLAYER_WRITE_ERRORS,
        ErrorCode.GRANT_NOT_FOUND,
        ErrorCode.GRANT_ALREADY_CLAIMED,
        ErrorCode.GRANT_EXPIRED,
        # A gift's grant is claimed under the gift's rule.
        ErrorCode.GIFT_ALREADY_CLAIMED,
        ErrorCode.GIFT_EXPIRED,
    ),
)

SERVER_CREATE_GRANT = Route(
    name="server.grants.create",
    surface=Surface.SERVER,
    method="POST",
    path="/players/{externalId}/grants",
    summary="Create a pending reward grant (the player is created on first contact).",
    status=201,
    request=m.CreateGrantRequest,
    response=m.GrantResponse,
    idempotency=Idempotency.REQUIRED,
    body_idempotency_field=True,
    errors=(ErrorCode.RESOURCE_NOT_FOUND, ErrorCode.SYSTEM_RESOURCE_LOCKED, ErrorCode.PLAYER_NOT_FOUND),
)

SERVER_ACK_GRANT = Route(
    name="server.grants.ack",
    surface=Surface.SERVER,
    method="POST",
    path="/players/{externalId}/grants/{grantId}/ack",
    summary="Mark a grant claimed by the studio backend (ackedBy=server_api); idempotent.",
    response=m.GrantResponse,
    idempotency=Idempotency.REQUIRED,
    errors=(ErrorCode.PLAYER_NOT_FOUND, ErrorCode.GRANT_NOT_FOUND, ErrorCode.GRANT_EXPIRED),
)

_ADJUST_ERRORS = (ErrorCode.PLAYER_NOT_FOUND, ErrorCode.RESOURCE_NOT_FOUND, ErrorCode.SYSTEM_RESOURCE_LOCKED)


def _server_adjust(
    name: str, path: str, summary: str, request: type, response: type, *extra: ErrorCode
) -> Route:
    return Route(
        name=name,
        surface=Surface.SERVER,
        method="POST",
        path=path,
        summary=summary,
        request=request,
        response=response,
        idempotency=Idempotency.REQUIRED,
        body_idempotency_field=True,
        errors=(*_ADJUST_ERRORS, *extra),
    )


SERVER_INVENTORY_GRANT = _server_adjust(
    "server.inventory.grant",
    "/players/{externalId}/inventory/{itemKey}/grant",
    "Add items (atomic increment); may set the player's item parameters.",
    m.AdjustItemRequest,
    m.ItemAdjustResponse,
)
SERVER_INVENTORY_REVOKE = _server_adjust(
    "server.inventory.revoke",
    "/players/{externalId}/inventory/{itemKey}/revoke",
    "Remove items (atomic decrement); 409 when the player holds fewer.",
    m.AdjustItemRequest,
    m.ItemAdjustResponse,
    ErrorCode.INSUFFICIENT_QUANTITY,
)
SERVER_WALLET_CREDIT = _server_adjust(
    "server.wallet.credit",
    "/players/{externalId}/wallet/{economyKey}/credit",
    "Mint currency; only the server API can credit.",
    m.AdjustWalletRequest,
    m.WalletAdjustResponse,
)
SERVER_WALLET_DEBIT = _server_adjust(
    "server.wallet.debit",
    "/players/{externalId}/wallet/{economyKey}/debit",
    "Take currency; 409 when the balance is insufficient.",
    m.AdjustWalletRequest,
    m.WalletAdjustResponse,
    ErrorCode.INSUFFICIENT_BALANCE,
)

# --- Friends and presence (issue #5) -------------------------------------------------------------

_P = "/players/{externalId}"
_FRIEND_READ_ERRORS = (ErrorCode.PLAYER_SECRET_INVALID, ErrorCode.PLAYER_NOT_FOUND)
_TARGET_ERRORS = (
    *_PLAYER_WRITE_ERRORS,
    ErrorCode.CANNOT_FRIEND_SELF,
    ErrorCode.FRIEND_CODE_INVALID,
    ErrorCode.PLAYER_BLOCKED,
)


def _friends_route(name: str, method: str, path: str, summary: str, response: Any, **kw: Any) -> Route:
    write = method != "GET"
    return Route(
        name=name,
        surface=Surface.SDK,
        method=method,
        path=f"{_P}{path}",
        summary=summary,
        auth=Auth.PLAYER,
        response=response,
        idempotency=kw.pop("idempotency", Idempotency.OPTIONAL if write else Idempotency.NONE),
        errors=kw.pop("errors", _PLAYER_WRITE_ERRORS if write else _FRIEND_READ_ERRORS),
        **kw,
    )


FRIEND_CODE = _friends_route(
    "friends.code",
    "GET",
    "/friends/code",
    "The player's own friend code (made on first use).",
    m.FriendCodeResponse,
    query=m.ProgressionQuery,
)
FRIENDS_SEARCH = _friends_route(
    "friends.search",
    "GET",
    "/friends/search",
    "Search players by display name (blocked players omitted).",
    list[m.SearchHit],
    query=m.SearchQuery,
)
FRIEND_SEND_REQUEST = _friends_route(
    "friends.requests.send",
    "POST",
    "/friends/requests",
    "Send a friend request by friend code or external id; accepted at once when they asked you first.",
    m.SendRequestResponse,
    status=201,
    request=m.FriendTarget,
    body_idempotency_field=True,
    errors=(*_TARGET_ERRORS, ErrorCode.ALREADY_FRIENDS, ErrorCode.FRIEND_LIMIT_REACHED),
)
FRIEND_REQUESTS = _friends_route(
    "friends.requests.list",
    "GET",
    "/friends/requests",
    "Pending requests, incoming and outgoing.",
    m.RequestsResponse,
    query=m.ProgressionQuery,
)
FRIEND_ACCEPT = _friends_route(
    "friends.requests.accept",
    "POST",
    "/friends/requests/{requestId}/accept",
    "Accept a request you received.",
    m.FriendResponse,
    errors=(*_PLAYER_WRITE_ERRORS, ErrorCode.FRIEND_REQUEST_NOT_FOUND, ErrorCode.FRIEND_LIMIT_REACHED),
)
FRIEND_DECLINE = _friends_route(
    "friends.requests.decline",
    "POST",
    "/friends/requests/{requestId}/decline",
    "Decline a request you received.",
    m.RequestDone,
    errors=(*_PLAYER_WRITE_ERRORS, ErrorCode.FRIEND_REQUEST_NOT_FOUND),
)
FRIEND_CANCEL = _friends_route(
    "friends.requests.cancel",
    "POST",
    "/friends/requests/{requestId}/cancel",
    "Cancel a request you sent.",
    m.RequestDone,
    errors=(*_PLAYER_WRITE_ERRORS, ErrorCode.FRIEND_REQUEST_NOT_FOUND),
)
FRIENDS_LIST = _friends_route(
    "friends.list",
    "GET",
    "/friends",
    "Your friends with presence.",
    m.FriendsResponse,
    query=m.ProgressionQuery,
)
FRIEND_REMOVE = _friends_route(
    "friends.remove",
    "DELETE",
    "/friends/{friendExternalId}",
    "Remove a friend.",
    m.RemovedResponse,
    errors=(*_PLAYER_WRITE_ERRORS, ErrorCode.NOT_FRIENDS_YET),
)
FRIENDS_SUGGESTIONS = _friends_route(
    "friends.suggestions",
    "GET",
    "/friends/suggestions",
    "Recently active players you have no tie with, re-drawn on every call.",
    m.SuggestionsResponse,
    query=m.SuggestionsQuery,
)
FRIEND_BLOCK = _friends_route(
    "friends.blocks.add",
    "POST",
    "/friends/blocks",
    "Block a player: ends a friendship and pending requests either way.",
    m.BlockResponse,
    status=201,
    request=m.FriendTarget,
    body_idempotency_field=True,
    errors=_TARGET_ERRORS,
)
FRIEND_BLOCKS = _friends_route(
    "friends.blocks.list", "GET", "/friends/blocks", "Players you blocked.", m.BlocksResponse
)
FRIEND_UNBLOCK = _friends_route(
    "friends.blocks.remove",
    "DELETE",
    "/friends/blocks/{externalPlayerId}",
    "Unblock a player.",
    m.UnblockedResponse,
    errors=(*_PLAYER_WRITE_ERRORS, ErrorCode.NOT_BLOCKED),
)
PRESENCE_HEARTBEAT = _friends_route(
    "presence.heartbeat",
    "POST",
    "/presence",
    "Heartbeat (about every 30 s) with an optional status label.",
    m.PresenceResponse,
    request=m.HeartbeatRequest,
    request_optional=True,
)


def _server_read(name: str, path: str, summary: str, response: Any) -> Route:
    return Route(
        name=name,
        surface=Surface.SERVER,
        method="GET",
        path=f"{_P}{path}",
        summary=summary,
        response=response,
        errors=(ErrorCode.PLAYER_NOT_FOUND,),
    )


SERVER_FRIENDS = _server_read(
    "server.friends.list", "/friends", "A player's friends with presence.", m.FriendsResponse
)
SERVER_FRIEND_REQUESTS = _server_read(
    "server.friends.requests", "/friends/requests", "A player's pending requests.", m.RequestsResponse
)
SERVER_BLOCKS = _server_read(
    "server.friends.blocks", "/blocks", "The players a player blocked.", m.BlocksResponse
)

# --- Gifting (issue #6) ----------------------------------------------------------------------------

_GIFT_READ_ERRORS = (ErrorCode.PLAYER_SECRET_INVALID, ErrorCode.PLAYER_NOT_FOUND)

GIFT_SEND = _friends_route(
    "gifts.send",
    "POST",
    "/friends/gifts",
    "Send a gift to a friend (by external id or friend code); the friend claims it later.",
    m.GiftResponse,
    status=201,
    request=m.SendGiftRequest,
    body_idempotency_field=True,
    errors=(
        *_PLAYER_WRITE_ERRORS,
        ErrorCode.FRIEND_CODE_INVALID,
        ErrorCode.GIFTING_DISABLED,
        ErrorCode.NOT_FRIENDS,
        ErrorCode.GIFT_NOT_ALLOWED,
        ErrorCode.GIFT_AMOUNT_INVALID,
        ErrorCode.GIFT_COOLDOWN,
        ErrorCode.GIFT_LIMIT_REACHED,
        ErrorCode.GIFT_INSUFFICIENT_BALANCE,
        ErrorCode.IDEMPOTENCY_CONFLICT,
    ),
)
GIFT_CLAIM = _friends_route(
    "gifts.claim",
    "POST",
    "/friends/gifts/{giftId}/claim",
    "Claim a gift you received: its contents are credited now.",
    m.GiftResponse,
    errors=(
        *_PLAYER_WRITE_ERRORS,
        ErrorCode.GIFT_NOT_FOUND,
        ErrorCode.GIFT_ALREADY_CLAIMED,
        ErrorCode.GIFT_EXPIRED,
    ),
)
GIFT_CATALOG = _friends_route(
    "gifts.catalog",
    "GET",
    "/friends/gifts/catalog",
    "What can be gifted, the cooldown and daily limit, and how many gifts you sent today (UTC).",
    m.GiftCatalogResponse,
    errors=_GIFT_READ_ERRORS,
)
GIFT_INBOX = _friends_route(
    "gifts.inbox",
    "GET",
    "/friends/gifts/inbox",
    "Gifts you received, newest first (pending=true: only those you can still claim).",
    list[m.GiftView],
    query=m.GiftListQuery,
    errors=_GIFT_READ_ERRORS,
)
GIFT_SENT = _friends_route(
    "gifts.sent",
    "GET",
    "/friends/gifts/sent",
    "Gifts you sent, newest first (pending=true: only those not yet claimed nor expired).",
    list[m.GiftView],
    query=m.GiftListQuery,
    errors=_GIFT_READ_ERRORS,
)
SERVER_GIFTS = Route(
    name="server.gifts.list",
    surface=Surface.SERVER,
    method="GET",
    path=f"{_P}/gifts",
    summary="A player's gift history with counterparties and the delivering grants' status.",
    response=m.ServerGiftsResponse,
    query=m.ServerGiftsQuery,
    errors=(ErrorCode.GIFTING_DISABLED, ErrorCode.PLAYER_NOT_FOUND),
)

GIFT_ROUTES = (GIFT_SEND, GIFT_CLAIM, GIFT_CATALOG, GIFT_INBOX, GIFT_SENT, SERVER_GIFTS)

# --- Player tools (issue #7) ----------------------------------------------------------------------


def _server(name: str, method: str, path: str, summary: str, response: Any, **kw: Any) -> Route:
    """A server route; writes need an idempotency key (DECISIONS 7)."""
    write = method != "GET"
    return Route(
        name=name,
        surface=Surface.SERVER,
        method=method,
        path=path,
        summary=summary,
        response=response,
        idempotency=Idempotency.REQUIRED if write else Idempotency.NONE,
        **kw,
    )


PLAYER_PROFILE = _server(
    "server.players.profile",
    "GET",
    _P,
    "A player's profile: the record, recent attempts, grants and lobbies, and summary counters.",
    m.PlayerProfileResponse,
    query=m.ProfileQuery,
    errors=(ErrorCode.PLAYER_NOT_FOUND,),
)
PLAYER_BAN = _server(
    "server.players.ban",
    "POST",
    f"{_P}/ban",
    "Ban a player (soft): every player-scoped client write is refused; reads still work.",
    m.BanPlayerResponse,
    request=m.BanRequest,
    errors=(ErrorCode.PLAYER_NOT_FOUND,),
)
PLAYER_UNBAN = _server(
    "server.players.unban",
    "POST",
    f"{_P}/unban",
    "Lift a ban.",
    m.BanPlayerResponse,
    errors=(ErrorCode.PLAYER_NOT_FOUND,),
)
PLAYER_MERGE = _server(
    "server.players.merge",
    "POST",
    "/players/{fromExternalId}/merge-into/{toExternalId}",
    "Fold one player into another: grants, gifts, friends, ledgers (summed), purchases.",
    m.MergePlayerResponse,
    errors=(ErrorCode.PLAYER_NOT_FOUND, ErrorCode.INVALID_MERGE),
)
PLAYER_DEBUG_SET = _server(
    "server.players.debug_set",
    "POST",
    f"{_P}/debug",
    "Flag a debug account: left out of revenue reporting, retroactively.",
    m.DebugPlayerResponse,
    request=m.DebugRequest,
    request_optional=True,
    errors=(ErrorCode.PLAYER_NOT_FOUND,),
)
PLAYER_DEBUG_CLEAR = _server(
    "server.players.debug_clear",
    "DELETE",
    f"{_P}/debug",
    "Unflag a debug account, retroactively.",
    m.DebugPlayerResponse,
    errors=(ErrorCode.PLAYER_NOT_FOUND,),
)
PLAYER_DELETE = _server(
    "server.players.delete",
    "POST",
    f"{_P}/delete",
    "Erase a player: anonymized in place; financial records kept; idempotent (no_op_ statuses).",
    m.DeletePlayerResponse,
    request=m.DeletePlayerRequest,
    request_optional=True,
)
PLAYER_EXPORT = _server(
    "server.players.export",
    "GET",
    f"{_P}/export",
    "Everything held about a player, each list capped at 1,000 rows.",
    m.ExportPlayerResponse,
    errors=(ErrorCode.PLAYER_NOT_FOUND,),
)
_MIGRATE_ERRORS = (ErrorCode.INVALID_REQUEST,)
MIGRATE_PLAYERS = _server(
    "server.migrate.players",
    "POST",
    "/migrate/players",
    "Import up to 1,000 players; each row has its own idempotency key; bad rows are reported.",
    m.MigrateOutcome,
    request=m.MigratePlayersRequest,
    errors=_MIGRATE_ERRORS,
)
MIGRATE_WALLET = _server(
    "server.migrate.wallet",
    "POST",
    "/migrate/wallet",
    "Import up to 1,000 wallet balances (credits; players created as needed).",
    m.MigrateOutcome,
    request=m.MigrateWalletRequest,
    errors=_MIGRATE_ERRORS,
)
MIGRATE_INVENTORY = _server(
    "server.migrate.inventory",
    "POST",
    "/migrate/inventory",
    "Import up to 1,000 inventory rows, with optional per-player item parameters.",
    m.MigrateOutcome,
    request=m.MigrateInventoryRequest,
    errors=_MIGRATE_ERRORS,
)
_PURCHASE_ERRORS = (ErrorCode.PLAYER_NOT_FOUND, ErrorCode.UNKNOWN_CURRENCY, ErrorCode.IDEMPOTENCY_CONFLICT)
SDK_TRACK_PURCHASE = Route(
    name="purchases.track",
    surface=Surface.SDK,
    method="POST",
    path=f"{_P}/purchases",
    summary="Report a store purchase (unverified); idempotent on transactionId.",
    auth=Auth.PLAYER,
    request=m.TrackPurchaseRequest,
    response=m.TrackPurchaseResponse,
    idempotency=Idempotency.OPTIONAL,
    errors=(*_PLAYER_WRITE_ERRORS, *_PURCHASE_ERRORS),
)
SERVER_TRACK_PURCHASE = _server(
    "server.purchases.track",
    "POST",
    f"{_P}/purchases",
    "Track a purchase (may be marked verified); idempotent on transactionId.",
    m.TrackPurchaseResponse,
    request=m.ServerTrackPurchaseRequest,
    errors=_PURCHASE_ERRORS,
)
SERVER_PURCHASES = _server(
    "server.purchases.list",
    "GET",
    f"{_P}/purchases",
    "A player's purchases, newest first, with a keyset cursor.",
    m.PurchaseListResponse,
    query=m.PurchaseListQuery,
    errors=(ErrorCode.PLAYER_NOT_FOUND,),
)
PLAYER_SPEND = _server(
    "server.spend.player",
    "GET",
    f"{_P}/spend",
    "A player's spend in US cents: lifetime, count, first and last, rolling windows.",
    m.PlayerSpendResponse,
    query=m.SpendQuery,
    errors=(ErrorCode.PLAYER_NOT_FOUND,),
)
SPEND_PLAYERS = _server(
    "server.spend.players",
    "GET",
    "/spend/players",
    "Players at or above a spend threshold, highest first (debug accounts left out).",
    m.SpendQueryResponse,
    query=m.SpendPlayersQuery,
)
SPEND_SUMMARY = _server(
    "server.spend.summary",
    "GET",
    "/spend/summary",
    "Revenue summary: gross, purchases, paying players, ARPPU, per product and per day (US cents).",
    m.RevenueSummaryResponse,
    query=m.RevenueQuery,
)

PLAYER_TOOL_ROUTES = (
    PLAYER_PROFILE,
    PLAYER_BAN,
    PLAYER_UNBAN,
    PLAYER_MERGE,
    PLAYER_DEBUG_SET,
    PLAYER_DEBUG_CLEAR,
    PLAYER_DELETE,
    PLAYER_EXPORT,
    MIGRATE_PLAYERS,
    MIGRATE_WALLET,
    MIGRATE_INVENTORY,
    SDK_TRACK_PURCHASE,
    SERVER_TRACK_PURCHASE,
    SERVER_PURCHASES,
    PLAYER_SPEND,
    SPEND_PLAYERS,
    SPEND_SUMMARY,
)

FRIENDS_ROUTES = (
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

ALL: tuple[Route, ...] = (
    HEALTH,
    PING,
    CLOCK_ADVANCE,
    REGISTER,
    SDK_SET_IDENTITY,
    SERVER_SET_IDENTITY,
    SDK_WALLET,
    SDK_WALLET_DEBIT,
    SDK_INVENTORY,
    SDK_INVENTORY_CONSUME,
    SDK_PENDING_GRANTS,
    SDK_CLAIM_GRANT,
    SERVER_CREATE_GRANT,
    SERVER_ACK_GRANT,
    SERVER_INVENTORY_GRANT,
    SERVER_INVENTORY_REVOKE,
    SERVER_WALLET_CREDIT,
    SERVER_WALLET_DEBIT,
    *FRIENDS_ROUTES,
    *GIFT_ROUTES,
    *PLAYER_TOOL_ROUTES,
)
BY_NAME: dict[str, Route] = {r.name: r for r in ALL}
