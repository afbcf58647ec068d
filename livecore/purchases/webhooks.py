"""Purchase webhooks: a store transaction tracked."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

import attrs

from livecore.purchases.rules import PlayerSpend, Purchase
from livecore.webhooks.payload import WebhookPayload


@attrs.frozen
class PurchaseTracked(WebhookPayload):
    """``purchase.tracked``: once per store transaction (a re-report of ``transaction_id`` fires
    nothing). ``amount_minor`` is what was charged in ``currency``; ``normalized_amount_minor`` the
    same in US cents at ``fx_rate`` (USD per unit). ``validation_status`` is ``unverified`` or
    ``verified``; ``lifetime_amount_minor`` and ``purchase_count`` are the player's totals after it."""

    KIND: ClassVar[str] = "purchase.tracked"

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

    @classmethod
    def of(cls, p: Purchase, spend: PlayerSpend) -> PurchaseTracked:
        return cls(
            purchase_id=p.id,
            player_id=p.player_id,
            external_player_id=p.external_player_id,
            transaction_id=p.transaction_id,
            store=p.store,
            product_id=p.product_id,
            product_type=p.product_type,
            amount_minor=p.amount_minor,
            currency=p.currency,
            normalized_amount_minor=p.normalized_amount_minor,
            fx_rate=p.fx_rate,
            validation_status=p.validation_status.value,
            purchased_at=p.purchased_at,
            lifetime_amount_minor=spend.lifetime_amount_minor,
            purchase_count=spend.purchase_count,
            metadata=p.metadata,
        )


#: The kinds this area sends, as its area declares them (:attr:`livecore.area.Area.webhooks`).
PAYLOADS: tuple[type[WebhookPayload], ...] = (PurchaseTracked,)
