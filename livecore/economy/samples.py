"""Placeholder payloads of the economy area's webhook kinds, for sample deliveries
(:attr:`livecore.area.Area.samples`)."""

from __future__ import annotations

from typing import Any

from livecore.economy.webhooks import InventoryChanged, WalletChanged
from livecore.webhooks.payload import WebhookPayload
from livecore.webhooks.sample_values import ACTOR, PLAYER, SAMPLE_TS

_CHANGE: dict[str, Any] = {
    **PLAYER,
    "delta": 100,
    "reason": "grant",
    "note": None,
    "source_ref_id": "sample",
    "entry_id": "led_00000000000070008000000000000000",
    "actor": ACTOR,
    "changed_at": SAMPLE_TS,
}

SAMPLES: tuple[WebhookPayload, ...] = (
    WalletChanged(**_CHANGE, economy_key="coins", balance=100),
    InventoryChanged(**_CHANGE, item_key="sword", quantity=1, parameters={"level": 1}),
)
