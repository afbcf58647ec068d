"""Domain errors and the one table of stable error codes.

Every refusal the service can give is a :class:`LivecoreError` carrying a stable ``code`` (clients match on
it), a human ``message`` (clients must not), optional ``details`` and an HTTP status hint, so the transport
layer turns it into the error envelope (docs/reference/conventions.md#errors) without the core knowing HTTP.

The code -> status table is docs/reference/errors.md; a code's status never depends on the call site.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict

import attrs


class ErrorCode(enum.StrEnum):
    # Generic (docs/reference/errors.md)
    INVALID_REQUEST = "invalid_request"
    INVALID_API_KEY = "invalid_api_key"
    PERMISSION_DENIED = "permission_denied"
    NOT_FOUND = "not_found"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    PAYLOAD_TOO_LARGE = "payload_too_large"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    REQUEST_TIMEOUT = "request_timeout"
    RATE_LIMITED = "rate_limited"
    IDEMPOTENCY_CONFLICT = "idempotency_conflict"
    INTERNAL_ERROR = "internal_error"
    STORAGE_UNAVAILABLE = "storage_unavailable"
    # Players and identity
    PLAYER_NOT_FOUND = "player_not_found"
    PLAYER_SECRET_INVALID = "player_secret_invalid"
    PLAYER_ALREADY_REGISTERED = "player_already_registered"
    PLAYER_BANNED = "player_banned"
    SYSTEM_RESOURCE_LOCKED = "system_resource_locked"
    # Friends
    CANNOT_FRIEND_SELF = "cannot_friend_self"
    ALREADY_FRIENDS = "already_friends"
    FRIEND_CODE_INVALID = "friend_code_invalid"
    PLAYER_BLOCKED = "player_blocked"
    FRIEND_LIMIT_REACHED = "friend_limit_reached"
    FRIEND_REQUEST_NOT_FOUND = "friend_request_not_found"
    NOT_FRIENDS_YET = "not_friends_yet"
    NOT_BLOCKED = "not_blocked"
    # Gifts
    GIFTING_DISABLED = "gifting_disabled"
    NOT_FRIENDS = "not_friends"
    GIFT_NOT_ALLOWED = "gift_not_allowed"
    GIFT_AMOUNT_INVALID = "gift_amount_invalid"
    GIFT_COOLDOWN = "gift_cooldown"
    GIFT_LIMIT_REACHED = "gift_limit_reached"
    GIFT_INSUFFICIENT_BALANCE = "gift_insufficient_balance"
    GIFT_EXPIRED = "gift_expired"
    GIFT_NOT_FOUND = "gift_not_found"
    GIFT_ALREADY_CLAIMED = "gift_already_claimed"
    # Economy and grants
    RESOURCE_NOT_FOUND = "resource_not_found"
    INSUFFICIENT_BALANCE = "insufficient_balance"
    INSUFFICIENT_QUANTITY = "insufficient_quantity"
    STUDIO_MANAGED_ECONOMY = "studio_managed_economy"
    GRANT_NOT_FOUND = "grant_not_found"
    GRANT_ALREADY_CLAIMED = "grant_already_claimed"
    GRANT_EXPIRED = "grant_expired"
    CRATE_MUST_BE_OPENED = "crate_must_be_opened"
    NOT_A_CRATE = "not_a_crate"
    # Live events and their boards
    EVENT_NOT_FOUND = "event_not_found"
    EVENT_NOT_OPEN = "event_not_open"
    ATTEMPT_IN_PROGRESS = "attempt_in_progress"
    MAX_ATTEMPTS_REACHED = "max_attempts_reached"
    INSUFFICIENT_ENTRY_COST = "insufficient_entry_cost"
    ATTEMPT_NOT_FOUND = "attempt_not_found"
    ATTEMPT_NOT_IN_PROGRESS = "attempt_not_in_progress"
    ANTI_CHEAT_REJECTED = "anti_cheat_rejected"
    LEADERBOARD_NOT_FOUND = "leaderboard_not_found"
    # Other features
    UNKNOWN_CURRENCY = "unknown_currency"
    LOCKED_ELSEWHERE = "locked_elsewhere"
    TEAM_NOT_FOUND = "team_not_found"
    ALREADY_ON_TEAM = "already_on_team"
    INVITE_PENDING = "invite_pending"
    INVITE_EXPIRED = "invite_expired"
    INVITE_NOT_FOUND = "invite_not_found"
    LOBBY_FORMING = "lobby_forming"
    LOBBY_NOT_FOUND = "lobby_not_found"
    CONFLICT = "conflict"
    INVALID_MERGE = "invalid_merge"
    GUILDS_DISABLED = "guilds_disabled"
    GUILD_NOT_FOUND = "guild_not_found"
    GUILD_DISBANDED = "guild_disbanded"
    ALREADY_IN_GUILD = "already_in_guild"
    GUILD_FULL = "guild_full"
    GUILD_NAME_TAKEN = "guild_name_taken"
    GUILD_NAME_REJECTED = "guild_name_rejected"
    GUILD_PERMISSION_DENIED = "guild_permission_denied"
    GUILD_MEMBER_NOT_FOUND = "guild_member_not_found"
    NOT_IN_GUILD = "not_in_guild"
    JOIN_REQUEST_PENDING = "join_request_pending"
    JOIN_REQUEST_NOT_FOUND = "join_request_not_found"
    HELP_REQUEST_OPEN = "help_request_open"
    HELP_COOLDOWN = "help_cooldown"
    HELP_REQUEST_NOT_FOUND = "help_request_not_found"
    HELP_REQUEST_CLOSED = "help_request_closed"
    # Operators (admin API, portal, /mcp)
    DASHBOARD_ONLY = "dashboard_only"
    CSRF_INVALID = "csrf_invalid"
    REWARDS_ALREADY_GRANTED = "rewards_already_granted"
    API_KEY_NOT_FOUND = "api_key_not_found"
    PERSONAL_KEY_NOT_FOUND = "personal_key_not_found"
    WEBHOOK_ENDPOINT_NOT_FOUND = "webhook_endpoint_not_found"
    DELIVERY_NOT_FOUND = "delivery_not_found"


STATUS: Mapping[ErrorCode, int] = {
    ErrorCode.INVALID_REQUEST: 400,
    ErrorCode.INVALID_API_KEY: 401,
    ErrorCode.PERMISSION_DENIED: 403,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.METHOD_NOT_ALLOWED: 405,
    ErrorCode.PAYLOAD_TOO_LARGE: 413,
    ErrorCode.UNSUPPORTED_MEDIA_TYPE: 415,
    ErrorCode.REQUEST_TIMEOUT: 408,
    ErrorCode.RATE_LIMITED: 429,
    ErrorCode.IDEMPOTENCY_CONFLICT: 409,
    ErrorCode.INTERNAL_ERROR: 500,
    ErrorCode.STORAGE_UNAVAILABLE: 503,
    ErrorCode.PLAYER_NOT_FOUND: 404,
    ErrorCode.PLAYER_SECRET_INVALID: 401,
    ErrorCode.PLAYER_ALREADY_REGISTERED: 409,
    ErrorCode.PLAYER_BANNED: 403,
    ErrorCode.SYSTEM_RESOURCE_LOCKED: 409,
    ErrorCode.CANNOT_FRIEND_SELF: 400,
    ErrorCode.ALREADY_FRIENDS: 409,
    ErrorCode.FRIEND_CODE_INVALID: 404,
    ErrorCode.PLAYER_BLOCKED: 403,
    ErrorCode.FRIEND_LIMIT_REACHED: 409,
    ErrorCode.FRIEND_REQUEST_NOT_FOUND: 404,
    ErrorCode.NOT_FRIENDS_YET: 404,
    ErrorCode.NOT_BLOCKED: 404,
    ErrorCode.GIFTING_DISABLED: 403,
    ErrorCode.NOT_FRIENDS: 403,
    ErrorCode.GIFT_NOT_ALLOWED: 403,
    ErrorCode.GIFT_AMOUNT_INVALID: 400,
    ErrorCode.GIFT_COOLDOWN: 409,
    ErrorCode.GIFT_LIMIT_REACHED: 409,
    ErrorCode.GIFT_INSUFFICIENT_BALANCE: 409,
    ErrorCode.GIFT_EXPIRED: 410,
    ErrorCode.GIFT_NOT_FOUND: 404,
    ErrorCode.GIFT_ALREADY_CLAIMED: 409,
    ErrorCode.RESOURCE_NOT_FOUND: 404,
    ErrorCode.INSUFFICIENT_BALANCE: 409,
    ErrorCode.INSUFFICIENT_QUANTITY: 409,
    ErrorCode.STUDIO_MANAGED_ECONOMY: 409,
    ErrorCode.GRANT_NOT_FOUND: 404,
    ErrorCode.GRANT_ALREADY_CLAIMED: 409,
    ErrorCode.GRANT_EXPIRED: 409,
    ErrorCode.CRATE_MUST_BE_OPENED: 409,
    ErrorCode.NOT_A_CRATE: 409,
    ErrorCode.EVENT_NOT_FOUND: 404,
    ErrorCode.EVENT_NOT_OPEN: 409,
    ErrorCode.ATTEMPT_IN_PROGRESS: 409,
    ErrorCode.MAX_ATTEMPTS_REACHED: 409,
    ErrorCode.INSUFFICIENT_ENTRY_COST: 409,
    ErrorCode.ATTEMPT_NOT_FOUND: 404,
    ErrorCode.ATTEMPT_NOT_IN_PROGRESS: 409,
    ErrorCode.ANTI_CHEAT_REJECTED: 422,
    ErrorCode.LEADERBOARD_NOT_FOUND: 404,
    ErrorCode.UNKNOWN_CURRENCY: 400,
    ErrorCode.LOCKED_ELSEWHERE: 409,
    ErrorCode.TEAM_NOT_FOUND: 404,
    ErrorCode.ALREADY_ON_TEAM: 409,
    ErrorCode.INVITE_PENDING: 409,
    ErrorCode.INVITE_EXPIRED: 410,
    ErrorCode.INVITE_NOT_FOUND: 404,
    ErrorCode.LOBBY_FORMING: 202,
    ErrorCode.LOBBY_NOT_FOUND: 404,
    ErrorCode.CONFLICT: 409,
    ErrorCode.INVALID_MERGE: 422,
    ErrorCode.GUILDS_DISABLED: 403,
    ErrorCode.GUILD_NOT_FOUND: 404,
    ErrorCode.GUILD_DISBANDED: 409,
    ErrorCode.ALREADY_IN_GUILD: 409,
    ErrorCode.GUILD_FULL: 409,
    ErrorCode.GUILD_NAME_TAKEN: 409,
    ErrorCode.GUILD_NAME_REJECTED: 400,
    ErrorCode.GUILD_PERMISSION_DENIED: 403,
    ErrorCode.GUILD_MEMBER_NOT_FOUND: 404,
    ErrorCode.NOT_IN_GUILD: 404,
    ErrorCode.JOIN_REQUEST_PENDING: 409,
    ErrorCode.JOIN_REQUEST_NOT_FOUND: 404,
    ErrorCode.HELP_REQUEST_OPEN: 409,
    ErrorCode.HELP_COOLDOWN: 409,
    ErrorCode.HELP_REQUEST_NOT_FOUND: 404,
    ErrorCode.HELP_REQUEST_CLOSED: 409,
    ErrorCode.DASHBOARD_ONLY: 403,
    ErrorCode.CSRF_INVALID: 403,
    ErrorCode.REWARDS_ALREADY_GRANTED: 409,
    ErrorCode.API_KEY_NOT_FOUND: 404,
    ErrorCode.PERSONAL_KEY_NOT_FOUND: 404,
    ErrorCode.WEBHOOK_ENDPOINT_NOT_FOUND: 404,
    ErrorCode.DELIVERY_NOT_FOUND: 404,
}


@attrs.frozen
class Code:
    """An error code an area adds to the table (a studio's own area: ``quest_not_found``): its stable
    ``value`` and its HTTP status, declared once in the area (:attr:`livecore.area.Area.errors`)."""

    value: str
    status: int
    #: What the code means, for the area's reference page (``python -m livecore.api.reference --area``).
    meaning: str = attrs.field(default="", eq=False)

    def __str__(self) -> str:
        return self.value


def status_of(code: ErrorCode | Code) -> int:
    """A code's HTTP status: the contract's table for a built-in code, its area's for an area's."""
    return code.status if isinstance(code, Code) else STATUS[code]


class LivecoreError(Exception):
    """A refusal with a stable code. ``status`` is a hint for the transport, taken from :data:`STATUS`."""

    def __init__(
        self,
        code: ErrorCode | Code,
        message: str,
        details: Mapping[str, Any] | None = None,
        *,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = dict(details) if details else None
        # Extra response headers the refusal implies (Retry-After on 429); transport-neutral strings.
        self.headers = dict(headers) if headers else {}

    @property
    def status(self) -> int:
        return status_of(self.code)

    def __repr__(self) -> str:
        return f"LivecoreError({self.code.value!r}, {self.message!r}, details={self.details!r})"


class ErrorFields(TypedDict):
    """The members of the error envelope's ``error`` object (docs/reference/conventions.md#errors)."""

    code: str
    message: str
    details: NotRequired[dict[str, Any]]


def error_fields(err: LivecoreError) -> ErrorFields:
    """What the error envelope says of ``err``: its code, its message and, when it has any, its details.
    The server renders it and :func:`livecore.exceptions.api_error` raises what a client reads from it,
    so an embedded refusal and an answered one cannot say different things."""
    fields = ErrorFields(code=err.code.value, message=err.message)
    if err.details:
        fields["details"] = err.details
    return fields


def invalid_request(message: str, fields: Mapping[str, str] | None = None) -> LivecoreError:
    """A 400 whose ``details.fields`` maps each offending field path to what is wrong with it."""
    return LivecoreError(ErrorCode.INVALID_REQUEST, message, {"fields": dict(fields)} if fields else None)
