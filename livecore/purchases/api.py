"""Purchases and spend: tracking store purchases, the purchase list, per-player spend and revenue."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

import attrs

from livecore.api.route import Auth, Idempotency, Route, Surface, server_route
from livecore.errors import IDEMPOTENCY_CONFLICT
from livecore.limits import MOMENT, NOT_NEGATIVE, OFFSET, PAGE, limited
from livecore.players.errors import PLAYER_NOT_FOUND
from livecore.players.routes import PLAYER_PATH, PLAYER_WRITE_ERRORS
from livecore.purchases import rules as purchases
from livecore.purchases.errors import UNKNOWN_CURRENCY
from livecore.purchases.rules import WINDOW_DAYS, WINDOWS, Purchase, ValidationStatus

if TYPE_CHECKING:
    from livecore.purchases.commands import Tracked

ValidationStatusView = ValidationStatus


# The client's body and the server's are the core's: the server's adds ``validationStatus``.
TrackPurchaseRequest = purchases.TrackPurchaseRequest
ServerTrackPurchaseRequest = purchases.PurchaseRequest


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

    @classmethod
    def of(cls, p: Purchase) -> PurchaseView:
        return cls(
            purchase_id=p.id,
            external_player_id=p.external_player_id,
            transaction_id=p.transaction_id,
            store=p.store,
            product_id=p.product_id,
            product_type=p.product_type,
            amount_minor=p.amount_minor,
            currency=p.currency,
            normalized_amount_minor=p.normalized_amount_minor,
            fx_rate=p.fx_rate,
            validation_status=p.validation_status,
            purchased_at=p.purchased_at,
            tracked_at=p.tracked_at,
            metadata=p.metadata,
        )


@attrs.frozen
class TrackPurchaseResponse:
    purchase: PurchaseView
    lifetime_amount_minor: int
    purchase_count: int

    @classmethod
    def of(cls, done: Tracked) -> TrackPurchaseResponse:
        """The purchase tracked (or tracked first, on a repeat) and the player's spend after it."""
        return cls(
            purchase=PurchaseView.of(done.purchase),
            lifetime_amount_minor=done.spend.lifetime_amount_minor,
            purchase_count=done.spend.purchase_count,
        )


@attrs.frozen
class PurchaseListQuery:
    limit: int = attrs.field(default=50, metadata=limited(PAGE))
    cursor: str | None = None


@attrs.frozen
class PurchaseListResponse:
    purchases: list[PurchaseView]
    next_cursor: str | None


@attrs.frozen
class SpendQuery:
    """``windows``: day counts, comma-separated or repeated (``windows=7,30``)."""

    windows: list[int] | None = attrs.field(default=None, metadata=limited(WINDOW_DAYS, count=WINDOWS))


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
    min_amount_minor: int = attrs.field(default=0, metadata=limited(NOT_NEGATIVE))
    window_days: int | None = attrs.field(default=None, metadata=limited(WINDOW_DAYS))
    limit: int = attrs.field(default=50, metadata=limited(PAGE))
    offset: int = attrs.field(default=0, metadata=limited(OFFSET))


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

    from_: str | None = attrs.field(default=None, metadata=limited(MOMENT))  # on the wire: ``from``
    to: str | None = attrs.field(default=None, metadata=limited(MOMENT))


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


_PURCHASE_ERRORS = (PLAYER_NOT_FOUND, UNKNOWN_CURRENCY, IDEMPOTENCY_CONFLICT)


SDK_TRACK_PURCHASE = Route(
    name="purchases.track",
    surface=Surface.SDK,
    method="POST",
    path=f"{PLAYER_PATH}/purchases",
    summary="Report a store purchase (unverified); idempotent on transactionId.",
    auth=Auth.PLAYER,
    request=TrackPurchaseRequest,
    response=TrackPurchaseResponse,
    idempotency=Idempotency.OPTIONAL,
    errors=(*PLAYER_WRITE_ERRORS, *_PURCHASE_ERRORS),
)


SERVER_TRACK_PURCHASE = server_route(
    "server.purchases.track",
    "POST",
    f"{PLAYER_PATH}/purchases",
    "Track a purchase (may be marked verified); idempotent on transactionId.",
    TrackPurchaseResponse,
    request=ServerTrackPurchaseRequest,
    errors=_PURCHASE_ERRORS,
)


SERVER_PURCHASES = server_route(
    "server.purchases.list",
    "GET",
    f"{PLAYER_PATH}/purchases",
    "A player's purchases, newest first, with a keyset cursor.",
    PurchaseListResponse,
    query=PurchaseListQuery,
    errors=(PLAYER_NOT_FOUND,),
)


PLAYER_SPEND = server_route(
    "server.spend.player",
    "GET",
    f"{PLAYER_PATH}/spend",
    "A player's spend in US cents: lifetime, count, first and last, rolling windows.",
    PlayerSpendResponse,
    query=SpendQuery,
    errors=(PLAYER_NOT_FOUND,),
)


SPEND_PLAYERS = server_route(
    "server.spend.players",
    "GET",
    "/spend/players",
    "Players at or above a spend threshold, highest first (debug accounts left out).",
    SpendQueryResponse,
    query=SpendPlayersQuery,
)


SPEND_SUMMARY = server_route(
    "server.spend.summary",
    "GET",
    "/spend/summary",
    "Revenue summary: gross, purchases, paying players, ARPPU, per product and per day (US cents).",
    RevenueSummaryResponse,
    query=RevenueQuery,
)

ROUTES = (
    SDK_TRACK_PURCHASE,
    SERVER_TRACK_PURCHASE,
    SERVER_PURCHASES,
    PLAYER_SPEND,
    SPEND_PLAYERS,
    SPEND_SUMMARY,
)
