"""The daily check-in's rules, pure: a player checks in once per UTC day; a check-in the day after the
last one extends the streak, any later one starts a new streak at 1; the day's reward is the manifest's
``reward_amount`` of ``reward_resource``, plus ``streak_bonus_amount`` on every ``streak_bonus_every``-th
day of a streak (none when ``streak_bonus_every`` is 0)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, date, datetime, timedelta
from typing import Any

import attrs

from livecore.errors import Code, LivecoreError
from livecore.section import resource_refusal

QUEST_ALREADY_CHECKED_IN = Code(
    "quest_already_checked_in", 409, "The player checked in today (UTC) already; `details.nextCheckInAt`."
)
QUEST_CHECK_IN_FIRST = Code(
    "quest_check_in_first", 409, "The player must check in at least once before sending a gift."
)
QUESTS_NOT_CONFIGURED = Code(
    "quests_not_configured", 404, "The game's manifest has no `[games.<key>.areas.quests]` section."
)

#: The manifest section's fields and what each must be.
_FIELDS = ("reward_resource", "reward_amount", "streak_bonus_every", "streak_bonus_amount")
REWARD_AMOUNT_MAX = 1_000_000


@attrs.frozen
class QuestSettings:
    """``[games.<key>.areas.quests]``."""

    reward_resource: str
    reward_amount: int
    streak_bonus_every: int = 0
    streak_bonus_amount: int = 0

    @classmethod
    def of(cls, section: Mapping[str, Any]) -> QuestSettings:
        """The settings of a section :func:`problems` found fine."""
        return cls(**{name: section[name] for name in _FIELDS if name in section})


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def problems(section: Mapping[str, Any], game: Mapping[str, Any]) -> dict[str, str]:
    """The manifest section's problems, by field (:attr:`livecore.area.Area.settings`): ``game`` is the
    game's table, where ``reward_resource`` must be declared (else the day's reward would be a grant no
    player could ever claim)."""
    found: dict[str, str] = {}
    for name in section:
        if name not in _FIELDS:
            found[name] = f"is not a field of this section (fields: {', '.join(_FIELDS)})"
    resource = section.get("reward_resource")
    if resource is None:
        found["reward_resource"] = "is required"
    elif not isinstance(resource, str) or not resource:
        found["reward_resource"] = "must be a resource key"
    elif (refusal := resource_refusal(resource, game)) is not None:
        found["reward_resource"] = refusal
    for name, low, required in (
        ("reward_amount", 1, True),
        ("streak_bonus_every", 0, False),
        ("streak_bonus_amount", 0, False),
    ):
        value = section.get(name)
        if value is None:
            if required:
                found[name] = "is required"
        elif not _is_int(value) or not low <= value <= REWARD_AMOUNT_MAX:
            found[name] = f"must be an integer from {low} to {REWARD_AMOUNT_MAX:,}"
    if section.get("streak_bonus_amount") and not section.get("streak_bonus_every"):
        found.setdefault("streak_bonus_every", "must be set (1 or more) when streak_bonus_amount is")
    return found


def day_of(moment: datetime) -> date:
    """The UTC day of ``moment``."""
    return moment.astimezone(UTC).date()


@attrs.frozen
class QuestState:
    """A player's check-ins: the last day, the streak it ends, the best streak and how many in all."""

    player_id: str
    game_id: str
    last_day: date
    streak: int
    best_streak: int
    total: int
    checked_in_at: datetime


def check_in(state: QuestState | None, player_id: str, game_id: str, now: datetime) -> QuestState:
    """The state after the player checks in at ``now``; refused when it checked in today already."""
    today = day_of(now)
    if state is not None and state.last_day >= today:
        tomorrow = datetime.combine(today + timedelta(days=1), datetime.min.time(), UTC)
        raise LivecoreError(
            QUEST_ALREADY_CHECKED_IN,
            "The player checked in today already.",
            {"nextCheckInAt": tomorrow.isoformat().replace("+00:00", "Z")},
        )
    if state is None:
        return QuestState(player_id, game_id, today, 1, 1, 1, now)
    streak = state.streak + 1 if state.last_day == today - timedelta(days=1) else 1
    return QuestState(player_id, game_id, today, streak, max(streak, state.best_streak), state.total + 1, now)


def merged(source: QuestState | None, target: QuestState | None, target_id: str) -> QuestState | None:
    """A merge: the target keeps its own check-ins; a target that never checked in takes the source's."""
    if target is not None or source is None:
        return None
    return attrs.evolve(source, player_id=target_id)


def reward(settings: QuestSettings, streak: int) -> int:
    """The amount a check-in that makes ``streak`` pays."""
    every = settings.streak_bonus_every
    bonus = settings.streak_bonus_amount if every and streak % every == 0 else 0
    return settings.reward_amount + bonus


def lapsed(state: QuestState, today: date) -> bool:
    """The streak is over: the player missed a whole day since its last check-in."""
    return state.streak > 0 and state.last_day < today - timedelta(days=1)


def ended(state: QuestState) -> QuestState:
    return attrs.evolve(state, streak=0)
