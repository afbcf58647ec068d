"""Guilds: players found one, join it openly or by request, rise in rank, ask each other for help, and leave;
the studio moderates them from its backend (docs/guilds.md).

A guild belongs to one game and environment. A player is a member of at most one guild at a time: each
membership is a *stint*, from joining to leaving, kept after it ends (the guild's history, the player's
stints). A guild has exactly one leader while it lives, any number of co-leaders, and at most
``max_members`` members in all. Its last member leaving, by any means, disbands it (``last_member_left``);
so does the studio (``admin``). A disbanded guild stays readable, and its name is free again.

The records are here; the rules follow them, then the role transition table.

Who may do what (:data:`ALLOWED`): the leader and co-leaders edit the profile and answer join requests;
the leader kicks anyone else, a co-leader kicks members only; only the leader promotes, demotes and hands
the leadership on.

Refusals of an action on a member (kick, promote, demote, transfer), checked in this order (the first that
applies answers):

1. the caller's role may not act: 403 ``guild_permission_denied``;
2. the caller names itself (kicking, demoting itself, or leaving the leadership to itself): 400
   ``invalid_request``;
3. the named player is not a member of the guild: 404 ``guild_member_not_found``;
4. a co-leader kicking a co-leader or the leader: 403 ``guild_permission_denied``;
5. the role cannot move that way (promoting a co-leader, demoting a member): 400 ``invalid_request``.

Joining (:func:`check_join`), in this order: the guild is disbanded 409 ``guild_disbanded``; the player is
in a guild 409 ``already_in_guild``; the guild is full 409 ``guild_full``; a request-only guild with the
player's request pending 409 ``join_request_pending``. Accepting a request checks the guild's seat and the
player's guild again (409 ``guild_full``, 409 ``already_in_guild``).

Succession (:func:`successor`): the co-leader who joined first, else the member who joined first. A leader
leaving by any means hands on to it (``succession_leader_left``). A leader inactive ``leader_inactive_days``
(no authenticated client request: ``lastSeenAt``) hands on, at the hourly sweep, to the first successor
seen within that period, and becomes a member (``succession_leader_inactive``); with no such successor
nothing changes.

Help (:func:`check_help_request`, :func:`check_donation`): a member asks for up to ``help.max_amount`` of a
``help.resources`` resource; one open request per player; one request per ``cooldown_seconds`` per player
and guild, counted from the last request's creation. A request is ``open`` until it is ``filled``, its
``expiresAt`` passes (``expired``: decided when read, no write), or its player leaves the guild
(``closed``). Donation refusals, in this order: no such request in the caller's guild 404
``help_request_not_found``; the caller's own request 400 ``invalid_request``; a request not open 409
``help_request_closed`` (whatever the amount); an amount outside 1 to what the request still lacks 400
``invalid_request``; a donor short of the resource (platform games) 409 ``insufficient_balance``.

Names (:func:`check_name`): NFC-normalized and trimmed, 3 to 24 characters, no control or format
(zero-width) characters: else 400 ``invalid_request``. Names compare by their fold (:mod:`livecore.names`:
NFKC, case folding, white space runs as one space, trimmed). A player-chosen name whose fold contains a
``name_filter`` entry's fold is 400 ``guild_name_rejected``; the studio's edit skips the filter. Names are
unique per game and environment among guilds not disbanded, by fold: 409 ``guild_name_taken``.
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, Final

import attrs

from livecore.api.convert import ABSENT, Absent
from livecore.clock import format_ts
from livecore.errors import LivecoreError, invalid_request
from livecore.games import ResourceType
from livecore.guilds.errors import (
    ALREADY_IN_GUILD,
    GUILD_DISBANDED,
    GUILD_FULL,
    GUILD_MEMBER_NOT_FOUND,
    GUILD_NAME_REJECTED,
    GUILD_NAME_TAKEN,
    GUILD_PERMISSION_DENIED,
    HELP_COOLDOWN,
    HELP_REQUEST_CLOSED,
    HELP_REQUEST_NOT_FOUND,
    HELP_REQUEST_OPEN,
    JOIN_REQUEST_NOT_FOUND,
    JOIN_REQUEST_PENDING,
)
from livecore.guilds.settings import GuildSettings, HelpSettings
from livecore.ids import new_id
from livecore.limits import FREE_FORM, Range, Text
from livecore.names import fold
from livecore.players.identity import check_country
from livecore.players.rules import Player
from livecore.rand import RandomSource
from livecore.scope import Actor, Environment

# The id prefixes of the area's records, claimed in its declaration (``Area.id_prefixes``).
GUILD_ID_PREFIX = "gld"
STINT_ID_PREFIX = "gms"  # a player's membership of a guild, from joining to leaving
JOIN_REQUEST_ID_PREFIX = "gjr"
HELP_REQUEST_ID_PREFIX = "ghr"
DONATION_ID_PREFIX = "gdn"


NAME = Text(min_length=3, max_length=24, trim=True, plain=True)
DESCRIPTION = Text(max_length=500)
BADGE = Text(min_length=1, max_length=100, plain=True)
MESSAGE = Text(max_length=200)
# A search's ``q``: a substring of a name, so no longer than a name can be.
SEARCH_TEXT = Text(max_length=24, plain=True)
# Search and list pages (docs/guilds.md#routes): a limit outside 1 to 100, or a negative offset, is refused.
PAGE_LIMIT = Range(1, 100)
DEFAULT_PAGE_LIMIT = 20


class JoinType(enum.StrEnum):
    OPEN = "open"  # anyone joins at once
    REQUEST = "request"  # a leader or co-leader accepts each join request


class Role(enum.StrEnum):
    LEADER = "leader"
    CO_LEADER = "co_leader"
    MEMBER = "member"


class JoinVia(enum.StrEnum):
    CREATED = "created"
    OPEN = "open"
    REQUEST = "request"
    ADMIN = "admin"
    MERGE = "merge"


class LeftReason(enum.StrEnum):
    LEFT = "left"
    KICKED = "kicked"  # by the leader or a co-leader
    REMOVED = "removed"  # by the studio (moderation); no rejoin block
    DISBANDED = "disbanded"  # the studio disbanded the guild
    ERASED = "erased"
    MERGED = "merged"


class RoleReason(enum.StrEnum):
    PROMOTED = "promoted"
    DEMOTED = "demoted"
    LEADERSHIP_TRANSFERRED = "leadership_transferred"
    SUCCESSION_LEADER_LEFT = "succession_leader_left"
    SUCCESSION_LEADER_INACTIVE = "succession_leader_inactive"
    OPERATOR = "operator"


class DisbandReason(enum.StrEnum):
    LAST_MEMBER_LEFT = "last_member_left"
    ADMIN = "admin"


class RequestStatus(enum.StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"  # by its player, or because the player joined a guild


class HelpStatus(enum.StrEnum):
    OPEN = "open"
    FILLED = "filled"
    EXPIRED = "expired"  # never stored: an open request past its expiresAt reads so
    CLOSED = "closed"  # its player left the guild


class ByKind(enum.StrEnum):
    PLAYER = "player"
    MEMBER = "member"  # an operator of the portal
    API_KEY = "api_key"
    SYSTEM = "system"


@attrs.frozen
class By:
    """Who made a guild change: the ``by`` carried by every guild webhook and kept on each stint's
    start and end, so the change can be audited."""

    kind: ByKind
    player_id: str | None = None
    external_player_id: str | None = None
    member_id: str | None = None
    api_key_prefix: str | None = None

    @classmethod
    def player(cls, player: Player) -> By:
        return cls(ByKind.PLAYER, player_id=player.id, external_player_id=player.external_id)

    @classmethod
    def of(cls, actor: Actor) -> By:
        """The scope's actor: an API key (its prefix), a portal member (its id) or the system."""
        if actor.kind == ByKind.API_KEY:
            return cls(ByKind.API_KEY, api_key_prefix=actor.prefix)
        if actor.kind == ByKind.MEMBER:
            return cls(ByKind.MEMBER, member_id=actor.member_id)
        return SYSTEM_BY

    def to_wire(self) -> dict[str, Any]:
        if self.kind is ByKind.PLAYER:
            return {"kind": "player", "playerId": self.player_id, "externalPlayerId": self.external_player_id}
        if self.kind is ByKind.MEMBER:
            return {"kind": "member", "memberId": self.member_id}
        if self.kind is ByKind.API_KEY:
            return {"kind": "api_key", "apiKeyPrefix": self.api_key_prefix}
        return {"kind": "system"}

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> By:
        """The ``by`` :meth:`to_wire` wrote (the stores keep each stint's so)."""
        return cls(
            ByKind(wire["kind"]),
            player_id=wire.get("playerId"),
            external_player_id=wire.get("externalPlayerId"),
            member_id=wire.get("memberId"),
            api_key_prefix=wire.get("apiKeyPrefix"),
        )


SYSTEM_BY: Final = By(ByKind.SYSTEM)


@attrs.frozen
class Guild:
    """A guild (``gld_`` id). ``member_count`` counts its current members; ``disbanded_at`` is set once, when
    it is disbanded, with ``disband_reason``."""

    id: str
    game_id: str
    env: Environment
    name: str
    join_type: JoinType
    created_at: datetime
    description: str | None = None
    badge: str | None = None
    country: str | None = None
    metadata: dict[str, Any] | None = None
    member_count: int = 0
    disbanded_at: datetime | None = None
    disband_reason: DisbandReason | None = None

    @property
    def name_key(self) -> str:
        """What name uniqueness compares (among guilds not disbanded)."""
        return name_key(self.name)

    @property
    def disbanded(self) -> bool:
        return self.disbanded_at is not None


@attrs.frozen
class Stint:
    """A player's membership of a guild (``gms_`` id), from joining to leaving. ``role`` is its current
    role, or its last one once it ended; ``joined_by`` and ``left_by`` name who made it start and end."""

    id: str
    guild_id: str
    game_id: str
    env: Environment
    player_id: str
    external_player_id: str
    role: Role
    via: JoinVia
    joined_at: datetime
    joined_by: By
    left_at: datetime | None = None
    left_reason: LeftReason | None = None
    left_by: By | None = None

    @property
    def current(self) -> bool:
        return self.left_at is None


@attrs.frozen
class JoinRequest:
    """A player's request to join a request-only guild (``gjr_`` id)."""

    id: str
    guild_id: str
    game_id: str
    player_id: str
    external_player_id: str
    message: str | None
    created_at: datetime
    status: RequestStatus = RequestStatus.PENDING
    resolved_at: datetime | None = None

    @property
    def pending(self) -> bool:
        return self.status is RequestStatus.PENDING


@attrs.frozen
class HelpRequest:
    """A member's request for ``amount`` of a resource from its guild (``ghr_`` id); ``donated`` sums the
    donations so far. ``status`` as stored is never ``expired``: :func:`help_status` reads it."""

    id: str
    guild_id: str
    game_id: str
    player_id: str
    external_player_id: str
    type: ResourceType
    resource_key: str
    amount: int
    created_at: datetime
    expires_at: datetime
    donated: int = 0
    status: HelpStatus = HelpStatus.OPEN
    closed_at: datetime | None = None

    @property
    def lacking(self) -> int:
        return self.amount - self.donated


@attrs.frozen
class Donation:
    """A member's donation to a help request (``gdn_`` id): the requester's pending grant (``grant_id``)
    and the donor's reward grant (``reward_grant_id``, None when the game rewards no donor)."""

    id: str
    request_id: str
    guild_id: str
    game_id: str
    donor_player_id: str
    donor_external_player_id: str
    amount: int
    grant_id: str
    reward_grant_id: str | None
    donated_at: datetime


@attrs.frozen
class StintTallies:
    """A player's stints in a period, in aggregate (:mod:`livecore.simulation.fitting`): the stints it
    ``joined`` in the period (a guild joined or founded), and the days it was in a guild in the period,
    summed over its stints (each from its joining or the period's start to its leaving or the period's
    end)."""

    joined: int
    guild_days: float


@attrs.frozen
class HelpTallies:
    """A player's help in a period, in aggregate (:mod:`livecore.simulation.fitting`): the help requests
    it ``asked`` in the period, the ``donations`` it made in it, and the days of the period it could not
    ask (``blocked_days``), summed over its requests: each from its asking to its cooldown's end or, when
    later, to when it stopped being open (filled, or expired), or to when it was closed as its player left
    the guild."""

    asked: int
    donations: int
    blocked_days: float


# --- the guild's profile ------------------------------------------------------------------------------


def name_key(name: str) -> str:
    return fold(name)


def check_name(name: str, field: str = "name") -> str:
    """The name as kept: NFC-normalized and trimmed; refused as the module docstring says (400)."""
    return NAME.check(unicodedata.normalize("NFC", name), field)


def check_filter(name: str, name_filter: Sequence[str]) -> None:
    """A player-chosen name containing a ``name_filter`` entry, compared by fold: 400
    ``guild_name_rejected``."""
    folded = fold(name)
    if any(word_fold in folded for word_fold in map(fold, name_filter) if word_fold):
        raise LivecoreError(GUILD_NAME_REJECTED, "The guild name is not allowed.", {"name": name})


# A profile edit leaves a field it does not name as it is: the wire's "left out" (``ABSENT``), so an edit
# request's fields pass through unchanged.
KEEP: Final = ABSENT


@attrs.frozen
class Profile:
    """A guild's profile as a request gives it: for an edit, fields left ``KEEP`` keep their value
    (``description``, ``badge`` and ``country`` may be set to None to clear them)."""

    name: str | Absent = KEEP
    description: str | Absent | None = KEEP
    badge: str | Absent | None = KEEP
    country: str | Absent | None = KEEP
    join_type: JoinType | Absent = KEEP
    metadata: dict[str, Any] | Absent | None = KEEP

    def checked(self) -> Profile:
        """The profile with each given field validated and normalized (400 ``invalid_request`` on the
        first bad one, in field order)."""
        return Profile(
            name=self.name if self.name is KEEP else check_name(self.name),
            description=self.description
            if self.description is KEEP
            else DESCRIPTION.check_optional(self.description, "description"),
            badge=self.badge if self.badge is KEEP else BADGE.check_optional(self.badge, "badge"),
            country=self.country if self.country is KEEP else check_country(self.country),
            join_type=self.join_type,
            metadata=self.metadata if self.metadata is KEEP else FREE_FORM.check(self.metadata, "metadata"),
        )


# The fields of a profile, by record attribute and wire name (``guild.updated`` ``changes`` keys).
PROFILE_FIELDS: Final = (
    ("name", "name"),
    ("description", "description"),
    ("badge", "badge"),
    ("country", "country"),
    ("join_type", "joinType"),
    ("metadata", "metadata"),
)


def new_guild(game_id: str, env: Environment, profile: Profile, now: datetime, rng: RandomSource) -> Guild:
    """A guild founded with ``profile`` (checked; ``name`` and ``join_type`` given), no member yet."""
    if profile.name is KEEP or profile.join_type is KEEP:
        raise ValueError("a new guild needs a name and a join type")
    return Guild(
        id=new_id(GUILD_ID_PREFIX, now, rng),
        game_id=game_id,
        env=env,
        name=profile.name,
        join_type=profile.join_type,
        created_at=now,
        description=None if profile.description is KEEP else profile.description,
        badge=None if profile.badge is KEEP else profile.badge,
        country=None if profile.country is KEEP else profile.country,
        metadata=None if profile.metadata is KEEP else profile.metadata,
    )


def edited(guild: Guild, profile: Profile) -> tuple[Guild, dict[str, dict[str, Any]]]:
    """The guild with ``profile`` (checked) applied, and ``guild.updated``'s ``changes``: each wire field
    whose value changed, ``{before, after}`` (enum values as strings)."""
    values = {attr: getattr(profile, attr) for attr, _ in PROFILE_FIELDS}
    after = attrs.evolve(guild, **{attr: v for attr, v in values.items() if v is not KEEP})
    changes = {}
    for attr, wire in PROFILE_FIELDS:
        old, new = getattr(guild, attr), getattr(after, attr)
        if old != new:
            changes[wire] = {"before": _plain(old), "after": _plain(new)}
    return after, changes


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, enum.Enum) else value


def check_name_free(taken: Guild | None, guild_id: str | None = None) -> None:
    """``taken``: the live guild whose name key matches (None when none). Another guild: 409
    ``guild_name_taken`` (a guild keeps its own name under an edit changing only its case)."""
    if taken is not None and taken.id != guild_id:
        raise LivecoreError(GUILD_NAME_TAKEN, "Another guild has that name.", {"name": taken.name})


def check_alive(guild: Guild) -> None:
    if guild.disbanded:
        raise LivecoreError(GUILD_DISBANDED, "The guild is disbanded.", {"guildId": guild.id})


# --- membership ---------------------------------------------------------------------------------------


def new_stint(
    guild: Guild, player: Player, role: Role, via: JoinVia, by: By, now: datetime, rng: RandomSource
) -> Stint:
    return Stint(
        id=new_id(STINT_ID_PREFIX, now, rng),
        guild_id=guild.id,
        game_id=guild.game_id,
        env=guild.env,
        player_id=player.id,
        external_player_id=player.external_id,
        role=role,
        via=via,
        joined_at=now,
        joined_by=by,
    )


def ended(stint: Stint, reason: LeftReason, by: By, now: datetime) -> Stint:
    return attrs.evolve(stint, left_at=now, left_reason=reason, left_by=by)


def check_join(
    guild: Guild,
    settings: GuildSettings,
    *,
    in_a_guild: bool,
    request_pending: bool,
) -> None:
    """A join's refusals (open or by request), in the module docstring's order."""
    check_alive(guild)
    if in_a_guild:
        raise LivecoreError(ALREADY_IN_GUILD, "The player is already in a guild.")
    check_seat(guild, settings)
    if guild.join_type is JoinType.REQUEST and request_pending:
        raise LivecoreError(
            JOIN_REQUEST_PENDING,
            "A join request to this guild is pending already.",
            {"guildId": guild.id},
        )


def check_seat(guild: Guild, settings: GuildSettings) -> None:
    if guild.member_count >= settings.max_members:
        raise LivecoreError(
            GUILD_FULL,
            f"The guild has {settings.max_members} members.",
            {"guildId": guild.id, "maxMembers": settings.max_members},
        )


def new_join_request(
    guild: Guild, player: Player, message: str | None, now: datetime, rng: RandomSource
) -> JoinRequest:
    return JoinRequest(
        id=new_id(JOIN_REQUEST_ID_PREFIX, now, rng),
        guild_id=guild.id,
        game_id=guild.game_id,
        player_id=player.id,
        external_player_id=player.external_id,
        message=MESSAGE.check_optional(message, "message"),
        created_at=now,
    )


def resolved(request: JoinRequest, status: RequestStatus, now: datetime) -> JoinRequest:
    return attrs.evolve(request, status=status, resolved_at=now)


def join_request_not_found(request_id: str | None = None, guild_id: str | None = None) -> LivecoreError:
    details = {"requestId": request_id} if request_id else {"guildId": guild_id}
    return LivecoreError(JOIN_REQUEST_NOT_FOUND, "No such pending join request.", details)


# --- roles ----------------------------------------------------------------------------------------------


class Action(enum.StrEnum):
    EDIT = "edit"
    ANSWER_REQUESTS = "answer_requests"
    KICK = "kick"
    PROMOTE = "promote"
    DEMOTE = "demote"
    TRANSFER = "transfer"


ALLOWED: Final[Mapping[Action, frozenset[Role]]] = {
    Action.EDIT: frozenset({Role.LEADER, Role.CO_LEADER}),
    Action.ANSWER_REQUESTS: frozenset({Role.LEADER, Role.CO_LEADER}),
    Action.KICK: frozenset({Role.LEADER, Role.CO_LEADER}),
    Action.PROMOTE: frozenset({Role.LEADER}),
    Action.DEMOTE: frozenset({Role.LEADER}),
    Action.TRANSFER: frozenset({Role.LEADER}),
}

# Whom each role may kick.
KICKS: Final[Mapping[Role, frozenset[Role]]] = {
    Role.LEADER: frozenset({Role.CO_LEADER, Role.MEMBER}),
    Role.CO_LEADER: frozenset({Role.MEMBER}),
    Role.MEMBER: frozenset(),
}


class RoleTrigger(enum.Enum):
    PROMOTE = "promote"
    DEMOTE = "demote"
    TAKE_LEADERSHIP = "take_leadership"  # transfer, handover or succession: the new leader
    HAND_OVER = "hand_over"  # transfer or handover: the old leader stays as co-leader
    STEP_DOWN = "step_down"  # succession of an inactive leader: the old leader becomes a member


# The role machine: (role, trigger) -> next role. A pair missing from the table is refused (400).
ROLE_TRANSITIONS: Final[Mapping[tuple[Role, RoleTrigger], Role]] = {
    (Role.MEMBER, RoleTrigger.PROMOTE): Role.CO_LEADER,
    (Role.CO_LEADER, RoleTrigger.DEMOTE): Role.MEMBER,
    (Role.MEMBER, RoleTrigger.TAKE_LEADERSHIP): Role.LEADER,
    (Role.CO_LEADER, RoleTrigger.TAKE_LEADERSHIP): Role.LEADER,
    (Role.LEADER, RoleTrigger.HAND_OVER): Role.CO_LEADER,
    (Role.LEADER, RoleTrigger.STEP_DOWN): Role.MEMBER,
}


# Where a member action's request names the member, so that a refusal about it names that field: kick,
# promote and demote in their path, a transfer in its body.
MEMBER_FIELD = "memberExternalId"
_TARGET_FIELDS: Final[Mapping[Action, str]] = {Action.TRANSFER: "externalPlayerId"}


def target_field(action: Action) -> str:
    """The wire field that names the member ``action`` acts on."""
    return _TARGET_FIELDS.get(action, MEMBER_FIELD)


def next_role(role: Role, trigger: RoleTrigger) -> Role:
    found = ROLE_TRANSITIONS.get((role, trigger))
    if found is None:
        # Only a promote or a demote asks for a move the table lacks (the leadership's moves are all
        # there), and both name the member in their path.
        raise invalid_request(
            f"A {role.value} cannot {trigger.value.replace('_', ' ')}.",
            {MEMBER_FIELD: f"is a {role.value}"},
        )
    return found


def check_may(role: Role, action: Action) -> None:
    """Refusal 1: the caller's role may not ``action``: 403 ``guild_permission_denied``."""
    if role not in ALLOWED[action]:
        raise LivecoreError(
            GUILD_PERMISSION_DENIED,
            f"A {role.value} may not {action.value.replace('_', ' ')}.",
            {"role": role.value},
        )


def member_not_found(external_id: str) -> LivecoreError:
    return LivecoreError(
        GUILD_MEMBER_NOT_FOUND,
        "That player is not a member of the guild.",
        {"externalPlayerId": external_id},
    )


def check_member_action(
    action: Action, caller: Stint, target_external_id: str, target: Stint | None
) -> Stint:
    """Refusals 1 to 4 of an action on a member (module docstring); the target's stint. Refusal 5 is
    :func:`next_role`'s."""
    check_may(caller.role, action)
    if target_external_id == caller.external_player_id:
        raise invalid_request(
            f"A player cannot {action.value} itself.", {target_field(action): "is the caller"}
        )
    if target is None or target.guild_id != caller.guild_id or not target.current:
        raise member_not_found(target_external_id)
    if action is Action.KICK and target.role not in KICKS[caller.role]:
        raise LivecoreError(
            GUILD_PERMISSION_DENIED,
            f"A {caller.role.value} may not kick a {target.role.value}.",
            {"role": caller.role.value},
        )
    return target


def _succession_order(stint: Stint) -> tuple[bool, datetime, str]:
    """Co-leaders before members, then the earlier joined, then the smaller stint id."""
    return (stint.role is not Role.CO_LEADER, stint.joined_at, stint.id)


def successor(members: Iterable[Stint], *, leaving: str) -> Stint | None:
    """Who leads once the leader (the stint ``leaving``) goes: the co-leader who joined first, else the
    member who joined first (ties: the smaller stint id); None when nobody else is left."""
    others = [m for m in members if m.current and m.id != leaving]
    return min(others, key=_succession_order, default=None)


def inactive_successor(
    members: Iterable[Stint], leader: Stint, last_seen: Mapping[str, datetime], cutoff: datetime
) -> Stint | None:
    """The successor of an inactive leader: in :func:`successor`'s order, the first member seen since
    ``cutoff`` (``last_seen`` by player id); None when none was."""
    seen = [
        m for m in members if m.current and m.id != leader.id and last_seen.get(m.player_id, cutoff) > cutoff
    ]
    return min(seen, key=_succession_order, default=None)


def inactive_since(settings: GuildSettings, now: datetime) -> datetime:
    """A leader last seen at or before this is inactive."""
    return now - timedelta(days=settings.leader_inactive_days)


# --- help -----------------------------------------------------------------------------------------------


def help_status(request: HelpRequest, now: datetime) -> HelpStatus:
    if request.status is HelpStatus.OPEN and now >= request.expires_at:
        return HelpStatus.EXPIRED
    return request.status


def help_settings(settings: GuildSettings) -> HelpSettings:
    if settings.help is None:
        raise invalid_request(
            "This game's guilds have no help requests.", {"type": "help requests are off in this game"}
        )
    return settings.help


def check_help_request(
    settings: GuildSettings,
    type_: ResourceType,
    resource_key: str,
    amount: int,
    declared: Mapping[str, ResourceType],
    *,
    open_request: HelpRequest | None,
    last_request: HelpRequest | None,
    now: datetime,
) -> HelpSettings:
    """A help request's refusals, in order: help off, or a resource not among ``help.resources`` (or not
    of that type), or an amount outside 1 to ``max_amount``: 400 ``invalid_request``; an open request
    (``open_request``, still open at ``now``): 409 ``help_request_open``; the player's last request to
    this guild (``last_request``) younger than the cooldown: 409 ``help_cooldown`` with
    ``details.retryAt``."""
    help_ = help_settings(settings)
    if resource_key not in help_.resources or declared.get(resource_key) is not type_:
        raise invalid_request(
            f"{resource_key!r} is not a {type_.value} guild members may ask for.",
            {"resourceKey": f"one of {', '.join(help_.resources)}, of its declared type"},
        )
    Range(1, help_.max_amount).check(amount, "amount")
    if open_request is not None and help_status(open_request, now) is HelpStatus.OPEN:
        raise LivecoreError(
            HELP_REQUEST_OPEN, "A help request of yours is open.", {"requestId": open_request.id}
        )
    if last_request is not None:
        retry_at = last_request.created_at + timedelta(seconds=help_.cooldown_seconds)
        if now < retry_at:
            raise LivecoreError(
                HELP_COOLDOWN, "Asked for help too recently.", {"retryAt": format_ts(retry_at)}
            )
    return help_


def new_help_request(
    guild: Guild,
    player: Player,
    help_: HelpSettings,
    type_: ResourceType,
    resource_key: str,
    amount: int,
    now: datetime,
    rng: RandomSource,
) -> HelpRequest:
    return HelpRequest(
        id=new_id(HELP_REQUEST_ID_PREFIX, now, rng),
        guild_id=guild.id,
        game_id=guild.game_id,
        player_id=player.id,
        external_player_id=player.external_id,
        type=type_,
        resource_key=resource_key,
        amount=amount,
        created_at=now,
        expires_at=now + timedelta(seconds=help_.expiry_seconds),
    )


def help_request_not_found(request_id: str) -> LivecoreError:
    return LivecoreError(
        HELP_REQUEST_NOT_FOUND, "No such help request in your guild.", {"requestId": request_id}
    )


def check_donation(
    request: HelpRequest | None, request_id: str, donor: Stint, amount: int, now: datetime
) -> HelpRequest:
    """A donation's refusals 1 to 4 (module docstring); refusal 5 is the debit's."""
    if request is None or request.guild_id != donor.guild_id:
        raise help_request_not_found(request_id)
    if request.player_id == donor.player_id:
        raise invalid_request("Nobody donates to their own help request.", {"requestId": "is your own"})
    status = help_status(request, now)
    if status is not HelpStatus.OPEN:
        raise LivecoreError(
            HELP_REQUEST_CLOSED,
            f"The help request is {status.value}.",
            {"requestId": request.id, "status": status.value},
        )
    Range(1, request.lacking).check(amount, "amount")
    return request


def donated(request: HelpRequest, amount: int, now: datetime) -> HelpRequest:
    """The request once ``amount`` more was donated: ``filled`` when it lacks nothing more."""
    total = request.donated + amount
    filled = total >= request.amount
    return attrs.evolve(
        request,
        donated=total,
        status=HelpStatus.FILLED if filled else request.status,
        closed_at=now if filled else request.closed_at,
    )


def asks_again(request: HelpRequest, cooldown: timedelta) -> datetime:
    """When the player of ``request`` may ask again (:func:`check_help_request`): at its cooldown's end or,
    when later, once it stops being open (filled, or expired); a request closed as its player left the
    guild, at its closing (another guild has no cooldown of this one)."""
    if request.status is HelpStatus.CLOSED and request.closed_at is not None:
        return request.closed_at
    stopped = request.expires_at if request.closed_at is None else request.closed_at
    return max(request.created_at + cooldown, stopped)


def closed(request: HelpRequest, now: datetime) -> HelpRequest:
    """Its player left the guild."""
    return attrs.evolve(request, status=HelpStatus.CLOSED, closed_at=now)


def new_donation(
    request: HelpRequest,
    donor: Player,
    amount: int,
    grant_id: str,
    reward_grant_id: str | None,
    now: datetime,
    rng: RandomSource,
) -> Donation:
    return Donation(
        id=new_id(DONATION_ID_PREFIX, now, rng),
        request_id=request.id,
        guild_id=request.guild_id,
        game_id=request.game_id,
        donor_player_id=donor.id,
        donor_external_player_id=donor.external_id,
        amount=amount,
        grant_id=grant_id,
        reward_grant_id=reward_grant_id,
        donated_at=now,
    )
