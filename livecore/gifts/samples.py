"""Placeholder payloads of the gifts area's webhook kinds, for sample deliveries
(:attr:`livecore.area.Area.samples`)."""

from __future__ import annotations

from typing import Any

from livecore.gifts.webhooks import GiftClaimed, GiftSent
from livecore.webhooks.payload import WebhookPayload
from livecore.webhooks.sample_values import FRIEND_EXTERNAL_ID, FRIEND_ID, PLAYER, SAMPLE_TS

_GIFT: dict[str, Any] = {
    "gift_id": "00000000-0000-7000-8000-000000000001",
    "grant_id": "00000000-0000-7000-8000-000000000002",
    "sender_player_id": PLAYER["player_id"],
    "sender_external_player_id": PLAYER["external_player_id"],
    "recipient_player_id": FRIEND_ID,
    "recipient_external_player_id": FRIEND_EXTERNAL_ID,
    "type": "currency",
    "resource_key": "coins",
    "amount": 10,
}

SAMPLES: tuple[WebhookPayload, ...] = (
    GiftSent(**_GIFT, deducted_from_sender=False, message="sample gift", sent_at=SAMPLE_TS, expires_at=None),
    GiftClaimed(**_GIFT, claimed_at=SAMPLE_TS),
)
