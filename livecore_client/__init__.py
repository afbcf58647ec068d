"""livecore_client: typed Python clients for the livecore service.

- :class:`SdkClient` / :class:`AsyncSdkClient` for the game-client surface ``/sdk/v1``;
- :class:`ServerClient` / :class:`AsyncServerClient` for the studio-backend surface ``/server/v1``;
- :mod:`livecore_client.errors`: one exception per meaning, all under :class:`LivecoreClientError`;
- :mod:`livecore_client.models`: the wire models the methods accept and return.
"""

from livecore import __version__

from . import models, webhooks
from ._transport import RetryPolicy
from .errors import (
    AlreadyFriendsError,
    APIConnectionError,
    APIResponseValidationError,
    APITimeoutError,
    AuthenticationError,
    CannotFriendSelfError,
    ConflictError,
    FriendCodeInvalidError,
    FriendLimitReachedError,
    FriendRequestNotFoundError,
    GrantAlreadyClaimedError,
    GrantExpiredError,
    GrantNotFoundError,
    IdempotencyConflictError,
    InsufficientBalanceError,
    InsufficientQuantityError,
    InternalServerError,
    InvalidRequestError,
    LivecoreAPIError,
    LivecoreClientError,
    NotBlockedError,
    NotFoundError,
    NotFriendsError,
    PermissionDeniedError,
    PlayerAlreadyRegisteredError,
    PlayerBannedError,
    PlayerBlockedError,
    PlayerNotFoundError,
    PlayerSecretInvalidError,
    RateLimitError,
    ResourceNotFoundError,
    StudioManagedEconomyError,
    SystemResourceLockedError,
    UnprocessableEntityError,
)
from .sdk import AsyncSdkClient, SdkClient
from .server import AsyncServerClient, ServerClient
from .webhooks import InvalidPayloadError, WebhookError, WebhookEvent, WebhookSignatureError, construct_event

__all__ = [
    "APIConnectionError",
    "APIResponseValidationError",
    "APITimeoutError",
    "AlreadyFriendsError",
    "AsyncSdkClient",
    "AsyncServerClient",
    "AuthenticationError",
    "CannotFriendSelfError",
    "ConflictError",
    "FriendCodeInvalidError",
    "FriendLimitReachedError",
    "FriendRequestNotFoundError",
    "GrantAlreadyClaimedError",
    "GrantExpiredError",
    "GrantNotFoundError",
    "IdempotencyConflictError",
    "InsufficientBalanceError",
    "InsufficientQuantityError",
    "InternalServerError",
    "InvalidPayloadError",
    "InvalidRequestError",
    "LivecoreAPIError",
    "LivecoreClientError",
    "NotBlockedError",
    "NotFoundError",
    "NotFriendsError",
    "PermissionDeniedError",
    "PlayerAlreadyRegisteredError",
    "PlayerBannedError",
    "PlayerBlockedError",
    "PlayerNotFoundError",
    "PlayerSecretInvalidError",
    "RateLimitError",
    "ResourceNotFoundError",
    "RetryPolicy",
    "SdkClient",
    "ServerClient",
    "StudioManagedEconomyError",
    "SystemResourceLockedError",
    "UnprocessableEntityError",
    "WebhookError",
    "WebhookEvent",
    "WebhookSignatureError",
    "__version__",
    "construct_event",
    "models",
    "webhooks",
]
