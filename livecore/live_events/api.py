"""Live events: the events list, attempts (start, progress), event leaderboards and their stream, and the
test environment's end-now (docs/events.md)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

import attrs

from livecore.api.convert import OMIT_IF_NONE
from livecore.api.route import Auth, Route, Surface
from livecore.games import Order
from livecore.grants.api import GrantView, RewardEntry
from livecore.limits import BOARD_NUMBER, ID, PAGE, limited
from livecore.live_events.attempts import METRICS, PLAYER_CONTEXT, Attempt, AttemptStatus, effective_status
from livecore.live_events.boards import DEFAULT_LIMIT, BoardPage, BoardStatus, Standing, entry_fields
from livecore.live_events.errors import (
    ANTI_CHEAT_REJECTED,
    ATTEMPT_IN_PROGRESS,
    ATTEMPT_NOT_FOUND,
    ATTEMPT_NOT_IN_PROGRESS,
    EVENT_NOT_FOUND,
    EVENT_NOT_OPEN,
    INSUFFICIENT_ENTRY_COST,
    LEADERBOARD_NOT_FOUND,
    LOBBY_FORMING,
    MAX_ATTEMPTS_REACHED,
)
from livecore.live_events.rules import EventState
from livecore.players.errors import PLAYER_NOT_FOUND, PLAYER_SECRET_INVALID
from livecore.players.routes import PLAYER_WRITE_ERRORS, player_route

if TYPE_CHECKING:
    from livecore.live_events.commands.live_events import EventListing


@attrs.frozen
class AttemptView:
    """The attempt record (docs/events.md#the-attempt)."""

    attempt_id: str
    event_key: str
    event_id: str
    window_id: str
    leaderboard_id: str
    lobby_id: str | None
    status: AttemptStatus
    score: float | None
    metrics: dict[str, float]
    started_at: datetime
    ends_at: datetime
    completed_at: datetime | None
    attempt_count: int
    milestones: list[str]
    flagged: bool

    @classmethod
    def of(cls, a: Attempt, now: datetime | None = None) -> AttemptView:
        return cls(
            attempt_id=a.id,
            event_key=a.event_key,
            event_id=a.event_id,
            window_id=a.window_id,
            leaderboard_id=a.board_id,
            lobby_id=a.lobby_id,
            status=effective_status(a, now) if now is not None else a.status,
            score=a.score,
            metrics=a.metrics,
            started_at=a.started_at,
            ends_at=a.ends_at,
            completed_at=a.completed_at,
            attempt_count=a.attempt_count,
            milestones=list(a.milestones),
            flagged=a.flagged,
        )


@attrs.frozen
class WindowView:
    id: str
    starts_at: datetime
    ends_at: datetime


@attrs.frozen
class EventView:
    """One event of the list (docs/events.md#the-events-list); ``attempts`` only with the player's secret."""

    key: str
    id: str
    name: str
    order: Order
    state: EventState
    window: WindowView | None
    next_window_starts_at: datetime | None
    entry_cost: list[RewardEntry]
    max_attempts: int | None
    target: float | None
    lobby: bool
    attempts: list[AttemptView] | None = attrs.field(default=None, metadata=OMIT_IF_NONE)

    @classmethod
    def of(cls, listing: EventListing) -> EventView:
        event = listing.event
        window = None
        if listing.window is not None:
            wid, slot = listing.window
            window = WindowView(id=wid, starts_at=slot.starts_at, ends_at=slot.ends_at)
        return cls(
            key=event.key,
            id=listing.id,
            name=event.name,
            order=event.order,
            state=listing.state,
            window=window,
            next_window_starts_at=listing.next_window_starts_at,
            entry_cost=[RewardEntry.of(e) for e in event.entry_cost],
            max_attempts=event.max_attempts,
            target=event.target,
            lobby=event.holds("lobby"),
            attempts=None if listing.attempts is None else [AttemptView.of(a) for a in listing.attempts],
        )


@attrs.frozen
class EventListResponse:
    events: list[EventView]


@attrs.frozen
class StartAttemptRequest:
    player_context: dict[str, Any] | None = attrs.field(default=None, metadata=limited(PLAYER_CONTEXT))


@attrs.frozen
class AttemptResponse:
    attempt: AttemptView


@attrs.frozen
class ProgressRequest:
    """Metric values are the attempt's current totals (set, not added)."""

    metrics: dict[str, Any] = attrs.field(metadata=limited(BOARD_NUMBER, count=METRICS))
    complete: bool = False


@attrs.frozen
class ProgressResponse:
    attempt: AttemptView
    milestones_granted: list[GrantView]


@attrs.frozen
class EntryView:
    """A board entry (docs/events.md#boards): identities as they are at read time."""

    rank: int
    external_player_id: str | None
    name: str
    avatar: str | None
    anonymized_name: str | None
    anonymized_avatar: str | None
    country: str | None
    score: float
    updated_at: datetime
    is_bot: bool

    @classmethod
    def of(cls, standing: Standing[Any]) -> EntryView:
        return cls(**entry_fields(standing))


@attrs.frozen
class BoardView:
    id: str
    event_key: str
    window_id: str
    lobby_id: str | None
    segment_values: dict[str, str | None]
    status: BoardStatus
    closes_at: datetime


@attrs.frozen
class BoardQuery:
    limit: int = attrs.field(default=DEFAULT_LIMIT, metadata=limited(PAGE))
    cursor: str | None = attrs.field(default=None, metadata=limited(ID))
    around: str | None = attrs.field(default=None, metadata=limited(ID))


@attrs.frozen
class BoardResponse:
    leaderboard: BoardView
    entries: list[EntryView]
    next_cursor: str | None

    @classmethod
    def of(cls, page: BoardPage) -> BoardResponse:
        b = page.board
        return cls(
            leaderboard=BoardView(
                id=b.id,
                event_key=b.event_key,
                window_id=b.window_id,
                lobby_id=b.lobby_id,
                segment_values=b.segment_values,
                status=b.status,
                closes_at=b.closes_at,
            ),
            entries=[EntryView.of(s) for s in page.standings],
            next_cursor=page.next_cursor,
        )


@attrs.frozen
class EndNowResponse:
    closed_windows: list[str]


# --- the stream's events (docs/events.md#the-live-stream) ---------------------------------------------


@attrs.frozen
class StreamReady:
    leaderboard_id: str
    version: int
    entries: list[EntryView]


@attrs.frozen
class StreamScoreUpdate:
    leaderboard_id: str
    version: int
    entry: EntryView


@attrs.frozen
class StreamClosed:
    leaderboard_id: str
    reason: str = "finalized"


SDK_EVENTS = Route(
    name="events.list",
    surface=Surface.SDK,
    method="GET",
    path="/players/{externalId}/events",
    summary="The game's events and their windows; with the player's secret, its attempts in the open ones.",
    auth=Auth.KEY_OR_PLAYER,
    response=EventListResponse,
    errors=(PLAYER_SECRET_INVALID, PLAYER_NOT_FOUND),
)

SDK_START = player_route(
    "events.start",
    "POST",
    "/events/{eventKey}/start",
    "Start an attempt in the event's open window, paying its entry cost.",
    AttemptResponse,
    status=201,
    request=StartAttemptRequest,
    request_optional=True,
    errors=(
        *PLAYER_WRITE_ERRORS,
        EVENT_NOT_FOUND,
        EVENT_NOT_OPEN,
        ATTEMPT_IN_PROGRESS,
        MAX_ATTEMPTS_REACHED,
        INSUFFICIENT_ENTRY_COST,
        # A lobby event's start while the player's lobby forms: nothing charged
        # (``details: {lobbyId, participantCount, capacity, fillBy}``).
        LOBBY_FORMING,
    ),
)

SDK_PROGRESS = player_route(
    "events.progress",
    "POST",
    "/events/{eventKey}/attempts/{attemptId}/progress",
    "Report an attempt's metrics (current totals); may cross milestones or complete it.",
    ProgressResponse,
    request=ProgressRequest,
    errors=(
        *PLAYER_WRITE_ERRORS,
        ATTEMPT_NOT_FOUND,
        ATTEMPT_NOT_IN_PROGRESS,
        ANTI_CHEAT_REJECTED,
    ),
)

SDK_BOARD = Route(
    name="event_leaderboards.read",
    surface=Surface.SDK,
    method="GET",
    path="/event-leaderboards/{leaderboardId}",
    summary="A page of an event leaderboard: the top, after a cursor, or around a player.",
    query=BoardQuery,
    response=BoardResponse,
    errors=(LEADERBOARD_NOT_FOUND, PLAYER_NOT_FOUND),
)

SDK_BOARD_STREAM = Route(
    name="event_leaderboards.stream",
    surface=Surface.SDK,
    method="GET",
    path="/event-leaderboards/{leaderboardId}/stream",
    summary="Server-sent events of the board: ready, then score_update per change, closed at finalize.",
    stream=(("ready", StreamReady), ("score_update", StreamScoreUpdate), ("closed", StreamClosed)),
    errors=(LEADERBOARD_NOT_FOUND,),
)

SERVER_END_NOW = Route(
    name="server.dev.events.end_now",
    surface=Surface.SERVER,
    method="POST",
    path="/dev/events/{eventKey}/end-now",
    summary="Test environment: close the event's open windows now (expire, finalize, pay ranks).",
    response=EndNowResponse,
    test_only=True,
    errors=(EVENT_NOT_FOUND,),
)

ROUTES = (SDK_EVENTS, SDK_START, SDK_PROGRESS, SDK_BOARD, SDK_BOARD_STREAM, SERVER_END_NOW)
