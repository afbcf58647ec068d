"""Shared leaderboards: reading a board, the studio's score submission and the test environment's
rollover-now (docs/leaderboards.md)."""

from __future__ import annotations

from datetime import datetime

import attrs

from livecore.api.route import Idempotency, Route, Surface
from livecore.games import Order
from livecore.idempotency import KEY
from livecore.leaderboards.rules import SCORE, SharedPage
from livecore.leaderboards.settings import Period
from livecore.limits import ID, PAGE, limited
from livecore.live_events.api import EntryView
from livecore.live_events.boards import DEFAULT_LIMIT
from livecore.live_events.errors import LEADERBOARD_NOT_FOUND
from livecore.players.errors import PLAYER_NOT_FOUND


@attrs.frozen
class DivisionView:
    id: str
    tier: str


@attrs.frozen
class LeaderboardView:
    """The board and the period read (docs/leaderboards.md#reading)."""

    key: str
    name: str
    order: Order
    period: Period
    period_id: str
    period_starts_at: datetime | None
    period_ends_at: datetime | None
    division: DivisionView | None


@attrs.frozen
class LeaderboardQuery:
    limit: int = attrs.field(default=DEFAULT_LIMIT, metadata=limited(PAGE))
    cursor: str | None = attrs.field(default=None, metadata=limited(ID))
    around: str | None = attrs.field(default=None, metadata=limited(ID))
    division: str | None = attrs.field(default=None, metadata=limited(ID))
    period: str | None = attrs.field(default=None, metadata=limited(ID))
    previous: bool = False


@attrs.frozen
class LeaderboardResponse:
    leaderboard: LeaderboardView
    entries: list[EntryView]
    next_cursor: str | None

    @classmethod
    def of(cls, page: SharedPage) -> LeaderboardResponse:
        p = page.period
        settings = p.settings
        division = None
        if page.division is not None and settings.divisions is not None:
            division = DivisionView(id=page.division.id, tier=settings.divisions.tiers[page.division.tier])
        return cls(
            leaderboard=LeaderboardView(
                key=settings.key,
                name=settings.name,
                order=settings.order,
                period=settings.period,
                period_id=p.id,
                period_starts_at=p.starts_at,
                period_ends_at=p.ends_at,
                division=division,
            ),
            entries=[EntryView.of(s) for s in page.standings],
            next_cursor=page.next_cursor,
        )


@attrs.frozen
class SubmitScoreRequest:
    """A whole number (docs/leaderboards.md#scores); combined into the player's entry by the board's
    aggregation."""

    external_player_id: str = attrs.field(metadata=limited(ID))
    score: int = attrs.field(metadata=limited(SCORE))
    idempotency_key: str = attrs.field(metadata=limited(KEY))


@attrs.frozen
class ScoreResponse:
    entry: EntryView


@attrs.frozen
class RolloverResponse:
    """``periodId``: the period that was finalized (readable with ``period=``); absent when nothing
    rolled over."""

    rolled_over: bool
    period_id: str | None = None


SDK_LEADERBOARD = Route(
    name="leaderboards.read",
    surface=Surface.SDK,
    method="GET",
    path="/leaderboards/{leaderboardKey}",
    summary="A page of a shared leaderboard: the current period or a past one, a division, around a player.",
    query=LeaderboardQuery,
    response=LeaderboardResponse,
    errors=(LEADERBOARD_NOT_FOUND, PLAYER_NOT_FOUND),
)

SERVER_SUBMIT_SCORE = Route(
    name="server.leaderboards.scores",
    surface=Surface.SERVER,
    method="POST",
    path="/leaderboards/{leaderboardKey}/scores",
    summary="Submit a player's score to a shared leaderboard (the player is created on first contact).",
    request=SubmitScoreRequest,
    response=ScoreResponse,
    idempotency=Idempotency.REQUIRED,
    body_idempotency_field=True,
    errors=(LEADERBOARD_NOT_FOUND,),
)

SERVER_ROLLOVER_NOW = Route(
    name="server.dev.leaderboards.rollover_now",
    surface=Surface.SERVER,
    method="POST",
    path="/dev/leaderboards/{leaderboardKey}/rollover-now",
    summary="Test environment: finalize the board's current period now and open the next.",
    response=RolloverResponse,
    test_only=True,
    errors=(LEADERBOARD_NOT_FOUND,),
)

ROUTES = (SDK_LEADERBOARD, SERVER_SUBMIT_SCORE, SERVER_ROLLOVER_NOW)
