"""Verify and read livecore webhooks in a studio's backend (SPEC 6.1 and 6.2, DECISIONS 6).

    from livecore_client.webhooks import construct_event, WebhookError

    body = await request.read()  # the raw bytes: never re-serialize parsed JSON
    try:
        event = construct_event(body, request.headers.get("X-Signature"), secret)
    except WebhookError:
        return 400
    if already_seen(event.id):  # delivery is at least once: dedupe by id
        return 200

Rules:

- Verify the raw body as it arrived. Decoding and re-encoding JSON changes bytes and breaks the signature.
- The checks are ``livecore.webhooks.signing``'s, the same code the service signs with: any ``v1`` in
  the header may match any of the secrets given (pass ``[new, old]`` while rotating). Signatures are
  compared in constant time. A timestamp more than ``tolerance`` (300) seconds old or more than
  ``future_tolerance`` (60) seconds ahead is refused. This module only turns the core's errors into
  the client's exception classes, all under :class:`~livecore_client.errors.LivecoreClientError`.
- The body is read only after the signature checks out. A body that is not UTF-8, not JSON, or not the
  envelope shape is an :class:`InvalidPayloadError`.
- ``data`` is a typed class for every kind in :data:`PAYLOAD_TYPES` and a plain ``dict`` for other
  kinds, so a new kind never breaks an older client. Unknown fields are ignored because SPEC 9 lets new
  optional fields land in v1 without notice. ``WebhookEvent.raw`` keeps the whole decoded envelope.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import attrs
import cattrs
import orjson

from livecore.api.convert import field_errors, response_converter
from livecore.api.grants import RewardEntry
from livecore.webhooks import signing
from livecore.webhooks.signing import DEFAULT_FUTURE_TOLERANCE, DEFAULT_TOLERANCE, SIGNATURE_HEADER

from .errors import LivecoreClientError

__all__ = [
    "DEFAULT_FUTURE_TOLERANCE",
    "DEFAULT_TOLERANCE",
    "PAYLOAD_TYPES",
    "SIGNATURE_HEADER",
    "TEST_DELIVERY_HEADER",
    "FriendRemoved",
    "FriendRequestAccepted",
    "FriendRequestSent",
    "GiftClaimed",
    "GiftSent",
    "InvalidPayloadError",
    "InvalidSignatureError",
    "MalformedSignatureHeaderError",
    "PlayerBanned",
    "PlayerDeleted",
    "PlayerMerged",
    "PlayerRegistered",
    "PlayerSecretChange",
    "PlayerSecretRotated",
    "PlayerSecretSet",
    "PlayerUnbanned",
    "PurchaseTracked",
    "TimestampTooNewError",
    "TimestampTooOldError",
    "WebhookData",
    "WebhookEndpointFailed",
    "WebhookError",
    "WebhookEvent",
    "WebhookSignatureError",
    "construct_event",
    "verify",
]

# Sample deliveries sent from the portal carry this header with the value "1", and their payloads hold
# placeholder values (SPEC 6.1).
TEST_DELIVERY_HEADER = "X-Svc-Webhook-Test"


# --- Errors -------------------------------------------------------------------------------------------


class WebhookError(LivecoreClientError):
    """Anything :func:`verify` or :func:`construct_event` refuses. Answer 400 and do not act on it."""


class WebhookSignatureError(WebhookError):
    """The delivery is not provably from livecore, or is not fresh."""


class MalformedSignatureHeaderError(WebhookSignatureError):
    """The ``X-Signature`` header is missing or unreadable (no ``t=``, a non-integer ``t``, no ``v1=``,
    or items that are not ``key=value``)."""

    def __init__(self, message: str, *, header: str) -> None:
        super().__init__(message)
        self.header = header


class InvalidSignatureError(WebhookSignatureError):
    """No signature matches: the body or timestamp was changed, or the secret is wrong. Check that the
    raw body is passed and that the secret is the endpoint's."""


class _WebhookTimestampError(WebhookSignatureError):
    def __init__(self, message: str, *, timestamp: int, now: int, tolerance: int) -> None:
        super().__init__(message)
        self.timestamp = timestamp
        self.now = now
        self.tolerance = tolerance


class TimestampTooOldError(_WebhookTimestampError):
    """The signature is valid but older than ``tolerance`` seconds: a replay, or a clock that is off."""


class TimestampTooNewError(_WebhookTimestampError):
    """The signature is valid but more than ``future_tolerance`` seconds in the future: a clock is off."""


class InvalidPayloadError(WebhookError):
    """The signature is valid but the body is not a webhook envelope: not UTF-8, not JSON, or the wrong
    shape. ``fields`` maps each offending field path (``data.playerId``) to what is wrong with it."""

    def __init__(self, message: str, *, fields: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.fields = dict(fields) if fields else {}


def _client_error(exc: signing.SignatureError) -> WebhookSignatureError:
    message = str(exc)
    if isinstance(exc, signing.MalformedHeaderError):
        return MalformedSignatureHeaderError(message, header=exc.header)
    if isinstance(exc, signing.BadSignatureError):
        return InvalidSignatureError(message)
    if isinstance(exc, signing.TimestampTooOldError):
        return TimestampTooOldError(message, timestamp=exc.timestamp, now=exc.now, tolerance=exc.tolerance)
    if isinstance(exc, signing.TimestampTooNewError):
        return TimestampTooNewError(message, timestamp=exc.timestamp, now=exc.now, tolerance=exc.tolerance)
    # A refusal added to the core later is still a signature error to callers of this release.
    return WebhookSignatureError(message)


# --- Typed payloads (SPEC 6.2) ------------------------------------------------------------------------


@attrs.frozen
class WebhookData:
    """Base of the typed ``data`` classes; ``isinstance(event.data, PlayerRegistered)`` picks a kind."""


@attrs.frozen
class PlayerRegistered(WebhookData):
    """``player.registered``: the player row was first created."""

    player_id: str
    external_player_id: str
    first_seen_at: datetime
    context_snapshot: dict[str, Any]


@attrs.frozen
class PlayerSecretChange(WebhookData):
    """The fields shared by ``player.secret_set`` and ``player.secret_rotated``."""

    player_id: str
    external_player_id: str
    secret_prefix: str
    registered_at: datetime
    secret_rotated_at: datetime | None
    via: str


@attrs.frozen
class PlayerSecretSet(PlayerSecretChange):
    """``player.secret_set``: the first secret was minted (``via`` ``sdk_register``)."""


@attrs.frozen
class PlayerSecretRotated(PlayerSecretChange):
    """``player.secret_rotated``: the secret was replaced (``via`` e.g. ``force_rotate``)."""


@attrs.frozen
class WebhookEndpointFailed(WebhookData):
    """``webhook.endpoint.failed``: another endpoint of the game tripped its circuit breaker."""

    endpoint_id: str
    endpoint_key: str
    url: str
    consecutive_failures: int
    threshold: int
    last_status: int | None
    last_error: str | None
    reason: str


@attrs.frozen
class GrantChange(WebhookData):
    """``grant.created``, ``grant.claimed``, ``grant.expired``: the grant record (docs/grants.md)."""

    grant_id: str
    player_id: str
    external_player_id: str
    kind: str
    status: str
    entries: list[RewardEntry]
    source_kind: str
    source_ref_id: str | None
    metadata: dict[str, Any]
    created_at: datetime
    claimed_at: datetime | None
    expires_at: datetime | None
    acked_by: str | None


@attrs.frozen
class GrantCreated(GrantChange):
    pass


@attrs.frozen
class GrantClaimed(GrantChange):
    pass


@attrs.frozen
class GrantExpired(GrantChange):
    pass


@attrs.frozen
class BalanceChange(WebhookData):
    player_id: str
    external_player_id: str
    delta: int
    reason: str
    note: str | None
    source_ref_id: str | None
    entry_id: str
    actor: dict[str, Any]
    changed_at: datetime


@attrs.frozen
class WalletChanged(BalanceChange):
    """``wallet.changed``: a platform-managed currency balance changed."""

    economy_key: str
    balance: int


@attrs.frozen
class InventoryChanged(BalanceChange):
    """``inventory.changed``: a platform-managed item quantity changed."""

    item_key: str
    quantity: int
    parameters: dict[str, Any]


@attrs.frozen
class FriendRequestSent(WebhookData):
    """``friend.request_sent``: a pending request was created (never on a reciprocal add)."""

    requester_player_id: str
    requester_external_player_id: str
    target_player_id: str
    target_external_player_id: str
    request_id: str
    created_at: datetime


@attrs.frozen
class FriendRequestAccepted(WebhookData):
    """``friend.request_accepted``: once per new friendship. ``player_id``/``external_player_id`` is the
    player who accepted (on a reciprocal add, the one who added); ``reciprocal`` tells which it was."""

    request_id: str
    player_id: str
    external_player_id: str
    friend_player_id: str
    friend_external_player_id: str
    reciprocal: bool
    friends_since: datetime


@attrs.frozen
class FriendRemoved(WebhookData):
    """``friend.removed``: a friendship ended; ``reason`` is ``removed`` or ``blocked``. ``player_id`` is
    the player who removed or blocked."""

    player_id: str
    external_player_id: str
    friend_player_id: str
    friend_external_player_id: str
    reason: str
    removed_at: datetime


@attrs.frozen
class GiftSent(WebhookData):
    """``gift.sent``: a player sent a friend a gift, which waits for the recipient to claim it; fires
    beside ``grant.created`` for the delivering pending grant (``grant_id``). ``type`` is ``item`` or
    ``currency``. ``deducted_from_sender`` is true when the amount was taken from the sender's
    platform-managed balance (the resource costs the sender); otherwise the gift was minted.
    ``expires_at`` is ``None`` when gifts never expire in this game."""

    gift_id: str
    grant_id: str
    sender_player_id: str
    sender_external_player_id: str
    recipient_player_id: str
    recipient_external_player_id: str
    type: str
    resource_key: str
    amount: int
    deducted_from_sender: bool
    message: str | None
    sent_at: datetime
    expires_at: datetime | None


@attrs.frozen
class GiftClaimed(WebhookData):
    """``gift.claimed``: the recipient claimed the gift and its contents were credited to them now;
    fires beside ``grant.claimed`` for the delivering grant (``grant_id``)."""

    gift_id: str
    grant_id: str
    sender_player_id: str
    sender_external_player_id: str
    recipient_player_id: str
    recipient_external_player_id: str
    type: str
    resource_key: str
    amount: int
    claimed_at: datetime


@attrs.frozen
class PlayerBanned(WebhookData):
    """``player.banned``: the player went from not banned to banned (a re-ban fires nothing).
    ``actor`` is ``{"kind": "api_key", "prefix": ...}`` or ``{"kind": "member", "memberId": ...}``."""

    player_id: str
    external_player_id: str
    reason: str
    banned_at: datetime
    actor: dict[str, Any]


@attrs.frozen
class PlayerUnbanned(WebhookData):
    """``player.unbanned``: a banned player was unbanned (unbanning a player who is not banned fires
    nothing). ``actor`` as in :class:`PlayerBanned`."""

    player_id: str
    external_player_id: str
    unbanned_at: datetime
    actor: dict[str, Any]


@attrs.frozen
class PlayerMerged(WebhookData):
    """``player.merged``: player ``from_*`` was folded into ``to_*``. The source's row now carries
    ``anonymized_external_player_id`` (a ``__merged_<uuid>__`` placeholder) and its original id is
    free again. ``actor`` is ``{"kind": "api_key", "prefix": ...}``."""

    from_player_id: str
    from_external_player_id: str
    to_player_id: str
    to_external_player_id: str
    anonymized_external_player_id: str
    merged_at: datetime
    actor: dict[str, Any]


@attrs.frozen
class PlayerDeleted(WebhookData):
    """``player.deleted``: sent before the player is anonymized, with the original
    ``external_player_id``; the row then carries ``anonymized_external_id`` (``__deleted_<uuid>__``).
    ``reason`` is ``gdpr_erasure``, ``studio_request`` or ``test``. Erase your own copy of the player."""

    player_id: str
    external_player_id: str
    reason: str
    anonymized_external_id: str


@attrs.frozen
class PurchaseTracked(WebhookData):
    """``purchase.tracked``: once per store transaction (a re-report of ``transaction_id`` fires
    nothing). ``amount_minor`` is what was charged in ``currency``; ``normalized_amount_minor`` the
    same in US cents at ``fx_rate`` (USD per unit). ``validation_status`` is ``unverified`` or
    ``verified``; ``lifetime_amount_minor`` and ``purchase_count`` are the player's totals after it."""

    purchase_id: str
    player_id: str
    external_player_id: str
    transaction_id: str
    store: str
    product_id: str
    product_type: str
    amount_minor: int
    currency: str
    normalized_amount_minor: int
    fx_rate: float
    validation_status: str
    purchased_at: datetime
    lifetime_amount_minor: int
    purchase_count: int
    metadata: dict[str, Any]


# One line per kind; kinds not listed keep ``data`` as a dict.
PAYLOAD_TYPES: dict[str, type[WebhookData]] = {
    "player.registered": PlayerRegistered,
    "player.secret_set": PlayerSecretSet,
    "player.secret_rotated": PlayerSecretRotated,
    "webhook.endpoint.failed": WebhookEndpointFailed,
    "grant.created": GrantCreated,
    "grant.claimed": GrantClaimed,
    "grant.expired": GrantExpired,
    "wallet.changed": WalletChanged,
    "inventory.changed": InventoryChanged,
    "friend.request_sent": FriendRequestSent,
    "friend.request_accepted": FriendRequestAccepted,
    "friend.removed": FriendRemoved,
    "gift.sent": GiftSent,
    "gift.claimed": GiftClaimed,
    "player.banned": PlayerBanned,
    "player.unbanned": PlayerUnbanned,
    "player.merged": PlayerMerged,
    "player.deleted": PlayerDeleted,
    "purchase.tracked": PurchaseTracked,
}


# --- The event ----------------------------------------------------------------------------------------


@attrs.frozen
class WebhookEvent:
    """One delivery, verified. ``id`` is the same on every retry and replay of an event: dedupe by it."""

    id: str
    event_name: str
    studio_id: str
    game_id: str
    occurred_at: datetime
    delivery_attempt: int
    data: WebhookData | dict[str, Any]
    # Everything that was sent, including fields newer than this client's classes.
    raw: dict[str, Any] = attrs.field(factory=dict, repr=False, eq=False)


@attrs.frozen
class _Envelope:
    id: str
    event_name: str
    studio_id: str
    game_id: str
    occurred_at: datetime
    delivery_attempt: int
    data: dict[str, Any]


def verify(
    payload: bytes,
    header: str | None,
    secret: str | Sequence[str],
    *,
    tolerance: int = DEFAULT_TOLERANCE,
    future_tolerance: int = DEFAULT_FUTURE_TOLERANCE,
    now: int | None = None,
) -> None:
    """Check that ``header`` (the ``X-Signature`` value; ``None`` when it was absent) signs the raw
    ``payload`` under one of the secrets and is fresh. ``now`` (Unix seconds) defaults to this machine's
    clock. Raises a :class:`WebhookSignatureError` subclass."""
    when = int(time.time()) if now is None else now
    try:
        signing.verify_header(
            payload, header or "", secret, now=when, tolerance=tolerance, future_tolerance=future_tolerance
        )
    except signing.SignatureError as exc:
        raise _client_error(exc) from exc


def construct_event(
    payload: bytes,
    header: str | None,
    secret: str | Sequence[str],
    *,
    tolerance: int = DEFAULT_TOLERANCE,
    future_tolerance: int = DEFAULT_FUTURE_TOLERANCE,
    now: int | None = None,
) -> WebhookEvent:
    """:func:`verify`, then read the envelope. Raises :class:`WebhookSignatureError` subclasses, or
    :class:`InvalidPayloadError` for an authentic body that is not a webhook envelope."""
    verify(payload, header, secret, tolerance=tolerance, future_tolerance=future_tolerance, now=now)
    body = _decode(payload)
    try:
        envelope = response_converter.structure(body, _Envelope)
    except (cattrs.BaseValidationError, ValueError, TypeError) as exc:
        raise _shape_error(exc, "") from None
    data: WebhookData | dict[str, Any] = envelope.data
    payload_type = PAYLOAD_TYPES.get(envelope.event_name)
    if payload_type is not None:
        try:
            data = response_converter.structure(envelope.data, payload_type)
        except (cattrs.BaseValidationError, ValueError, TypeError) as exc:
            raise _shape_error(exc, "data") from None
    return WebhookEvent(
        id=envelope.id,
        event_name=envelope.event_name,
        studio_id=envelope.studio_id,
        game_id=envelope.game_id,
        occurred_at=envelope.occurred_at,
        delivery_attempt=envelope.delivery_attempt,
        data=data,
        raw=body,
    )


def _decode(payload: bytes) -> dict[str, Any]:
    try:
        body = orjson.loads(payload)
    except orjson.JSONDecodeError as exc:
        # Find out which it was only on this error path, so valid bodies are not decoded twice.
        try:
            bytes(payload).decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidPayloadError("the webhook body is not UTF-8 text") from None
        raise InvalidPayloadError(f"the webhook body is not JSON: {exc}") from None
    if not isinstance(body, dict):
        raise InvalidPayloadError(
            "the webhook body is not a JSON object", fields={"body": "must be an object"}
        )
    return body


def _shape_error(exc: BaseException, prefix: str) -> InvalidPayloadError:
    if isinstance(exc, cattrs.BaseValidationError):
        fields = field_errors(exc)
    else:
        fields = {prefix or "body": str(exc)}
    if prefix:
        fields = {(f"{prefix}.{path}" if path != "body" else prefix): text for path, text in fields.items()}
    listed = ", ".join(f"{path} {text}" for path, text in sorted(fields.items()))
    return InvalidPayloadError(f"the webhook body is not a valid envelope: {listed}", fields=fields)
