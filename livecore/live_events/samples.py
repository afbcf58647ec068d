"""Placeholder payloads of the live events area's webhook kinds, for sample deliveries
(:attr:`livecore.area.Area.samples`)."""

from __future__ import annotations

from typing import Any

from livecore.live_events.webhooks import (
    AttemptCompleted,
    AttemptExpired,
    AttemptFlagged,
    AttemptForceCompleted,
    AttemptRestarted,
    AttemptStarted,
    Cost,
    CostLine,
    EntryCostCharged,
    FinalEntry,
    LeaderboardFinalized,
    MetricSnapshot,
    MilestoneGranted,
    ProgressUpdated,
    WindowClosed,
    WindowOpened,
)
from livecore.webhooks.payload import WebhookPayload
from livecore.webhooks.sample_values import ATTEMPT, ATTEMPT_ID, EVENT, GRANT, PLAYER, SAMPLE_TS

_ATTEMPT_STATE: dict[str, Any] = {
    **ATTEMPT,
    "score": 100.0,
    "metrics": {"score": 100.0},
    "milestones": ("sample-milestone",),
    "flagged": False,
    "started_at": SAMPLE_TS,
    "ends_at": SAMPLE_TS,
}
_WINDOW: dict[str, Any] = {
    **EVENT,
    "env": "live",
    "starts_at": SAMPLE_TS,
    "ends_at": SAMPLE_TS,
    "at": SAMPLE_TS,
}

SAMPLES: tuple[WebhookPayload, ...] = (
    AttemptStarted(**ATTEMPT, started_at=SAMPLE_TS, ends_at=SAMPLE_TS, attempt_count=1),
    AttemptRestarted(
        **ATTEMPT,
        prior_attempt_id="att_sample0000000000000000001",
        prior_score=50.0,
        prior_status="completed",
    ),
    ProgressUpdated(**_ATTEMPT_STATE, status="in_progress", completed_at=None),
    AttemptCompleted(**_ATTEMPT_STATE, status="completed", completed_at=SAMPLE_TS),
    AttemptExpired(**_ATTEMPT_STATE, status="expired", completed_at=None),
    AttemptForceCompleted(
        attempt_id=ATTEMPT_ID,
        event_id=EVENT["event_id"],
        event_window_id=EVENT["event_window_id"],
        leaderboard_id=ATTEMPT["leaderboard_id"],
        player_id=PLAYER["player_id"],
        score=100.0,
        prior_score=50.0,
        completed_at=SAMPLE_TS,
        actor_member_id="mem_sample0000000000000000000",
        reason="sample",
        milestones_fired=(),
    ),
    AttemptFlagged(
        attempt_id=ATTEMPT_ID,
        event_id=EVENT["event_id"],
        event_key=EVENT["event_key"],
        **PLAYER,
        validator_key="sample-check",
        reason="sample",
        metric_snapshot=MetricSnapshot(
            metric_key="score", before=0.0, after=100.0, elapsed_sec=10.0, avg_rate=10.0, limit=5.0
        ),
        flagged_at=SAMPLE_TS,
    ),
    MilestoneGranted(
        **ATTEMPT,
        milestone_key="sample-milestone",
        threshold=100.0,
        score=100.0,
        grant_id=GRANT["grant_id"],
        granted_at=SAMPLE_TS,
    ),
    EntryCostCharged(**EVENT, attempt_id=ATTEMPT_ID, **PLAYER, cost=Cost(currencies=(CostLine("gems", 5),))),
    WindowOpened(**_WINDOW),
    WindowClosed(**_WINDOW),
    LeaderboardFinalized(
        leaderboard_id=ATTEMPT["leaderboard_id"],
        **EVENT,
        lobby_id=None,
        segment_values={},
        participant_scope="player",
        entry_count=1,
        top=(
            FinalEntry(
                rank=1,
                **PLAYER,
                score=100.0,
                attempt_id=ATTEMPT_ID,
                reached_at=SAMPLE_TS,
            ),
        ),
        finalized_at=SAMPLE_TS,
    ),
)
