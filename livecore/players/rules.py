"""Players: the record, first contact, registration, the ban machine, sessions and login streak.

Rules (docs/reference/players-and-identity.md#sessions-login-streak-and-system-items,
docs/reference/player-tools.md#ban-and-unban, docs/reference/conventions.md#surfaces-and-credentials):
- First contact creates the player in the environment of the key that made it; a key of the other
  environment naming that player sees 404 (the player does not exist for it).
- Register mints the player secret once. Registering again gives 409 ``player_already_registered``,
  unless ``force`` rotates it in place, which only a test-environment key may ask for (live: 403).
  A banned player gets 403 ``player_banned`` before any 409.
- Country (docs/players.md#country): requests resolve it (``playerContext.country``, else geo); an operator's
  override wins over it wherever it shows (:attr:`Player.country`) until the operator clears it, and requests
  never replace it.
- Ban machine (:data:`BAN_TRANSITIONS`): a transition table; ``applied`` tells whether the state moved.
  Banning a banned player refreshes the reason without a transition.
- A session opens on first activity and again after 30 minutes of silence. The login streak counts
  consecutive UTC days with activity; the next active day after a gap starts it at 1; an hourly sweep
  sets it to 0 once a full UTC day was missed. Best streak never decreases.
"""

from __future__ import annotations

import enum
from datetime import date, datetime, timedelta
from typing import Any

import attrs

from livecore.errors import PERMISSION_DENIED, LivecoreError
from livecore.limits import FREE_TEXT, Text
from livecore.names import fold
from livecore.platforms import ClientBuild
from livecore.players.errors import PLAYER_ALREADY_REGISTERED, PLAYER_BANNED
from livecore.players.identity import Identity, check_country
from livecore.players.presence import Presence
from livecore.scope import Environment

# The id prefixes of the area's records, claimed in its declaration (``Area.id_prefixes``).
PLAYER_ID_PREFIX = "plr"


SESSION_GAP = timedelta(minutes=30)
SECRET_PREFIX_LEN = 8
#: The days since a player's first active day its activity records day by day (:attr:`Activity.days`):
#: nine weeks, past the day-30 retention a season reports, in one 64-bit signed integer.
DAYS_KEPT = 63


@attrs.frozen
class Activity:
    """Sessions, login streak and the days played. Zero for a player who never had a counted session.

    ``first_day`` is the UTC day of its first activity, and ``days`` the days it was active of the
    :data:`DAYS_KEPT` from it, bit ``i`` for day ``first_day + i``: a player's return day by day since it
    installed, which a population's return curve is fitted from (docs/simulation.md#fitting-a-population)."""

    sessions: int = 0
    last_active_at: datetime | None = None
    streak: int = 0
    best_streak: int = 0
    streak_day: date | None = None
    first_day: date | None = None
    days: int = 0

    def active_on(self, since_first: int) -> bool:
        """Whether the player was active on day ``since_first`` counted from its first (0), of the
        :data:`DAYS_KEPT` recorded."""
        return 0 <= since_first < DAYS_KEPT and bool(self.days >> since_first & 1)


@attrs.frozen
class PeriodActivity:
    """A player's record as a population is fitted from it (:mod:`livecore.simulation.fitting`): when
    it was first seen, its sessions on record (every one, the period's and those before it), and the
    days it was active since its first (:attr:`Activity.first_day`, :attr:`Activity.days`)."""

    first_seen_at: datetime
    sessions: int
    first_day: date | None = None
    days: int = 0


@attrs.frozen
class Ban:
    reason: str
    banned_at: datetime


@attrs.frozen
class DebugFlag:
    """A studio's test or QA account: left out of revenue reporting (docs/reference/player-tools.md)."""

    reason: str | None
    flagged_at: datetime


#: ``lastSeenAt`` moves on any authenticated client request (docs/players.md#last-seen), written at most once
#: this often per player: a guild leader's inactivity is counted in days, so an hour is exact enough, and a
#: player's reads stay free of writes.
SEEN_EVERY = timedelta(hours=1)


def seen_is_due(last_seen_at: datetime, now: datetime) -> bool:
    """Whether a request at ``now`` moves a ``lastSeenAt`` of ``last_seen_at`` (:data:`SEEN_EVERY`)."""
    return now - last_seen_at >= SEEN_EVERY


class Lifecycle(enum.StrEnum):
    """docs/reference/player-tools.md: a merged or erased player keeps its row under a placeholder external
    id."""

    ACTIVE = "active"
    MERGED = "merged"
    DELETED = "deleted"


@attrs.frozen
class Player:
    id: str
    game_id: str
    env: Environment
    external_id: str
    first_seen_at: datetime
    last_seen_at: datetime
    anonymized: Identity
    display: Identity | None = None
    # Where the player's requests resolve to (playerContext.country, else geo), and an
    # operator's override; ``country`` is the one shown.
    resolved_country: str | None = None
    country_override: str | None = None
    secret_hash: str | None = None
    secret_prefix: str | None = None
    registered_at: datetime | None = None
    secret_rotated_at: datetime | None = None
    ban: Ban | None = None
    activity: Activity = Activity()
    context: dict[str, Any] = attrs.field(factory=dict)
    friend_code: str | None = None
    presence: Presence = attrs.field(factory=Presence)
    debug: DebugFlag | None = None
    lifecycle: Lifecycle = Lifecycle.ACTIVE
    merged_into: str | None = None  # the target player's id, once merged
    build: ClientBuild = attrs.field(factory=ClientBuild)  # the platform and app version last reported

    @property
    def country(self) -> str | None:
        """The country the service shows and plays the player in (register answer, identities, board
        entries, a ``country`` segment): an operator's override wins over the resolved country."""
        return self.country_override or self.resolved_country

    @property
    def registered(self) -> bool:
        return self.secret_hash is not None

    @property
    def banned(self) -> bool:
        return self.ban is not None

    @property
    def is_test(self) -> bool:
        return self.env is Environment.TEST


@attrs.frozen
class PlayerCard:
    """What a row of a player list shows of a player, and nothing more: the friends list, requests, blocks,
    search and suggestions read these (a lean projection of the player row,
    docs/architecture.md#hot-path-choices) rather than whole players. Progression, shown only when asked
    for, reads the players' activity on its own."""

    id: str
    external_id: str
    identity: Identity  # name and avatar: the display identity, else the anonymized one
    country: str | None
    presence: Presence

    @classmethod
    def of(cls, p: Player) -> PlayerCard:
        shown = p.display or p.anonymized
        return cls(p.id, p.external_id, Identity(shown.name, shown.avatar), p.country, p.presence)


SEARCH_ANYWHERE_MIN = 3  # shorter text matches the start of a name only


def name_matches(name: str, text: str) -> bool:
    """Whether a search for ``text`` finds the display name ``name`` (the players port's
    ``search_by_name``): compared by their fold (:mod:`livecore.names`), anywhere in the name for 3
    characters or more, else at its start (the stores' indexes: trigrams, then a prefix)."""
    needle, name = fold(text), fold(name)
    return needle in name if len(needle) >= SEARCH_ANYWHERE_MIN else name.startswith(needle)


def ensure_not_banned(player: Player) -> None:
    if player.ban is not None:
        raise LivecoreError(PLAYER_BANNED, "This player is banned.")


def check_register(player: Player | None, *, force: bool, env: Environment) -> None:
    """Refusals of register, in the pinned order: live force (403), banned (403), registered (409)."""
    if force and env is not Environment.TEST:
        raise LivecoreError(PERMISSION_DENIED, "force=true is accepted only with a test-environment key.")
    if player is None:
        return
    ensure_not_banned(player)
    if player.registered and not force:
        raise LivecoreError(
            PLAYER_ALREADY_REGISTERED,
            "This player already has a secret; rotate it through the studio backend.",
        )


# --- Ban machine --------------------------------------------------------------------------------


class BanState(enum.Enum):
    NOT_BANNED = "not_banned"
    BANNED = "banned"


class BanTrigger(enum.Enum):
    BAN = "ban"
    UNBAN = "unban"


@attrs.frozen
class BanTransition:
    next: BanState
    applied: bool


BAN_TRANSITIONS: dict[tuple[BanState, BanTrigger], BanTransition] = {
    (BanState.NOT_BANNED, BanTrigger.BAN): BanTransition(BanState.BANNED, applied=True),
    (BanState.BANNED, BanTrigger.BAN): BanTransition(BanState.BANNED, applied=False),
    (BanState.BANNED, BanTrigger.UNBAN): BanTransition(BanState.NOT_BANNED, applied=True),
    (BanState.NOT_BANNED, BanTrigger.UNBAN): BanTransition(BanState.NOT_BANNED, applied=False),
}


def ban_state(player: Player) -> BanState:
    return BanState.BANNED if player.ban is not None else BanState.NOT_BANNED


#: A ban's reason, kept trimmed; a debug flag's note is free text (:data:`livecore.limits.FREE_TEXT`).
BAN_REASON = Text(min_length=1, max_length=FREE_TEXT.max_length, trim=True)


def ban(player: Player, reason: str, now: datetime) -> tuple[Player, bool]:
    """Returns the new record and ``applied``. A re-ban refreshes the reason, keeps ``banned_at``."""
    step = BAN_TRANSITIONS[(ban_state(player), BanTrigger.BAN)]
    banned_at = player.ban.banned_at if player.ban is not None else now
    return attrs.evolve(player, ban=Ban(reason=reason, banned_at=banned_at)), step.applied


def unban(player: Player) -> tuple[Player, bool]:
    step = BAN_TRANSITIONS[(ban_state(player), BanTrigger.UNBAN)]
    return attrs.evolve(player, ban=None), step.applied


# --- Retired rows (docs/reference/player-tools.md) ----------------------------------------------------------

RETIRED_NAME = "Deleted player"


def tombstone(
    player: Player, placeholder: str, lifecycle: Lifecycle, merged_into: str | None = None
) -> Player:
    """The row a merge or an erasure keeps: the id, the financial link and the debug flag (so retained
    purchases stay out of revenue reports); identity, context, secret, friend code, presence, activity,
    platform and app version, and ban reason removed. A retired row is no player for the API: its
    placeholder id answers 404."""
    return attrs.evolve(
        player,
        external_id=placeholder,
        anonymized=Identity(name=RETIRED_NAME, avatar=None),
        display=None,
        resolved_country=None,
        country_override=None,
        secret_hash=None,
        secret_prefix=None,
        context={},
        friend_code=None,
        presence=Presence(),
        activity=Activity(),
        build=ClientBuild(),
        ban=None,  # its reason is free text about the person
        lifecycle=lifecycle,
        merged_into=merged_into,
    )


# --- Country override -----------------------------------------------------------------------------


def override_country(player: Player, country: str | None) -> tuple[Player, bool]:
    """An operator sets the player's country (an ISO 3166-1 alpha-2 code, else 400 ``invalid_request``)
    or clears it (None: the resolved country shows again). ``applied`` when the override changed."""
    code = check_country(country)
    return attrs.evolve(player, country_override=code), code != player.country_override


# --- Debug flag ---------------------------------------------------------------------------------


def flag_debug(player: Player, reason: str | None, now: datetime) -> tuple[Player, bool]:
    """Flag a debug account; ``applied`` only when it was not flagged. A repeat refreshes the reason."""
    if player.debug is not None:
        return attrs.evolve(player, debug=attrs.evolve(player.debug, reason=reason)), False
    return attrs.evolve(player, debug=DebugFlag(reason=reason, flagged_at=now)), True


def unflag_debug(player: Player) -> tuple[Player, bool]:
    return attrs.evolve(player, debug=None), player.debug is not None


# --- Sessions and login streak -------------------------------------------------------------------


def record_activity(activity: Activity, now: datetime) -> Activity:
    """Apply one moment of player activity at ``now``."""
    new_session = activity.last_active_at is None or now - activity.last_active_at >= SESSION_GAP
    sessions = activity.sessions + 1 if new_session else activity.sessions
    today = now.date()
    first_day, days = _day_played(activity, today)
    if activity.streak_day == today:
        streak = activity.streak
    elif activity.streak_day is not None and activity.streak_day == today - timedelta(days=1):
        streak = activity.streak + 1
    else:
        streak = 1
    # Activity recorded out of order (an older timestamp) never moves the streak day back.
    if activity.streak_day is not None and activity.streak_day > today:
        return attrs.evolve(activity, sessions=sessions, first_day=first_day, days=days)
    return Activity(
        sessions=sessions,
        last_active_at=now if activity.last_active_at is None else max(now, activity.last_active_at),
        streak=streak,
        best_streak=max(activity.best_streak, streak),
        streak_day=today,
        first_day=first_day,
        days=days,
    )


def _day_played(activity: Activity, today: date) -> tuple[date, int]:
    """The first active day and the days played once ``today`` is one. Activity recorded out of order
    before the first day makes it the first, the days recorded moving along (those past
    :data:`DAYS_KEPT` dropped)."""
    first = activity.first_day
    if first is None:
        return today, 1
    if today < first:
        moved = activity.days << (first - today).days
        return today, (moved | 1) & ((1 << DAYS_KEPT) - 1)
    since = (today - first).days
    return first, activity.days | (1 << since) if since < DAYS_KEPT else activity.days


def is_durable(before: Activity, after: Activity) -> bool:
    """Whether a moment of activity changed more than the last-active time (a session opened, a streak
    day started): a durable fact, written at once. A heartbeat that changes nothing else may be kept in
    memory (livecore_server.players.presence)."""
    return (after.sessions, after.streak, after.best_streak, after.streak_day, after.days) != (
        before.sessions,
        before.streak,
        before.best_streak,
        before.streak_day,
        before.days,
    )


def streak_cutoff(now: datetime) -> date:
    """A streak whose last active day is before this day has missed a full UTC day."""
    return now.date() - timedelta(days=1)


def sweep_streak(activity: Activity, now: datetime) -> Activity:
    """The hourly sweep, for one player: reset to 0 after a missed full day."""
    if activity.streak > 0 and activity.streak_day is not None and activity.streak_day < streak_cutoff(now):
        return attrs.evolve(activity, streak=0)
    return activity
