"""Live-event webhooks (docs/events.md#webhooks): attempts, their progress and rewards, windows and boards.

``event.attempt_started``, ``event.attempt_restarted``, ``event.force_completed``, ``event.attempt_flagged``
and ``entry_cost.charged`` carry the fields docs/events.md#webhooks lists. The others carry what a receiver
needs to act without a read: the attempt's ids, its player's ids, its score and times (:class:`AttemptState`);
a window's ids and bounds; a board's ids, size and top ten.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar, Self

import attrs

from livecore.games import Entry
from livecore.live_events.attempts import Attempt, Flag
from livecore.live_events.rules import Window
from livecore.webhooks.payload import WebhookPayload


def attempt_ids(a: Attempt) -> dict[str, str]:
    """The ids an attempt's payloads carry: the attempt's, its event's, window's, board's and player's
    (each class lists them among its fields, in its own wire order)."""
    return {
        "attempt_id": a.id,
        "event_id": a.event_id,
        "event_key": a.event_key,
        "event_window_id": a.window_id,
        "leaderboard_id": a.board_id,
        "player_id": a.player_id,
        "external_player_id": a.external_player_id,
    }


@attrs.frozen
class AttemptStarted(WebhookPayload):
    KIND: ClassVar[str] = "event.attempt_started"

    attempt_id: str
    event_id: str
    event_key: str
    event_window_id: str
    leaderboard_id: str
    player_id: str
    external_player_id: str
    started_at: datetime
    ends_at: datetime
    attempt_count: int

    @classmethod
    def of(cls, a: Attempt) -> Self:
        return cls(
            **attempt_ids(a),
            started_at=a.started_at,
            ends_at=a.ends_at,
            attempt_count=a.attempt_count,
        )


@attrs.frozen
class AttemptRestarted(WebhookPayload):
    KIND: ClassVar[str] = "event.attempt_restarted"

    attempt_id: str
    prior_attempt_id: str
    prior_score: float | None
    prior_status: str
    event_id: str
    event_key: str
    event_window_id: str
    leaderboard_id: str
    player_id: str
    external_player_id: str

    @classmethod
    def of(cls, a: Attempt, prior: Attempt) -> Self:
        return cls(
            **attempt_ids(a),
            prior_attempt_id=prior.id,
            prior_score=prior.score,
            prior_status=prior.status.value,
        )


@attrs.frozen
class AttemptState(WebhookPayload):
    """``event.progress_updated``, ``event.completed``, ``event.expired``: the attempt as it is now."""

    attempt_id: str
    event_id: str
    event_key: str
    event_window_id: str
    leaderboard_id: str
    player_id: str
    external_player_id: str
    status: str
    score: float | None
    metrics: dict[str, float]
    milestones: tuple[str, ...]
    flagged: bool
    started_at: datetime
    ends_at: datetime
    completed_at: datetime | None

    @classmethod
    def of(cls, a: Attempt) -> Self:
        return cls(
            **attempt_ids(a),
            status=a.status.value,
            score=a.score,
            metrics=a.metrics,
            milestones=a.milestones,
            flagged=a.flagged,
            started_at=a.started_at,
            ends_at=a.ends_at,
            completed_at=a.completed_at,
        )


@attrs.frozen
class ProgressUpdated(AttemptState):
    KIND: ClassVar[str] = "event.progress_updated"


@attrs.frozen
class AttemptCompleted(AttemptState):
    KIND: ClassVar[str] = "event.completed"


@attrs.frozen
class AttemptExpired(AttemptState):
    KIND: ClassVar[str] = "event.expired"


@attrs.frozen
class AttemptForceCompleted(WebhookPayload):
    KIND: ClassVar[str] = "event.force_completed"

    attempt_id: str
    event_id: str
    event_window_id: str
    leaderboard_id: str
    player_id: str
    score: float | None
    prior_score: float | None
    completed_at: datetime | None
    actor_member_id: str
    reason: str | None
    milestones_fired: tuple[str, ...]


@attrs.frozen
class MetricSnapshot:
    metric_key: str
    before: float
    after: float
    elapsed_sec: float
    avg_rate: float | None
    limit: float


@attrs.frozen
class AttemptFlagged(WebhookPayload):
    KIND: ClassVar[str] = "event.attempt_flagged"

    attempt_id: str
    event_id: str
    event_key: str
    player_id: str
    external_player_id: str
    validator_key: str
    reason: str
    metric_snapshot: MetricSnapshot
    flagged_at: datetime

    @classmethod
    def of(cls, a: Attempt, flag: Flag, now: datetime) -> Self:
        return cls(
            attempt_id=a.id,
            event_id=a.event_id,
            event_key=a.event_key,
            player_id=a.player_id,
            external_player_id=a.external_player_id,
            validator_key=flag.check.key,
            reason=flag.reason,
            metric_snapshot=MetricSnapshot(
                metric_key=flag.check.metric,
                before=flag.before,
                after=flag.after,
                elapsed_sec=flag.elapsed_sec,
                avg_rate=flag.avg_rate,
                limit=flag.check.limit,
            ),
            flagged_at=now,
        )


@attrs.frozen
class MilestoneGranted(WebhookPayload):
    KIND: ClassVar[str] = "event.milestone_granted"

    attempt_id: str
    event_id: str
    event_key: str
    event_window_id: str
    leaderboard_id: str
    player_id: str
    external_player_id: str
    milestone_key: str
    threshold: float
    score: float | None
    grant_id: str | None  # null when the milestone carries no rewards
    granted_at: datetime

    @classmethod
    def of(cls, a: Attempt, key: str, threshold: float, grant_id: str | None, now: datetime) -> Self:
        return cls(
            **attempt_ids(a),
            milestone_key=key,
            threshold=threshold,
            score=a.score,
            grant_id=grant_id,
            granted_at=now,
        )


@attrs.frozen
class CostLine:
    key: str
    amount: int


@attrs.frozen
class Cost:
    currencies: tuple[CostLine, ...]
    items: tuple[CostLine, ...] = ()


@attrs.frozen
class EntryCostCharged(WebhookPayload):
    KIND: ClassVar[str] = "entry_cost.charged"

    event_id: str
    event_key: str
    event_window_id: str
    attempt_id: str
    player_id: str
    external_player_id: str
    cost: Cost

    @classmethod
    def of(cls, a: Attempt, entries: tuple[Entry, ...]) -> Self:
        def lines(kind: str) -> tuple[CostLine, ...]:
            return tuple(CostLine(e.key, e.amount) for e in entries if e.type.value == kind)

        return cls(
            event_id=a.event_id,
            event_key=a.event_key,
            event_window_id=a.window_id,
            attempt_id=a.id,
            player_id=a.player_id,
            external_player_id=a.external_player_id,
            cost=Cost(currencies=lines("currency"), items=lines("item")),
        )


@attrs.frozen
class WindowChange(WebhookPayload):
    """``window.opened``, ``window.closed`` (live windows only)."""

    event_window_id: str
    event_id: str
    event_key: str
    env: str
    starts_at: datetime
    ends_at: datetime
    at: datetime

    @classmethod
    def of(cls, w: Window, now: datetime) -> Self:
        return cls(
            event_window_id=w.id,
            event_id=w.event_id,
            event_key=w.event_key,
            env=w.env.value,
            starts_at=w.starts_at,
            ends_at=w.ends_at,
            at=now,
        )


@attrs.frozen
class WindowOpened(WindowChange):
    KIND: ClassVar[str] = "window.opened"


@attrs.frozen
class WindowClosed(WindowChange):
    KIND: ClassVar[str] = "window.closed"


@attrs.frozen
class FinalEntry:
    rank: int
    player_id: str
    external_player_id: str
    score: float
    attempt_id: str
    reached_at: datetime


@attrs.frozen
class LeaderboardFinalized(WebhookPayload):
    KIND: ClassVar[str] = "leaderboard.finalized"

    leaderboard_id: str
    event_id: str
    event_key: str
    event_window_id: str
    lobby_id: str | None
    segment_values: dict[str, Any]
    participant_scope: str
    entry_count: int
    top: tuple[FinalEntry, ...]
    finalized_at: datetime


#: The kinds this area sends, as its area declares them (:attr:`livecore.area.Area.webhooks`).
PAYLOADS: tuple[type[WebhookPayload], ...] = (
    AttemptStarted,
    AttemptRestarted,
    ProgressUpdated,
    AttemptCompleted,
    AttemptForceCompleted,
    AttemptExpired,
    AttemptFlagged,
    MilestoneGranted,
    EntryCostCharged,
    WindowOpened,
    WindowClosed,
    LeaderboardFinalized,
)
