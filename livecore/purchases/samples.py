"""Placeholder payloads of the purchases area's webhook kinds, for sample deliveries
(:attr:`livecore.area.Area.samples`)."""

from __future__ import annotations

from livecore.purchases.webhooks import PurchaseTracked
from livecore.webhooks.payload import WebhookPayload
from livecore.webhooks.sample_values import PLAYER, SAMPLE_TS

SAMPLES: tuple[WebhookPayload, ...] = (
    PurchaseTracked(
        purchase_id="pur_sample000000000000000000",
        **PLAYER,
        transaction_id="sample-transaction",
        store="app_store",
        product_id="sample.coins.100",
        product_type="consumable",
        amount_minor=99,
        currency="USD",
        normalized_amount_minor=99,
        fx_rate=1.0,
        validation_status="unverified",
        purchased_at=SAMPLE_TS,
        lifetime_amount_minor=99,
        purchase_count=1,
        metadata={},
    ),
)
