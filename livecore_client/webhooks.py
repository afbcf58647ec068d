"""Verify and read livecore webhooks in a studio's backend (docs/reference/webhooks.md#kinds).

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
- ``data`` is a typed class for every kind in :data:`PAYLOAD_TYPES` and a plain ``dict`` for other kinds, so a
  new kind never breaks an older client. A studio's own areas' kinds are typed too when their declarations
  are passed, ``construct_event(..., areas=[QUESTS])`` (each :attr:`livecore.area.Area.webhooks`): passed,
  not registered, so a process reads exactly the kinds it is given. The classes are the service's own
  payload classes from ``livecore.webhooks`` (re-exported here), the same ones its commands build and
  serialise. :class:`WebhookEvent` is the core's (``livecore.webhooks.event``): a simulation answers the
  same class for the events it emitted (``sim.received()``). Unknown fields are ignored because the contract
  (docs/reference/conventions.md#versioning-and-deprecation) lets new optional fields land in v1 without
  notice. ``WebhookEvent.raw`` keeps the whole decoded envelope.
- A crate grant's entries (in ``grant.*`` of kind ``crate``, and ``crate.opened``'s ``crates``) read as
  :class:`CrateEntry`, the entry type the crates area declares (docs/client.md#what-a-client-alone-reads).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import attrs
import cattrs
import orjson

from livecore.api.convert import field_errors, response_converter
from livecore.crates import webhooks as _crates
from livecore.crates.rules import CrateEntry
from livecore.crates.webhooks import CrateOpened
from livecore.economy import webhooks as _economy
from livecore.economy.webhooks import BalanceChange, InventoryChanged, WalletChanged
from livecore.friends import webhooks as _friends
from livecore.friends.webhooks import FriendRemoved, FriendRequestAccepted, FriendRequestSent
from livecore.gifts import webhooks as _gifts
from livecore.gifts.webhooks import GiftClaimed, GiftPayload, GiftSent
from livecore.grants import webhooks as _grants
from livecore.grants.webhooks import GrantChange, GrantClaimed, GrantCreated, GrantExpired
from livecore.guilds import webhooks as _guilds
from livecore.guilds.webhooks import (
    GuildCreated,
    GuildDisbanded,
    GuildHelpDonated,
    GuildHelpRequested,
    GuildJoinRequested,
    GuildMemberJoined,
    GuildMemberLeft,
    GuildPayload,
    GuildRoleChanged,
    GuildUpdated,
)
from livecore.leaderboards import webhooks as _leaderboards
from livecore.leaderboards.webhooks import PeriodEntry, PeriodFinalized
from livecore.live_events import webhooks as _live_events
from livecore.live_events.webhooks import (
    AttemptCompleted,
    AttemptExpired,
    AttemptFlagged,
    AttemptForceCompleted,
    AttemptRestarted,
    AttemptStarted,
    AttemptState,
    Cost,
    CostLine,
    EntryCostCharged,
    FinalEntry,
    LeaderboardFinalized,
    MetricSnapshot,
    MilestoneGranted,
    ProgressUpdated,
    WindowChange,
    WindowClosed,
    WindowOpened,
)
from livecore.lobbies import webhooks as _lobbies
from livecore.lobbies.webhooks import (
    FilledBot,
    LobbyBotFilled,
    LobbyClosed,
    LobbyCreated,
    LobbyFillTimeout,
    LobbyPlayerJoined,
    LobbyPromotion,
    LobbyStarted,
    SessionFrozen,
    SessionTerminated,
)
from livecore.players import webhooks as _players
from livecore.players.webhooks import (
    PlayerBanned,
    PlayerDeleted,
    PlayerMerged,
    PlayerRegistered,
    PlayerSecretChange,
    PlayerSecretRotated,
    PlayerSecretSet,
    PlayerUnbanned,
)
from livecore.purchases import webhooks as _purchases
from livecore.purchases.webhooks import PurchaseTracked
from livecore.teams import webhooks as _teams
from livecore.teams.webhooks import (
    EventTeamFinalized,
    EventTeamFormed,
    EventTeamGoalCompleted,
    EventTeamMemberJoined,
    EventTeamMemberLeft,
    EventTeamMilestoneUnlocked,
    PartnerInviteAccepted,
    PartnerInvitePayload,
    PartnerInviteSent,
)
from livecore.webhooks import endpoints as _endpoints
from livecore.webhooks import signing
from livecore.webhooks.endpoints import WebhookEndpointFailed
from livecore.webhooks.event import WebhookEvent
from livecore.webhooks.payload import WebhookPayload
from livecore.webhooks.signing import DEFAULT_FUTURE_TOLERANCE, DEFAULT_TOLERANCE, SIGNATURE_HEADER

from .errors import LivecoreClientError

if TYPE_CHECKING:
    from livecore.area import Area

__all__ = [
    "DEFAULT_FUTURE_TOLERANCE",
    "DEFAULT_TOLERANCE",
    "PAYLOAD_TYPES",
    "SIGNATURE_HEADER",
    "TEST_DELIVERY_HEADER",
    "AttemptCompleted",
    "AttemptExpired",
    "AttemptFlagged",
    "AttemptForceCompleted",
    "AttemptRestarted",
    "AttemptStarted",
    "AttemptState",
    "BalanceChange",
    "Cost",
    "CostLine",
    "CrateEntry",
    "CrateOpened",
    "EntryCostCharged",
    "EventTeamFinalized",
    "EventTeamFormed",
    "EventTeamGoalCompleted",
    "EventTeamMemberJoined",
    "EventTeamMemberLeft",
    "EventTeamMilestoneUnlocked",
    "FilledBot",
    "FinalEntry",
    "FriendRemoved",
    "FriendRequestAccepted",
    "FriendRequestSent",
    "GiftClaimed",
    "GiftPayload",
    "GiftSent",
    "GrantChange",
    "GrantClaimed",
    "GrantCreated",
    "GrantExpired",
    "GuildCreated",
    "GuildDisbanded",
    "GuildHelpDonated",
    "GuildHelpRequested",
    "GuildJoinRequested",
    "GuildMemberJoined",
    "GuildMemberLeft",
    "GuildPayload",
    "GuildRoleChanged",
    "GuildUpdated",
    "InvalidPayloadError",
    "InvalidSignatureError",
    "InventoryChanged",
    "LeaderboardFinalized",
    "LobbyBotFilled",
    "LobbyClosed",
    "LobbyCreated",
    "LobbyFillTimeout",
    "LobbyPlayerJoined",
    "LobbyPromotion",
    "LobbyStarted",
    "MalformedSignatureHeaderError",
    "MetricSnapshot",
    "MilestoneGranted",
    "PartnerInviteAccepted",
    "PartnerInvitePayload",
    "PartnerInviteSent",
    "PeriodEntry",
    "PeriodFinalized",
    "PlayerBanned",
    "PlayerDeleted",
    "PlayerMerged",
    "PlayerRegistered",
    "PlayerSecretChange",
    "PlayerSecretRotated",
    "PlayerSecretSet",
    "PlayerUnbanned",
    "ProgressUpdated",
    "PurchaseTracked",
    "SessionFrozen",
    "SessionTerminated",
    "TimestampTooNewError",
    "TimestampTooOldError",
    "WalletChanged",
    "WebhookData",
    "WebhookEndpointFailed",
    "WebhookError",
    "WebhookEvent",
    "WebhookPayload",
    "WebhookSignatureError",
    "WindowChange",
    "WindowClosed",
    "WindowOpened",
    "construct_event",
    "payload_types",
    "verify",
]

# Sample deliveries sent from the portal carry this header with the value "1", and their payloads hold
# placeholder values (docs/reference/webhooks.md).
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


# --- Typed payloads ----------------------------------------------------------------------------------
# The payload classes are the core's own (``livecore.webhooks``): the service builds and serialises the
# same classes that construct_event returns, so they cannot drift apart. They are re-exported here under
# the names this module has always had.

WebhookData = WebhookPayload
"""Base of the typed ``data`` classes; ``isinstance(event.data, PlayerRegistered)`` picks a kind."""

PAYLOAD_TYPES: dict[str, type[WebhookPayload]] = {
    payload.KIND: payload
    for module in (
        _players,
        _economy,
        _purchases,
        _grants,
        _crates,
        _friends,
        _gifts,
        _live_events,
        _lobbies,
        _leaderboards,
        _teams,
        _guilds,
        _endpoints,
    )
    for payload in module.PAYLOADS
}
"""Every kind of the built-in areas, with its class, in the areas' order: each area's payload module lists
its kinds (``PAYLOADS``), as its area declares them. Read from those modules rather than from the area
registry (``livecore.registry.webhook_kinds``, the same map), which imports every area's commands and stores;
tests/client/test_client_webhooks.py holds the two together."""


# --- The event ----------------------------------------------------------------------------------------


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
    areas: Iterable[Area] = (),
) -> WebhookEvent:
    """:func:`verify`, then read the envelope. Raises :class:`WebhookSignatureError` subclasses, or
    :class:`InvalidPayloadError` for an authentic body that is not a webhook envelope. ``areas``: a
    studio's own areas, whose kinds (:attr:`livecore.area.Area.webhooks`) are read into their payload
    classes as the built-in kinds are; a kind a built-in area or another of them declares already is a
    ``ValueError``."""
    kinds = payload_types(areas)
    verify(payload, header, secret, tolerance=tolerance, future_tolerance=future_tolerance, now=now)
    body = _decode(payload)
    try:
        envelope = response_converter.structure(body, _Envelope)
    except (cattrs.BaseValidationError, ValueError, TypeError) as exc:
        raise _shape_error(exc, "") from None
    data: WebhookData | dict[str, Any] = envelope.data
    payload_type = kinds.get(envelope.event_name)
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


def payload_types(areas: Iterable[Area] = ()) -> dict[str, type[WebhookPayload]]:
    """:data:`PAYLOAD_TYPES` and the kinds of ``areas`` (a studio's own), each with its class."""
    kinds = dict(PAYLOAD_TYPES)
    for area in areas:
        for cls in area.webhooks:
            if cls.KIND in kinds:
                raise ValueError(f"area {area.name}: webhook kind {cls.KIND} is declared twice")
            kinds[cls.KIND] = cls
    return kinds


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
