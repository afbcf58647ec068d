"""The economy area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from livecore.area import Area
from livecore.economy import api
from livecore.economy.webhooks import InventoryChanged, WalletChanged

AREA = Area(
    name="economy",
    summary="The economy: wallets and inventories, the ledger that moves them.",
    page="economy",
    routes=api.ROUTES,
    webhooks=(
        WalletChanged,
        InventoryChanged,
    ),
)
