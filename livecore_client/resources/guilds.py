"""Guilds: the player's side in ``sdk.guilds``, the studio's in ``server.guilds``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from livecore.api.convert import ABSENT, Absent
from livecore.api.route import Route
from livecore.guilds import api as guilds
from livecore.guilds.rules import DEFAULT_PAGE_LIMIT, JoinType

from .. import models as m
from .._client import AsyncClient, AsyncResource, SyncClient, SyncResource, async_method, sync_method
from .._surfaces import AsyncSdkSurface, SdkSurface
from .._transport import Call
from ..models import ResourceType
from ._base import SdkCalls, ServerCalls

__all__ = ["AsyncGuilds", "AsyncServerGuilds", "Guilds", "ServerGuilds"]


_T = TypeVar("_T")
_Edit = TypeVar("_Edit", bound=guilds.EditGuildRequest)


def _profile_edit(
    model: type[_Edit],
    *,
    name: str | Absent,
    description: str | Absent | None,
    badge: str | Absent | None,
    country: str | Absent | None,
    join_type: JoinType | str | Absent,
    metadata: Mapping[str, Any] | Absent | None,
) -> _Edit:
    """The body of a profile edit, which the player's and the studio's edits share: ``model`` with the
    fields given. Each field is left out (``ABSENT``, the default: kept as it is) or given; ``None`` clears
    ``description``, ``badge``, ``country`` and ``metadata``. ``ValueError`` (before any request) for a
    ``join_type`` that is not one."""
    return model(
        name=name,
        description=description,
        badge=badge,
        country=country,
        join_type=join_type if join_type is ABSENT else JoinType(join_type),
        metadata=metadata if metadata is ABSENT or metadata is None else dict(metadata),
    )


class _GuildsCalls(SdkCalls):
    """The ``/sdk/v1`` guild calls."""

    def _create(
        self,
        external_id: str,
        name: str,
        join_type: JoinType | str,
        *,
        description: str | None = None,
        badge: str | None = None,
        country: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.GuildResponse]:
        """Found a guild (201) led by the player: ``join_type`` ``"open"`` (anyone joins at once) or
        ``"request"`` (the leader and co-leaders accept each join request); ``country`` an ISO 3166-1
        alpha-2 code, ``metadata`` free-form (at most 4 KiB as JSON). A platform-managed game debits its
        ``create_cost``. Answers the guild with its one member.

        Refusals, in this order (nothing is written):
        :class:`~livecore_client.errors.GuildsDisabledError`,
        :class:`~livecore_client.errors.InvalidRequestError` (a bad field: a name not 3 to 24
        characters, ...), :class:`~livecore_client.errors.GuildNameRejectedError` (the game's name
        filter), :class:`~livecore_client.errors.AlreadyInGuildError`,
        :class:`~livecore_client.errors.GuildNameTakenError` and
        :class:`~livecore_client.errors.InsufficientBalanceError` (short of the cost). ``ValueError``
        (before any request) for a ``join_type`` that is not one.
        """
        return Call(
            guilds.SDK_CREATE,
            m.GuildResponse,
            path={"externalId": external_id},
            body=m.CreateGuildRequest(
                name=name,
                join_type=JoinType(join_type),
                description=description,
                badge=badge,
                country=country,
                metadata=None if metadata is None else dict(metadata),
            ),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _search(
        self, q: str | None = None, *, limit: int = DEFAULT_PAGE_LIMIT, offset: int = 0
    ) -> Call[m.GuildSearchResponse]:
        """Guilds not disbanded whose name holds ``q`` (compared by fold: NFKC, case, white space; every
        guild without it), newest first, a page of ``limit`` (1 to 100) from ``offset``: ``guilds``
        without their members. The client key alone. Raises
        :class:`~livecore_client.errors.GuildsDisabledError` and
        :class:`~livecore_client.errors.InvalidRequestError` (a limit or offset out of range).
        """
        return Call(
            guilds.SDK_SEARCH,
            m.GuildSearchResponse,
            query=m.GuildSearchQuery(q=q, limit=limit, offset=offset),
        )

    def _get(self, guild_id: str) -> Call[m.GuildResponse]:
        """A guild with its members in joining order (each member's display ``name``, ``avatar``,
        ``role`` and ``joined_at``); a disbanded guild stays readable (``disbanded_at`` set, no
        members). The client key alone. Raises :class:`~livecore_client.errors.GuildNotFoundError`.
        """
        return Call(guilds.SDK_READ, m.GuildResponse, path={"guildId": guild_id})

    def _mine(self, external_id: str, *, player_secret: str | None = None) -> Call[m.OwnGuildResponse]:
        """The player's guild with its members, and the player's ``role`` in it; ``guild`` and ``role``
        are ``None`` when it is in none."""
        return Call(
            guilds.SDK_MINE,
            m.OwnGuildResponse,
            path={"externalId": external_id},
            player_secret=self._secret(player_secret),
        )

    def _join(
        self,
        external_id: str,
        guild_id: str,
        *,
        message: str | None = None,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.GuildJoined | m.GuildJoinPending]:
        """Join a guild. An open guild seats the player at once: a
        :class:`~livecore_client.models.GuildJoined` (200: the ``guild`` with its members and the
        player's ``role``). A request-only guild records a join request for its leader and co-leaders,
        with ``message`` (at most 200 characters; an open guild ignores it): a
        :class:`~livecore_client.models.GuildJoinPending` (201: the pending ``request``). Joining any
        guild cancels the player's other pending requests.

        Refusals, in this order: :class:`~livecore_client.errors.GuildNotFoundError`,
        :class:`~livecore_client.errors.GuildDisbandedError`,
        :class:`~livecore_client.errors.AlreadyInGuildError`,
        :class:`~livecore_client.errors.GuildFullError` and
        :class:`~livecore_client.errors.JoinRequestPendingError` (a request to this guild pending
        already).
        """
        return Call(
            guilds.SDK_JOIN,
            m.GuildJoined,
            path={"externalId": external_id, "guildId": guild_id},
            body=None if message is None else m.JoinGuildRequest(message=message),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
            variant=(201, m.GuildJoinPending),
        )

    def _cancel_join_request(
        self,
        external_id: str,
        guild_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.CancelledResponse]:
        """Withdraw the player's pending request to join the guild (``cancelled=True``). Raises
        :class:`~livecore_client.errors.GuildNotFoundError` and
        :class:`~livecore_client.errors.JoinRequestNotFoundError` when none is pending.
        """
        return Call(
            guilds.SDK_CANCEL_JOIN_REQUEST,
            m.CancelledResponse,
            path={"externalId": external_id, "guildId": guild_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _leave(
        self, external_id: str, *, idempotency_key: str | None = None, player_secret: str | None = None
    ) -> Call[m.LeftResponse]:
        """Leave the player's guild (``left=True``): a leader hands the leadership to the co-leader who
        joined first, else the member who joined first; the last member's going disbands the guild; the
        player's open help request closes. Raises :class:`~livecore_client.errors.NotInGuildError`.
        """
        return Call(
            guilds.SDK_LEAVE,
            m.LeftResponse,
            path={"externalId": external_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _edit(
        self,
        external_id: str,
        *,
        name: str | Absent = ABSENT,
        description: str | Absent | None = ABSENT,
        badge: str | Absent | None = ABSENT,
        country: str | Absent | None = ABSENT,
        join_type: JoinType | str | Absent = ABSENT,
        metadata: Mapping[str, Any] | Absent | None = ABSENT,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.GuildResponse]:
        """Edit the profile of the player's guild (its leader and co-leaders): only the fields given
        change; a field left out (``ABSENT``) is not sent and stays as it is, while ``None`` clears
        ``description``, ``badge``, ``country`` or ``metadata``. Answers the guild with its members.

        Refusals: :class:`~livecore_client.errors.NotInGuildError`,
        :class:`~livecore_client.errors.GuildPermissionDeniedError` (a member),
        :class:`~livecore_client.errors.InvalidRequestError` (a bad field),
        :class:`~livecore_client.errors.GuildNameRejectedError` (the name filter) and
        :class:`~livecore_client.errors.GuildNameTakenError`. ``ValueError`` (before any request) for a
        ``join_type`` that is not one.
        """
        return Call(
            guilds.SDK_EDIT,
            m.GuildResponse,
            path={"externalId": external_id},
            body=_profile_edit(
                m.EditGuildRequest,
                name=name,
                description=description,
                badge=badge,
                country=country,
                join_type=join_type,
                metadata=metadata,
            ),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _join_requests(
        self, external_id: str, *, player_secret: str | None = None
    ) -> Call[m.JoinRequestsResponse]:
        """The pending requests to join the player's guild, oldest first (its leader and co-leaders).
        Raises :class:`~livecore_client.errors.NotInGuildError` and
        :class:`~livecore_client.errors.GuildPermissionDeniedError` (a member).
        """
        return Call(
            guilds.SDK_JOIN_REQUESTS,
            m.JoinRequestsResponse,
            path={"externalId": external_id},
            player_secret=self._secret(player_secret),
        )

    def _accept_join_request(
        self,
        external_id: str,
        request_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.AcceptedResponse]:
        """Accept a pending request to join the player's guild (its leader and co-leaders): the requester
        joins it (``accepted=True``). Refusals, in this order:
        :class:`~livecore_client.errors.NotInGuildError`,
        :class:`~livecore_client.errors.GuildPermissionDeniedError`,
        :class:`~livecore_client.errors.JoinRequestNotFoundError` (not pending, or to another guild),
        :class:`~livecore_client.errors.AlreadyInGuildError` (the requester joined a guild meanwhile)
        and :class:`~livecore_client.errors.GuildFullError`.
        """
        return self._answer_join_request(
            guilds.SDK_ACCEPT, m.AcceptedResponse, external_id, request_id, idempotency_key, player_secret
        )

    def _decline_join_request(
        self,
        external_id: str,
        request_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.DeclinedResponse]:
        """Decline a pending request to join the player's guild (its leader and co-leaders;
        ``declined=True``). Raises :class:`~livecore_client.errors.NotInGuildError`,
        :class:`~livecore_client.errors.GuildPermissionDeniedError` and
        :class:`~livecore_client.errors.JoinRequestNotFoundError`.
        """
        return self._answer_join_request(
            guilds.SDK_DECLINE, m.DeclinedResponse, external_id, request_id, idempotency_key, player_secret
        )

    def _answer_join_request(
        self,
        route: Route,
        response: type[_T],
        external_id: str,
        request_id: str,
        idempotency_key: str | None,
        player_secret: str | None,
    ) -> Call[_T]:
        return Call(
            route,
            response,
            path={"externalId": external_id, "requestId": request_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _kick(
        self,
        external_id: str,
        member_external_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.GuildResponse]:
        """Kick a member out of the player's guild (the leader kicks co-leaders and members, a co-leader
        members only); answers the guild with its members. Refusals, in this order:
        :class:`~livecore_client.errors.NotInGuildError`,
        :class:`~livecore_client.errors.GuildPermissionDeniedError` (a member),
        :class:`~livecore_client.errors.InvalidRequestError` (oneself),
        :class:`~livecore_client.errors.GuildMemberNotFoundError` and
        :class:`~livecore_client.errors.GuildPermissionDeniedError` (a co-leader kicking a co-leader or
        the leader).
        """
        return self._member_action(
            guilds.SDK_KICK, external_id, member_external_id, idempotency_key, player_secret
        )

    def _promote(
        self,
        external_id: str,
        member_external_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.GuildResponse]:
        """Promote a member of the player's guild to co-leader (the leader); answers the guild with its
        members. Refusals, in this order: :class:`~livecore_client.errors.NotInGuildError`,
        :class:`~livecore_client.errors.GuildPermissionDeniedError` (not the leader),
        :class:`~livecore_client.errors.InvalidRequestError` (oneself),
        :class:`~livecore_client.errors.GuildMemberNotFoundError` and
        :class:`~livecore_client.errors.InvalidRequestError` (a co-leader already).
        """
        return self._member_action(
            guilds.SDK_PROMOTE, external_id, member_external_id, idempotency_key, player_secret
        )

    def _demote(
        self,
        external_id: str,
        member_external_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.GuildResponse]:
        """Demote a co-leader of the player's guild to member (the leader); answers the guild with its
        members. Refusals, in this order: :class:`~livecore_client.errors.NotInGuildError`,
        :class:`~livecore_client.errors.GuildPermissionDeniedError` (not the leader),
        :class:`~livecore_client.errors.InvalidRequestError` (oneself),
        :class:`~livecore_client.errors.GuildMemberNotFoundError` and
        :class:`~livecore_client.errors.InvalidRequestError` (a member already).
        """
        return self._member_action(
            guilds.SDK_DEMOTE, external_id, member_external_id, idempotency_key, player_secret
        )

    def _member_action(
        self,
        route: Route,
        external_id: str,
        member_external_id: str,
        idempotency_key: str | None,
        player_secret: str | None,
    ) -> Call[m.GuildResponse]:
        return Call(
            route,
            m.GuildResponse,
            path={"externalId": external_id, "memberExternalId": member_external_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _transfer_leadership(
        self,
        external_id: str,
        member_external_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.GuildResponse]:
        """Hand the leadership of the player's guild (the leader) to another member, who leads it from
        now; the old leader becomes co-leader. Answers the guild with its members. Refusals, in this
        order: :class:`~livecore_client.errors.NotInGuildError`,
        :class:`~livecore_client.errors.GuildPermissionDeniedError` (not the leader),
        :class:`~livecore_client.errors.InvalidRequestError` (oneself) and
        :class:`~livecore_client.errors.GuildMemberNotFoundError`.
        """
        return Call(
            guilds.SDK_TRANSFER,
            m.GuildResponse,
            path={"externalId": external_id},
            body=m.TransferRequest(external_player_id=member_external_id),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _ask_help(
        self,
        external_id: str,
        *,
        type: ResourceType | str,
        resource_key: str,
        amount: int,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.HelpRequestResponse]:
        """Ask the player's guild for ``amount`` (1 to the game's ``help.max_amount``) of one of its
        ``help.resources`` (``type`` ``"currency"`` or ``"item"``): the request (201) is ``open`` until
        it is filled, expires (``expires_at``) or its player leaves the guild.

        Refusals: :class:`~livecore_client.errors.NotInGuildError`,
        :class:`~livecore_client.errors.InvalidRequestError` (no help in the game, a resource not
        offered, an amount out of range), :class:`~livecore_client.errors.HelpRequestOpenError` (the
        player's own request open still: its ``request_id``) and
        :class:`~livecore_client.errors.HelpCooldownError` (asked too recently: ``retry_at``).
        ``ValueError`` (before any request) when ``type`` is not a resource type.
        """
        return Call(
            guilds.SDK_ASK_HELP,
            m.HelpRequestResponse,
            path={"externalId": external_id},
            body=m.AskHelpRequest(type=ResourceType(type), resource_key=resource_key, amount=amount),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _help_requests(
        self, external_id: str, *, player_secret: str | None = None
    ) -> Call[m.HelpRequestsResponse]:
        """The open help requests of the player's guild, newest first, each with what was ``donated``
        so far. Raises :class:`~livecore_client.errors.NotInGuildError`.
        """
        return Call(
            guilds.SDK_HELP_REQUESTS,
            m.HelpRequestsResponse,
            path={"externalId": external_id},
            player_secret=self._secret(player_secret),
        )

    def _donate_help(
        self,
        external_id: str,
        request_id: str,
        amount: int,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.DonationResponse]:
        """Donate ``amount`` (1 to what the request still lacks) to another member's open help request,
        in one step: a platform-managed game debits the donor; the requester gets a pending grant of the
        amount (``grant_id``) and the donor a pending grant of the game's ``help.donor_reward``
        (``reward_grant_id``, ``None`` without one). Answers the ``donation`` and the request after it.

        Refusals, in this order: :class:`~livecore_client.errors.NotInGuildError`,
        :class:`~livecore_client.errors.HelpRequestNotFoundError` (none in the player's guild),
        :class:`~livecore_client.errors.InvalidRequestError` (the player's own request),
        :class:`~livecore_client.errors.HelpRequestClosedError` (filled, expired or closed),
        :class:`~livecore_client.errors.InvalidRequestError` (an amount out of range) and
        :class:`~livecore_client.errors.InsufficientBalanceError`.
        """
        return Call(
            guilds.SDK_DONATE,
            m.DonationResponse,
            path={"externalId": external_id, "requestId": request_id},
            body=m.DonateRequest(amount=amount),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )


class Guilds(SyncResource[SdkSurface], _GuildsCalls):
    """``sdk.guilds``: the ``/sdk/v1`` guild calls."""

    create = sync_method(_GuildsCalls._create)
    search = sync_method(_GuildsCalls._search)
    get = sync_method(_GuildsCalls._get)
    mine = sync_method(_GuildsCalls._mine)
    join = sync_method(_GuildsCalls._join)
    cancel_join_request = sync_method(_GuildsCalls._cancel_join_request)
    leave = sync_method(_GuildsCalls._leave)
    edit = sync_method(_GuildsCalls._edit)
    join_requests = sync_method(_GuildsCalls._join_requests)
    accept_join_request = sync_method(_GuildsCalls._accept_join_request)
    decline_join_request = sync_method(_GuildsCalls._decline_join_request)
    kick = sync_method(_GuildsCalls._kick)
    promote = sync_method(_GuildsCalls._promote)
    demote = sync_method(_GuildsCalls._demote)
    transfer_leadership = sync_method(_GuildsCalls._transfer_leadership)
    ask_help = sync_method(_GuildsCalls._ask_help)
    help_requests = sync_method(_GuildsCalls._help_requests)
    donate_help = sync_method(_GuildsCalls._donate_help)


class AsyncGuilds(AsyncResource[AsyncSdkSurface], _GuildsCalls):
    """The methods of :class:`Guilds`, awaited."""

    create = async_method(_GuildsCalls._create)
    search = async_method(_GuildsCalls._search)
    get = async_method(_GuildsCalls._get)
    mine = async_method(_GuildsCalls._mine)
    join = async_method(_GuildsCalls._join)
    cancel_join_request = async_method(_GuildsCalls._cancel_join_request)
    leave = async_method(_GuildsCalls._leave)
    edit = async_method(_GuildsCalls._edit)
    join_requests = async_method(_GuildsCalls._join_requests)
    accept_join_request = async_method(_GuildsCalls._accept_join_request)
    decline_join_request = async_method(_GuildsCalls._decline_join_request)
    kick = async_method(_GuildsCalls._kick)
    promote = async_method(_GuildsCalls._promote)
    demote = async_method(_GuildsCalls._demote)
    transfer_leadership = async_method(_GuildsCalls._transfer_leadership)
    ask_help = async_method(_GuildsCalls._ask_help)
    help_requests = async_method(_GuildsCalls._help_requests)
    donate_help = async_method(_GuildsCalls._donate_help)


class _ServerGuildsCalls(ServerCalls):
    """The ``/server/v1`` guild calls."""

    def _list(
        self,
        q: str | None = None,
        *,
        player: str | None = None,
        include_disbanded: bool = False,
        limit: int = DEFAULT_PAGE_LIMIT,
        offset: int = 0,
    ) -> Call[m.GuildListResponse]:
        """The key's guilds, newest first, a page of ``limit`` (1 to 100) from ``offset``: those whose
        name holds ``q`` (compared by fold), every guild the external id ``player`` was ever in (none for a
        player unknown here), disbanded ones only with ``include_disbanded=True``. ``next_offset`` is
        the next page's offset, ``None`` on the last page. Raises
        :class:`~livecore_client.errors.GuildsDisabledError` and
        :class:`~livecore_client.errors.InvalidRequestError` (a limit or offset out of range).
        """
        return Call(
            guilds.SERVER_LIST,
            m.GuildListResponse,
            query=m.GuildListQuery(
                q=q, player=player, include_disbanded=include_disbanded, limit=limit, offset=offset
            ),
        )

    def _get(self, guild_id: str) -> Call[m.GuildDetailResponse]:
        """A guild's detail: its members in joining order (each with its ``display_identity``), its
        pending join requests (oldest first) and every stint it had (``history``, joining order; a
        current one with ``left_at`` and ``reason`` ``None``). A disbanded guild stays readable. Raises
        :class:`~livecore_client.errors.GuildNotFoundError`.
        """
        return Call(guilds.SERVER_READ, m.GuildDetailResponse, path={"guildId": guild_id})

    def _edit(
        self,
        guild_id: str,
        *,
        name: str | Absent = ABSENT,
        description: str | Absent | None = ABSENT,
        badge: str | Absent | None = ABSENT,
        country: str | Absent | None = ABSENT,
        join_type: JoinType | str | Absent = ABSENT,
        metadata: Mapping[str, Any] | Absent | None = ABSENT,
        idempotency_key: str | None = None,
    ) -> Call[m.GuildDetailResponse]:
        """Edit a guild's profile as the studio: only the fields given change; a field left out
        (``ABSENT``) is not sent and stays as it is, while ``None`` clears ``description``, ``badge``,
        ``country`` or ``metadata``. The game's name filter is skipped; a name must still be free.
        Answers the guild's detail; the key goes in the body and the header.

        Refusals, in this order: :class:`~livecore_client.errors.GuildNotFoundError`,
        :class:`~livecore_client.errors.InvalidRequestError` (a bad field),
        :class:`~livecore_client.errors.GuildDisbandedError` and
        :class:`~livecore_client.errors.GuildNameTakenError`. ``ValueError`` (before any request) for a
        ``join_type`` that is not one.
        """
        return Call(
            guilds.SERVER_EDIT,
            m.GuildDetailResponse,
            path={"guildId": guild_id},
            body=_profile_edit(
                m.ServerEditGuildRequest,
                name=name,
                description=description,
                badge=badge,
                country=country,
                join_type=join_type,
                metadata=metadata,
            ),
            idempotency_key=idempotency_key,
        )

    def _of_player(self, external_id: str) -> Call[m.PlayerGuildResponse]:
        """A player's current ``guild`` (``None`` when in none) and every stint it had (``stints``,
        newest first: the guild's id and name, its last ``role``, ``joined_at``, ``left_at`` and
        ``reason``). Raises :class:`~livecore_client.errors.PlayerNotFoundError`.
        """
        return Call(guilds.SERVER_PLAYER_GUILD, m.PlayerGuildResponse, path={"externalId": external_id})

    def _remove_member(
        self, guild_id: str, member_external_id: str, *, idempotency_key: str | None = None
    ) -> Call[m.GuildDetailResponse]:
        """Remove a member from a guild (moderation: its stint ends with reason ``removed``; nothing
        stops it from joining again). A leader removed hands on as one leaving does; the last member's
        removal disbands the guild. Answers the guild's detail. Refusals, in this order:
        :class:`~livecore_client.errors.GuildNotFoundError`,
        :class:`~livecore_client.errors.GuildDisbandedError` and
        :class:`~livecore_client.errors.GuildMemberNotFoundError`.
        """
        return Call(
            guilds.SERVER_REMOVE,
            m.GuildDetailResponse,
            path={"guildId": guild_id, "memberExternalId": member_external_id},
            idempotency_key=idempotency_key,
        )

    def _hand_over(
        self, guild_id: str, external_player_id: str, *, idempotency_key: str | None = None
    ) -> Call[m.GuildDetailResponse]:
        """Make a member the guild's leader; the old leader becomes co-leader (naming the leader changes
        nothing). Answers the guild's detail; the key goes in the body and the header. Refusals, in this
        order:
        :class:`~livecore_client.errors.GuildNotFoundError`,
        :class:`~livecore_client.errors.GuildDisbandedError` and
        :class:`~livecore_client.errors.GuildMemberNotFoundError`.
        """
        return Call(
            guilds.SERVER_HAND_OVER,
            m.GuildDetailResponse,
            path={"guildId": guild_id},
            body=m.ServerLeaderRequest(external_player_id=external_player_id),
            idempotency_key=idempotency_key,
        )

    def _disband(self, guild_id: str, *, idempotency_key: str | None = None) -> Call[m.GuildDetailResponse]:
        """Disband a guild, irreversibly: every member leaves (reason ``disbanded``) and its pending
        join requests are cancelled; it stays readable. Disbanding a disbanded guild answers its detail
        and changes nothing. Raises :class:`~livecore_client.errors.GuildNotFoundError`.
        """
        return Call(
            guilds.SERVER_DISBAND,
            m.GuildDetailResponse,
            path={"guildId": guild_id},
            idempotency_key=idempotency_key,
        )


class ServerGuilds(SyncResource[SyncClient], _ServerGuildsCalls):
    """``server.guilds``: the ``/server/v1`` guild calls."""

    list = sync_method(_ServerGuildsCalls._list)
    get = sync_method(_ServerGuildsCalls._get)
    edit = sync_method(_ServerGuildsCalls._edit)
    of_player = sync_method(_ServerGuildsCalls._of_player)
    remove_member = sync_method(_ServerGuildsCalls._remove_member)
    hand_over = sync_method(_ServerGuildsCalls._hand_over)
    disband = sync_method(_ServerGuildsCalls._disband)


class AsyncServerGuilds(AsyncResource[AsyncClient], _ServerGuildsCalls):
    """The methods of :class:`ServerGuilds`, awaited."""

    list = async_method(_ServerGuildsCalls._list)
    get = async_method(_ServerGuildsCalls._get)
    edit = async_method(_ServerGuildsCalls._edit)
    of_player = async_method(_ServerGuildsCalls._of_player)
    remove_member = async_method(_ServerGuildsCalls._remove_member)
    hand_over = async_method(_ServerGuildsCalls._hand_over)
    disband = async_method(_ServerGuildsCalls._disband)
