"""The quests area's webhook: a player checked in."""

from __future__ import annotations

from datetime import datetime
from typing import ClassVar, Self

import attrs

from livecore.grants.rules import Grant
from livecore.webhooks.payload import WebhookPayload
from livecore.webhooks.sample_values import GRANT, PLAYER, SAMPLE_TS
from studio_quests.rules import QuestState


@attrs.frozen
class QuestCheckedIn(WebhookPayload):
    """``quest.checked_in``: a player checked in for the UTC day ``day`` (``YYYY-MM-DD``); ``streak``
    counts the consecutive days, this one included, and ``grantId`` is the pending grant of the day's
    reward (its ``grant.created`` fires in the same transaction)."""

    KIND: ClassVar[str] = "quest.checked_in"

    player_id: str
    external_player_id: str
    day: str
    streak: int
    best_streak: int
    grant_id: str
    checked_in_at: datetime

    @classmethod
    def of(cls, state: QuestState, grant: Grant) -> Self:
        return cls(
            player_id=state.player_id,
            external_player_id=grant.external_player_id,
            day=state.last_day.isoformat(),
            streak=state.streak,
            best_streak=state.best_streak,
            grant_id=grant.id,
            checked_in_at=state.checked_in_at,
        )


# The payload a sample delivery carries (the portal's and the admin API's "send a sample"), from the
# service's recognisably fake values.
SAMPLES = (
    QuestCheckedIn(
        **PLAYER,
        day="2026-01-01",
        streak=3,
        best_streak=7,
        grant_id=GRANT["grant_id"],
        checked_in_at=SAMPLE_TS,
    ),
)
