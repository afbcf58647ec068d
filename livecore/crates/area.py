"""The crates area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from livecore.area import Area
from livecore.crates import api, samples
from livecore.crates.webhooks import CrateOpened

AREA = Area(
    name="crates",
    summary="Crates: crate grants opened by their player, drawn from the crate's weighted table.",
    page="grants",
    routes=api.ROUTES,
    webhooks=(CrateOpened,),
    samples=samples.SAMPLES,
)
