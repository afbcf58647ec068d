"""Shared leaderboard webhooks: ``leaderboard.period_finalized`` when a board rolls over
(docs/leaderboards.md#webhooks)."""

from __future__ import annotations

from datetime import datetime
from typing import ClassVar

import attrs

from livecore.webhooks.payload import WebhookPayload


@attrs.frozen
class PeriodEntry:
    rank: int
    player_id: str
    external_player_id: str
    score: float
    reached_at: datetime
    division_id: str | None


@attrs.frozen
class PeriodFinalized(WebhookPayload):
    """``{leaderboardKey, periodStartsAt, periodEndsAt, entryCount, top}``, with the period's
    id; ``top`` is the first ten entries of the whole period (every division), in board order."""

    KIND: ClassVar[str] = "leaderboard.period_finalized"

    leaderboard_key: str
    period_id: str
    period_starts_at: datetime | None
    period_ends_at: datetime | None
    entry_count: int
    top: tuple[PeriodEntry, ...]


#: The kinds this area sends, as its area declares them (:attr:`livecore.area.Area.webhooks`).
PAYLOADS: tuple[type[WebhookPayload], ...] = (PeriodFinalized,)
