"""The gifts area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from livecore.area import Area
from livecore.gifts import api
from livecore.gifts.webhooks import GiftClaimed, GiftSent

AREA = Area(
    name="gifts",
    summary="Gifting between friends: the send refusal order, inbox, claims, expiry.",
    page="gifts",
    routes=api.ROUTES,
    webhooks=(
        GiftSent,
        GiftClaimed,
    ),
)
