"""The crates area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from collections.abc import Mapping

from livecore.area import Area
from livecore.crates import api, samples
from livecore.crates.hooks import CrateSpecs
from livecore.crates.manifest import CRATES
from livecore.crates.webhooks import CrateOpened
from livecore.errors import Code, ErrorCode

_MEANINGS: Mapping[ErrorCode | Code, str] = {
    ErrorCode.CRATE_MUST_BE_OPENED: (
        "A crate grant is claimed only by opening it (`POST .../crates/{grantId}/open`)."
    ),
    ErrorCode.NOT_A_CRATE: "Only a grant of kind `crate` can be opened.",
}


AREA = Area(
    name="crates",
    manifest=(CRATES,),
    summary="Crates: crate grants opened by their player, drawn from the crate's weighted table.",
    page="grants",
    builds_on=("grants",),
    routes=api.ROUTES,
    webhooks=(CrateOpened,),
    samples=samples.SAMPLES,
    error_meanings=_MEANINGS,
    hookspecs=CrateSpecs,
)
