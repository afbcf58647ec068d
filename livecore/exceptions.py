"""The exceptions of a refused call, wherever it ran: one class per meaning, so callers catch what they can
handle.

The typed clients (:mod:`livecore_client`) raise them for the service's error envelope, and an embedded
simulation raises them for the core's own refusal (:func:`api_error`): the stable code is the contract, so
code written against the client catches the same class from either. What only a call over the network can
raise (no answer, an answer off the contract) stays in :mod:`livecore_client.errors`, which re-exports
these under the same names.

Callers should match on the class or on ``code`` (stable, docs/reference/errors.md), never on ``message``.
A class per stable code subclasses the class of its HTTP status, so ``except NotFoundError`` also catches
:class:`PlayerNotFoundError`. A new error code gets its class with one line in :data:`_BY_CODE`; an unknown
code still maps by status, because new codes may appear (docs/reference/errors.md).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from datetime import datetime
from typing import Any

from livecore.clock import parse_ts
from livecore.errors import ErrorCode, LivecoreError, error_fields

__all__ = [
    "AlreadyFriendsError",
    "AlreadyInGuildError",
    "AlreadyOnTeamError",
    "AntiCheatRejectedError",
    "ApiKeyNotFoundError",
    "AttemptInProgressError",
    "AttemptNotFoundError",
    "AttemptNotInProgressError",
    "AuthenticationError",
    "CannotFriendSelfError",
    "ConflictError",
    "CrateMustBeOpenedError",
    "CsrfInvalidError",
    "DashboardOnlyError",
    "DeliveryNotFoundError",
    "EventNotFoundError",
    "EventNotOpenError",
    "FriendCodeInvalidError",
    "FriendLimitReachedError",
    "FriendRequestNotFoundError",
    "GiftAlreadyClaimedError",
    "GiftAmountInvalidError",
    "GiftCooldownError",
    "GiftExpiredError",
    "GiftInsufficientBalanceError",
    "GiftLimitReachedError",
    "GiftNotAllowedError",
    "GiftNotFoundError",
    "GiftNotFriendsError",
    "GiftingDisabledError",
    "GoneError",
    "GrantAlreadyClaimedError",
    "GrantExpiredError",
    "GrantNotFoundError",
    "GuildDisbandedError",
    "GuildFullError",
    "GuildMemberNotFoundError",
    "GuildNameRejectedError",
    "GuildNameTakenError",
    "GuildNotFoundError",
    "GuildPermissionDeniedError",
    "GuildsDisabledError",
    "HelpCooldownError",
    "HelpRequestClosedError",
    "HelpRequestNotFoundError",
    "HelpRequestOpenError",
    "IdempotencyConflictError",
    "InsufficientBalanceError",
    "InsufficientEntryCostError",
    "InsufficientQuantityError",
    "InternalServerError",
    "InvalidMergeError",
    "InvalidRequestError",
    "InviteExpiredError",
    "InviteNotFoundError",
    "InvitePendingError",
    "JoinRequestNotFoundError",
    "JoinRequestPendingError",
    "LeaderboardNotFoundError",
    "LivecoreAPIError",
    "LivecoreClientError",
    "LobbyNotFoundError",
    "LockedElsewhereError",
    "MaxAttemptsReachedError",
    "NotACrateError",
    "NotBlockedError",
    "NotFoundError",
    "NotFriendsError",
    "NotInGuildError",
    "PermissionDeniedError",
    "PersonalKeyNotFoundError",
    "PlayerAlreadyRegisteredError",
    "PlayerBannedError",
    "PlayerBlockedError",
    "PlayerNotFoundError",
    "PlayerSecretInvalidError",
    "RateLimitError",
    "ResourceNotFoundError",
    "RewardsAlreadyGrantedError",
    "StudioManagedEconomyError",
    "SystemResourceLockedError",
    "TeamNotFoundError",
    "UnknownCurrencyError",
    "UnprocessableEntityError",
    "WebhookEndpointNotFoundError",
    "api_error",
    "error_class",
    "retry_after_seconds",
]

REQUEST_ID_HEADER = "X-Request-Id"


class LivecoreClientError(Exception):
    """Anything a client or an embedded simulation raises about a call; catch it to handle every failure
    in one place."""


class LivecoreAPIError(LivecoreClientError):
    """The call was refused. ``code`` is ``None`` only when the body was not an error envelope (for
    example an HTML page from a proxy). ``headers`` is the mapping given, kept as it is: a client gives
    its response's headers, whose names match in any case, and ``request_id`` is read the same way from
    any mapping."""

    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: str | None = None,
        details: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details: dict[str, Any] | None = dict(details) if details is not None else None
        self.headers: Mapping[str, str] = headers if headers is not None else _Headers({})
        self.request_id: str | None = _header(self.headers, REQUEST_ID_HEADER)

    def __str__(self) -> str:
        return f"[{self.status} {self.code or 'no code'}] {self.message}"

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(status={self.status}, code={self.code!r}, message={self.message!r}, "
            f"details={self.details!r})"
        )


class InvalidRequestError(LivecoreAPIError):
    """400: the request failed validation; ``details["fields"]`` names each offending field."""


class CannotFriendSelfError(InvalidRequestError):
    """400: a player tried to befriend, request, block or unblock themself."""


class GiftAmountInvalidError(InvalidRequestError):
    """400: a gift amount below 1 or above the resource's ``maxAmount`` (see the gift catalog);
    ``details`` carries ``amount`` and ``maxAmount``."""


class UnknownCurrencyError(InvalidRequestError):
    """400: a purchase in a currency the game has no exchange rate for (USD is always known; rates are
    the manifest's ``[exchange_rates]``); ``details["currency"]`` names it. Nothing was recorded."""


class GuildNameRejectedError(InvalidRequestError):
    """400: a player-chosen guild name contains an entry of the game's ``name_filter`` (compared by
    fold: NFKC, case folding, white space runs as one space);
    ``details["name"]`` is the name refused. The studio's edit skips the filter."""


class AuthenticationError(LivecoreAPIError):
    """401: missing, unknown or revoked API key (on the admin API: personal key, expired included)."""


class PlayerSecretInvalidError(AuthenticationError):
    """401: wrong or missing player secret on a player-scoped route."""


class PermissionDeniedError(LivecoreAPIError):
    """403: the key's permission set does not allow the route (e.g. a client key on a server route)."""


class PlayerBannedError(PermissionDeniedError):
    """403: the player is banned; registration and player-scoped writes are refused."""


class PlayerBlockedError(PermissionDeniedError):
    """403: a block stands between the two players (either way), so neither can add the other."""


class GiftingDisabledError(PermissionDeniedError):
    """403: the game has not enabled gifting (on the server gift history: has never enabled it)."""


class GiftNotFriendsError(PermissionDeniedError):
    """403 ``not_friends``: a gift to a player who is not an accepted friend (a stranger, a pending
    request, a block, or the sender themself), and a partner invite to a player who is not a friend.
    Not :class:`NotFriendsError`, which is the 404 ``not_friends_yet`` of removing a friend."""


class GiftNotAllowedError(PermissionDeniedError):
    """403: the resource is not giftable in this game (not on the allowlist, or it costs the sender in a
    studio-managed game); the gift catalog lists what is."""


class DashboardOnlyError(PermissionDeniedError):
    """403: a personal key asked for a dashboard-only action (API keys, personal keys, live webhook
    endpoints): a member signed in to the portal takes it."""


class CsrfInvalidError(PermissionDeniedError):
    """403: a portal session's write without its CSRF token (``X-CSRF-Token``); personal keys send none."""


class GuildsDisabledError(PermissionDeniedError):
    """403: the game's guilds are off (``guilds.enabled = false``): every guild route answers this."""


class GuildPermissionDeniedError(PermissionDeniedError):
    """403: the caller's guild role may not do this (a member editing the profile, a co-leader kicking a
    co-leader or promoting, ...); ``role`` is the caller's role (``None`` if the service did not say)."""

    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: str | None = None,
        details: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message, status=status, code=code, details=details, headers=headers)
        self.role = _text(self.details, "role")


class NotFoundError(LivecoreAPIError):
    """404: no such resource (including a player of the other environment)."""


class PlayerNotFoundError(NotFoundError):
    """404: no such player in this game and environment; ``details["externalPlayerId"]`` names it, and
    ``details["existsIn"]`` the game's other environment when the player is there."""


class ResourceNotFoundError(NotFoundError):
    """404: the currency or item key is not a resource of this game (or not of the route's type)."""


class GrantNotFoundError(NotFoundError):
    """404: no such grant for this player."""


class FriendCodeInvalidError(NotFoundError):
    """404: no player of this game and environment has that friend code."""


class FriendRequestNotFoundError(NotFoundError):
    """404: no such pending request for this player: unknown, already answered, or not theirs to
    accept or decline (incoming) or cancel (outgoing)."""


class NotFriendsError(NotFoundError):
    """404 ``not_friends_yet``: removing a player who is not a friend. (The gift refusal ``not_friends``,
    403, is a different code: :class:`GiftNotFriendsError`.)"""


class NotBlockedError(NotFoundError):
    """404: unblocking a player this player has not blocked."""


class GiftNotFoundError(NotFoundError):
    """404: no such gift received by this player (its sender cannot claim it either)."""


class EventNotFoundError(NotFoundError):
    """404: the game's manifest has no event of that key."""


class AttemptNotFoundError(NotFoundError):
    """404: no attempt of that id for this player and event (another player's attempt included)."""


class LeaderboardNotFoundError(NotFoundError):
    """404: no event leaderboard of that id in the key's game and environment."""


class LobbyNotFoundError(NotFoundError):
    """404: no lobby of that id in the key's game and environment."""


class TeamNotFoundError(NotFoundError):
    """404: no team of that key in the window read (by default the event's window open now)."""


class InviteNotFoundError(NotFoundError):
    """404: no partner invite of that id made to this player (an invite to another player included)."""


class GuildNotFoundError(NotFoundError):
    """404: no guild of that id in the key's game and environment (a malformed id included)."""


class GuildMemberNotFoundError(NotFoundError):
    """404: the named player is not a member of the guild (``details["externalPlayerId"]``)."""


class NotInGuildError(NotFoundError):
    """404: a route of the caller's own guild for a player in no guild."""


class JoinRequestNotFoundError(NotFoundError):
    """404: no pending join request of that id to the caller's guild (answered, cancelled, or to another
    guild included), or, cancelling, none of the caller's pending to that guild."""


class HelpRequestNotFoundError(NotFoundError):
    """404: no help request of that id in the caller's guild."""


class ApiKeyNotFoundError(NotFoundError):
    """404: no API key of that id in the game."""


class PersonalKeyNotFoundError(NotFoundError):
    """404: no personal key of that id the member may see."""


class WebhookEndpointNotFoundError(NotFoundError):
    """404: no webhook endpoint of that id in the game."""


class DeliveryNotFoundError(NotFoundError):
    """404: no webhook delivery of that id in the game."""


class ConflictError(LivecoreAPIError):
    """409: the request conflicts with the current state."""


class IdempotencyConflictError(ConflictError):
    """409: the idempotency key was already used with a different body (or is still in flight)."""


class PlayerAlreadyRegisteredError(ConflictError):
    """409: the player already has a secret; recover with the admin rotate-secret route."""


class InsufficientBalanceError(ConflictError):
    """409: a wallet debit larger than the balance; nothing was taken (balances never go below zero)."""


class InsufficientQuantityError(ConflictError):
    """409: a consume or revoke of more items than the player holds; nothing was taken."""


class StudioManagedEconomyError(ConflictError):
    """409: the game's economy is studio-managed, so balances live in the studio's backend and a client
    cannot spend through the service."""


class GrantAlreadyClaimedError(ConflictError):
    """409: the grant was already claimed (by the client, a server ack or an operator)."""


class GrantExpiredError(ConflictError):
    """409: the grant passed its ``expiresAt`` unclaimed."""


class CrateMustBeOpenedError(ConflictError):
    """409: a crate grant is claimed only by opening it (``grants.open_crate``)."""


class NotACrateError(ConflictError):
    """409: only a grant of kind ``crate`` can be opened."""


class SystemResourceLockedError(ConflictError):
    """409: the system items ``sessions`` and ``login_streak`` cannot be changed by hand."""


class AlreadyFriendsError(ConflictError):
    """409: the two players are already friends."""


class FriendLimitReachedError(ConflictError):
    """409: either player is at the game's ``max_friends`` (checked on send and again on accept)."""


class GiftCooldownError(ConflictError):
    """409: the sender gifted this friend less than the game's cooldown ago. ``cooldown_until`` is when
    they may gift this friend again (``None`` if the service did not say); the friends list shows the
    same time as ``gift_cooldown_until``."""

    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: str | None = None,
        details: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message, status=status, code=code, details=details, headers=headers)
        self.cooldown_until = _timestamp(self.details, "cooldownUntil")


class GiftLimitReachedError(ConflictError):
    """409: the sender already sent the game's daily number of gifts (the UTC day)."""


class GiftInsufficientBalanceError(ConflictError):
    """409: the gift costs the sender and their balance is lower than the amount; nothing was taken.
    ``details`` carries ``resource``, ``needed`` and ``have``."""


class GiftAlreadyClaimedError(ConflictError):
    """409: the gift was already claimed (through the gift, or through its delivering grant)."""


class EventNotOpenError(ConflictError):
    """409: no window of the event is open now (``next_window_starts_at`` in the events list says when
    the next one opens)."""


class AttemptInProgressError(ConflictError):
    """409: the player already has an attempt in progress in this window; ``attempt_id`` is that
    attempt's id (``None`` if the service did not say)."""

    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: str | None = None,
        details: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message, status=status, code=code, details=details, headers=headers)
        self.attempt_id = _text(self.details, "attemptId")


class MaxAttemptsReachedError(ConflictError):
    """409: the player used the event's ``max_attempts`` in this window."""


class InsufficientEntryCostError(ConflictError):
    """409: the player cannot pay the event's entry cost; nothing was taken. ``details`` carries
    ``resource``, ``needed`` and ``have``."""


class LockedElsewhereError(ConflictError):
    """409: players of the roster sit on another team of the window; ``external_player_ids`` names them.
    Nothing changed."""

    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: str | None = None,
        details: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message, status=status, code=code, details=details, headers=headers)
        raw = (self.details or {}).get("externalPlayerIds")
        self.external_player_ids: list[str] = (
            [x for x in raw if isinstance(x, str)] if isinstance(raw, list) else []
        )


class AlreadyOnTeamError(ConflictError):
    """409: the inviter or the invitee already sits on a team of the window (also: the invite was
    accepted already)."""


class InvitePendingError(ConflictError):
    """409: an invite between the two players (either way) is pending in this window."""


class GuildDisbandedError(ConflictError):
    """409: the guild is disbanded: it stays readable, but nobody joins it and the studio changes
    nothing of it."""


class AlreadyInGuildError(ConflictError):
    """409: the player (the founder, the joiner, or the requester being accepted) is a member of a guild
    already."""


class GuildFullError(ConflictError):
    """409: the guild has the game's ``max_members`` members (``details["maxMembers"]``)."""


class GuildNameTakenError(ConflictError):
    """409: another guild of the game and environment that is not disbanded has that name, compared by
    fold (NFKC, case folding, white space runs as one space, trimmed)."""


class JoinRequestPendingError(ConflictError):
    """409: the player's join request to that guild is pending already (cancel it to ask again)."""


class HelpRequestOpenError(ConflictError):
    """409: the player's own help request is open still; ``request_id`` is its id (``None`` if the service
    did not say)."""

    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: str | None = None,
        details: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message, status=status, code=code, details=details, headers=headers)
        self.request_id = _text(self.details, "requestId")


class HelpCooldownError(ConflictError):
    """409: the player asked this guild for help less than the game's ``help.cooldown_seconds`` ago;
    ``retry_at`` is when it may ask again (``None`` if the service did not say)."""

    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: str | None = None,
        details: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message, status=status, code=code, details=details, headers=headers)
        self.retry_at = _timestamp(self.details, "retryAt")


class HelpRequestClosedError(ConflictError):
    """409: the help request is not open: filled, expired or closed (``details["status"]``), whatever the
    amount offered."""


class AttemptNotInProgressError(ConflictError):
    """409: the attempt is completed or expired (also once its ``ends_at`` has passed, before the
    service's sweep marks it)."""


class RewardsAlreadyGrantedError(ConflictError):
    """409: retrying an attempt's reward roll when milestone or completion grants are already linked to
    it; nothing was granted."""


class GoneError(LivecoreAPIError):
    """410: the thing existed but is no longer available, for good."""


class InviteExpiredError(GoneError):
    """410: the partner invite passed its ``expires_at`` (24 hours after it was sent) unaccepted."""


class GiftExpiredError(GoneError):
    """410: the gift passed its ``expires_at`` unclaimed and can no longer be claimed."""


class UnprocessableEntityError(LivecoreAPIError):
    """422: well-formed but refused by a rule (e.g. an invalid merge)."""


class InvalidMergeError(UnprocessableEntityError):
    """422: the merge is not allowed: the same player twice, a source already merged into another
    player or erased, or a target that is banned, merged or erased. Nothing moved."""


class AntiCheatRejectedError(UnprocessableEntityError):
    """422: an anti-cheat check of the event rejected the progress write; nothing was applied.
    ``validator`` is the check's key (``None`` if the service did not say)."""

    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: str | None = None,
        details: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message, status=status, code=code, details=details, headers=headers)
        self.validator = _text(self.details, "validator")


class RateLimitError(LivecoreAPIError):
    """429: the key's bucket is empty; ``retry_after`` is the server's hint in seconds, if sent."""

    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: str | None = None,
        details: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message, status=status, code=code, details=details, headers=headers)
        self.retry_after = retry_after_seconds(self.headers)


class InternalServerError(LivecoreAPIError):
    """5xx: the service failed; the clients retry these before raising."""


# Checked first: the code says exactly what went wrong.
_BY_CODE: dict[str, type[LivecoreAPIError]] = {
    ErrorCode.INVALID_REQUEST: InvalidRequestError,
    ErrorCode.INVALID_API_KEY: AuthenticationError,
    ErrorCode.PLAYER_SECRET_INVALID: PlayerSecretInvalidError,
    ErrorCode.PERMISSION_DENIED: PermissionDeniedError,
    ErrorCode.PLAYER_BANNED: PlayerBannedError,
    ErrorCode.NOT_FOUND: NotFoundError,
    ErrorCode.PLAYER_NOT_FOUND: PlayerNotFoundError,
    ErrorCode.IDEMPOTENCY_CONFLICT: IdempotencyConflictError,
    ErrorCode.PLAYER_ALREADY_REGISTERED: PlayerAlreadyRegisteredError,
    ErrorCode.RATE_LIMITED: RateLimitError,
    ErrorCode.RESOURCE_NOT_FOUND: ResourceNotFoundError,
    ErrorCode.GRANT_NOT_FOUND: GrantNotFoundError,
    ErrorCode.INSUFFICIENT_BALANCE: InsufficientBalanceError,
    ErrorCode.INSUFFICIENT_QUANTITY: InsufficientQuantityError,
    ErrorCode.STUDIO_MANAGED_ECONOMY: StudioManagedEconomyError,
    ErrorCode.GRANT_ALREADY_CLAIMED: GrantAlreadyClaimedError,
    ErrorCode.GRANT_EXPIRED: GrantExpiredError,
    ErrorCode.CRATE_MUST_BE_OPENED: CrateMustBeOpenedError,
    ErrorCode.NOT_A_CRATE: NotACrateError,
    ErrorCode.SYSTEM_RESOURCE_LOCKED: SystemResourceLockedError,
    ErrorCode.CANNOT_FRIEND_SELF: CannotFriendSelfError,
    ErrorCode.ALREADY_FRIENDS: AlreadyFriendsError,
    ErrorCode.FRIEND_CODE_INVALID: FriendCodeInvalidError,
    ErrorCode.PLAYER_BLOCKED: PlayerBlockedError,
    ErrorCode.FRIEND_LIMIT_REACHED: FriendLimitReachedError,
    ErrorCode.FRIEND_REQUEST_NOT_FOUND: FriendRequestNotFoundError,
    ErrorCode.NOT_FRIENDS_YET: NotFriendsError,
    ErrorCode.NOT_BLOCKED: NotBlockedError,
    ErrorCode.GIFTING_DISABLED: GiftingDisabledError,
    ErrorCode.NOT_FRIENDS: GiftNotFriendsError,
    ErrorCode.GIFT_NOT_ALLOWED: GiftNotAllowedError,
    ErrorCode.GIFT_AMOUNT_INVALID: GiftAmountInvalidError,
    ErrorCode.GIFT_COOLDOWN: GiftCooldownError,
    ErrorCode.GIFT_LIMIT_REACHED: GiftLimitReachedError,
    ErrorCode.GIFT_INSUFFICIENT_BALANCE: GiftInsufficientBalanceError,
    ErrorCode.GIFT_EXPIRED: GiftExpiredError,
    ErrorCode.GIFT_NOT_FOUND: GiftNotFoundError,
    ErrorCode.GIFT_ALREADY_CLAIMED: GiftAlreadyClaimedError,
    ErrorCode.UNKNOWN_CURRENCY: UnknownCurrencyError,
    ErrorCode.INVALID_MERGE: InvalidMergeError,
    ErrorCode.EVENT_NOT_FOUND: EventNotFoundError,
    ErrorCode.EVENT_NOT_OPEN: EventNotOpenError,
    ErrorCode.ATTEMPT_IN_PROGRESS: AttemptInProgressError,
    ErrorCode.MAX_ATTEMPTS_REACHED: MaxAttemptsReachedError,
    ErrorCode.INSUFFICIENT_ENTRY_COST: InsufficientEntryCostError,
    ErrorCode.ATTEMPT_NOT_FOUND: AttemptNotFoundError,
    ErrorCode.ATTEMPT_NOT_IN_PROGRESS: AttemptNotInProgressError,
    ErrorCode.ANTI_CHEAT_REJECTED: AntiCheatRejectedError,
    ErrorCode.LEADERBOARD_NOT_FOUND: LeaderboardNotFoundError,
    ErrorCode.LOBBY_NOT_FOUND: LobbyNotFoundError,
    ErrorCode.LOCKED_ELSEWHERE: LockedElsewhereError,
    ErrorCode.TEAM_NOT_FOUND: TeamNotFoundError,
    ErrorCode.ALREADY_ON_TEAM: AlreadyOnTeamError,
    ErrorCode.INVITE_PENDING: InvitePendingError,
    ErrorCode.INVITE_EXPIRED: InviteExpiredError,
    ErrorCode.INVITE_NOT_FOUND: InviteNotFoundError,
    ErrorCode.GUILDS_DISABLED: GuildsDisabledError,
    ErrorCode.GUILD_NOT_FOUND: GuildNotFoundError,
    ErrorCode.GUILD_DISBANDED: GuildDisbandedError,
    ErrorCode.ALREADY_IN_GUILD: AlreadyInGuildError,
    ErrorCode.GUILD_FULL: GuildFullError,
    ErrorCode.GUILD_NAME_TAKEN: GuildNameTakenError,
    ErrorCode.GUILD_NAME_REJECTED: GuildNameRejectedError,
    ErrorCode.GUILD_PERMISSION_DENIED: GuildPermissionDeniedError,
    ErrorCode.GUILD_MEMBER_NOT_FOUND: GuildMemberNotFoundError,
    ErrorCode.NOT_IN_GUILD: NotInGuildError,
    ErrorCode.JOIN_REQUEST_PENDING: JoinRequestPendingError,
    ErrorCode.JOIN_REQUEST_NOT_FOUND: JoinRequestNotFoundError,
    ErrorCode.HELP_REQUEST_OPEN: HelpRequestOpenError,
    ErrorCode.HELP_COOLDOWN: HelpCooldownError,
    ErrorCode.HELP_REQUEST_NOT_FOUND: HelpRequestNotFoundError,
    ErrorCode.HELP_REQUEST_CLOSED: HelpRequestClosedError,
    ErrorCode.DASHBOARD_ONLY: DashboardOnlyError,
    ErrorCode.CSRF_INVALID: CsrfInvalidError,
    ErrorCode.REWARDS_ALREADY_GRANTED: RewardsAlreadyGrantedError,
    ErrorCode.API_KEY_NOT_FOUND: ApiKeyNotFoundError,
    ErrorCode.PERSONAL_KEY_NOT_FOUND: PersonalKeyNotFoundError,
    ErrorCode.WEBHOOK_ENDPOINT_NOT_FOUND: WebhookEndpointNotFoundError,
    ErrorCode.DELIVERY_NOT_FOUND: DeliveryNotFoundError,
}

# Then the status family, for codes without a class of their own (and codes added after this release).
_BY_STATUS: dict[int, type[LivecoreAPIError]] = {
    400: InvalidRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    410: GoneError,
    422: UnprocessableEntityError,
    429: RateLimitError,
}


def error_class(status: int, code: str | None) -> type[LivecoreAPIError]:
    """The class of a refusal with this status and code: the code's own, else its status family's, else
    :class:`InternalServerError` for a 5xx and :class:`LivecoreAPIError` for anything else."""
    if code is not None and code in _BY_CODE:
        return _BY_CODE[code]
    if status in _BY_STATUS:
        return _BY_STATUS[status]
    return InternalServerError if status >= 500 else LivecoreAPIError


def api_error(err: LivecoreError) -> LivecoreAPIError:
    """The exception a client raises for ``err`` had the service answered it: the class of its code, with
    the status and the code, message and details of the error envelope the server renders from it
    (:func:`~livecore.errors.error_fields`), and the headers the refusal implies (``Retry-After`` on a
    429), their names matching in any case as a response's do. No request was sent, so ``request_id`` is
    ``None``."""
    fields = error_fields(err)
    code = fields["code"]
    details = fields.get("details")
    headers = _Headers(err.headers)
    return error_class(err.status, code)(
        fields["message"], status=err.status, code=code, details=details, headers=headers
    )


def retry_after_seconds(headers: Mapping[str, str]) -> float | None:
    """``Retry-After`` in seconds (docs/reference/conventions.md#rate-limits: always a delta), or ``None``
    when absent or unusable."""
    raw = _header(headers, "Retry-After")
    if raw is None:
        return None
    try:
        value = float(raw)
    except ValueError:
        return None
    return value if math.isfinite(value) and value >= 0 else None


def _timestamp(details: Mapping[str, Any] | None, name: str) -> datetime | None:
    """A timestamp field of ``details``, or ``None`` when absent or unreadable (details are advisory)."""
    raw = details.get(name) if details is not None else None
    if not isinstance(raw, str):
        return None
    try:
        return parse_ts(raw)
    except ValueError:
        return None


def _text(details: Mapping[str, Any] | None, name: str) -> str | None:
    """A string field of ``details``, or ``None`` when absent or not a string (details are advisory)."""
    raw = details.get(name) if details is not None else None
    return raw if isinstance(raw, str) else None


class _Headers(Mapping[str, str]):
    """Read-only headers whose names match in any case, as HTTP's do: what :func:`api_error` gives and an
    error built without headers holds, so ``err.headers["retry-after"]`` reads as it does on a client's
    error, with no HTTP library in the core."""

    def __init__(self, headers: Mapping[str, str]) -> None:
        self._by_folded = {name.lower(): (name, value) for name, value in headers.items()}

    def __getitem__(self, name: str) -> str:
        return self._by_folded[name.lower()][1]

    def __iter__(self) -> Iterator[str]:
        return (name for name, _ in self._by_folded.values())

    def __len__(self) -> int:
        return len(self._by_folded)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict(self)!r})"


def _header(headers: Mapping[str, str], name: str) -> str | None:
    """``name``'s value in ``headers``, its name matched in any case (as HTTP's are) whatever mapping holds
    them."""
    if (value := headers.get(name)) is not None:
        return value
    folded = name.lower()
    return next((value for key, value in headers.items() if key.lower() == folded), None)
