"""The purchases area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from livecore.area import Area
from livecore.purchases import api
from livecore.purchases.webhooks import PurchaseTracked

AREA = Area(
    name="purchases",
    summary="Purchases: tracked purchases, spend and revenue.",
    page="economy",
    routes=api.ROUTES,
    webhooks=(PurchaseTracked,),
)
