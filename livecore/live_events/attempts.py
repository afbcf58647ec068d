"""Attempts: a player's tries at an event window, their progress, milestones and anti-cheat checks
(docs/events.md#attempts).

States, as a transition table: an attempt starts ``in_progress``; reaching the event's ``target`` or a
write with ``complete: true`` (or an operator's force-complete) makes it ``completed``; the end of its time
(``endsAt``: ``attempt_seconds`` after its start, never past its window's end) makes it ``expired``, from
the sweep or the window's close. An in-progress attempt past ``endsAt`` is expired on every read and
refuses progress before the sweep reaches it.

Start refusals, checked in this order (the first that applies answers; nothing is charged or written):

1. the player is banned: 403 ``player_banned`` (the command's actor policy);
2. the event is not in the manifest: 404 ``event_not_found``;
3. no window of it is open now: 409 ``event_not_open``;
4. the player has an attempt in progress in this window: 409 ``attempt_in_progress`` (``details.attemptId``);
5. the player has used ``max_attempts`` in this window: 409 ``max_attempts_reached``;
6. the player cannot pay the entry cost: 409 ``insufficient_entry_cost`` (``details: {resource, needed,
   have}``).

Progress refusals, in this order: another player's attempt, none, or one of another event: 404
``attempt_not_found``; a metric the attempt's event does not know, or a value that is not a finite number:
400 ``invalid_request``; an attempt that is not in progress (or past ``endsAt``): 409
``attempt_not_in_progress``; a check whose verdict is ``reject``: 422 ``anti_cheat_rejected``
(``details.validator``). A refused write applies nothing.

A write sets the metrics it names (values are the attempt's current totals) and leaves the others. The
attempt's ``score`` is the best value its score metric has reached (higher for ``desc``, lower for
``asc``), so two racing writes never lose the better score; ``score_at`` is when it reached it, which
orders equal scores on the board. Milestones are crossed once each, when the score reaches their
threshold; reaching ``target`` completes the attempt.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

import attrs

from livecore.errors import LivecoreError, invalid_request
from livecore.games import Milestone, Order
from livecore.limits import FREE_FORM, Count, board_number_problem, check_board_number, on_a_board
from livecore.live_events.errors import (
    ANTI_CHEAT_REJECTED,
    ATTEMPT_IN_PROGRESS,
    ATTEMPT_NOT_IN_PROGRESS,
    MAX_ATTEMPTS_REACHED,
)
from livecore.live_events.rules import Window
from livecore.live_events.settings import AntiCheat, CheckKind, EventSettings, Verdict
from livecore.scope import Environment

METRICS = Count(min_items=1, max_items=32)
PLAYER_CONTEXT = FREE_FORM  # 4 KiB as compact JSON (docs/reference/conventions.md#limits)


class AttemptStatus(enum.StrEnum):
    IN_PROGRESS = "in_progress"
    COMPLETED = "completed"
    EXPIRED = "expired"


class AttemptTrigger(enum.Enum):
    COMPLETE = "complete"  # target reached, or ``complete: true``
    FORCE_COMPLETE = "force_complete"  # an operator
    EXPIRE = "expire"  # its time ran out (sweep or window close)


TRANSITIONS: dict[tuple[AttemptStatus, AttemptTrigger], AttemptStatus] = {
    (AttemptStatus.IN_PROGRESS, AttemptTrigger.COMPLETE): AttemptStatus.COMPLETED,
    (AttemptStatus.IN_PROGRESS, AttemptTrigger.FORCE_COMPLETE): AttemptStatus.COMPLETED,
    (AttemptStatus.IN_PROGRESS, AttemptTrigger.EXPIRE): AttemptStatus.EXPIRED,
}


@attrs.frozen
class Attempt:
    id: str
    game_id: str
    env: Environment
    player_id: str
    external_player_id: str
    event_key: str
    event_id: str
    window_id: str
    board_id: str
    status: AttemptStatus
    started_at: datetime
    ends_at: datetime
    attempt_count: int
    segment_values: dict[str, str | None] = attrs.field(factory=dict)
    metrics: dict[str, float] = attrs.field(factory=dict)
    score: float | None = attrs.field(default=None, validator=on_a_board)
    score_at: datetime | None = None
    completed_at: datetime | None = None
    milestones: tuple[str, ...] = ()
    flagged: bool = False
    lobby_id: str | None = None
    # Set when its lobby's sudden death froze it (docs/lobbies.md#sudden-death): it takes no more
    # progress, its score stands, and it ends as any attempt does.
    frozen_at: datetime | None = None


@attrs.frozen
class AttemptTally:
    """A player's attempts at one event over a period, in aggregate (:mod:`livecore.simulation.fitting`):
    the ``attempts`` started, the ``plays`` (runs of attempts each started before the one before it was
    due to end: what one session plays), those ``scored``, the sum of their scores and of their squares;
    and the seconds its plays were due to take (``busy``: from a play's first start to the end due of its
    last attempt, the attempts' times due joined), in which the player could start no other play of the
    event."""

    attempts: int
    plays: int
    scored: int
    score_sum: float
    score_squares: float
    busy: float


@attrs.frozen
class ScoreSpread:
    """The scored attempts at one event over a period, in aggregate (:mod:`livecore.simulation.fitting`):
    how many were ``scored`` and their scores' sum (``total``); and how far a player's scores stray from
    its own mean: the squared deviations summed over the players (``within``), and the degrees of freedom
    they have (``freedom``: each player's scored attempts but one)."""

    scored: int
    total: float
    within: float
    freedom: int

    @classmethod
    def of(cls, tallies: Mapping[tuple[str, str], AttemptTally]) -> dict[str, ScoreSpread]:
        """Event key -> the spread of its scores, from the players' tallies by (player id, event key): a
        player's squared deviations from its mean are its squares' sum less its sum squared over its
        count."""
        found: dict[str, ScoreSpread] = {}
        for (_, key), t in tallies.items():
            if not t.scored:
                continue
            had = found.get(key, cls(0, 0.0, 0.0, 0))
            within = max(0.0, t.score_squares - t.score_sum * t.score_sum / t.scored)
            found[key] = cls(
                had.scored + t.scored,
                had.total + t.score_sum,
                had.within + within,
                had.freedom + t.scored - 1,
            )
        return found


@attrs.frozen
class HeldStart:
    """The body of a held start's 202 answer as a caller reads it (its ``details``), refined by the area
    that holds it (the lobbies' ``LobbyForming``): what a simulated player gets back instead of an
    attempt."""


@attrs.frozen
class Flag:
    """A check that flagged a write: what ``event.attempt_flagged`` reports."""

    check: AntiCheat
    before: float
    after: float
    elapsed_sec: float
    avg_rate: float | None
    reason: str


@attrs.frozen
class Progress:
    """What one accepted progress write did."""

    attempt: Attempt
    crossed: tuple[Milestone, ...]
    completed: bool
    flags: tuple[Flag, ...]
    improved: bool  # the score got better (the board may move)


def effective_status(attempt: Attempt, now: datetime) -> AttemptStatus:
    if attempt.status is AttemptStatus.IN_PROGRESS and now >= attempt.ends_at:
        return AttemptStatus.EXPIRED
    return attempt.status


def transition(attempt: Attempt, trigger: AttemptTrigger, now: datetime) -> Attempt:
    return attrs.evolve(attempt, **_moved(attempt, trigger, now))


def _moved(attempt: Attempt, trigger: AttemptTrigger, now: datetime) -> dict[str, Any]:
    """The fields ``trigger`` changes: the next status, and the completion time when it completes."""
    nxt = TRANSITIONS.get((attempt.status, trigger))
    if nxt is None:
        raise not_in_progress(attempt)
    if nxt is AttemptStatus.COMPLETED:
        return {"status": nxt, "completed_at": now}
    return {"status": nxt}


def not_in_progress(attempt: Attempt) -> LivecoreError:
    return LivecoreError(
        ATTEMPT_NOT_IN_PROGRESS, "This attempt is not in progress.", {"attemptId": attempt.id}
    )


def ends_at(event: EventSettings, window: Window, started_at: datetime) -> datetime:
    return min(started_at + timedelta(seconds=event.attempt_seconds), window.ends_at)


def check_start(event: EventSettings, mine: list[Attempt], now: datetime) -> None:
    """Refusals 4 and 5 of the start order; ``mine`` are the player's attempts in the window."""
    for attempt in mine:
        if effective_status(attempt, now) is AttemptStatus.IN_PROGRESS:
            raise LivecoreError(
                ATTEMPT_IN_PROGRESS,
                "Finish the attempt in progress first.",
                {"attemptId": attempt.id},
            )
    if event.max_attempts is not None and len(mine) >= event.max_attempts:
        raise LivecoreError(
            MAX_ATTEMPTS_REACHED,
            f"At most {event.max_attempts} attempts per window.",
            {"maxAttempts": event.max_attempts},
        )


def segment_values(
    event: EventSettings, context: dict[str, Any] | None, country: str | None
) -> dict[str, str | None]:
    """The board an attempt joins: each segment key's value from ``playerContext``, a string or absent
    (null). A ``country`` segment takes the player's country (an operator's override, else
    ``playerContext.country`` when it is a country code, else geo), normalized, so ``fr`` and ``FR`` play
    on one board."""
    PLAYER_CONTEXT.check(context, "playerContext")
    context = context or {}
    values: dict[str, str | None] = {}
    for key in event.segments:
        value = context.get(key)
        if value is not None and not isinstance(value, str):
            raise invalid_request(
                "Segment values must be strings.", {f"playerContext.{key}": "must be a string"}
            )
        values[key] = country if key == "country" else value
    return values


def better(order: Order, a: float, b: float) -> bool:
    """``a`` is strictly better than ``b``."""
    return a > b if order is Order.DESC else a < b


def reaches(order: Order, score: float, threshold: float) -> bool:
    """``score`` is at or beyond ``threshold`` in the event's direction."""
    return score >= threshold if order is Order.DESC else score <= threshold


def check_metrics(event: EventSettings, metrics: dict[str, Any]) -> dict[str, float]:
    """Every name known to the event, every value a number that may reach a board (``true`` is not a
    number)."""
    METRICS.check(metrics, "metrics")
    known = event.metrics()
    problems: dict[str, str] = {}
    for name, value in metrics.items():
        if name not in known:
            problems[f"metrics.{name}"] = f"unknown metric; this event takes {', '.join(sorted(known))}"
        elif (problem := board_number_problem(value)) is not None:
            problems[f"metrics.{name}"] = problem
    if problems:
        raise invalid_request("Invalid metrics.", problems)
    return {name: float(value) for name, value in metrics.items()}


def check_progress(attempt: Attempt, now: datetime) -> None:
    if effective_status(attempt, now) is not AttemptStatus.IN_PROGRESS or attempt.frozen_at is not None:
        raise not_in_progress(attempt)


def _verdicts(event: EventSettings, attempt: Attempt, metrics: dict[str, float], now: datetime) -> list[Flag]:
    """Each check the write fails, in manifest order."""
    elapsed = max((now - attempt.started_at).total_seconds(), 0.0)
    failed: list[Flag] = []
    for check in event.anti_cheat:
        if check.metric not in metrics:
            continue
        after = metrics[check.metric]
        before = attempt.metrics.get(check.metric, 0.0)
        if check.kind is CheckKind.MAX_VALUE:
            if after > check.limit:
                failed.append(Flag(check, before, after, elapsed, None, f"{after} above {check.limit}"))
            continue
        # A metric counts from 0 at the start; the attempt's first second counts as a whole one.
        rate = after / max(elapsed, 1.0)
        if rate > check.limit:
            failed.append(Flag(check, before, after, elapsed, rate, f"{rate:.3f}/s above {check.limit}/s"))
    return failed


def cross_milestones(event: EventSettings, attempt: Attempt) -> tuple[Attempt, tuple[Milestone, ...]]:
    """The attempt with the milestones its score reaches and had not reached before, and those."""
    crossed = _crossed(event, attempt, attempt.score)
    return attrs.evolve(attempt, milestones=(*attempt.milestones, *(m.key for m in crossed))), crossed


def _crossed(event: EventSettings, attempt: Attempt, score: float | None) -> tuple[Milestone, ...]:
    """The milestones ``score`` reaches that ``attempt`` had not reached before."""
    if score is None:
        return ()
    return tuple(
        m
        for m in event.milestones
        if m.key not in attempt.milestones and reaches(event.order, score, m.threshold)
    )


def force_complete(
    event: EventSettings, attempt: Attempt, score: float | None, now: datetime
) -> tuple[Attempt, tuple[Milestone, ...]]:
    """An operator completes an attempt in progress, its score replaced when ``score`` is given
    (an override may be worse than the score reached). The milestones the score reaches are recorded as
    fired; their rewards are not granted (an operator retries the reward roll). 409
    ``attempt_not_in_progress`` for an attempt that is not in progress, or past ``endsAt``."""
    check_progress(attempt, now)
    if score is not None:
        check_board_number(score, "score")
        attempt = attrs.evolve(attempt, score=float(score), score_at=now)
    attempt, crossed = cross_milestones(event, attempt)
    return transition(attempt, AttemptTrigger.FORCE_COMPLETE, now), crossed


def progress(
    event: EventSettings, attempt: Attempt, metrics: dict[str, float], complete: bool, now: datetime
) -> Progress:
    """The attempt after an accepted write of ``metrics`` (already checked by :func:`check_metrics` and
    :func:`check_progress`); 422 ``anti_cheat_rejected`` when a ``reject`` check fails."""
    failed = _verdicts(event, attempt, metrics, now)
    rejected = next((f for f in failed if f.check.verdict is Verdict.REJECT), None)
    if rejected is not None:
        raise LivecoreError(
            ANTI_CHEAT_REJECTED,
            f"Progress refused by the {rejected.check.key!r} check: {rejected.reason}.",
            {"validator": rejected.check.key},
        )
    # The write's changes are gathered and the attempt copied once: a season writes progress on most
    # plays, and each copy of an attempt builds all its fields again.
    changes: dict[str, Any] = {
        "metrics": {**attempt.metrics, **metrics},
        "flagged": attempt.flagged or bool(failed),
    }
    score = attempt.score
    value = metrics.get(event.score_metric)
    improved = value is not None and (score is None or better(event.order, value, score))
    if improved:
        score = value
        changes.update(score=value, score_at=now)
    crossed = _crossed(event, attempt, score)
    if crossed:
        changes["milestones"] = (*attempt.milestones, *(m.key for m in crossed))
    reached = event.target is not None and score is not None and reaches(event.order, score, event.target)
    if complete or reached:
        changes.update(_moved(attempt, AttemptTrigger.COMPLETE, now))
    after = attrs.evolve(attempt, **changes)
    return Progress(after, crossed, after.status is AttemptStatus.COMPLETED, tuple(failed), improved)
