"""The gifts area's rows: a gift is kept in the declared ``gifts`` table (:data:`GIFT`: its insert, the
values it writes and how a row is read back, :class:`~livecore_server.storage.mapped.Mapped`), with both
players' external ids read from ``players``."""

from __future__ import annotations

from livecore.gifts.rules import Gift
from livecore_server.gifts.schema import SCHEMA
from livecore_server.storage.mapped import Mapped

GIFT = Mapped(
    SCHEMA.table("gifts"),
    Gift,
    alias="g",
    attributes={"deducted": "deducted_from_sender"},
    joined={"sender_external_id": "s.external_id", "recipient_external_id": "r.external_id"},
)
GIFT_COLUMNS = GIFT.columns

# Every gift read names both players' external ids (gift views and webhooks carry them).
GIFT_FROM = "FROM gifts g JOIN players s ON s.id = g.sender_id JOIN players r ON r.id = g.recipient_id"
