"""The live events' error codes, each with its status and meaning (docs/reference/errors.md), and the
exception a refusal of each raises, in the core and in the typed clients (:mod:`livecore.exceptions`)."""

from __future__ import annotations

from typing import Annotated

from livecore.errors import Code
from livecore.exceptions import ConflictError, Detail, NotFoundError, UnprocessableEntityError

EVENT_NOT_FOUND = Code("event_not_found", 404, "No event of that key in the game's manifest.")
EVENT_NOT_OPEN = Code("event_not_open", 409, "No window of the event is open now.")
ATTEMPT_IN_PROGRESS = Code(
    "attempt_in_progress", 409, "The player has an attempt in progress in this window (`details.attemptId`)."
)
MAX_ATTEMPTS_REACHED = Code(
    "max_attempts_reached", 409, "The player used the event's `max_attempts` in this window."
)
INSUFFICIENT_ENTRY_COST = Code(
    "insufficient_entry_cost",
    409,
    "Not enough of a resource to enter a paid event (`details: {resource, needed, have}`).",
)
ATTEMPT_NOT_FOUND = Code("attempt_not_found", 404, "No such attempt of this player in this event.")
ATTEMPT_NOT_IN_PROGRESS = Code(
    "attempt_not_in_progress", 409, "The attempt is completed or expired (or past its `endsAt`)."
)
ANTI_CHEAT_REJECTED = Code(
    "anti_cheat_rejected",
    422,
    "A validator rejected a progress write; nothing was applied (`details.validator`).",
)
REWARDS_ALREADY_GRANTED = Code(
    "rewards_already_granted", 409, "The attempt already has milestone or completion grants."
)

LEADERBOARD_NOT_FOUND = Code(
    "leaderboard_not_found",
    404,
    (
        "No such event leaderboard in the key's game and environment, or no shared leaderboard of "
        "that key in the game's manifest."
    ),
)
LOBBY_FORMING = Code(
    "lobby_forming",
    202,
    (
        "The lobby is still forming: 202 with the error envelope, `details: {lobbyId, "
        "participantCount, capacity, fillBy}`; nothing was charged."
    ),
)

#: The codes the area adds to the table, in the reference's order (:attr:`livecore.area.Area.errors`).
CODES = (
    EVENT_NOT_FOUND,
    EVENT_NOT_OPEN,
    ATTEMPT_IN_PROGRESS,
    MAX_ATTEMPTS_REACHED,
    INSUFFICIENT_ENTRY_COST,
    ATTEMPT_NOT_FOUND,
    ATTEMPT_NOT_IN_PROGRESS,
    ANTI_CHEAT_REJECTED,
    REWARDS_ALREADY_GRANTED,
    LEADERBOARD_NOT_FOUND,
    LOBBY_FORMING,
)


__all__ = [
    "AntiCheatRejectedError",
    "AttemptInProgressError",
    "AttemptNotFoundError",
    "AttemptNotInProgressError",
    "EventNotFoundError",
    "EventNotOpenError",
    "InsufficientEntryCostError",
    "LeaderboardNotFoundError",
    "MaxAttemptsReachedError",
    "RewardsAlreadyGrantedError",
]


class EventNotFoundError(NotFoundError, code=EVENT_NOT_FOUND):
    """404: the game's manifest has no event of that key."""


class EventNotOpenError(ConflictError, code=EVENT_NOT_OPEN):
    """409: no window of the event is open now (``next_window_starts_at`` in the events list says when
    the next one opens)."""


class AttemptInProgressError(ConflictError, code=ATTEMPT_IN_PROGRESS):
    """409: the player already has an attempt in progress in this window; ``attempt_id`` is that
    attempt's id (``None`` if the service did not say)."""

    attempt_id: Annotated[str | None, Detail("attemptId")]


class MaxAttemptsReachedError(ConflictError, code=MAX_ATTEMPTS_REACHED):
    """409: the player used the event's ``max_attempts`` in this window."""


class InsufficientEntryCostError(ConflictError, code=INSUFFICIENT_ENTRY_COST):
    """409: the player cannot pay the event's entry cost; nothing was taken. ``details`` carries
    ``resource``, ``needed`` and ``have``."""


class AttemptNotFoundError(NotFoundError, code=ATTEMPT_NOT_FOUND):
    """404: no attempt of that id for this player and event (another player's attempt included)."""


class AttemptNotInProgressError(ConflictError, code=ATTEMPT_NOT_IN_PROGRESS):
    """409: the attempt is completed or expired (also once its ``ends_at`` has passed, before the
    service's sweep marks it)."""


class AntiCheatRejectedError(UnprocessableEntityError, code=ANTI_CHEAT_REJECTED):
    """422: an anti-cheat check of the event rejected the progress write; nothing was applied.
    ``validator`` is the check's key (``None`` if the service did not say)."""

    validator: Annotated[str | None, Detail("validator")]


class RewardsAlreadyGrantedError(ConflictError, code=REWARDS_ALREADY_GRANTED):
    """409: retrying an attempt's reward roll when milestone or completion grants are already linked to
    it; nothing was granted."""


class LeaderboardNotFoundError(NotFoundError, code=LEADERBOARD_NOT_FOUND):
    """404: no event leaderboard of that id in the key's game and environment."""
