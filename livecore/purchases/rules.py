"""Purchases and spend (docs/reference/economy.md#purchases; ``purchase.tracked``:
docs/reference/webhooks.md#kinds).

Rules:
- A purchase is tracked once per ``transactionId`` in a game and environment: tracking it again
  answers the stored purchase (no second webhook, no second count); the same id with a different
  purchase (another player, product, amount or currency) is 409 ``idempotency_conflict``.
- ``amountMinor`` is in the currency's minor unit (cents; yen have none; dinars have thousandths, see
  :data:`livecore.currencies.EXPONENTS`). It is normalised to US cents with the manifest's exchange rate
  (USD per unit; USD is always 1):
  ``normalizedAmountMinor = round_half_even(amountMinor / 10^exponent * rate * 100)``.
  A currency with no rate on file is 400 ``unknown_currency``.
- ``validationStatus`` is ``unverified`` from the client route; the server route may say ``verified``,
  also for a purchase already tracked unverified (the status is upgraded; nothing else changes, no
  second webhook). A verified purchase never goes back to unverified.
- Spend is reported in US cents. A player's own spend (lifetime, count, first and last, rolling windows of
  N days back from now by ``purchasedAt``) always counts every purchase; revenue reporting (players above
  a threshold, the revenue summary) leaves out players flagged as debug accounts, whenever they were
  flagged (the flag applies retroactively at read time).
- ARPPU is gross / paying players rounded half-up to a whole cent, null when nobody paid.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from typing import Any

import attrs

from livecore.currencies import EXPONENTS as EXPONENTS  # the purchases' rule, shared with the offers
from livecore.currencies import exponent
from livecore.errors import IDEMPOTENCY_CONFLICT, LivecoreError, invalid_request
from livecore.limits import FREE_FORM, Count, Range, Text, limited
from livecore.purchases.errors import UNKNOWN_CURRENCY
from livecore.scope import Environment

# The id prefixes of the area's records, claimed in its declaration (``Area.id_prefixes``).
PURCHASE_ID_PREFIX = "pur"


MAX_AMOUNT_MINOR = 10**12
MAX_WINDOW_DAYS = 3_650
MAX_WINDOWS = 8
AMOUNT_MINOR = Range(0, MAX_AMOUNT_MINOR)
WINDOW_DAYS = Range(1, MAX_WINDOW_DAYS)
WINDOWS = Count(max_items=MAX_WINDOWS)
#: ``transactionId``, ``store``, ``productId`` and ``productType``: ids, kept trimmed.
STORE_TEXT = Text(min_length=1, max_length=200, trim=True, plain=True)
CURRENCY = Text(min_length=3, max_length=3, form=("[A-Za-z]{3}", "a 3-letter ISO 4217 code"))
FUTURE_TOLERANCE = timedelta(minutes=5)  # device clocks run ahead; later than this is a bad timestamp


class ValidationStatus(enum.StrEnum):
    UNVERIFIED = "unverified"
    VERIFIED = "verified"


@attrs.frozen
class TrackPurchaseRequest:
    """The purchase body of the client route (docs/reference/economy.md#purchases)."""

    transaction_id: str = attrs.field(metadata=limited(STORE_TEXT))
    store: str = attrs.field(metadata=limited(STORE_TEXT))
    product_id: str = attrs.field(metadata=limited(STORE_TEXT))
    product_type: str = attrs.field(metadata=limited(STORE_TEXT))
    amount_minor: int = attrs.field(metadata=limited(AMOUNT_MINOR))
    currency: str = attrs.field(metadata=limited(CURRENCY))
    purchased_at: datetime | None = None
    metadata: dict[str, Any] | None = attrs.field(default=None, metadata=limited(FREE_FORM))


@attrs.frozen
class PurchaseRequest(TrackPurchaseRequest):
    """A purchase as the core tracks it: the client's report, or the server's, which may be verified."""

    validation_status: ValidationStatus = ValidationStatus.UNVERIFIED

    @classmethod
    def reported(cls, body: TrackPurchaseRequest) -> PurchaseRequest:
        """The client's report as the core tracks it: never verified, whatever the body's type."""
        return cls(**{f.name: getattr(body, f.name) for f in attrs.fields(TrackPurchaseRequest)})


@attrs.frozen
class Purchase:
    id: str
    game_id: str
    env: Environment
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
    validation_status: ValidationStatus
    purchased_at: datetime
    tracked_at: datetime
    metadata: dict[str, Any] = attrs.field(factory=dict)


@attrs.frozen
class Window:
    days: int
    amount_minor: int
    purchase_count: int


@attrs.frozen
class PlayerSpend:
    lifetime_amount_minor: int
    purchase_count: int
    first_purchase_at: datetime | None
    last_purchase_at: datetime | None
    windows: tuple[Window, ...] = ()


@attrs.frozen
class Spender:
    player_id: str
    external_player_id: str
    amount_minor: int
    purchase_count: int
    last_purchase_at: datetime


@attrs.frozen
class ProductRevenue:
    product_id: str
    amount_minor: int
    purchase_count: int


@attrs.frozen
class DayRevenue:
    day: date
    amount_minor: int
    purchase_count: int


@attrs.frozen
class RevenueSummary:
    gross_amount_minor: int
    purchase_count: int
    paying_players: int
    per_product: tuple[ProductRevenue, ...]
    per_day: tuple[DayRevenue, ...]

    @property
    def arppu_minor(self) -> int | None:
        return arppu(self.gross_amount_minor, self.paying_players)


def check_currency(currency: str) -> str:
    return CURRENCY.check(currency, "currency").upper()


def usd_rate(currency: str, rates: dict[str, float]) -> float:
    """USD per unit of ``currency``: 1 for USD, else the manifest's ``[exchange_rates]``."""
    if currency == "USD":
        return 1.0
    rate = rates.get(currency)
    if rate is None:
        raise LivecoreError(
            UNKNOWN_CURRENCY, f"No exchange rate on file for {currency}.", {"currency": currency}
        )
    return rate


def normalize(amount_minor: int, currency: str, rate: float) -> int:
    """US cents for ``amount_minor`` of ``currency``, exact decimal arithmetic, half to even."""
    units = Decimal(amount_minor).scaleb(-exponent(currency))
    return int((units * Decimal(str(rate)) * 100).to_integral_value(rounding=ROUND_HALF_EVEN))


def check_request(request: PurchaseRequest, now: datetime) -> PurchaseRequest:
    """Field rules of a purchase body (400 ``invalid_request`` naming the field)."""
    request = attrs.evolve(
        request,
        transaction_id=STORE_TEXT.check(request.transaction_id, "transactionId"),
        store=STORE_TEXT.check(request.store, "store"),
        product_id=STORE_TEXT.check(request.product_id, "productId"),
        product_type=STORE_TEXT.check(request.product_type, "productType"),
        metadata=FREE_FORM.check(request.metadata, "metadata"),
    )
    AMOUNT_MINOR.check(request.amount_minor, "amountMinor")
    if request.purchased_at is not None and request.purchased_at > now + FUTURE_TOLERANCE:
        raise invalid_request("purchasedAt is in the future.", {"purchasedAt": "in the future"})
    return attrs.evolve(request, currency=check_currency(request.currency))


def same_purchase(stored: Purchase, player_id: str, request: PurchaseRequest) -> bool:
    return (
        stored.player_id == player_id
        and stored.store == request.store
        and stored.product_id == request.product_id
        and stored.amount_minor == request.amount_minor
        and stored.currency == request.currency
    )


def check_replay(stored: Purchase, player_id: str, request: PurchaseRequest) -> Purchase:
    if not same_purchase(stored, player_id, request):
        raise LivecoreError(
            IDEMPOTENCY_CONFLICT,
            "This transactionId was tracked with a different purchase.",
            {"transactionId": request.transaction_id},
        )
    return stored


def upgrades(stored: Purchase, request: PurchaseRequest) -> bool:
    """A repeat that verifies an unverified purchase."""
    return (
        stored.validation_status is ValidationStatus.UNVERIFIED
        and request.validation_status is ValidationStatus.VERIFIED
    )


def check_windows(days: Iterable[int]) -> tuple[int, ...]:
    out = tuple(days)
    WINDOWS.check(out, "windows")
    for d in out:
        WINDOW_DAYS.check(d, "windows")
    return out


def window_start(now: datetime, days: int) -> datetime:
    """A rolling window of ``days`` counts purchases made after this instant."""
    return now - timedelta(days=days)


def arppu(gross: int, paying: int) -> int | None:
    if paying == 0:
        return None
    return int((Decimal(gross) / paying).to_integral_value(rounding=ROUND_HALF_UP))


def utc_date(value: datetime) -> date:
    return value.astimezone(UTC).date()


# --- Aggregation over purchases in memory (the in-memory store; SQLite runs the same sums in SQL) ----


def player_spend(purchases: Iterable[Purchase], now: datetime, windows: tuple[int, ...]) -> PlayerSpend:
    rows = list(purchases)
    if not rows:
        return PlayerSpend(0, 0, None, None, tuple(Window(d, 0, 0) for d in windows))
    in_window = [[p for p in rows if p.purchased_at > window_start(now, d)] for d in windows]
    return PlayerSpend(
        lifetime_amount_minor=sum(p.normalized_amount_minor for p in rows),
        purchase_count=len(rows),
        first_purchase_at=min(p.purchased_at for p in rows),
        last_purchase_at=max(p.purchased_at for p in rows),
        windows=tuple(
            Window(d, sum(p.normalized_amount_minor for p in ps), len(ps))
            for d, ps in zip(windows, in_window, strict=True)
        ),
    )


def spenders(purchases: Iterable[Purchase], min_amount_minor: int, since: datetime | None) -> list[Spender]:
    """Players whose spend (since ``since``, or lifetime) is at least the threshold, highest first."""
    totals: dict[str, list[Any]] = {}
    for p in purchases:
        if since is not None and p.purchased_at <= since:
            continue
        t = totals.setdefault(p.player_id, [p.external_player_id, 0, 0, p.purchased_at])
        t[1] += p.normalized_amount_minor
        t[2] += 1
        t[3] = max(t[3], p.purchased_at)
    found = [Spender(pid, *t) for pid, t in totals.items() if t[1] >= min_amount_minor]
    return sorted(found, key=lambda s: (-s.amount_minor, s.external_player_id))


def summarize(purchases: Iterable[Purchase], start: datetime, end: datetime) -> RevenueSummary:
    """Revenue of purchases made from ``start`` to ``end``, both included."""
    rows = [p for p in purchases if start <= p.purchased_at <= end]
    products: dict[str, list[int]] = {}
    days: dict[date, list[int]] = {}
    for p in rows:
        for bucket in (
            products.setdefault(p.product_id, [0, 0]),
            days.setdefault(utc_date(p.purchased_at), [0, 0]),
        ):
            bucket[0] += p.normalized_amount_minor
            bucket[1] += 1
    return RevenueSummary(
        gross_amount_minor=sum(p.normalized_amount_minor for p in rows),
        purchase_count=len(rows),
        paying_players=len({p.player_id for p in rows}),
        per_product=tuple(
            ProductRevenue(k, a, c)
            for k, (a, c) in sorted(products.items(), key=lambda kv: (-kv[1][0], kv[0]))
        ),
        per_day=tuple(DayRevenue(d, a, c) for d, (a, c) in sorted(days.items())),
    )
