"""Guilds (docs/guilds.md): the player's surface (found, search, read, join, leave, edit, answer join
requests, kick, promote, demote, hand on the leadership, ask for help and donate) and the studio's
moderation (list, detail, edit, a player's guild, remove a member, hand over, disband).

Every client answer ``{guild}`` about the caller's own guild carries its members (``members``, in joining
order); the server's detail adds the pending join requests and every stint (``history``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import attrs

from livecore.api.convert import ABSENT, OMIT_IF_NONE, Absent
from livecore.api.route import Route, Surface, server_route
from livecore.api.views import IdentityView
from livecore.economy.errors import INSUFFICIENT_BALANCE
from livecore.games import ResourceType
from livecore.guilds.errors import (
    ALREADY_IN_GUILD,
    GUILD_DISBANDED,
    GUILD_FULL,
    GUILD_MEMBER_NOT_FOUND,
    GUILD_NAME_REJECTED,
    GUILD_NAME_TAKEN,
    GUILD_NOT_FOUND,
    GUILD_PERMISSION_DENIED,
    GUILDS_DISABLED,
    HELP_COOLDOWN,
    HELP_REQUEST_CLOSED,
    HELP_REQUEST_NOT_FOUND,
    HELP_REQUEST_OPEN,
    JOIN_REQUEST_NOT_FOUND,
    JOIN_REQUEST_PENDING,
    NOT_IN_GUILD,
)
from livecore.guilds.rules import (
    BADGE,
    DEFAULT_PAGE_LIMIT,
    DESCRIPTION,
    MESSAGE,
    NAME,
    PAGE_LIMIT,
    SEARCH_TEXT,
    Donation,
    Guild,
    HelpRequest,
    HelpStatus,
    JoinRequest,
    JoinType,
    LeftReason,
    Profile,
    Role,
    Stint,
    help_status,
)
from livecore.idempotency import KEY
from livecore.limits import AMOUNT, FREE_FORM, ID, OFFSET, limited
from livecore.players.errors import PLAYER_NOT_FOUND
from livecore.players.identity import COUNTRY
from livecore.players.routes import PLAYER_PATH, PLAYER_READ_ERRORS, PLAYER_WRITE_ERRORS, player_route
from livecore.players.rules import Player
from livecore.players.views import display_view

if TYPE_CHECKING:
    from livecore.guilds.commands import (
        Donated,
        GuildDetail,
        GuildPage,
        GuildRead,
        Joined,
        OwnGuild,
        PlayerGuild,
    )

# --- records ---------------------------------------------------------------------------------------------


@attrs.frozen
class GuildView:
    """A guild (``gld_`` id): ``memberCount`` counts its current members; ``disbandedAt`` is set once it is
    disbanded (it stays readable)."""

    guild_id: str
    name: str
    description: str | None
    badge: str | None
    country: str | None
    join_type: JoinType
    metadata: dict[str, Any] | None
    member_count: int
    created_at: datetime
    disbanded_at: datetime | None

    @classmethod
    def of(cls, guild: Guild) -> GuildView:
        return cls(**_record(guild))


def _record(guild: Guild) -> dict[str, Any]:
    return {
        "guild_id": guild.id,
        "name": guild.name,
        "description": guild.description,
        "badge": guild.badge,
        "country": guild.country,
        "join_type": guild.join_type,
        "metadata": guild.metadata,
        "member_count": guild.member_count,
        "created_at": guild.created_at,
        "disbanded_at": guild.disbanded_at,
    }


@attrs.frozen
class GuildMemberView:
    """A member as players see it: its display name and avatar (the anonymized name when never set)."""

    external_player_id: str
    name: str
    avatar: str | None
    role: Role
    joined_at: datetime


@attrs.frozen
class GuildWithMembersView(GuildView):
    """A guild and its current members, in joining order (none once disbanded)."""

    members: list[GuildMemberView]

    @classmethod
    def with_members(
        cls, guild: Guild, members: Sequence[Stint], players: Mapping[str, Player]
    ) -> GuildWithMembersView:
        """``players``: each member's player by id (its display identity as it is now)."""
        views = []
        for stint in members:
            identity = display_view(players[stint.player_id])
            views.append(
                GuildMemberView(
                    external_player_id=stint.external_player_id,
                    name=identity.name,
                    avatar=identity.avatar,
                    role=stint.role,
                    joined_at=stint.joined_at,
                )
            )
        return cls(**_record(guild), members=views)

    @classmethod
    def read(cls, found: GuildRead) -> GuildWithMembersView:
        """A guild as a command read it, with its members."""
        return cls.with_members(found.guild, found.members, found.players)


@attrs.frozen
class JoinRequestView:
    """A pending request to join a request-only guild (``gjr_`` id)."""

    request_id: str
    guild_id: str
    external_player_id: str
    message: str | None
    created_at: datetime

    @classmethod
    def of(cls, request: JoinRequest) -> JoinRequestView:
        return cls(
            request_id=request.id,
            guild_id=request.guild_id,
            external_player_id=request.external_player_id,
            message=request.message,
            created_at=request.created_at,
        )


@attrs.frozen
class GuildDetailMemberView:
    """A member as the studio sees it."""

    external_player_id: str
    display_identity: IdentityView
    role: Role
    joined_at: datetime


@attrs.frozen
class HistoryEntryView:
    """One stint of the guild: ``leftAt`` and ``reason`` are null while it is current."""

    external_player_id: str
    joined_at: datetime
    left_at: datetime | None
    reason: LeftReason | None


@attrs.frozen
class GuildDetailView(GuildView):
    """The studio's view of a guild: its current members (joining order), its pending join requests
    (oldest first) and every stint it had (``history``, joining order)."""

    members: list[GuildDetailMemberView]
    pending_requests: list[JoinRequestView]
    history: list[HistoryEntryView]

    @classmethod
    def detail(
        cls,
        guild: Guild,
        members: Sequence[Stint],
        players: Mapping[str, Player],
        pending: Sequence[JoinRequest],
        history: Sequence[Stint],
    ) -> GuildDetailView:
        return cls(
            **_record(guild),
            members=[
                GuildDetailMemberView(
                    external_player_id=m.external_player_id,
                    display_identity=display_view(players[m.player_id]),
                    role=m.role,
                    joined_at=m.joined_at,
                )
                for m in members
            ],
            pending_requests=[JoinRequestView.of(r) for r in pending],
            history=[
                HistoryEntryView(
                    external_player_id=s.external_player_id,
                    joined_at=s.joined_at,
                    left_at=s.left_at,
                    reason=s.left_reason,
                )
                for s in history
            ],
        )


@attrs.frozen
class HelpRequestView:
    """A member's request for help (``ghr_`` id): ``donated`` of ``amount`` so far; ``status`` as of the
    read (``expired`` once ``expiresAt`` passed while it was open)."""

    request_id: str
    external_player_id: str
    type: ResourceType
    resource_key: str
    amount: int
    donated: int
    expires_at: datetime
    status: HelpStatus

    @classmethod
    def of(cls, request: HelpRequest, now: datetime) -> HelpRequestView:
        return cls(
            request_id=request.id,
            external_player_id=request.external_player_id,
            type=request.type,
            resource_key=request.resource_key,
            amount=request.amount,
            donated=request.donated,
            expires_at=request.expires_at,
            status=help_status(request, now),
        )


@attrs.frozen
class DonationView:
    """A donation (``gdn_`` id): the requester's pending grant (``grantId``) and the donor's pending reward
    grant (``rewardGrantId``, null when the game rewards no donor)."""

    donation_id: str
    request_id: str
    amount: int
    grant_id: str
    reward_grant_id: str | None

    @classmethod
    def of(cls, donation: Donation) -> DonationView:
        return cls(
            donation_id=donation.id,
            request_id=donation.request_id,
            amount=donation.amount,
            grant_id=donation.grant_id,
            reward_grant_id=donation.reward_grant_id,
        )


@attrs.frozen
class StintView:
    """One of a player's stints: ``role`` is its last role; ``leftAt`` and ``reason`` are null while it is
    current."""

    guild_id: str
    guild_name: str
    role: Role
    joined_at: datetime
    left_at: datetime | None
    reason: LeftReason | None

    @classmethod
    def of(cls, stint: Stint, guild_name: str) -> StintView:
        return cls(
            guild_id=stint.guild_id,
            guild_name=guild_name,
            role=stint.role,
            joined_at=stint.joined_at,
            left_at=stint.left_at,
            reason=stint.left_reason,
        )


# --- requests --------------------------------------------------------------------------------------------


@attrs.frozen
class CreateGuildRequest:
    """A guild to found: its founder leads it. ``country`` is an ISO 3166-1 alpha-2 code (kept upper
    case)."""

    name: str = attrs.field(metadata=limited(NAME))
    join_type: JoinType
    description: str | None = attrs.field(default=None, metadata=limited(DESCRIPTION))
    badge: str | None = attrs.field(default=None, metadata=limited(BADGE))
    country: str | None = attrs.field(default=None, metadata=limited(COUNTRY))
    metadata: dict[str, Any] | None = attrs.field(default=None, metadata=limited(FREE_FORM))

    def profile(self) -> Profile:
        return Profile(
            name=self.name,
            description=self.description,
            badge=self.badge,
            country=self.country,
            join_type=self.join_type,
            metadata=self.metadata,
        )


def _kept_unless_given(rule: Any = None) -> dict[str, Any]:
    return {**limited(rule), "description": "left out: kept as it is"}


@attrs.frozen
class EditGuildRequest:
    """A profile edit: only the fields given change; ``description``, ``badge``, ``country`` and
    ``metadata`` may be set to null."""

    name: str | Absent = attrs.field(default=ABSENT, metadata=_kept_unless_given(NAME))
    description: str | Absent | None = attrs.field(default=ABSENT, metadata=_kept_unless_given(DESCRIPTION))
    badge: str | Absent | None = attrs.field(default=ABSENT, metadata=_kept_unless_given(BADGE))
    country: str | Absent | None = attrs.field(default=ABSENT, metadata=_kept_unless_given(COUNTRY))
    join_type: JoinType | Absent = attrs.field(default=ABSENT, metadata=_kept_unless_given())
    metadata: dict[str, Any] | Absent | None = attrs.field(
        default=ABSENT, metadata=_kept_unless_given(FREE_FORM)
    )

    def profile(self) -> Profile:
        return Profile(
            name=self.name,
            description=self.description,
            badge=self.badge,
            country=self.country,
            join_type=self.join_type,
            metadata=self.metadata,
        )


@attrs.frozen
class ServerEditGuildRequest(EditGuildRequest):
    """The studio's profile edit: as a member's, without the name filter."""

    idempotency_key: str | None = attrs.field(default=None, metadata=limited(KEY))


@attrs.frozen
class JoinGuildRequest:
    """``message``: for a request-only guild's leader and co-leaders (an open guild ignores it)."""

    message: str | None = attrs.field(default=None, metadata=limited(MESSAGE))


@attrs.frozen
class TransferRequest:
    external_player_id: str = attrs.field(metadata=limited(ID))


@attrs.frozen
class ServerLeaderRequest:
    external_player_id: str = attrs.field(metadata=limited(ID))
    idempotency_key: str | None = attrs.field(default=None, metadata=limited(KEY))


@attrs.frozen
class AskHelpRequest:
    """Up to the game's ``help.max_amount`` of one of its ``help.resources``."""

    type: ResourceType
    resource_key: str = attrs.field(metadata=limited(ID))
    # The widest a game's ``help.max_amount`` may be (livecore.guilds.manifest).
    amount: int = attrs.field(metadata=limited(AMOUNT))


@attrs.frozen
class DonateRequest:
    """At least 1, at most what the request still lacks."""

    amount: int = attrs.field(metadata=limited(AMOUNT))


@attrs.frozen
class GuildSearchQuery:
    """``q``: a case-insensitive substring of the name."""

    q: str | None = attrs.field(default=None, metadata=limited(SEARCH_TEXT))
    limit: int = attrs.field(default=DEFAULT_PAGE_LIMIT, metadata=limited(PAGE_LIMIT))
    offset: int = attrs.field(default=0, metadata=limited(OFFSET))


@attrs.frozen
class GuildListQuery:
    """``q``: a case-insensitive substring of the name; ``player``: every guild that player was ever in;
    ``includeDisbanded``: disbanded guilds too."""

    q: str | None = attrs.field(default=None, metadata=limited(SEARCH_TEXT))
    player: str | None = attrs.field(default=None, metadata=limited(ID))
    include_disbanded: bool = False
    limit: int = attrs.field(default=DEFAULT_PAGE_LIMIT, metadata=limited(PAGE_LIMIT))
    offset: int = attrs.field(default=0, metadata=limited(OFFSET))


# --- responses -------------------------------------------------------------------------------------------


@attrs.frozen
class GuildResponse:
    """A guild with its members."""

    guild: GuildWithMembersView

    @classmethod
    def of(cls, found: GuildRead) -> GuildResponse:
        return cls(guild=GuildWithMembersView.read(found))


@attrs.frozen
class OwnGuildResponse:
    """The caller's guild and role; ``{guild: null}`` when it is in none."""

    guild: GuildWithMembersView | None
    role: Role | None = attrs.field(default=None, metadata=OMIT_IF_NONE)

    @classmethod
    def of(cls, own: OwnGuild | None) -> OwnGuildResponse:
        if own is None:
            return cls(guild=None)
        return cls(guild=GuildWithMembersView.read(own.read), role=own.role)


@attrs.frozen
class JoinResponse:
    """An open guild: ``{guild, role}`` (200); a request-only guild: ``{request}`` (201)."""

    guild: GuildWithMembersView | None = attrs.field(default=None, metadata=OMIT_IF_NONE)
    role: Role | None = attrs.field(default=None, metadata=OMIT_IF_NONE)
    request: JoinRequestView | None = attrs.field(default=None, metadata=OMIT_IF_NONE)

    @classmethod
    def of(cls, joined: Joined) -> JoinResponse:
        answer = join_answer(joined)
        if isinstance(answer, GuildJoined):
            return cls(guild=answer.guild, role=answer.role)
        return cls(request=answer.request)


@attrs.frozen
class GuildJoined:
    """A join's 200 answer as the clients read it: the player sits in the open guild, in ``role``."""

    guild: GuildWithMembersView
    role: Role


@attrs.frozen
class GuildJoinPending:
    """A join's 201 answer as the clients read it: the player's pending request to the request-only
    guild."""

    request: JoinRequestView


def join_answer(joined: Joined) -> GuildJoined | GuildJoinPending:
    """A join's answer as the clients read it: the seat in an open guild, or the request pending."""
    if joined.own is not None:
        return GuildJoined(guild=GuildWithMembersView.read(joined.own.read), role=joined.own.role)
    assert joined.request is not None
    return GuildJoinPending(request=JoinRequestView.of(joined.request))


@attrs.frozen
class GuildSearchResponse:
    guilds: list[GuildView]


@attrs.frozen
class CancelledResponse:
    cancelled: bool


@attrs.frozen
class LeftResponse:
    left: bool


@attrs.frozen
class AcceptedResponse:
    accepted: bool


@attrs.frozen
class DeclinedResponse:
    declined: bool


@attrs.frozen
class JoinRequestsResponse:
    requests: list[JoinRequestView]


@attrs.frozen
class HelpRequestResponse:
    help_request: HelpRequestView


@attrs.frozen
class HelpRequestsResponse:
    help_requests: list[HelpRequestView]


@attrs.frozen
class DonationResponse:
    donation: DonationView
    help_request: HelpRequestView

    @classmethod
    def of(cls, done: Donated, now: datetime) -> DonationResponse:
        """``now``: the instant the request's status is read at."""
        return cls(
            donation=DonationView.of(done.donation), help_request=HelpRequestView.of(done.request, now)
        )


@attrs.frozen
class GuildListResponse:
    """A page of guilds, newest first; ``nextOffset`` is null on the last page."""

    guilds: list[GuildView]
    next_offset: int | None

    @classmethod
    def of(cls, page: GuildPage) -> GuildListResponse:
        return cls(guilds=[GuildView.of(g) for g in page.guilds], next_offset=page.next_offset)


@attrs.frozen
class GuildDetailResponse:
    guild: GuildDetailView

    @classmethod
    def of(cls, found: GuildDetail) -> GuildDetailResponse:
        read = found.read
        return cls(
            guild=GuildDetailView.detail(
                read.guild, read.members, read.players, found.pending_requests, found.history
            )
        )


@attrs.frozen
class PlayerGuildResponse:
    """The player's current guild (null when in none) and every stint, newest first."""

    guild: GuildView | None
    stints: list[StintView]

    @classmethod
    def of(cls, found: PlayerGuild) -> PlayerGuildResponse:
        return cls(
            guild=None if found.guild is None else GuildView.of(found.guild),
            stints=[StintView.of(s.stint, s.guild_name) for s in found.stints],
        )


# --- routes ----------------------------------------------------------------------------------------------

# Every guild route of a game with guilds off answers 403 guilds_disabled.
_READ = (*PLAYER_READ_ERRORS, GUILDS_DISABLED)
_WRITE = (*PLAYER_WRITE_ERRORS, GUILDS_DISABLED)
_OWN_READ = (*_READ, NOT_IN_GUILD)
_OWN_WRITE = (*_WRITE, NOT_IN_GUILD)
_MEMBER_ACTION = (*_OWN_WRITE, GUILD_PERMISSION_DENIED, GUILD_MEMBER_NOT_FOUND)
_OWN = "/guild"  # {G}: the player's own guild
# The not-found codes of the record ids these paths name (a malformed id is 404 as an unknown one is).
_JOIN_REQUEST_ID = (("requestId", JOIN_REQUEST_NOT_FOUND),)
_HELP_REQUEST_ID = (("requestId", HELP_REQUEST_NOT_FOUND),)

SDK_CREATE = player_route(
    "guilds.create",
    "POST",
    "/guilds",
    "Found a guild: the player leads it (platform-managed games debit the founding cost).",
    GuildResponse,
    status=201,
    request=CreateGuildRequest,
    errors=(
        *_WRITE,
        GUILD_NAME_REJECTED,
        ALREADY_IN_GUILD,
        GUILD_NAME_TAKEN,
        INSUFFICIENT_BALANCE,
    ),
)

SDK_SEARCH = Route(
    name="guilds.search",
    surface=Surface.SDK,
    method="GET",
    path="/guilds",
    summary="Search the guilds not disbanded by name, newest first.",
    response=GuildSearchResponse,
    query=GuildSearchQuery,
    errors=(GUILDS_DISABLED,),
)

SDK_READ = Route(
    name="guilds.read",
    surface=Surface.SDK,
    method="GET",
    path="/guilds/{guildId}",
    summary="A guild with its members (a disbanded guild stays readable).",
    response=GuildResponse,
    errors=(GUILDS_DISABLED, GUILD_NOT_FOUND),
)

SDK_MINE = player_route(
    "guilds.mine",
    "GET",
    _OWN,
    "The player's guild with its members and the player's role, or null.",
    OwnGuildResponse,
    errors=_READ,
)

SDK_JOIN = player_route(
    "guilds.join",
    "POST",
    "/guilds/{guildId}/join",
    "Join an open guild at once (200 {guild, role}), or ask to join a request-only one (201 {request}).",
    JoinResponse,
    request=JoinGuildRequest,
    request_optional=True,
    errors=(
        *_WRITE,
        GUILD_NOT_FOUND,
        GUILD_DISBANDED,
        ALREADY_IN_GUILD,
        GUILD_FULL,
        JOIN_REQUEST_PENDING,
    ),
)

SDK_CANCEL_JOIN_REQUEST = player_route(
    "guilds.cancel_join_request",
    "DELETE",
    "/guilds/{guildId}/join-request",
    "Withdraw the player's pending request to join the guild.",
    CancelledResponse,
    errors=(*_WRITE, GUILD_NOT_FOUND, JOIN_REQUEST_NOT_FOUND),
)

SDK_LEAVE = player_route(
    "guilds.leave",
    "POST",
    f"{_OWN}/leave",
    "Leave the guild: a leader hands on to its successor; the last member's going disbands the guild.",
    LeftResponse,
    errors=_OWN_WRITE,
)

SDK_EDIT = player_route(
    "guilds.edit",
    "PATCH",
    _OWN,
    "Edit the guild's profile (leader and co-leaders): only the fields given change.",
    GuildResponse,
    request=EditGuildRequest,
    errors=(
        *_OWN_WRITE,
        GUILD_PERMISSION_DENIED,
        GUILD_NAME_REJECTED,
        GUILD_NAME_TAKEN,
    ),
)

SDK_JOIN_REQUESTS = player_route(
    "guilds.requests.list",
    "GET",
    f"{_OWN}/requests",
    "The guild's pending join requests, oldest first (leader and co-leaders).",
    JoinRequestsResponse,
    errors=(*_OWN_READ, GUILD_PERMISSION_DENIED),
)

SDK_ACCEPT = player_route(
    "guilds.requests.accept",
    "POST",
    f"{_OWN}/requests/{{requestId}}/accept",
    "Accept a pending join request (leader and co-leaders): the requester joins the guild.",
    AcceptedResponse,
    record_ids=_JOIN_REQUEST_ID,
    errors=(
        *_OWN_WRITE,
        GUILD_PERMISSION_DENIED,
        JOIN_REQUEST_NOT_FOUND,
        ALREADY_IN_GUILD,
        GUILD_FULL,
    ),
)

SDK_DECLINE = player_route(
    "guilds.requests.decline",
    "POST",
    f"{_OWN}/requests/{{requestId}}/decline",
    "Decline a pending join request (leader and co-leaders).",
    DeclinedResponse,
    record_ids=_JOIN_REQUEST_ID,
    errors=(*_OWN_WRITE, GUILD_PERMISSION_DENIED, JOIN_REQUEST_NOT_FOUND),
)

SDK_KICK = player_route(
    "guilds.members.kick",
    "POST",
    f"{_OWN}/members/{{memberExternalId}}/kick",
    "Kick a member (the leader kicks co-leaders and members, a co-leader members only).",
    GuildResponse,
    errors=_MEMBER_ACTION,
)

SDK_PROMOTE = player_route(
    "guilds.members.promote",
    "POST",
    f"{_OWN}/members/{{memberExternalId}}/promote",
    "Promote a member to co-leader (the leader); a co-leader named is 400 `invalid_request` naming "
    "`memberExternalId`.",
    GuildResponse,
    errors=_MEMBER_ACTION,
)

SDK_DEMOTE = player_route(
    "guilds.members.demote",
    "POST",
    f"{_OWN}/members/{{memberExternalId}}/demote",
    "Demote a co-leader to member (the leader); a member named is 400 `invalid_request` naming "
    "`memberExternalId`.",
    GuildResponse,
    errors=_MEMBER_ACTION,
)

SDK_TRANSFER = player_route(
    "guilds.transfer",
    "POST",
    f"{_OWN}/leader",
    "Hand the leadership to a member (the leader): the old leader becomes co-leader.",
    GuildResponse,
    request=TransferRequest,
    errors=_MEMBER_ACTION,
)

SDK_ASK_HELP = player_route(
    "guilds.help.ask",
    "POST",
    f"{_OWN}/help-requests",
    "Ask the guild for help: one open request per player, one per cooldown.",
    HelpRequestResponse,
    status=201,
    request=AskHelpRequest,
    errors=(*_OWN_WRITE, HELP_REQUEST_OPEN, HELP_COOLDOWN),
)

SDK_HELP_REQUESTS = player_route(
    "guilds.help.list",
    "GET",
    f"{_OWN}/help-requests",
    "The guild's open help requests, newest first.",
    HelpRequestsResponse,
    errors=_OWN_READ,
)

SDK_DONATE = player_route(
    "guilds.help.donate",
    "POST",
    f"{_OWN}/help-requests/{{requestId}}/donate",
    "Donate to another member's open help request: the requester gets a pending grant of the amount, "
    "the donor a pending reward grant (platform-managed games debit the donor).",
    DonationResponse,
    request=DonateRequest,
    record_ids=_HELP_REQUEST_ID,
    errors=(
        *_OWN_WRITE,
        HELP_REQUEST_NOT_FOUND,
        HELP_REQUEST_CLOSED,
        INSUFFICIENT_BALANCE,
    ),
)

_GUILD = "/guilds/{guildId}"
_MODERATION = (GUILDS_DISABLED, GUILD_NOT_FOUND, GUILD_DISBANDED)

SERVER_LIST = server_route(
    "server.guilds.list",
    "GET",
    "/guilds",
    "The key's guilds, newest first: by name, by a player who was ever in them, disbanded ones on request.",
    GuildListResponse,
    query=GuildListQuery,
    errors=(GUILDS_DISABLED,),
)

SERVER_READ = server_route(
    "server.guilds.read",
    "GET",
    _GUILD,
    "A guild's detail: members, pending join requests, membership history.",
    GuildDetailResponse,
    errors=(GUILDS_DISABLED, GUILD_NOT_FOUND),
)

SERVER_EDIT = server_route(
    "server.guilds.edit",
    "PATCH",
    _GUILD,
    "Edit a guild's profile: only the fields given change; the name filter is skipped, uniqueness holds.",
    GuildDetailResponse,
    request=ServerEditGuildRequest,
    body_idempotency_field=True,
    errors=(*_MODERATION, GUILD_NAME_TAKEN),
)

SERVER_PLAYER_GUILD = server_route(
    "server.guilds.player",
    "GET",
    f"{PLAYER_PATH}/guild",
    "A player's current guild (or null) and every stint, newest first.",
    PlayerGuildResponse,
    errors=(GUILDS_DISABLED, PLAYER_NOT_FOUND),
)

SERVER_REMOVE = server_route(
    "server.guilds.remove_member",
    "POST",
    f"{_GUILD}/members/{{memberExternalId}}/remove",
    "Remove a member (moderation; nothing stops it from joining again).",
    GuildDetailResponse,
    errors=(*_MODERATION, GUILD_MEMBER_NOT_FOUND),
)

SERVER_HAND_OVER = server_route(
    "server.guilds.hand_over",
    "POST",
    f"{_GUILD}/leader",
    "Make a member the leader: the old leader becomes co-leader.",
    GuildDetailResponse,
    request=ServerLeaderRequest,
    body_idempotency_field=True,
    errors=(*_MODERATION, GUILD_MEMBER_NOT_FOUND),
)

SERVER_DISBAND = server_route(
    "server.guilds.disband",
    "POST",
    f"{_GUILD}/disband",
    "Disband a guild, irreversibly: every member leaves (a disbanded guild answers as it is).",
    GuildDetailResponse,
    errors=(GUILDS_DISABLED, GUILD_NOT_FOUND),
)

ROUTES = (
    SDK_CREATE,
    SDK_SEARCH,
    SDK_READ,
    SDK_MINE,
    SDK_JOIN,
    SDK_CANCEL_JOIN_REQUEST,
    SDK_LEAVE,
    SDK_EDIT,
    SDK_JOIN_REQUESTS,
    SDK_ACCEPT,
    SDK_DECLINE,
    SDK_KICK,
    SDK_PROMOTE,
    SDK_DEMOTE,
    SDK_TRANSFER,
    SDK_ASK_HELP,
    SDK_HELP_REQUESTS,
    SDK_DONATE,
    SERVER_LIST,
    SERVER_READ,
    SERVER_EDIT,
    SERVER_PLAYER_GUILD,
    SERVER_REMOVE,
    SERVER_HAND_OVER,
    SERVER_DISBAND,
)
