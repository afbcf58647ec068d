"""Guild webhooks (docs/webhooks.md#event-catalog-as-implemented): a guild founded, edited and disbanded; a
member joined, left, or changed role; a join request sent; help asked for and donated.

Every payload starts with ``guildId``, ``guildName`` (as it is after the change: ``guild.updated`` carries
the new name) and ``by``, who made the change
(:meth:`livecore.guilds.rules.By.to_wire`):
``{kind: "player", playerId, externalPlayerId}``, ``{kind: "member", memberId}``, ``{kind: "api_key",
apiKeyPrefix}`` or ``{kind: "system"}`` (the hourly succession sweep). They fire in the guild's environment
(``guild.env``, which the emitting commands pass), whatever caused them, a request, the sweep, a merge or an
erasure (docs/guilds.md#webhooks). ``guild.member_left`` and ``guild.role_changed`` carry the affected
member's ids, and ``guild.help_requested`` its ``requestId``. The rest, in the style of the other payloads:

- ``guild.created``: ``cost`` is the manifest's ``create_cost`` as entries (``type, key, amount``; ``[]``
  when founding is free), listed whoever charges it; ``costsChargedBy`` is ``platform`` when the service
  debited it, ``studio`` when it charged nothing and the studio must.
- ``guild.updated`` has ``changes`` only, keyed by wire field name (``name``, ``description``, ``badge``,
  ``country``, ``joinType``, ``metadata``), each ``{before, after}``: only fields whose value changed, so
  an edit changing nothing fires nothing.
- ``guild.disbanded``: ``reason`` and ``disbandedAt``.
- ``guild.member_joined``: ``playerId, externalPlayerId, role, via``, ``memberCount`` (the members with
  this one) and ``joinedAt``.
- ``guild.member_left``: ``playerId, externalPlayerId, reason``, then ``role`` (the role the member had
  when it left), ``memberCount`` (the members without it) and ``leftAt``.
- ``guild.role_changed``: ``playerId, externalPlayerId, from, to, reason, changedAt``. A stint keeps no
  time of its role's change, so the command passes it.
- ``guild.join_requested``: ``requestId, playerId, externalPlayerId, message, requestedAt``.
- ``guild.help_requested``: ``requestId, playerId, externalPlayerId, type, resourceKey, amount,
  expiresAt``.
- ``guild.help_donated``: the request and donation ids, both grants (``rewardGrantId`` null when the game
  rewards no donor), donor and recipient ids (as ``gift.*`` names two players), ``type, resourceKey``,
  ``amount`` (this donation's), ``costsDonor`` (always true: a donation always costs its donor),
  ``costsChargedBy`` (as ``guild.created``'s: when ``studio``, the studio takes ``amount`` from the donor),
  ``amountReceived`` (the request's total donated, this donation included), ``amountRequested``,
  ``filled`` and ``donatedAt``.

Each constructor refuses (ValueError) a record of another guild or of another moment, as the team
payloads do.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, ClassVar, Self

import attrs

from livecore.games import Economy, Entry
from livecore.guilds.rules import (
    PROFILE_FIELDS,
    By,
    Donation,
    Guild,
    HelpRequest,
    HelpStatus,
    JoinRequest,
    Role,
    RoleReason,
    Stint,
)
from livecore.webhooks.payload import WebhookPayload, known

_PROFILE_WIRE_NAMES = frozenset(wire for _, wire in PROFILE_FIELDS)


@attrs.frozen
class GuildPayload(WebhookPayload):
    """The fields every guild kind starts with: the guild and who made the change."""

    guild_id: str
    guild_name: str
    by: dict[str, Any]


def _guild(guild: Guild, by: By) -> dict[str, Any]:
    return {"guild_id": guild.id, "guild_name": guild.name, "by": by.to_wire()}


def _member(guild: Guild, stint: Stint, by: By) -> dict[str, Any]:
    """``guild``'s fields and ``stint``'s player, refusing a stint of another guild."""
    _check_guild(guild, stint.guild_id, "stint")
    return {
        **_guild(guild, by),
        "player_id": stint.player_id,
        "external_player_id": stint.external_player_id,
    }


def _check_guild(guild: Guild, guild_id: str, what: str) -> None:
    if guild_id != guild.id:
        raise ValueError(f"the {what} is of another guild")


def _charged_by(charged_by: str) -> str:
    """``platform`` or ``studio`` (the game's economy), refusing anything else."""
    return Economy(charged_by).value


@attrs.frozen
class GuildCreated(GuildPayload):
    KIND: ClassVar[str] = "guild.created"

    join_type: str
    country: str | None
    leader_player_id: str
    leader_external_player_id: str
    cost: tuple[Entry, ...]
    costs_charged_by: str
    created_at: datetime

    @classmethod
    def of(cls, guild: Guild, leader: Stint, cost: Sequence[Entry], charged_by: str, by: By) -> Self:
        """``guild`` as founded, ``leader`` its founder's stint, ``cost`` the founding cost and
        ``charged_by`` who charges it (``platform``: debited already; ``studio``: nothing charged)."""
        _check_guild(guild, leader.guild_id, "leader's stint")
        if leader.role is not Role.LEADER:
            raise ValueError("the founder's stint is not the leader's")
        return cls(
            **_guild(guild, by),
            join_type=guild.join_type.value,
            country=guild.country,
            leader_player_id=leader.player_id,
            leader_external_player_id=leader.external_player_id,
            cost=tuple(cost),
            costs_charged_by=_charged_by(charged_by),
            created_at=guild.created_at,
        )


@attrs.frozen
class GuildUpdated(GuildPayload):
    KIND: ClassVar[str] = "guild.updated"

    changes: dict[str, dict[str, Any]]

    @classmethod
    def of(cls, guild: Guild, changes: dict[str, dict[str, Any]], by: By) -> Self:
        """``guild`` as it is after the edit, and ``changes`` as :func:`livecore.guilds.rules.edited` gives
        them (not empty: an edit changing nothing fires nothing)."""
        if not changes:
            raise ValueError("an edit that changed nothing fires no guild.updated")
        unknown = sorted(set(changes) - _PROFILE_WIRE_NAMES)
        if unknown:
            raise ValueError(f"not profile fields: {', '.join(unknown)}")
        if "name" in changes and changes["name"]["after"] != guild.name:
            raise ValueError("the guild is not as the edit left it")
        return cls(**_guild(guild, by), changes=changes)


@attrs.frozen
class GuildDisbanded(GuildPayload):
    KIND: ClassVar[str] = "guild.disbanded"

    reason: str
    disbanded_at: datetime

    @classmethod
    def of(cls, guild: Guild, by: By) -> Self:
        """``guild`` as it is once disbanded."""
        return cls(
            **_guild(guild, by),
            reason=known(guild.disband_reason, "disband reason").value,
            disbanded_at=known(guild.disbanded_at, "disbanding"),
        )


@attrs.frozen
class GuildMemberJoined(GuildPayload):
    KIND: ClassVar[str] = "guild.member_joined"

    player_id: str
    external_player_id: str
    role: str
    via: str
    member_count: int
    joined_at: datetime

    @classmethod
    def of(cls, guild: Guild, stint: Stint, by: By) -> Self:
        """``guild`` as it is with ``stint``'s member in it."""
        if not stint.current:
            raise ValueError("a member who left is announced by guild.member_left")
        return cls(
            **_member(guild, stint, by),
            role=stint.role.value,
            via=stint.via.value,
            member_count=guild.member_count,
            joined_at=stint.joined_at,
        )


@attrs.frozen
class GuildMemberLeft(GuildPayload):
    KIND: ClassVar[str] = "guild.member_left"

    player_id: str
    external_player_id: str
    reason: str
    role: str
    member_count: int
    left_at: datetime

    @classmethod
    def of(cls, guild: Guild, stint: Stint, by: By) -> Self:
        """``guild`` as it is once ``stint``'s member left (``stint`` ended)."""
        if stint.current:
            raise ValueError("a current member has not left")
        return cls(
            **_member(guild, stint, by),
            reason=known(stint.left_reason, "leave reason").value,
            role=stint.role.value,
            member_count=guild.member_count,
            left_at=known(stint.left_at, "leave"),
        )


@attrs.frozen
class GuildRoleChanged(GuildPayload):
    KIND: ClassVar[str] = "guild.role_changed"

    player_id: str
    external_player_id: str
    from_: str  # on the wire: ``from``
    to: str
    reason: str
    changed_at: datetime

    @classmethod
    def of(
        cls,
        guild: Guild,
        stint: Stint,
        from_role: Role,
        reason: RoleReason,
        by: By,
        changed_at: datetime,
    ) -> Self:
        """``stint`` with its new role, ``from_role`` the one it had, ``changed_at`` when it changed."""
        if not stint.current:
            raise ValueError("a member who left has no role to change")
        if stint.role is from_role:
            raise ValueError(f"the role stayed {from_role.value}")
        return cls(
            **_member(guild, stint, by),
            from_=from_role.value,
            to=stint.role.value,
            reason=reason.value,
            changed_at=changed_at,
        )


@attrs.frozen
class GuildJoinRequested(GuildPayload):
    KIND: ClassVar[str] = "guild.join_requested"

    request_id: str
    player_id: str
    external_player_id: str
    message: str | None
    requested_at: datetime

    @classmethod
    def of(cls, guild: Guild, request: JoinRequest, by: By) -> Self:
        """``request`` as it was made (pending: answers and cancellations fire nothing)."""
        _check_guild(guild, request.guild_id, "join request")
        if not request.pending:
            raise ValueError(f"the join request is {request.status.value}")
        return cls(
            **_guild(guild, by),
            request_id=request.id,
            player_id=request.player_id,
            external_player_id=request.external_player_id,
            message=request.message,
            requested_at=request.created_at,
        )


@attrs.frozen
class GuildHelpRequested(GuildPayload):
    KIND: ClassVar[str] = "guild.help_requested"

    request_id: str
    player_id: str
    external_player_id: str
    type: str
    resource_key: str
    amount: int
    expires_at: datetime

    @classmethod
    def of(cls, guild: Guild, request: HelpRequest, by: By) -> Self:
        """``request`` as it was made."""
        _check_guild(guild, request.guild_id, "help request")
        return cls(
            **_guild(guild, by),
            request_id=request.id,
            player_id=request.player_id,
            external_player_id=request.external_player_id,
            type=request.type.value,
            resource_key=request.resource_key,
            amount=request.amount,
            expires_at=request.expires_at,
        )


@attrs.frozen
class GuildHelpDonated(GuildPayload):
    KIND: ClassVar[str] = "guild.help_donated"

    request_id: str
    donation_id: str
    grant_id: str
    reward_grant_id: str | None
    donor_player_id: str
    donor_external_player_id: str
    recipient_player_id: str
    recipient_external_player_id: str
    type: str
    resource_key: str
    amount: int
    costs_donor: bool
    costs_charged_by: str
    amount_received: int
    amount_requested: int
    filled: bool
    donated_at: datetime

    @classmethod
    def of(cls, guild: Guild, request: HelpRequest, donation: Donation, charged_by: str, by: By) -> Self:
        """``request`` as it is after ``donation`` (:func:`livecore.guilds.rules.donated`); ``charged_by`` who
        takes the amount from the donor (``platform``: debited already; ``studio``: the studio must)."""
        _check_guild(guild, request.guild_id, "help request")
        if donation.request_id != request.id:
            raise ValueError("the donation is to another help request")
        if request.donated < donation.amount:
            raise ValueError("the help request is as it was before the donation")
        return cls(
            **_guild(guild, by),
            request_id=request.id,
            donation_id=donation.id,
            grant_id=donation.grant_id,
            reward_grant_id=donation.reward_grant_id,
            donor_player_id=donation.donor_player_id,
            donor_external_player_id=donation.donor_external_player_id,
            recipient_player_id=request.player_id,
            recipient_external_player_id=request.external_player_id,
            type=request.type.value,
            resource_key=request.resource_key,
            amount=donation.amount,
            costs_donor=True,
            costs_charged_by=_charged_by(charged_by),
            amount_received=request.donated,
            amount_requested=request.amount,
            filled=request.status is HelpStatus.FILLED,
            donated_at=donation.donated_at,
        )


#: The kinds this area sends, as its area declares them (:attr:`livecore.area.Area.webhooks`).
PAYLOADS: tuple[type[WebhookPayload], ...] = (
    GuildCreated,
    GuildUpdated,
    GuildDisbanded,
    GuildMemberJoined,
    GuildMemberLeft,
    GuildRoleChanged,
    GuildJoinRequested,
    GuildHelpRequested,
    GuildHelpDonated,
)
