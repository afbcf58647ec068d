"""The guild routes' calls, as the typed clients send them (``sdk.guilds``, ``server.guilds``) and a
simulation runs them (``ada.guilds``, ``sim.server.guilds``): one builder per route
(:mod:`livecore.api.call`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from livecore.api.call import Call, SdkCalls, ServerCalls
from livecore.api.convert import ABSENT, Absent
from livecore.api.route import Route
from livecore.games import ResourceType
from livecore.guilds import api
from livecore.guilds.rules import DEFAULT_PAGE_LIMIT, JoinType

_T = TypeVar("_T")
_Edit = TypeVar("_Edit", bound=api.EditGuildRequest)


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


class GuildsCalls(SdkCalls):
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
    ) -> Call[api.GuildResponse]:
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
            api.SDK_CREATE,
            api.GuildResponse,
            path={"externalId": external_id},
            body=api.CreateGuildRequest(
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
    ) -> Call[api.GuildSearchResponse]:
        """Guilds not disbanded whose name holds ``q`` (compared by fold: NFKC, case, white space; every
        guild without it), newest first, a page of ``limit`` (1 to 100) from ``offset``: ``guilds``
        without their members. The client key alone. Raises
        :class:`~livecore_client.errors.GuildsDisabledError` and
        :class:`~livecore_client.errors.InvalidRequestError` (a limit or offset out of range).
        """
        return Call(
            api.SDK_SEARCH,
            api.GuildSearchResponse,
            query=api.GuildSearchQuery(q=q, limit=limit, offset=offset),
        )

    def _get(self, guild_id: str) -> Call[api.GuildResponse]:
        """A guild with its members in joining order (each member's display ``name``, ``avatar``,
        ``role`` and ``joined_at``); a disbanded guild stays readable (``disbanded_at`` set, no
        members). The client key alone. Raises :class:`~livecore_client.errors.GuildNotFoundError`.
        """
        return Call(api.SDK_READ, api.GuildResponse, path={"guildId": guild_id})

    def _mine(self, external_id: str, *, player_secret: str | None = None) -> Call[api.OwnGuildResponse]:
        """The player's guild with its members, and the player's ``role`` in it; ``guild`` and ``role``
        are ``None`` when it is in none."""
        return Call(
            api.SDK_MINE,
            api.OwnGuildResponse,
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
    ) -> Call[api.GuildJoined | api.GuildJoinPending]:
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
            api.SDK_JOIN,
            api.GuildJoined,
            path={"externalId": external_id, "guildId": guild_id},
            body=None if message is None else api.JoinGuildRequest(message=message),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
            variant=(201, api.GuildJoinPending),
        )

    def _cancel_join_request(
        self,
        external_id: str,
        guild_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[api.CancelledResponse]:
        """Withdraw the player's pending request to join the guild (``cancelled=True``). Raises
        :class:`~livecore_client.errors.GuildNotFoundError` and
        :class:`~livecore_client.errors.JoinRequestNotFoundError` when none is pending.
        """
        return Call(
            api.SDK_CANCEL_JOIN_REQUEST,
            api.CancelledResponse,
            path={"externalId": external_id, "guildId": guild_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _leave(
        self, external_id: str, *, idempotency_key: str | None = None, player_secret: str | None = None
    ) -> Call[api.LeftResponse]:
        """Leave the player's guild (``left=True``): a leader hands the leadership to the co-leader who
        joined first, else the member who joined first; the last member's going disbands the guild; the
        player's open help request closes. Raises :class:`~livecore_client.errors.NotInGuildError`.
        """
        return Call(
            api.SDK_LEAVE,
            api.LeftResponse,
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
    ) -> Call[api.GuildResponse]:
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
            api.SDK_EDIT,
            api.GuildResponse,
            path={"externalId": external_id},
            body=_profile_edit(
                api.EditGuildRequest,
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
    ) -> Call[api.JoinRequestsResponse]:
        """The pending requests to join the player's guild, oldest first (its leader and co-leaders).
        Raises :class:`~livecore_client.errors.NotInGuildError` and
        :class:`~livecore_client.errors.GuildPermissionDeniedError` (a member).
        """
        return Call(
            api.SDK_JOIN_REQUESTS,
            api.JoinRequestsResponse,
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
    ) -> Call[api.AcceptedResponse]:
        """Accept a pending request to join the player's guild (its leader and co-leaders): the requester
        joins it (``accepted=True``). Refusals, in this order:
        :class:`~livecore_client.errors.NotInGuildError`,
        :class:`~livecore_client.errors.GuildPermissionDeniedError`,
        :class:`~livecore_client.errors.JoinRequestNotFoundError` (not pending, or to another guild),
        :class:`~livecore_client.errors.AlreadyInGuildError` (the requester joined a guild meanwhile)
        and :class:`~livecore_client.errors.GuildFullError`.
        """
        return self._answer_join_request(
            api.SDK_ACCEPT, api.AcceptedResponse, external_id, request_id, idempotency_key, player_secret
        )

    def _decline_join_request(
        self,
        external_id: str,
        request_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[api.DeclinedResponse]:
        """Decline a pending request to join the player's guild (its leader and co-leaders;
        ``declined=True``). Raises :class:`~livecore_client.errors.NotInGuildError`,
        :class:`~livecore_client.errors.GuildPermissionDeniedError` and
        :class:`~livecore_client.errors.JoinRequestNotFoundError`.
        """
        return self._answer_join_request(
            api.SDK_DECLINE, api.DeclinedResponse, external_id, request_id, idempotency_key, player_secret
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
    ) -> Call[api.GuildResponse]:
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
            api.SDK_KICK, external_id, member_external_id, idempotency_key, player_secret
        )

    def _promote(
        self,
        external_id: str,
        member_external_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[api.GuildResponse]:
        """Promote a member of the player's guild to co-leader (the leader); answers the guild with its
        members. Refusals, in this order: :class:`~livecore_client.errors.NotInGuildError`,
        :class:`~livecore_client.errors.GuildPermissionDeniedError` (not the leader),
        :class:`~livecore_client.errors.InvalidRequestError` (oneself),
        :class:`~livecore_client.errors.GuildMemberNotFoundError` and
        :class:`~livecore_client.errors.InvalidRequestError` (a co-leader already).
        """
        return self._member_action(
            api.SDK_PROMOTE, external_id, member_external_id, idempotency_key, player_secret
        )

    def _demote(
        self,
        external_id: str,
        member_external_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[api.GuildResponse]:
        """Demote a co-leader of the player's guild to member (the leader); answers the guild with its
        members. Refusals, in this order: :class:`~livecore_client.errors.NotInGuildError`,
        :class:`~livecore_client.errors.GuildPermissionDeniedError` (not the leader),
        :class:`~livecore_client.errors.InvalidRequestError` (oneself),
        :class:`~livecore_client.errors.GuildMemberNotFoundError` and
        :class:`~livecore_client.errors.InvalidRequestError` (a member already).
        """
        return self._member_action(
            api.SDK_DEMOTE, external_id, member_external_id, idempotency_key, player_secret
        )

    def _member_action(
        self,
        route: Route,
        external_id: str,
        member_external_id: str,
        idempotency_key: str | None,
        player_secret: str | None,
    ) -> Call[api.GuildResponse]:
        return Call(
            route,
            api.GuildResponse,
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
    ) -> Call[api.GuildResponse]:
        """Hand the leadership of the player's guild (the leader) to another member, who leads it from
        now; the old leader becomes co-leader. Answers the guild with its members. Refusals, in this
        order: :class:`~livecore_client.errors.NotInGuildError`,
        :class:`~livecore_client.errors.GuildPermissionDeniedError` (not the leader),
        :class:`~livecore_client.errors.InvalidRequestError` (oneself) and
        :class:`~livecore_client.errors.GuildMemberNotFoundError`.
        """
        return Call(
            api.SDK_TRANSFER,
            api.GuildResponse,
            path={"externalId": external_id},
            body=api.TransferRequest(external_player_id=member_external_id),
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
    ) -> Call[api.HelpRequestResponse]:
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
            api.SDK_ASK_HELP,
            api.HelpRequestResponse,
            path={"externalId": external_id},
            body=api.AskHelpRequest(type=ResourceType(type), resource_key=resource_key, amount=amount),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _help_requests(
        self, external_id: str, *, player_secret: str | None = None
    ) -> Call[api.HelpRequestsResponse]:
        """The open help requests of the player's guild, newest first, each with what was ``donated``
        so far. Raises :class:`~livecore_client.errors.NotInGuildError`.
        """
        return Call(
            api.SDK_HELP_REQUESTS,
            api.HelpRequestsResponse,
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
    ) -> Call[api.DonationResponse]:
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
            api.SDK_DONATE,
            api.DonationResponse,
            path={"externalId": external_id, "requestId": request_id},
            body=api.DonateRequest(amount=amount),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )


class ServerGuildsCalls(ServerCalls):
    """The ``/server/v1`` guild calls."""

    def _list(
        self,
        q: str | None = None,
        *,
        player: str | None = None,
        include_disbanded: bool = False,
        limit: int = DEFAULT_PAGE_LIMIT,
        offset: int = 0,
    ) -> Call[api.GuildListResponse]:
        """The key's guilds, newest first, a page of ``limit`` (1 to 100) from ``offset``: those whose
        name holds ``q`` (compared by fold), every guild the external id ``player`` was ever in (none for a
        player unknown here), disbanded ones only with ``include_disbanded=True``. ``next_offset`` is
        the next page's offset, ``None`` on the last page. Raises
        :class:`~livecore_client.errors.GuildsDisabledError` and
        :class:`~livecore_client.errors.InvalidRequestError` (a limit or offset out of range).
        """
        return Call(
            api.SERVER_LIST,
            api.GuildListResponse,
            query=api.GuildListQuery(
                q=q, player=player, include_disbanded=include_disbanded, limit=limit, offset=offset
            ),
        )

    def _get(self, guild_id: str) -> Call[api.GuildDetailResponse]:
        """A guild's detail: its members in joining order (each with its ``display_identity``), its
        pending join requests (oldest first) and every stint it had (``history``, joining order; a
        current one with ``left_at`` and ``reason`` ``None``). A disbanded guild stays readable. Raises
        :class:`~livecore_client.errors.GuildNotFoundError`.
        """
        return Call(api.SERVER_READ, api.GuildDetailResponse, path={"guildId": guild_id})

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
    ) -> Call[api.GuildDetailResponse]:
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
            api.SERVER_EDIT,
            api.GuildDetailResponse,
            path={"guildId": guild_id},
            body=_profile_edit(
                api.ServerEditGuildRequest,
                name=name,
                description=description,
                badge=badge,
                country=country,
                join_type=join_type,
                metadata=metadata,
            ),
            idempotency_key=idempotency_key,
        )

    def _of_player(self, external_id: str) -> Call[api.PlayerGuildResponse]:
        """A player's current ``guild`` (``None`` when in none) and every stint it had (``stints``,
        newest first: the guild's id and name, its last ``role``, ``joined_at``, ``left_at`` and
        ``reason``). Raises :class:`~livecore_client.errors.PlayerNotFoundError`.
        """
        return Call(api.SERVER_PLAYER_GUILD, api.PlayerGuildResponse, path={"externalId": external_id})

    def _remove_member(
        self, guild_id: str, member_external_id: str, *, idempotency_key: str | None = None
    ) -> Call[api.GuildDetailResponse]:
        """Remove a member from a guild (moderation: its stint ends with reason ``removed``; nothing
        stops it from joining again). A leader removed hands on as one leaving does; the last member's
        removal disbands the guild. Answers the guild's detail. Refusals, in this order:
        :class:`~livecore_client.errors.GuildNotFoundError`,
        :class:`~livecore_client.errors.GuildDisbandedError` and
        :class:`~livecore_client.errors.GuildMemberNotFoundError`.
        """
        return Call(
            api.SERVER_REMOVE,
            api.GuildDetailResponse,
            path={"guildId": guild_id, "memberExternalId": member_external_id},
            idempotency_key=idempotency_key,
        )

    def _hand_over(
        self, guild_id: str, external_player_id: str, *, idempotency_key: str | None = None
    ) -> Call[api.GuildDetailResponse]:
        """Make a member the guild's leader; the old leader becomes co-leader (naming the leader changes
        nothing). Answers the guild's detail; the key goes in the body and the header. Refusals, in this
        order:
        :class:`~livecore_client.errors.GuildNotFoundError`,
        :class:`~livecore_client.errors.GuildDisbandedError` and
        :class:`~livecore_client.errors.GuildMemberNotFoundError`.
        """
        return Call(
            api.SERVER_HAND_OVER,
            api.GuildDetailResponse,
            path={"guildId": guild_id},
            body=api.ServerLeaderRequest(external_player_id=external_player_id),
            idempotency_key=idempotency_key,
        )

    def _disband(self, guild_id: str, *, idempotency_key: str | None = None) -> Call[api.GuildDetailResponse]:
        """Disband a guild, irreversibly: every member leaves (reason ``disbanded``) and its pending
        join requests are cancelled; it stays readable. Disbanding a disbanded guild answers its detail
        and changes nothing. Raises :class:`~livecore_client.errors.GuildNotFoundError`.
        """
        return Call(
            api.SERVER_DISBAND,
            api.GuildDetailResponse,
            path={"guildId": guild_id},
            idempotency_key=idempotency_key,
        )
