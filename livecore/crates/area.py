"""The crates area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from livecore.api.route import REFUSALS, Refusals
from livecore.area import Area, ClientPart
from livecore.crates import api, samples, webhooks
from livecore.crates.errors import CODES, CRATE_MUST_BE_OPENED
from livecore.crates.handlers import HANDLERS
from livecore.crates.hooks import CrateSpecs
from livecore.crates.manifest import CRATES
from livecore.crates.rules import CRATE_AMOUNT, CRATE_KIND
from livecore.crates.season import SEASON
from livecore.grants.admin import FORCE_CLAIM
from livecore.grants.api import SDK_CLAIM_GRANT, SERVER_ACK_GRANT
from livecore.grants.rules import grant_kind


def _limits() -> Mapping[str, Sequence[tuple[str, str]]]:
    return {
        "conventions": [("Crates in a crate entry (every route and the manifest)", CRATE_AMOUNT.describe())],
    }


AREA = Area(
    name="crates",
    # A grant kind of its own, opened rather than claimed: a claim, an ack or an operator's force-claim
    # refuses it.
    contributes=(
        *grant_kind(CRATE_KIND),
        REFUSALS(Refusals((SDK_CLAIM_GRANT, SERVER_ACK_GRANT, FORCE_CLAIM), (CRATE_MUST_BE_OPENED,))),
    ),
    manifest=(CRATES,),
    summary="Crates: crate grants opened by their player, drawn from the crate's weighted table.",
    page="grants",
    builds_on=("grants",),
    routes=api.ROUTES,
    handlers=HANDLERS,
    webhooks=webhooks.PAYLOADS,
    samples=samples.SAMPLES,
    errors=CODES,
    hookspecs=CrateSpecs,
    limits=_limits,
    season=SEASON,
    client=(ClientPart("sdk", "grants", "livecore_client.resources.crates", "CrateGrants"),),
)
