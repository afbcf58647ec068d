"""Wire models: request bodies and the objects inside ``data`` of responses.

snake_case here, camelCase on the wire (see :mod:`livecore.api.convert`). Field names and shapes follow
SPEC 2 and DECISIONS 2 and 7 exactly; fields beyond those are additive (SPEC 9 rule 2).
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

import attrs

from livecore.api.convert import OMIT_IF_NONE
from livecore.games import ResourceType
from livecore.gifts import Gift, GiftStatus
from livecore.grants import AckedBy, Entry, Grant, GrantKind, GrantStatus, effective_status
from livecore.identity import Identity
from livecore.migration import InventoryRow, PlayerRow, WalletRow
from livecore.players import Player
from livecore.purchases import PurchaseRequest, ValidationStatus

# --- Shared shapes --------------------------------------------------------------------------------


@attrs.frozen
class IdentityView:
    """``{name, avatar, country}`` (SPEC 2.2)."""

    name: str
    avatar: str | None
    country: str | None

    @classmethod
    def of(cls, identity: Identity, country: str | None) -> IdentityView:
        return cls(name=identity.name, avatar=identity.avatar, country=country)


def display_view(player: Player) -> IdentityView:
    """DECISIONS 7: always an object, the anonymized value when never set."""
    return IdentityView.of(player.display or player.anonymized, player.country)


def anonymized_view(player: Player) -> IdentityView:
    return IdentityView.of(player.anonymized, player.country)


# --- Admin ----------------------------------------------------------------------------------------


@attrs.frozen
class HealthResponse:
    status: str
    version: str
    time: datetime


# --- Server: ping and dev clock -------------------------------------------------------------------


@attrs.frozen
class ServerPingResponse:
    ok: bool
    studio_id: str
    game_id: str
    environment: str
    key_prefix: str
    time: datetime


@attrs.frozen
class ClockAdvanceRequest:
    seconds: float


@attrs.frozen
class ClockAdvanceResponse:
    now: datetime


# --- Players: register and identity ---------------------------------------------------------------


@attrs.frozen
class RegisterRequest:
    """Optional body of register. ``playerContext.country`` overrides the geo-resolved country."""

    player_context: dict[str, Any] | None = None


@attrs.frozen
class RegisterQuery:
    force: bool = False


@attrs.frozen
class RegisterResponse:
    player_id: str
    external_player_id: str
    player_secret: str
    country: str | None
    synthetic_identity: IdentityView
    display_identity: IdentityView
    anonymized_identity: IdentityView


@attrs.frozen
class SetIdentityRequest:
    name: str
    avatar: str | None = None


@attrs.frozen
class IdentityResponse:
    display_identity: IdentityView


# --- Economy and grants ---------------------------------------------------------------------------


class GrantSourceKind(enum.StrEnum):
    """What a server grant request may name (SPEC 2.13); other source kinds come from features."""

    API = "api"
    ADMIN = "admin"


@attrs.frozen
class RewardEntry:
    """DECISIONS 7: ``{type, key, amount, parameters?}``; ``parameters`` only for items."""

    type: ResourceType
    key: str
    amount: int
    parameters: dict[str, Any] | None = attrs.field(default=None, metadata=OMIT_IF_NONE)

    def to_entry(self) -> Entry:
        return Entry(type=self.type, key=self.key, amount=self.amount, parameters=self.parameters)

    @classmethod
    def of(cls, entry: Entry) -> RewardEntry:
        return cls(type=entry.type, key=entry.key, amount=entry.amount, parameters=entry.parameters)


@attrs.frozen
class GrantView:
    """DECISIONS 7 grant record."""

    grant_id: str
    external_player_id: str
    kind: GrantKind
    status: GrantStatus
    entries: list[RewardEntry]
    source_kind: str
    source_ref_id: str | None
    metadata: dict[str, Any]
    created_at: datetime
    claimed_at: datetime | None
    expires_at: datetime | None
    acked_by: AckedBy | None

    @classmethod
    def of(cls, g: Grant, now: datetime | None = None) -> GrantView:
        return cls(
            grant_id=g.id,
            external_player_id=g.external_player_id,
            kind=g.kind,
            status=effective_status(g, now) if now is not None else g.status,
            entries=[RewardEntry.of(e) for e in g.entries],
            source_kind=g.source_kind,
            source_ref_id=g.source_ref_id,
            metadata=g.metadata,
            created_at=g.created_at,
            claimed_at=g.claimed_at,
            expires_at=g.expires_at,
            acked_by=g.acked_by,
        )


@attrs.frozen
class CreateGrantRequest:
    idempotency_key: str
    entries: list[RewardEntry]
    kind: GrantKind = GrantKind.REWARD
    expires_at: datetime | None = None
    source_kind: GrantSourceKind = GrantSourceKind.API
    source_ref_id: str | None = None
    metadata: dict[str, Any] | None = None


@attrs.frozen
class GrantResponse:
    grant: GrantView


@attrs.frozen
class GrantListResponse:
    grants: list[GrantView]


@attrs.frozen
class CurrencyBalance:
    key: str
    balance: int


@attrs.frozen
class WalletResponse:
    currencies: list[CurrencyBalance]


@attrs.frozen
class ItemHolding:
    key: str
    quantity: int
    parameters: dict[str, Any]
    # True for the read-only system progression items ``sessions`` and ``login_streak``.
    system: bool = False


@attrs.frozen
class InventoryResponse:
    items: list[ItemHolding]


@attrs.frozen
class AdjustWalletRequest:
    """Wallet credit/debit (SPEC 2.14). ``reason`` is free text recorded on the ledger entry."""

    amount: int
    reason: str | None = None
    source_ref_id: str | None = None
    idempotency_key: str | None = None


@attrs.frozen
class AdjustItemRequest:
    """Inventory grant/revoke/consume (SPEC 2.14); ``parameters`` only when granting."""

    quantity: int
    reason: str | None = None
    source_ref_id: str | None = None
    idempotency_key: str | None = None
    parameters: dict[str, Any] | None = None


@attrs.frozen
class WalletAdjustResponse:
    key: str
    balance: int
    delta: int
    entry_id: str


@attrs.frozen
class ItemAdjustResponse:
    key: str
    quantity: int
    delta: int
    parameters: dict[str, Any]
    entry_id: str


# --- Friends and presence (issue #5) ---------------------------------------------------------------


@attrs.frozen
class ProgressionQuery:
    """``progression``: up to 8 economy keys, comma-separated or repeated (DECISIONS 2)."""

    progression: list[str] | None = None


@attrs.frozen
class SuggestionsQuery:
    limit: int = 5
    progression: list[str] | None = None


@attrs.frozen
class SearchQuery:
    q: str
    limit: int = 20
    progression: list[str] | None = None


@attrs.frozen
class Counterparty:
    external_player_id: str
    display_identity: IdentityView


@attrs.frozen
class FriendRow:
    """SPEC 2.5."""

    external_player_id: str
    display_identity: IdentityView
    friends_since: datetime
    online: bool
    last_active_at: datetime | None
    status: str | None
    gift_cooldown_until: datetime | None = attrs.field(default=None, metadata=OMIT_IF_NONE)
    progression: dict[str, int] | None = attrs.field(default=None, metadata=OMIT_IF_NONE)


@attrs.frozen
class SuggestionRow:
    """SPEC 2.6: the friend row without ``friendsSince`` and ``giftCooldownUntil``."""

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
    """SPEC 2.7."""

    display_identity: IdentityView
    external_player_id: str
    relationship: RelationshipView
    progression: dict[str, int] | None = attrs.field(default=None, metadata=OMIT_IF_NONE)


class Direction(enum.StrEnum):
    INCOMING = "incoming"
    OUTGOING = "outgoing"


@attrs.frozen
class RequestRow:
    """SPEC 2.8."""

    request_id: str
    direction: Direction
    player: Counterparty
    created_at: datetime
    progression: dict[str, int] | None = attrs.field(default=None, metadata=OMIT_IF_NONE)


@attrs.frozen
class BlockRow:
    """SPEC 2.9 plus ``externalPlayerId`` (DECISIONS 2)."""

    external_player_id: str
    display_identity: IdentityView
    blocked_at: datetime


@attrs.frozen
class FriendTarget:
    """Exactly one of ``friendCode`` and ``externalPlayerId`` (DECISIONS 2)."""

    friend_code: str | None = None
    external_player_id: str | None = None
    idempotency_key: str | None = None


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
    status: str | None = None


@attrs.frozen
class PresenceResponse:
    online: bool
    last_active_at: datetime | None
    status: str | None


# --- Gifting (issue #6) ----------------------------------------------------------------------------


@attrs.frozen
class SendGiftRequest:
    """SPEC 4.1 send gift; the target is exactly one of ``externalPlayerId`` and ``friendCode``."""

    type: ResourceType
    resource_key: str
    amount: int
    external_player_id: str | None = None
    friend_code: str | None = None
    message: str | None = None
    idempotency_key: str | None = None


@attrs.frozen
class GiftView:
    """SPEC 2.11, seen by one of its two players (``direction`` and ``player`` are relative to them).
    The server gift history adds ``grantStatus``, the delivering grant's status."""

    gift_id: str
    grant_id: str
    direction: Direction
    player: Counterparty
    type: ResourceType
    resource_key: str
    amount: int
    message: str | None
    status: GiftStatus
    sent_at: datetime
    claimed_at: datetime | None
    expires_at: datetime | None
    grant_status: GrantStatus | None = attrs.field(default=None, metadata=OMIT_IF_NONE)

    @classmethod
    def of(
        cls, gift: Gift, viewer_id: str, counterparty: Player, grant_status: GrantStatus | None = None
    ) -> GiftView:
        return cls(
            gift_id=gift.id,
            grant_id=gift.grant_id,
            direction=Direction.OUTGOING if gift.sender_id == viewer_id else Direction.INCOMING,
            player=Counterparty(
                external_player_id=counterparty.external_id, display_identity=display_view(counterparty)
            ),
            type=gift.type,
            resource_key=gift.resource_key,
            amount=gift.amount,
            message=gift.message,
            status=gift.status,
            sent_at=gift.sent_at,
            claimed_at=gift.claimed_at,
            expires_at=gift.expires_at,
            grant_status=grant_status,
        )


@attrs.frozen
class GiftResponse:
    gift: GiftView


@attrs.frozen
class GiftCatalogResource:
    type: ResourceType
    key: str
    max_amount: int
    costs_sender: bool


@attrs.frozen
class GiftCatalogResponse:
    """SPEC 2.12, plus ``enabled`` (additive): the game's gifting switch."""

    enabled: bool
    cooldown_seconds: int
    daily_send_limit: int | None
    sent_today: int
    resources: list[GiftCatalogResource]


@attrs.frozen
class GiftListQuery:
    """Inbox and sent lists: ``pending=true`` keeps gifts still claimable; ``limit`` 1 to 200."""

    pending: bool = False
    limit: int = 100


class GiftHistoryDirection(enum.StrEnum):
    RECEIVED = "received"
    SENT = "sent"


@attrs.frozen
class ServerGiftsQuery:
    direction: GiftHistoryDirection = GiftHistoryDirection.RECEIVED
    limit: int = 50


@attrs.frozen
class ServerGiftsResponse:
    direction: GiftHistoryDirection
    gifts: list[GiftView]


# --- Player tools (issue #7) ----------------------------------------------------------------------


@attrs.frozen
class ProfileQuery:
    limit: int = 50


@attrs.frozen
class ProfilePlayer:
    id: str
    external_player_id: str
    first_seen_at: datetime
    last_seen_at: datetime
    last_context_snapshot: dict[str, Any]
    display_identity: IdentityView
    banned: bool
    debug: bool
    lifecycle: str


@attrs.frozen
class ProfileSummary:
    attempt_count: int
    attempts_completed: int
    attempts_expired: int
    grants_pending: int
    grants_claimed: int
    lobbies_active: int


@attrs.frozen
class PlayerProfileResponse:
    """SPEC 2.14 player profile; ``attempts`` and ``lobbies`` stay empty until those features exist."""

    player: ProfilePlayer
    attempts: list[dict[str, Any]]
    grants: list[GrantView]
    lobbies: list[dict[str, Any]]
    summary: ProfileSummary


@attrs.frozen
class BanRequest:
    reason: str


@attrs.frozen
class BanState:
    external_player_id: str
    banned: bool
    reason: str | None
    banned_at: datetime | None


@attrs.frozen
class BanPlayerResponse:
    applied: bool
    ban: BanState


@attrs.frozen
class DebugRequest:
    reason: str | None = None


@attrs.frozen
class DebugPlayerResponse:
    applied: bool
    external_player_id: str
    debug: bool
    reason: str | None
    flagged_at: datetime | None


@attrs.frozen
class MergePlayerResponse:
    status: str  # "merged" or "no_op_already_merged"
    from_external_player_id: str
    to_external_player_id: str
    anonymized_external_player_id: str
    merged_at: datetime


class ErasureReasonView(enum.StrEnum):
    GDPR_ERASURE = "gdpr_erasure"
    STUDIO_REQUEST = "studio_request"
    TEST = "test"


@attrs.frozen
class DeletePlayerRequest:
    reason: ErasureReasonView = ErasureReasonView.GDPR_ERASURE


@attrs.frozen
class DeletePlayerResponse:
    status: str  # "deleted", "no_op_already_deleted", "no_op_not_found"
    anonymized_external_id: str | None


@attrs.frozen
class HoldingView:
    key: str
    amount: int
    parameters: dict[str, Any] | None = attrs.field(default=None, metadata=OMIT_IF_NONE)


@attrs.frozen
class ExportPlayer:
    id: str
    external_player_id: str
    first_seen_at: datetime
    last_seen_at: datetime
    display_identity: IdentityView
    anonymized_identity: IdentityView
    country: str | None
    context: dict[str, Any]
    registered_at: datetime | None
    banned: bool
    ban_reason: str | None
    debug: bool
    lifecycle: str
    sessions: int
    login_streak: int
    best_login_streak: int
    friend_code: str | None


@attrs.frozen
class ExportPlayerResponse:
    """The bundle of SPEC 4.3, each list capped at 1,000 rows (plus purchases, additive)."""

    player: ExportPlayer
    attempts: list[dict[str, Any]]
    grants: list[GrantView]
    inventory: list[HoldingView]
    wallet: list[HoldingView]
    lobby_memberships: list[dict[str, Any]]
    purchases: list[PurchaseView]


# Purchases and spend


ValidationStatusView = ValidationStatus


@attrs.frozen
class TrackPurchaseRequest:
    """DECISIONS 7 purchase body (client route)."""

    transaction_id: str
    store: str
    product_id: str
    product_type: str
    amount_minor: int
    currency: str
    purchased_at: datetime | None = None
    metadata: dict[str, Any] | None = None


# The server body is the core's purchase request: the client body plus ``validationStatus``.
ServerTrackPurchaseRequest = PurchaseRequest


@attrs.frozen
class PurchaseView:
    purchase_id: str
    external_player_id: str
    transaction_id: str
    store: str
    product_id: str
    product_type: str
    amount_minor: int
    currency: str
    normalized_amount_minor: int
    fx_rate: float
    validation_status: ValidationStatusView
    purchased_at: datetime
    tracked_at: datetime
    metadata: dict[str, Any]


@attrs.frozen
class TrackPurchaseResponse:
    purchase: PurchaseView
    lifetime_amount_minor: int
    purchase_count: int


@attrs.frozen
class PurchaseListQuery:
    limit: int = 50
    cursor: str | None = None


@attrs.frozen
class PurchaseListResponse:
    purchases: list[PurchaseView]
    next_cursor: str | None


@attrs.frozen
class SpendQuery:
    """``windows``: day counts, comma-separated or repeated (``windows=7,30``)."""

    windows: list[int] | None = None


@attrs.frozen
class SpendWindow:
    days: int
    amount_minor: int
    purchase_count: int


@attrs.frozen
class PlayerSpendResponse:
    external_player_id: str
    lifetime_amount_minor: int
    purchase_count: int
    first_purchase_at: datetime | None
    last_purchase_at: datetime | None
    windows: list[SpendWindow]
    debug: bool


@attrs.frozen
class SpendPlayersQuery:
    min_amount_minor: int = 0
    window_days: int | None = None
    limit: int = 50
    offset: int = 0


@attrs.frozen
class Spender:
    external_player_id: str
    amount_minor: int
    purchase_count: int
    last_purchase_at: datetime


@attrs.frozen
class SpendQueryResponse:
    players: list[Spender]
    min_amount_minor: int
    window_days: int | None
    limit: int
    offset: int


@attrs.frozen
class RevenueQuery:
    """``from``/``to``: timestamps or dates (a date ``to`` includes that whole UTC day)."""

    from_: str | None = None  # on the wire: ``from``
    to: str | None = None


@attrs.frozen
class ProductRevenue:
    product_id: str
    amount_minor: int
    purchase_count: int


@attrs.frozen
class DayRevenue:
    date: str
    amount_minor: int
    purchase_count: int


@attrs.frozen
class RevenueSummaryResponse:
    from_: datetime  # on the wire: ``from``
    to: datetime
    gross_amount_minor: int
    purchase_count: int
    paying_players: int
    arppu_minor: int | None
    per_product: list[ProductRevenue]
    per_day: list[DayRevenue]


# Migration


# The rows are the core's records (DECISIONS 7 names their fields): one definition for both.
MigratePlayerRow = PlayerRow
MigrateWalletRow = WalletRow
MigrateInventoryRow = InventoryRow


@attrs.frozen
class MigratePlayersRequest:
    rows: list[MigratePlayerRow]
    emit_webhooks: bool = False


@attrs.frozen
class MigrateWalletRequest:
    rows: list[MigrateWalletRow]
    emit_webhooks: bool = False


@attrs.frozen
class MigrateInventoryRequest:
    rows: list[MigrateInventoryRow]
    emit_webhooks: bool = False


@attrs.frozen
class MigrateFailure:
    index: int
    idempotency_key: str
    code: str
    message: str


@attrs.frozen
class MigrateOutcome:
    """DECISIONS 7."""

    applied: int
    replayed: int
    failed: int
    failures: list[MigrateFailure]


# --- Errors (OpenAPI only: the server renders the envelope directly) ------------------------------


@attrs.frozen
class ErrorBody:
    code: str
    message: str
    details: dict[str, Any] | None = attrs.field(default=None, metadata=OMIT_IF_NONE)


@attrs.frozen
class ErrorEnvelope:
    error: ErrorBody
