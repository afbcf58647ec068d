"""The quests routes: a player checks in and reads its quest (client SDK), and the studio's backend
reads a player's quest (server API). They are declared as the built-in routes are, so they are mounted,
listed in the OpenAPI documents and rendered on the area's reference page the same way."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

import attrs

from livecore.api.route import server_route
from livecore.economy.errors import RESOURCE_NOT_FOUND
from livecore.grants.api import GrantView
from livecore.players.errors import PLAYER_NOT_FOUND
from livecore.players.routes import PLAYER_READ_ERRORS, PLAYER_WRITE_ERRORS, player_route
from studio_quests import rules
from studio_quests.rules import QUEST_ALREADY_CHECKED_IN, QUESTS_NOT_CONFIGURED, QuestState

if TYPE_CHECKING:
    from studio_quests.commands import CheckedIn


@attrs.frozen
class QuestView:
    """A player's daily check-in: ``streak`` counts the consecutive days up to its last check-in, 0 once
    it missed a whole day; ``nextCheckInAt`` is when it may check in next (now, when it may already)."""

    checked_in_today: bool
    streak: int
    best_streak: int
    total_check_ins: int
    last_checked_in_at: datetime | None
    next_check_in_at: datetime

    @classmethod
    def of(cls, state: QuestState | None, now: datetime) -> QuestView:
        today = rules.day_of(now)
        if state is None:
            return cls(False, 0, 0, 0, None, now)
        done = state.last_day >= today
        tomorrow = datetime.combine(today + timedelta(days=1), datetime.min.time(), UTC)
        return cls(
            checked_in_today=done,
            streak=0 if rules.lapsed(state, today) else state.streak,
            best_streak=state.best_streak,
            total_check_ins=state.total,
            last_checked_in_at=state.checked_in_at,
            next_check_in_at=tomorrow if done else now,
        )


@attrs.frozen
class QuestResponse:
    quest: QuestView


@attrs.frozen
class CheckInResponse:
    """The quest after the check-in, and the pending grant of the day's reward (claimed as every grant
    is: ``POST /sdk/v1/players/{externalId}/grants/{grantId}/claim``)."""

    quest: QuestView
    grant: GrantView

    @classmethod
    def of(cls, done: CheckedIn, now: datetime) -> CheckInResponse:
        return cls(quest=QuestView.of(done.state, now), grant=GrantView.of(done.grant, now))


SDK_CHECK_IN = player_route(
    "quests.check_in",
    "POST",
    "/quests/check-in",
    "Check in for today (UTC): the streak moves on and the day's reward is granted, pending.",
    CheckInResponse,
    errors=(
        *PLAYER_WRITE_ERRORS,
        QUEST_ALREADY_CHECKED_IN,
        QUESTS_NOT_CONFIGURED,
        RESOURCE_NOT_FOUND,
    ),
)

SDK_READ = player_route(
    "quests.read",
    "GET",
    "/quests",
    "The player's daily check-in: today's, the streak, the best streak.",
    QuestResponse,
    errors=PLAYER_READ_ERRORS,
)

SERVER_READ = server_route(
    "server.quests.read",
    "GET",
    "/players/{externalId}/quests",
    "A player's daily check-in, as the player reads it.",
    QuestResponse,
    errors=(PLAYER_NOT_FOUND,),
)

ROUTES = (SDK_CHECK_IN, SDK_READ, SERVER_READ)
