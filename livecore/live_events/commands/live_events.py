"""Live-event commands (docs/events.md): the events list, start, progress, and the scheduled work that
opens and closes windows and expires attempts; end-now for tests.

Closing a window is one step, in one transaction (:func:`close_window`): expire its in-progress
attempts, finalize each of its boards (rank-reward grants, ``leaderboard.finalized``), then mark it
closed (``window.closed`` for a live window). A close that fails leaves nothing, and the next run closes
the window again from the start; a closed window is never closed twice, so nothing is paid twice.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any, Protocol

import attrs

from livecore.commands import Runtime, emit
from livecore.economy.commands import change
from livecore.economy.errors import INSUFFICIENT_BALANCE, INSUFFICIENT_QUANTITY
from livecore.economy.rules import Reason, resource
from livecore.errors import PERMISSION_DENIED, LivecoreError
from livecore.games import Game, Milestone
from livecore.grants.commands import issue_grant
from livecore.grants.rules import Grant, GrantKind
from livecore.ids import new_id
from livecore.limits import FREE_TEXT
from livecore.live_events.attempts import (
    Attempt,
    AttemptStatus,
    check_metrics,
    check_progress,
    check_start,
    effective_status,
    ends_at,
    progress,
    segment_values,
)
from livecore.live_events.attempts import force_complete as forced
from livecore.live_events.boards import Board, BoardStatus
from livecore.live_events.commands.attempts import expire, finished
from livecore.live_events.commands.boards import finalize_board, record_score, rescore
from livecore.live_events.commands.steps import Held, StepsTx, closing, progressed, scored, seated
from livecore.live_events.commands.windows import current_window
from livecore.live_events.errors import (
    ATTEMPT_IN_PROGRESS,
    ATTEMPT_NOT_FOUND,
    EVENT_NOT_OPEN,
    INSUFFICIENT_ENTRY_COST,
    REWARDS_ALREADY_GRANTED,
)
from livecore.live_events.rules import (
    ATTEMPT_ID_PREFIX,
    EventState,
    Slot,
    Window,
    WindowStatus,
    board_id,
    close,
    event_id,
    event_settings,
    next_start,
    slot_at,
    window_id,
)
from livecore.live_events.settings import EVENT_SETTINGS, EventSettings
from livecore.live_events.store.attempts import HasAttempts
from livecore.live_events.store.windows import HasWindows
from livecore.live_events.webhooks import (
    AttemptCompleted,
    AttemptFlagged,
    AttemptForceCompleted,
    AttemptRestarted,
    AttemptStarted,
    EntryCostCharged,
    MilestoneGranted,
    ProgressUpdated,
    WindowClosed,
)
from livecore.players.commands import load_game
from livecore.players.identity import resolve_country
from livecore.players.rules import Player
from livecore.scope import SYSTEM, Environment, Scope
from livecore.store.games import HasGames

SWEEP_BATCH = 500
MILESTONE_SOURCE_KIND = "event_milestone"
COMPLETION_SOURCE_KIND = "event_completion"


class LiveEventsTx(StepsTx, Protocol):
    """The ports these commands use."""


@attrs.frozen
class EventListing:
    """One event as the events list shows it now."""

    event: EventSettings
    id: str
    state: EventState
    window: tuple[str, Slot] | None
    next_window_starts_at: datetime | None
    attempts: list[Attempt] | None


def _system_scope(game: Game, env: Environment) -> Scope:
    return Scope(studio_id=game.studio_id, game_id=game.id, env=env, actor=SYSTEM)


def _open_slot(
    tx: HasWindows, game: Game, env: Environment, event: EventSettings, now: datetime
) -> Slot | None:
    """The window of the schedule open now, unless it was recorded and closed already (end-now)."""
    slot = slot_at(event, now)
    if slot is None:
        return None
    recorded = tx.windows.get(game.id, window_id(game.id, env, event.key, slot.starts_at))
    return slot if recorded is None or recorded.status is WindowStatus.OPEN else None


def list_events(tx: LiveEventsTx, rt: Runtime, scope: Scope, player: Player | None) -> list[EventListing]:
    """Every event of the manifest, in key order; with the player, its attempts in the open window."""
    game = load_game(tx, scope)
    now = rt.clock.now()
    out = []
    for key in sorted(game.settings.of(EVENT_SETTINGS)):
        event = game.settings.of(EVENT_SETTINGS)[key]
        slot = _open_slot(tx, game, scope.env, event, now)
        upcoming = next_start(event, now)
        window = None
        attempts: list[Attempt] | None = None if player is None else []
        if slot is not None:
            wid = window_id(game.id, scope.env, key, slot.starts_at)
            window = (wid, slot)
            if player is not None:
                attempts = [
                    attrs.evolve(a, status=effective_status(a, now))
                    for a in tx.attempts.of_player_in_window(player.id, wid)
                ]
        state = EventState.OPEN if slot else EventState.SCHEDULED if upcoming else EventState.ENDED
        out.append(EventListing(event, event_id(game.id, event), state, window, upcoming, attempts))
    return out


def _board(tx: LiveEventsTx, window: Window, values: dict[str, str | None]) -> Board:
    bid = board_id(window, values)
    board = tx.boards.get(window.game_id, bid)
    if board is None:
        board = Board(
            id=bid,
            game_id=window.game_id,
            env=window.env,
            event_key=window.event_key,
            event_id=window.event_id,
            window_id=window.id,
            order=window.settings.order,
            closes_at=window.ends_at,
            segment_values=values,
        )
        tx.boards.insert(board)
    return board


def _charge(
    tx: LiveEventsTx,
    rt: Runtime,
    scope: Scope,
    game: Game,
    player: Player,
    attempt_id: str,
    event: EventSettings,
) -> None:
    for entry in event.entry_cost:
        try:
            change(
                tx,
                rt,
                scope,
                game,
                player,
                resource(game, entry.key, entry.type),
                -entry.amount,
                Reason.ENTRY_COST,
                source_ref_id=attempt_id,
            )
        except LivecoreError as exc:
            if exc.code not in (INSUFFICIENT_BALANCE, INSUFFICIENT_QUANTITY):
                raise
            raise LivecoreError(
                INSUFFICIENT_ENTRY_COST,
                f"Not enough {entry.key} to enter: {exc.message}",
                exc.details,
            ) from None


def start(
    tx: LiveEventsTx,
    rt: Runtime,
    scope: Scope,
    player: Player,
    event_key: str,
    context: dict[str, Any] | None,
    country: str | None = None,
) -> Attempt | Held[Any]:
    """Start an attempt in the event's open window (refusals: ``livecore.live_events.attempts``). ``country``
    is the one the request's address resolves to; ``playerContext.country`` wins over it. An area that
    seats the event's players is asked first (``livecore.live_events.commands.steps.START``: a lobby
    event's seat): it may hold the start back (a lobby that forms: 202 ``lobby_forming``, nothing
    charged), else the attempt plays on its room's board."""
    game = load_game(tx, scope)
    event_settings(game, event_key)
    now = rt.clock.now()
    window = current_window(tx, rt, scope, game, game.settings.of(EVENT_SETTINGS)[event_key])
    if window is None:
        raise LivecoreError(
            EVENT_NOT_OPEN, f"No window of {event_key!r} is open now.", {"eventKey": event_key}
        )
    event = window.settings
    resolved = resolve_country(context, country) or player.resolved_country
    kept = context if context is not None else player.context
    # Copied, and written below, only when the start changes them: most starts repeat the last ones.
    started = player
    if resolved != player.resolved_country or kept != player.context:
        started = attrs.evolve(player, resolved_country=resolved, context=kept)
    # The board's ``country`` segment is the country shown: an operator's override wins.
    values = segment_values(event, context, started.country)
    room = seated(tx, rt, scope, window, player, values)
    if isinstance(room, Held):
        return room
    mine = tx.attempts.of_player_in_window(player.id, window.id)
    mine = [
        expire(tx, rt, scope, a)
        if effective_status(a, now) is AttemptStatus.EXPIRED and a.status is AttemptStatus.IN_PROGRESS
        else a
        for a in mine
    ]
    check_start(event, mine, now)
    attempt_id = new_id(ATTEMPT_ID_PREFIX, now, rt.rng)
    _charge(tx, rt, scope, game, player, attempt_id, event)
    if started is not player:
        player = started
        tx.players.update(player)
    board_id = _board(tx, window, values).id if room is None else room.board_id
    attempt = Attempt(
        id=attempt_id,
        game_id=game.id,
        env=scope.env,
        player_id=player.id,
        external_player_id=player.external_id,
        event_key=event.key,
        event_id=window.event_id,
        window_id=window.id,
        board_id=board_id,
        status=AttemptStatus.IN_PROGRESS,
        started_at=now,
        ends_at=ends_at(event, window, now),
        attempt_count=len(mine) + 1,
        segment_values=values,
        lobby_id=room.id if room is not None else None,
    )
    tx.attempts.insert(attempt)
    if mine:
        emit(tx, rt, scope, AttemptRestarted.of(attempt, mine[-1]))
    emit(tx, rt, scope, AttemptStarted.of(attempt))
    if event.entry_cost:
        emit(tx, rt, scope, EntryCostCharged.of(attempt, event.entry_cost))
    return attempt


def get_attempt(tx: HasAttempts, scope: Scope, player: Player, event_key: str, attempt_id: str) -> Attempt:
    attempt = tx.attempts.get(scope.game_id, attempt_id)
    if attempt is None or attempt.player_id != player.id or attempt.event_key != event_key:
        raise LivecoreError(ATTEMPT_NOT_FOUND, "Attempt not found.", {"attemptId": attempt_id})
    return attempt


def record_progress(
    tx: LiveEventsTx,
    rt: Runtime,
    scope: Scope,
    player: Player,
    event_key: str,
    attempt_id: str,
    metrics: dict[str, Any],
    complete: bool = False,
) -> tuple[Attempt, list[Grant]]:
    """A progress write (refusals: ``livecore.live_events.attempts``): the attempt after it and the milestone
    grants
    it created."""
    attempt = get_attempt(tx, scope, player, event_key, attempt_id)
    window = tx.windows.get(scope.game_id, attempt.window_id)
    assert window is not None  # an attempt's window is recorded before the attempt
    event = window.settings
    values = check_metrics(event, metrics)
    now = rt.clock.now()
    check_progress(attempt, now)
    done = progress(event, attempt, values, complete, now)
    if rt.checks.active:
        rt.checks.hook.before_submit_progress(
            tx=tx, rt=rt, scope=scope, player=player, attempt=attempt, metrics=values
        )
    attempt = done.attempt
    tx.attempts.update(attempt)
    if done.improved:
        record_score(tx, scope, player, attempt)
        scored(tx, rt, scope, player, window)
    for flag in done.flags:
        emit(tx, rt, scope, AttemptFlagged.of(attempt, flag, now))
    granted = []
    for milestone in done.crossed:
        grant = _attempt_grant(tx, rt, scope, player, event, attempt, milestone)
        granted.append(grant)
        emit(tx, rt, scope, MilestoneGranted.of(attempt, milestone.key, milestone.threshold, grant.id, now))
    if done.completed:
        finished(tx, rt, scope, attempt)
        if event.completion_rewards:
            _attempt_grant(tx, rt, scope, player, event, attempt, None)
        emit(tx, rt, scope, AttemptCompleted.of(attempt))
    emit(tx, rt, scope, ProgressUpdated.of(attempt), debounce_key=attempt.id)
    attempt = progressed(tx, rt, scope, event, attempt)
    if rt.checks.active:
        rt.checks.hook.after_submit_progress(
            tx=tx, rt=rt, scope=scope, player=player, attempt=attempt, granted=tuple(granted)
        )
    return attempt, granted


def _attempt_grant(
    tx: LiveEventsTx,
    rt: Runtime,
    scope: Scope,
    player: Player,
    event: EventSettings,
    attempt: Attempt,
    milestone: Milestone | None,
) -> Grant:
    """The grant of a milestone the attempt reached, or (``milestone`` None) of its completion: both
    linked to the attempt, which is how a retried reward roll knows they were paid."""
    meta = {"eventKey": event.key}
    if milestone is not None:
        meta["milestoneKey"] = milestone.key
    return issue_grant(
        tx,
        rt,
        scope,
        player,
        kind=GrantKind.REWARD,
        entries=milestone.rewards if milestone is not None else event.completion_rewards,
        expires_at=None,
        source_kind=MILESTONE_SOURCE_KIND if milestone is not None else COMPLETION_SOURCE_KIND,
        source_ref_id=attempt.id,
        metadata=meta,
    )


def force_complete(
    tx: LiveEventsTx,
    rt: Runtime,
    scope: Scope,
    attempt_id: str,
    *,
    score: float | None,
    actor_member_id: str,
    reason: str | None,
) -> Attempt:
    """An operator completes an attempt in progress, its score replaced when ``score`` is given
    (``livecore.live_events.attempts.force_complete``); the board follows, and ``event.force_completed``
    fires with
    the milestones the score reached. No reward is granted: an operator retries the reward roll."""
    attempt = tx.attempts.get(scope.game_id, attempt_id)
    if attempt is None or attempt.env is not scope.env:
        raise LivecoreError(ATTEMPT_NOT_FOUND, "Attempt not found.", {"attemptId": attempt_id})
    FREE_TEXT.check_optional(reason, "reason")
    window = tx.windows.get(scope.game_id, attempt.window_id)
    assert window is not None  # an attempt's window is recorded before the attempt
    now = rt.clock.now()
    done, fired = forced(window.settings, attempt, score, now)
    tx.attempts.update(done)
    player = tx.players.by_id(done.player_id)
    assert player is not None
    mine = [done if a.id == done.id else a for a in tx.attempts.of_player_in_window(player.id, window.id)]
    rescore(tx, scope, player, [a for a in mine if a.board_id == done.board_id])
    scored(tx, rt, scope, player, window)
    finished(tx, rt, scope, done)
    emit(
        tx,
        rt,
        scope,
        AttemptForceCompleted(
            attempt_id=done.id,
            event_id=done.event_id,
            event_window_id=done.window_id,
            leaderboard_id=done.board_id,
            player_id=done.player_id,
            score=done.score,
            prior_score=attempt.score,
            completed_at=done.completed_at,
            actor_member_id=actor_member_id,
            reason=reason,
            milestones_fired=tuple(m.key for m in fired),
        ),
    )
    return done


def retry_reward_roll(tx: LiveEventsTx, rt: Runtime, scope: Scope, attempt_id: str) -> list[Grant]:
    """An operator grants what a finished attempt earned and was not granted (a force-complete rolls
    nothing): a grant per milestone the attempt reached, then its completion rewards when it completed.
    Refused with 409 ``attempt_in_progress`` while it runs, and 409 ``rewards_already_granted`` (details
    ``grantCount``) when any milestone or completion grant is already linked to it, so a roll never pays
    twice. ``grant.created`` fires for each grant."""
    attempt = tx.attempts.get(scope.game_id, attempt_id)
    if attempt is None or attempt.env is not scope.env:
        raise LivecoreError(ATTEMPT_NOT_FOUND, "Attempt not found.", {"attemptId": attempt_id})
    if attempt.status is AttemptStatus.IN_PROGRESS:
        raise LivecoreError(ATTEMPT_IN_PROGRESS, "The attempt is still in progress.")
    linked = [
        g
        for g in tx.grants.of_source(attempt.player_id, attempt.id)
        if g.source_kind in (MILESTONE_SOURCE_KIND, COMPLETION_SOURCE_KIND)
    ]
    if linked:
        raise LivecoreError(
            REWARDS_ALREADY_GRANTED,
            "Rewards are already granted for this attempt.",
            {"grantCount": len(linked)},
        )
    window = tx.windows.get(scope.game_id, attempt.window_id)
    assert window is not None  # an attempt's window is recorded before the attempt
    event = window.settings
    player = tx.players.by_id(attempt.player_id)
    assert player is not None
    grants = [
        _attempt_grant(tx, rt, scope, player, event, attempt, m)
        for m in event.milestones
        if m.key in attempt.milestones
    ]
    if attempt.status is AttemptStatus.COMPLETED and event.completion_rewards:
        grants.append(_attempt_grant(tx, rt, scope, player, event, attempt, None))
    return grants


# --- scheduled work -----------------------------------------------------------------------------------


def _unopened(tx: LiveEventsTx, now: datetime) -> Iterator[tuple[Game, Environment, EventSettings, Slot]]:
    """Every window of every game and environment that is open by the schedule now and not recorded, in
    game, environment and event key order: windows opening together open in the same order on every store
    (PostgreSQL keeps a game's settings as JSONB, which does not keep the manifest's order of keys)."""
    for game in _with_events(tx):
        # Each event's slot once, not once per environment: the manual clock's scheduler asks at every move.
        events = sorted(game.settings.of(EVENT_SETTINGS).items())
        open_now = [(event, slot) for _, event in events if (slot := slot_at(event, now)) is not None]
        due = [
            (env, event, slot, window_id(game.id, env, event.key, slot.starts_at))
            for env in Environment
            for event, slot in open_now
        ]
        # The game's open windows looked up together: one statement whatever the number of events.
        recorded = tx.windows.recorded(game.id, [w for *_, w in due]) if due else set()
        for env, event, slot, window in due:
            if window not in recorded:
                yield game, env, event, slot


def _with_events(tx: HasGames) -> list[Game]:
    return [game for game in tx.games.every() if game.settings.of(EVENT_SETTINGS)]


def open_due_windows(tx: LiveEventsTx, rt: Runtime) -> int:
    """Record every window of every game and environment that is open now and not yet recorded; returns
    how many it opened."""
    due = list(_unopened(tx, rt.clock.now()))
    for game, env, event, _ in due:
        current_window(tx, rt, _system_scope(game, env), game, event)
    return len(due)


# Later than any window or attempt ends: the earliest of those "due by then" is the next one due.
_END_OF_TIME = datetime(9999, 1, 1, tzinfo=UTC)


def next_opening(tx: LiveEventsTx, rt: Runtime) -> datetime | None:
    """When a window is next due to open (a window open by the schedule and not recorded is due at its
    start, which has passed); None when no event has another window. For the manual clock's scheduler."""
    now = rt.clock.now()
    for _, _, _, slot in _unopened(tx, now):
        return slot.starts_at
    starts = [
        start
        for game in _with_events(tx)
        for event in game.settings.of(EVENT_SETTINGS).values()
        if (start := next_start(event, now)) is not None
    ]
    return min(starts, default=None)


def next_closing(tx: LiveEventsTx) -> datetime | None:
    """The end of the open window that ends first (every game and environment)."""
    first = tx.windows.due_to_close(_END_OF_TIME, 1)
    return first[0].ends_at if first else None


def next_expiry(tx: LiveEventsTx) -> datetime | None:
    """The ``endsAt`` of the attempt in progress that ends first (every game)."""
    first = tx.attempts.past_end(_END_OF_TIME, 1)
    return first[0].ends_at if first else None


def close_window(tx: LiveEventsTx, rt: Runtime, window_id_: str, game_id: str) -> bool:
    """Close the window in one step (module docstring); False when it is closed already."""
    window = tx.windows.get(game_id, window_id_)
    if window is None or window.status is not WindowStatus.OPEN:
        return False
    game = tx.games.get(game_id)
    assert game is not None  # games are never deleted
    scope = _system_scope(game, window.env)
    now = rt.clock.now()
    while batch := tx.attempts.in_progress_in_window(window.id, SWEEP_BATCH):
        for attempt in batch:
            expire(tx, rt, scope, attempt)
    closing(tx, rt, scope, window)
    for board in tx.boards.of_window(window.id):
        if board.status is BoardStatus.OPEN:  # a room's closed early (sudden death) is final already
            finalize_board(tx, rt, scope, board, window.settings)
    closed = close(window, now)
    tx.windows.update(closed)
    if closed.env is Environment.LIVE:
        emit(tx, rt, scope, WindowClosed.of(closed, now))
    return True


def due_windows(tx: LiveEventsTx, rt: Runtime, limit: int) -> list[Window]:
    return tx.windows.due_to_close(rt.clock.now(), limit)


def games_expiring(tx: LiveEventsTx, rt: Runtime) -> list[str]:
    """The games of the attempts in progress whose time ran out first (a batch of them)."""
    return sorted({a.game_id for a in tx.attempts.past_end(rt.clock.now(), SWEEP_BATCH)})


def expire_attempts(tx: LiveEventsTx, rt: Runtime, game_id: str) -> int:
    """The sweep of one game: in-progress attempts whose time ran out become expired (``event.expired``,
    in the attempt's environment). It runs in its game's write queue, as the other writes that change an
    attempt do (a progress write holds its player, a window's close its game), so none of them writes
    over an expiry with the attempt it read before."""
    due = [a for a in tx.attempts.past_end(rt.clock.now(), SWEEP_BATCH) if a.game_id == game_id]
    game = tx.games.get(game_id)
    for attempt in due:
        assert game is not None
        expire(tx, rt, _system_scope(game, attempt.env), attempt)
    return len(due)


def end_now(tx: LiveEventsTx, rt: Runtime, scope: Scope, event_key: str) -> list[str]:
    """Close the event's open windows in the scope's environment now (a test key's tool); the ids closed."""
    if scope.env is not Environment.TEST:
        raise LivecoreError(PERMISSION_DENIED, "end-now takes a test-environment server key.")
    game = load_game(tx, scope)
    event = event_settings(game, event_key)
    current_window(tx, rt, scope, game, event)
    closed = []
    for window in tx.windows.open_of(game.id, scope.env, event_key):
        if close_window(tx, rt, window.id, game.id):
            closed.append(window.id)
    return closed


__all__ = [
    "EventListing",
    "LiveEventsTx",
    "close_window",
    "current_window",
    "due_windows",
    "end_now",
    "expire_attempts",
    "force_complete",
    "get_attempt",
    "list_events",
    "next_closing",
    "next_expiry",
    "next_opening",
    "open_due_windows",
    "record_progress",
    "retry_reward_roll",
    "start",
]
