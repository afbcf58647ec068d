"""The gifts area's rows: each record's columns declared once (read by name) and the
values it writes, in the order of its declaration's ``names`` (:mod:`livecore_server.storage.rows`)."""

from __future__ import annotations

from typing import Any

from livecore.clock import from_millis
from livecore.games import ResourceType
from livecore.gifts.rules import Gift, GiftStatus
from livecore_server.storage.columns import Columns
from livecore_server.storage.rows import dt


def _gift(
    id: Any,
    grant_id: Any,
    game_id: Any,
    sender_id: Any,
    sender_external_id: Any,
    recipient_id: Any,
    recipient_external_id: Any,
    type: Any,
    resource_key: Any,
    amount: Any,
    message: Any,
    status: Any,
    sent_at: Any,
    expires_at: Any,
    claimed_at: Any,
    deducted: Any,
    idempotency_key: Any,
) -> Gift:
    return Gift(
        id=id,
        grant_id=grant_id,
        game_id=game_id,
        sender_id=sender_id,
        sender_external_id=sender_external_id,
        recipient_id=recipient_id,
        recipient_external_id=recipient_external_id,
        type=ResourceType(type),
        resource_key=resource_key,
        amount=amount,
        message=message,
        status=GiftStatus(status),
        sent_at=from_millis(sent_at),
        expires_at=dt(expires_at),
        claimed_at=dt(claimed_at),
        deducted_from_sender=bool(deducted),
        idempotency_key=idempotency_key,
    )


GIFT_COLUMNS = Columns(_gift, "g", sender_external_id="s.external_id", recipient_external_id="r.external_id")


# Every gift read names both players' external ids (gift views and webhooks carry them).
GIFT_FROM = "FROM gifts g JOIN players s ON s.id = g.sender_id JOIN players r ON r.id = g.recipient_id"
