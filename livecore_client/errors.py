"""Exceptions raised by the clients: one class per meaning, so callers catch what they can handle.

Callers should match on the class or on ``code`` (stable, docs/reference/errors.md), never on ``message``. The
classes form two families under :class:`LivecoreClientError`:

- :class:`LivecoreAPIError`: the call was refused (the service answered with an error envelope). A
  class per stable code subclasses the class of its HTTP status, so ``except NotFoundError`` also
  catches :class:`PlayerNotFoundError`.
- :class:`APIConnectionError` (and :class:`APITimeoutError`): no answer came back.

The first family is defined in the core, :mod:`livecore.exceptions`, and re-exported here under the same
names: an embedded simulation raises the same classes for the same codes, so code written against the
client handles both. This module adds what only a call over the network raises.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx

from livecore.exceptions import _BY_CODE as _BY_CODE
from livecore.exceptions import REQUEST_ID_HEADER as REQUEST_ID_HEADER
from livecore.exceptions import (
    AlreadyFriendsError,
    AlreadyInGuildError,
    AlreadyOnTeamError,
    AntiCheatRejectedError,
    ApiKeyNotFoundError,
    AttemptInProgressError,
    AttemptNotFoundError,
    AttemptNotInProgressError,
    AuthenticationError,
    CannotFriendSelfError,
    ConflictError,
    CrateMustBeOpenedError,
    CsrfInvalidError,
    DashboardOnlyError,
    DeliveryNotFoundError,
    EventNotFoundError,
    EventNotOpenError,
    FriendCodeInvalidError,
    FriendLimitReachedError,
    FriendRequestNotFoundError,
    GiftAlreadyClaimedError,
    GiftAmountInvalidError,
    GiftCooldownError,
    GiftExpiredError,
    GiftingDisabledError,
    GiftInsufficientBalanceError,
    GiftLimitReachedError,
    GiftNotAllowedError,
    GiftNotFoundError,
    GiftNotFriendsError,
    GoneError,
    GrantAlreadyClaimedError,
    GrantExpiredError,
    GrantNotFoundError,
    GuildDisbandedError,
    GuildFullError,
    GuildMemberNotFoundError,
    GuildNameRejectedError,
    GuildNameTakenError,
    GuildNotFoundError,
    GuildPermissionDeniedError,
    GuildsDisabledError,
    HelpCooldownError,
    HelpRequestClosedError,
    HelpRequestNotFoundError,
    HelpRequestOpenError,
    IdempotencyConflictError,
    InsufficientBalanceError,
    InsufficientEntryCostError,
    InsufficientQuantityError,
    InternalServerError,
    InvalidMergeError,
    InvalidRequestError,
    InviteExpiredError,
    InviteNotFoundError,
    InvitePendingError,
    JoinRequestNotFoundError,
    JoinRequestPendingError,
    LeaderboardNotFoundError,
    LivecoreAPIError,
    LivecoreClientError,
    LobbyNotFoundError,
    LockedElsewhereError,
    MaxAttemptsReachedError,
    NotACrateError,
    NotBlockedError,
    NotFoundError,
    NotFriendsError,
    NotInGuildError,
    PermissionDeniedError,
    PersonalKeyNotFoundError,
    PlayerAlreadyRegisteredError,
    PlayerBannedError,
    PlayerBlockedError,
    PlayerNotFoundError,
    PlayerSecretInvalidError,
    RateLimitError,
    ResourceNotFoundError,
    RewardsAlreadyGrantedError,
    StudioManagedEconomyError,
    SystemResourceLockedError,
    TeamNotFoundError,
    UnknownCurrencyError,
    UnprocessableEntityError,
    WebhookEndpointNotFoundError,
    retry_after_seconds,
)
from livecore.exceptions import error_class as error_class

__all__ = [
    "APIConnectionError",
    "APIResponseValidationError",
    "APITimeoutError",
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
    "error_from_response",
    "retry_after_seconds",
]


class APIConnectionError(LivecoreClientError):
    """The request got no response: DNS, refused connection, reset, or a broken proxy."""


class APITimeoutError(APIConnectionError):
    """The request timed out. A write may or may not have been applied; a retry with the same
    idempotency key is safe (docs/reference/errors.md), which is what the client's own retries do."""


class APIResponseValidationError(LivecoreClientError):
    """A 2xx answer whose body does not match the contract: a server bug or a proxy in the way."""

    def __init__(self, message: str, *, status: int, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.headers = httpx.Headers(headers)


def error_from_response(status: int, headers: Mapping[str, str], payload: Any, text: str) -> LivecoreAPIError:
    """The exception for an error answer. ``payload`` is the decoded JSON body (``None`` when it was not
    JSON); ``text`` is the raw body, quoted when there is no envelope so the cause is not lost."""
    envelope = payload.get("error") if isinstance(payload, dict) else None
    if isinstance(envelope, dict) and isinstance(envelope.get("code"), str):
        code: str | None = envelope["code"]
        message = str(envelope.get("message", ""))
        raw_details = envelope.get("details")
        details = raw_details if isinstance(raw_details, dict) else None
    else:
        code, details = None, None
        message = f"HTTP {status} without an error envelope: {text[:200]!r}"
    cls = error_class(status, code)
    return cls(message, status=status, code=code, details=details, headers=httpx.Headers(headers))
