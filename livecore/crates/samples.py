"""Placeholder payloads of the crates area's webhook kinds, for sample deliveries
(:attr:`livecore.area.Area.samples`)."""

from __future__ import annotations

from livecore.crates.rules import CrateEntry
from livecore.crates.webhooks import CrateOpened
from livecore.webhooks.payload import WebhookPayload
from livecore.webhooks.sample_values import GRANT, PLAYER, SAMPLE_TS

SAMPLES: tuple[WebhookPayload, ...] = (
    CrateOpened(
        grant_id="00000000-0000-7000-8000-000000000003",
        contents_grant_id=GRANT["grant_id"],
        **PLAYER,
        crates=(CrateEntry("bronze-chest", 1),),
        contents=GRANT["entries"],
        opened_at=SAMPLE_TS,
    ),
)
