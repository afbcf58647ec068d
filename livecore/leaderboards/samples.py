"""Placeholder payloads of the leaderboards area's webhook kinds, for sample deliveries
(:attr:`livecore.area.Area.samples`)."""

from __future__ import annotations

from livecore.leaderboards.webhooks import PeriodEntry, PeriodFinalized
from livecore.webhooks.payload import WebhookPayload
from livecore.webhooks.sample_values import PLAYER, SAMPLE_TS

SAMPLES: tuple[WebhookPayload, ...] = (
    PeriodFinalized(
        leaderboard_key="sample-board",
        period_id="lbp_sample0000000000000000000",
        period_starts_at=SAMPLE_TS,
        period_ends_at=SAMPLE_TS,
        entry_count=1,
        top=(
            PeriodEntry(
                rank=1,
                **PLAYER,
                score=100.0,
                reached_at=SAMPLE_TS,
                division_id="div_sample0000000000000000000",
            ),
        ),
    ),
)
