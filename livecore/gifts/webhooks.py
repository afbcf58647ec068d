"""Gift webhooks: a gift sent and a gift claimed, each beside the delivering grant's own webhook."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

import attrs

from livecore.gifts.rules import Gift
from livecore.webhooks.payload import WebhookPayload


@attrs.frozen
class GiftPayload(WebhookPayload):
    """The fields shared by ``gift.sent`` and ``gift.claimed``: the gift, its delivering grant, both
    players and what the gift holds. ``type`` is ``item`` or ``currency``."""

    gift_id: str
    grant_id: str
    sender_player_id: str
    sender_external_player_id: str
    recipient_player_id: str
    recipient_external_player_id: str
    type: str
    resource_key: str
    amount: int


def _parties(gift: Gift) -> dict[str, Any]:
    return {
        "gift_id": gift.id,
        "grant_id": gift.grant_id,
        "sender_player_id": gift.sender_id,
        "sender_external_player_id": gift.sender_external_id,
        "recipient_player_id": gift.recipient_id,
        "recipient_external_player_id": gift.recipient_external_id,
        "type": gift.type.value,
        "resource_key": gift.resource_key,
        "amount": gift.amount,
    }


@attrs.frozen
class GiftSent(GiftPayload):
    """``gift.sent``: a player sent a friend a gift, which waits for the recipient to claim it; fires
    beside ``grant.created`` for the delivering pending grant (``grant_id``). ``deducted_from_sender``
    is true when the amount was taken from the sender's platform-managed balance (the resource costs
    the sender); otherwise the gift was minted. ``expires_at`` is ``None`` when gifts never expire in
    this game."""

    KIND: ClassVar[str] = "gift.sent"

    deducted_from_sender: bool
    message: str | None
    sent_at: datetime
    expires_at: datetime | None

    @classmethod
    def of(cls, gift: Gift) -> GiftSent:
        return cls(
            **_parties(gift),
            deducted_from_sender=gift.deducted_from_sender,
            message=gift.message,
            sent_at=gift.sent_at,
            expires_at=gift.expires_at,
        )


@attrs.frozen
class GiftClaimed(GiftPayload):
    """``gift.claimed``: the recipient claimed the gift and its contents were credited to them now;
    fires beside ``grant.claimed`` for the delivering grant (``grant_id``)."""

    KIND: ClassVar[str] = "gift.claimed"

    claimed_at: datetime

    @classmethod
    def of(cls, gift: Gift) -> GiftClaimed:
        assert gift.claimed_at is not None
        return cls(**_parties(gift), claimed_at=gift.claimed_at)


#: The kinds this area sends, as its area declares them (:attr:`livecore.area.Area.webhooks`).
PAYLOADS: tuple[type[WebhookPayload], ...] = (
    GiftSent,
    GiftClaimed,
)
