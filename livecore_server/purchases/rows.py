"""The purchases area's rows: a purchase is kept in the declared ``purchases`` table (:data:`PURCHASE`: its
insert, the values it writes and how a row is read back, :class:`~livecore_server.storage.mapped.Mapped`),
with the player's external id read from ``players``."""

from __future__ import annotations

from livecore.purchases.rules import Purchase
from livecore_server.purchases.schema import SCHEMA
from livecore_server.storage.mapped import Mapped

PURCHASE = Mapped(
    SCHEMA.table("purchases"), Purchase, alias="u", joined={"external_player_id": "p.external_id"}
)
PURCHASE_COLUMNS = PURCHASE.columns


PURCHASE_FROM = "FROM purchases u JOIN players p ON p.id = u.player_id"
