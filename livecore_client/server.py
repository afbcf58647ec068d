"""Clients for the studio-backend surface ``/server/v1``: :class:`ServerClient` and
:class:`AsyncServerClient`.

Use a ``server_integration`` key, and never ship it in a game client
(docs/reference/conventions.md#surfaces-and-credentials). Server routes need no player secret; every
state-changing one requires an idempotency key, which these clients always send.

Adding a route: one ``_name`` builder in :class:`_ServerCalls`, one line in each client. The only
hand-written pair is ``iter_purchases`` (a generator cannot be one builder): it just walks
``purchases`` page by page.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from datetime import date, datetime
from typing import Any, TypeVar

import attrs

from livecore.api.convert import ABSENT, Absent
from livecore.api.system import CLOCK_ADVANCE, HEALTH, PING
from livecore.clock import format_ts
from livecore.economy.api import (
    SERVER_INVENTORY_GRANT,
    SERVER_INVENTORY_REVOKE,
    SERVER_WALLET_CREDIT,
    SERVER_WALLET_DEBIT,
)
from livecore.friends.api import SERVER_BLOCKS, SERVER_FRIEND_REQUESTS, SERVER_FRIENDS
from livecore.gifts.api import SERVER_GIFTS
from livecore.grants.api import SERVER_ACK_GRANT, SERVER_CREATE_GRANT
from livecore.guilds import api as guilds
from livecore.guilds.rules import DEFAULT_PAGE_LIMIT, JoinType
from livecore.leaderboards.api import SERVER_ROLLOVER_NOW, SERVER_SUBMIT_SCORE
from livecore.live_events.api import SERVER_END_NOW
from livecore.lobbies.api import SERVER_LOBBY, SERVER_PUSH
from livecore.player_tools.api import (
    MIGRATE_INVENTORY,
    MIGRATE_PLAYERS,
    MIGRATE_WALLET,
    PLAYER_BAN,
    PLAYER_DEBUG_CLEAR,
    PLAYER_DEBUG_SET,
    PLAYER_DELETE,
    PLAYER_EXPORT,
    PLAYER_MERGE,
    PLAYER_PROFILE,
    PLAYER_UNBAN,
)
from livecore.players.api import SERVER_SET_IDENTITY
from livecore.purchases.api import (
    PLAYER_SPEND,
    SERVER_PURCHASES,
    SERVER_TRACK_PURCHASE,
    SPEND_PLAYERS,
    SPEND_SUMMARY,
)
from livecore.teams.api import SERVER_PUT_ROSTER, SERVER_TEAM

from . import models as m
from ._client import AsyncClient, SyncClient, async_method, sync_method
from ._guilds import profile_edit
from ._transport import Call, new_idempotency_key
from .models import (
    ErasureReasonView,
    GiftHistoryDirection,
    GrantKind,
    GrantSourceKind,
    RewardEntry,
    ValidationStatusView,
)

__all__ = ["AsyncServerClient", "ServerClient"]


class _ServerCalls:
    """The ``/server/v1`` calls (and the public health probe), written once for both clients."""

    def _ping(self) -> Call[m.ServerPingResponse]:
        """Check connectivity and the key: which studio, game and environment it belongs to."""
        return Call(PING, m.ServerPingResponse)

    def _set_identity(
        self, external_id: str, *, name: str, avatar: str | None = None, idempotency_key: str | None = None
    ) -> Call[m.IdentityResponse]:
        """Set a player's display identity from the studio backend."""
        return Call(
            SERVER_SET_IDENTITY,
            m.IdentityResponse,
            path={"externalId": external_id},
            body=m.SetIdentityRequest(name=name, avatar=avatar),
            idempotency_key=idempotency_key,
        )

    def _advance_clock(self, seconds: float) -> Call[m.ClockAdvanceResponse]:
        """Move a manual-clock server forward and run the work that came due (test keys only).

        Not idempotent: a timeout or 5xx is raised rather than retried, since a resend could advance
        the clock twice.
        """
        return Call(CLOCK_ADVANCE, m.ClockAdvanceResponse, body=m.ClockAdvanceRequest(seconds=seconds))

    def _end_event_now(self, event_key: str) -> Call[m.EndNowResponse]:
        """Close the event's open window now, as its end would (test keys only): expire the attempts in
        progress, finalize its boards (their streams send ``closed``), create the rank-reward grants.
        Answers the ids of the windows it closed (``[]`` when none was open); the next window still
        opens on schedule. Raises :class:`~livecore_client.errors.EventNotFoundError` for an unknown
        event and :class:`~livecore_client.errors.PermissionDeniedError` for a live key.

        Not retried after a timeout or 5xx (it takes no idempotency key); calling it again is harmless,
        since a closed window is never closed twice.
        """
        return Call(SERVER_END_NOW, m.EndNowResponse, path={"eventKey": event_key})

    # --- Lobbies -----------------------------------------------------------------------------------

    def _push_lobby(
        self,
        game_id: str,
        event_key: str,
        key: str,
        external_player_ids: Sequence[str],
        *,
        capacity: int | None = None,
        fill_bots: bool = False,
        metadata: Mapping[str, Any] | None = None,
    ) -> Call[m.LobbyResponse]:
        """Seat these players in a new lobby of the event's open window, active at once
        (``promotion_reason`` ``external_push``), players created on first contact; ``game_id`` is the
        key's own game's ``gam_`` id (``ping()`` tells it). ``capacity`` defaults to the event's
        ``lobby.capacity``; ``fill_bots=True`` seats bots in the empty seats at once. Answers the
        lobby.

        ``key`` is the push's idempotency key, per game and environment: the same key with the same
        players answers the lobby it made (and retries are safe), with other players
        :class:`~livecore_client.errors.IdempotencyConflictError`. Refusals, in this order, each
        changing nothing: :class:`~livecore_client.errors.NotFoundError` (another game's id),
        :class:`~livecore_client.errors.EventNotFoundError`,
        :class:`~livecore_client.errors.InvalidRequestError` (an event without lobbies; no players, a
        player named twice, more players than seats, a capacity outside 2 to 10,000),
        :class:`~livecore_client.errors.EventNotOpenError` and
        :class:`~livecore_client.errors.ConflictError` (a player seated in another lobby of the window:
        ``details["externalPlayerIds"]``).
        """
        return Call(
            SERVER_PUSH,
            m.LobbyResponse,
            path={"gameId": game_id, "eventKey": event_key},
            body=m.LobbyPushRequest(
                key=key,
                external_player_ids=list(external_player_ids),
                capacity=capacity,
                fill_bots=fill_bots,
                metadata=None if metadata is None else dict(metadata),
            ),
        )

    def _lobby(self, game_id: str, lobby_id: str) -> Call[m.LobbyResponse]:
        """A lobby of the key's game, as the SDK's ``lobby`` reads it. Raises
        :class:`~livecore_client.errors.NotFoundError` for another game's ``game_id`` and
        :class:`~livecore_client.errors.LobbyNotFoundError` for a lobby of another game or environment,
        or an unknown id.
        """
        return Call(SERVER_LOBBY, m.LobbyResponse, path={"gameId": game_id, "lobbyId": lobby_id})

    # --- Teams -------------------------------------------------------------------------------------

    def _put_team_roster(
        self,
        event_key: str,
        team_key: str,
        external_player_ids: Sequence[str],
        *,
        name: str | None = None,
        attributes: Mapping[str, Any] | None = None,
        window_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.TeamResponse]:
        """Make ``external_player_ids`` the whole roster of team ``team_key`` (an event whose teams form
        ``external``) in one window: ``window_id``, else the window open now, else the next scheduled
        one; the answer's ``window_id`` names it. The team forms on its first PUT; players missing from
        the roster leave it (reason ``kicked``); ``name`` and ``attributes`` are kept when not given.
        All or nothing.

        Refusals, in this order, each changing nothing:
        :class:`~livecore_client.errors.EventNotFoundError`,
        :class:`~livecore_client.errors.InvalidRequestError` (an event without external teams, a window
        id of another event, a player named twice, more players than the team's size),
        :class:`~livecore_client.errors.EventNotOpenError` (the window has ended),
        :class:`~livecore_client.errors.PlayerNotFoundError` (a player never registered) and
        :class:`~livecore_client.errors.LockedElsewhereError` (players on another team of the window:
        its ``external_player_ids``).

        A repeated PUT with the same ``idempotency_key`` and body answers the first one's team. Without
        one, a random key is made once per call and reused by its retries.
        """
        # The body field is required by the model, so the key is made here, once, before any retry.
        key = new_idempotency_key() if idempotency_key is None else idempotency_key
        return Call(
            SERVER_PUT_ROSTER,
            m.TeamResponse,
            path={"eventKey": event_key, "teamKey": team_key},
            body=m.RosterRequest(
                external_player_ids=list(external_player_ids),
                name=name,
                attributes=None if attributes is None else dict(attributes),
                window_id=window_id,
                idempotency_key=key,
            ),
            idempotency_key=key,
        )

    def _team(self, event_key: str, team_key: str, *, window_id: str | None = None) -> Call[m.TeamResponse]:
        """Team ``team_key`` of window ``window_id`` (default: the window open now), its seated
        ``members`` in rank order (by contribution; ties: the earlier seated first, then by external
        id) and, once its window closed on a team board, its ``final_rank``. Raises
        :class:`~livecore_client.errors.TeamNotFoundError` when the window has no such team and
        :class:`~livecore_client.errors.EventNotFoundError` for an unknown event.
        """
        return Call(
            SERVER_TEAM,
            m.TeamResponse,
            path={"eventKey": event_key, "teamKey": team_key},
            query=m.TeamQuery(window_id=window_id),
        )

    # --- Guilds ------------------------------------------------------------------------------------

    def _guilds(
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

    def _guild(self, guild_id: str) -> Call[m.GuildDetailResponse]:
        """A guild's detail: its members in joining order (each with its ``display_identity``), its
        pending join requests (oldest first) and every stint it had (``history``, joining order; a
        current one with ``left_at`` and ``reason`` ``None``). A disbanded guild stays readable. Raises
        :class:`~livecore_client.errors.GuildNotFoundError`.
        """
        return Call(guilds.SERVER_READ, m.GuildDetailResponse, path={"guildId": guild_id})

    def _edit_guild(
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
            body=profile_edit(
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

    def _player_guild(self, external_id: str) -> Call[m.PlayerGuildResponse]:
        """A player's current ``guild`` (``None`` when in none) and every stint it had (``stints``,
        newest first: the guild's id and name, its last ``role``, ``joined_at``, ``left_at`` and
        ``reason``). Raises :class:`~livecore_client.errors.PlayerNotFoundError`.
        """
        return Call(guilds.SERVER_PLAYER_GUILD, m.PlayerGuildResponse, path={"externalId": external_id})

    def _remove_guild_member(
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

    def _hand_over_guild(
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

    def _disband_guild(
        self, guild_id: str, *, idempotency_key: str | None = None
    ) -> Call[m.GuildDetailResponse]:
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

    # --- Shared leaderboards -----------------------------------------------------------------------

    def _submit_score(
        self,
        leaderboard_key: str,
        external_player_id: str,
        score: int,
        *,
        idempotency_key: str | None = None,
    ) -> Call[m.ScoreResponse]:
        """Submit a player's score to a shared leaderboard (the player is created on first contact): a
        whole number from -(2**53 - 1) to 2**53 - 1, combined into the player's entry of the current
        period by the board's aggregation (``sum``, ``best`` or ``latest``). Answers the ``entry`` as
        it is now, with its rank (within the player's division on a board with divisions).

        Derive ``idempotency_key`` from your own match or run id: a repeated submit with the same key
        and body answers the first one's entry and is not counted twice. Without one, a random key is
        made once per call and reused by its retries. Raises
        :class:`~livecore_client.errors.LeaderboardNotFoundError` for an unknown board and
        :class:`~livecore_client.errors.InvalidRequestError` for a score out of range.
        """
        # The body field is required by the model, so the key is made here, once, before any retry.
        key = new_idempotency_key() if idempotency_key is None else idempotency_key
        return Call(
            SERVER_SUBMIT_SCORE,
            m.ScoreResponse,
            path={"leaderboardKey": leaderboard_key},
            body=m.SubmitScoreRequest(
                external_player_id=external_player_id, score=score, idempotency_key=key
            ),
            idempotency_key=key,
        )

    def _rollover_leaderboard_now(self, leaderboard_key: str) -> Call[m.RolloverResponse]:
        """End the board's current period now, as its boundary would (test keys only): pay its rank
        rewards, promote and relegate, fire ``leaderboard.period_finalized``. The next period runs from
        now to the next regular boundary. Answers ``rolled_over`` and the finalized period's
        ``period_id`` (read it with ``leaderboard(key, period=...)``); an all-time board or a period
        with no entries answers ``rolled_over=False`` and changes nothing. Raises
        :class:`~livecore_client.errors.LeaderboardNotFoundError` for an unknown board and
        :class:`~livecore_client.errors.PermissionDeniedError` for a live key.

        Not retried after a timeout or 5xx (it takes no idempotency key): a resend could end the next
        period too.
        """
        return Call(SERVER_ROLLOVER_NOW, m.RolloverResponse, path={"leaderboardKey": leaderboard_key})

    # --- Grants -----------------------------------------------------------------------------------

    def _create_grant(
        self,
        external_id: str,
        entries: Sequence[RewardEntry],
        *,
        kind: GrantKind | str = GrantKind.REWARD,
        expires_at: datetime | None = None,
        source_kind: GrantSourceKind = GrantSourceKind.API,
        source_ref_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.GrantResponse]:
        """Create a pending grant of ``entries`` for the player (created on first contact).

        Derive ``idempotency_key`` from your own reward id (``f"season-reward:{player}:{season}"``): a
        repeated create with the same key and body answers the original grant instead of a second one.
        Without one, a random key is made once per call and reused by its retries. The player receives
        the grant through ``pending_grants``/``claim_grant``, or your backend credits it and calls
        :meth:`ack_grant`.

        ``kind="crate"`` sends crates, which the player opens (``SdkClient.open_crate``): its entries are
        ``RewardEntry(type="crate", key=<a crate of the manifest>, amount=<how many>)``. An unknown crate
        raises :class:`~livecore_client.errors.ResourceNotFoundError`; mixing crate and reward entries, or
        more than 1,000 draws in all, :class:`~livecore_client.errors.InvalidRequestError`.
        """
        # The body field is required by the model, so the key is made here, once, before any retry.
        key = new_idempotency_key() if idempotency_key is None else idempotency_key
        return Call(
            SERVER_CREATE_GRANT,
            m.GrantResponse,
            path={"externalId": external_id},
            body=m.CreateGrantRequest(
                idempotency_key=key,
                entries=list(entries),
                kind=GrantKind(kind),
                expires_at=expires_at,
                source_kind=source_kind,
                source_ref_id=source_ref_id,
                metadata=None if metadata is None else dict(metadata),
            ),
            idempotency_key=key,
        )

    def _ack_grant(
        self, external_id: str, grant_id: str, *, idempotency_key: str | None = None
    ) -> Call[m.GrantResponse]:
        """Mark a grant claimed by your backend (``acked_by="server_api"``) after crediting it yourself.

        Idempotent: acking a grant that is already claimed answers it as it is.
        """
        return Call(
            SERVER_ACK_GRANT,
            m.GrantResponse,
            path={"externalId": external_id, "grantId": grant_id},
            idempotency_key=idempotency_key,
        )

    # --- Inventory and wallet -----------------------------------------------------------------------

    def _grant_item(
        self,
        external_id: str,
        item_key: str,
        quantity: int,
        *,
        reason: str | None = None,
        source_ref_id: str | None = None,
        parameters: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.ItemAdjustResponse]:
        """Add ``quantity`` of item ``item_key``; ``parameters`` override the catalog's, key by key."""
        return Call(
            SERVER_INVENTORY_GRANT,
            m.ItemAdjustResponse,
            path={"externalId": external_id, "itemKey": item_key},
            body=m.AdjustItemRequest(
                quantity=quantity,
                reason=reason,
                source_ref_id=source_ref_id,
                parameters=None if parameters is None else dict(parameters),
            ),
            idempotency_key=idempotency_key,
        )

    def _revoke_item(
        self,
        external_id: str,
        item_key: str,
        quantity: int,
        *,
        reason: str | None = None,
        source_ref_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.ItemAdjustResponse]:
        """Remove ``quantity`` of item ``item_key``; raises
        :class:`~livecore_client.errors.InsufficientQuantityError` when the player holds fewer."""
        return Call(
            SERVER_INVENTORY_REVOKE,
            m.ItemAdjustResponse,
            path={"externalId": external_id, "itemKey": item_key},
            body=m.AdjustItemRequest(quantity=quantity, reason=reason, source_ref_id=source_ref_id),
            idempotency_key=idempotency_key,
        )

    def _credit_wallet(
        self,
        external_id: str,
        economy_key: str,
        amount: int,
        *,
        reason: str | None = None,
        source_ref_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.WalletAdjustResponse]:
        """Mint ``amount`` of currency ``economy_key`` (only the server API can credit)."""
        return Call(
            SERVER_WALLET_CREDIT,
            m.WalletAdjustResponse,
            path={"externalId": external_id, "economyKey": economy_key},
            body=m.AdjustWalletRequest(amount=amount, reason=reason, source_ref_id=source_ref_id),
            idempotency_key=idempotency_key,
        )

    def _debit_wallet(
        self,
        external_id: str,
        economy_key: str,
        amount: int,
        *,
        reason: str | None = None,
        source_ref_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.WalletAdjustResponse]:
        """Take ``amount`` of currency ``economy_key``; raises
        :class:`~livecore_client.errors.InsufficientBalanceError` when the balance is lower."""
        return Call(
            SERVER_WALLET_DEBIT,
            m.WalletAdjustResponse,
            path={"externalId": external_id, "economyKey": economy_key},
            body=m.AdjustWalletRequest(amount=amount, reason=reason, source_ref_id=source_ref_id),
            idempotency_key=idempotency_key,
        )

    # --- Friends (read-only) -------------------------------------------------------------------------

    def _friends(self, external_id: str) -> Call[m.FriendsResponse]:
        """A player's friends with presence (``online``, ``last_active_at``, ``status``)."""
        return Call(SERVER_FRIENDS, m.FriendsResponse, path={"externalId": external_id})

    def _friend_requests(self, external_id: str) -> Call[m.RequestsResponse]:
        """A player's pending friend requests, ``incoming`` and ``outgoing``."""
        return Call(SERVER_FRIEND_REQUESTS, m.RequestsResponse, path={"externalId": external_id})

    def _blocks(self, external_id: str) -> Call[m.BlocksResponse]:
        """The players a player blocked."""
        return Call(SERVER_BLOCKS, m.BlocksResponse, path={"externalId": external_id})

    # --- Gifts (read-only) ---------------------------------------------------------------------------

    def _player_gifts(
        self,
        external_id: str,
        *,
        direction: GiftHistoryDirection | str = GiftHistoryDirection.RECEIVED,
        limit: int | None = None,
    ) -> Call[m.ServerGiftsResponse]:
        """A player's gift history, newest first: the gifts they received (``direction="received"``,
        the default) or sent (``"sent"``), each with its counterparty's identity and the delivering
        grant's status (``grant_status``). ``limit`` defaults to 50 and must be from 1 to 200 (else
        :class:`~livecore_client.errors.InvalidRequestError`).

        Raises :class:`~livecore_client.errors.GiftingDisabledError` when the game has never enabled
        gifting and :class:`~livecore_client.errors.PlayerNotFoundError` for an unknown player;
        ``ValueError`` (before any request) for a ``direction`` other than the two.
        """
        query = m.ServerGiftsQuery(direction=GiftHistoryDirection(direction))
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(SERVER_GIFTS, m.ServerGiftsResponse, path={"externalId": external_id}, query=query)

    # --- Player tools ----------------------------------------------------------------------------------

    def _player_profile(self, external_id: str, *, limit: int | None = None) -> Call[m.PlayerProfileResponse]:
        """A player's profile: the record (with ``banned``, ``debug`` and ``lifecycle``), the most recent
        ``grants`` (and ``attempts`` and ``lobbies``), and the ``summary`` counters. ``limit`` caps each
        list; it defaults to 50 and must be from 1 to 200 (else
        :class:`~livecore_client.errors.InvalidRequestError`). Raises
        :class:`~livecore_client.errors.PlayerNotFoundError` for an unknown player.
        """
        query = m.ProfileQuery() if limit is None else m.ProfileQuery(limit=limit)
        return Call(PLAYER_PROFILE, m.PlayerProfileResponse, path={"externalId": external_id}, query=query)

    def _ban_player(
        self, external_id: str, *, reason: str, idempotency_key: str | None = None
    ) -> Call[m.BanPlayerResponse]:
        """Ban a player (soft): their player-scoped client writes and registration raise
        :class:`~livecore_client.errors.PlayerBannedError`; reads keep working. ``reason`` (1 to 500
        characters) is required.

        ``applied`` is true only on the transition (which fires ``player.banned``); banning a banned
        player refreshes the reason quietly and answers ``applied=False``. ``ban`` is the state after.
        """
        return Call(
            PLAYER_BAN,
            m.BanPlayerResponse,
            path={"externalId": external_id},
            body=m.BanRequest(reason=reason),
            idempotency_key=idempotency_key,
        )

    def _unban_player(
        self, external_id: str, *, idempotency_key: str | None = None
    ) -> Call[m.BanPlayerResponse]:
        """Lift a ban. ``applied`` is true only when the player was banned (which fires
        ``player.unbanned``); unbanning a player who is not banned answers ``applied=False``."""
        return Call(
            PLAYER_UNBAN,
            m.BanPlayerResponse,
            path={"externalId": external_id},
            idempotency_key=idempotency_key,
        )

    def _flag_debug(
        self, external_id: str, *, reason: str | None = None, idempotency_key: str | None = None
    ) -> Call[m.DebugPlayerResponse]:
        """Flag a debug (test or staff) account: it is left out of revenue reporting
        (:meth:`spend_players`, :meth:`revenue_summary`), retroactively, while its own
        :meth:`player_spend` keeps counting. ``reason`` is optional (at most 500 characters).
        Idempotent: ``applied`` is false when the player was already flagged."""
        return Call(
            PLAYER_DEBUG_SET,
            m.DebugPlayerResponse,
            path={"externalId": external_id},
            body=None if reason is None else m.DebugRequest(reason=reason),
            idempotency_key=idempotency_key,
        )

    def _unflag_debug(
        self, external_id: str, *, idempotency_key: str | None = None
    ) -> Call[m.DebugPlayerResponse]:
        """Remove the debug flag, retroactively: the player's purchases count in revenue reporting
        again. Idempotent: ``applied`` is false when the player was not flagged."""
        return Call(
            PLAYER_DEBUG_CLEAR,
            m.DebugPlayerResponse,
            path={"externalId": external_id},
            idempotency_key=idempotency_key,
        )

    def _merge_players(
        self, from_external_id: str, to_external_id: str, *, idempotency_key: str | None = None
    ) -> Call[m.MergePlayerResponse]:
        """Fold player ``from_external_id`` into ``to_external_id``: grants, gifts, purchases, friends
        and the wallet and inventory ledgers move to the target (balances of the same key are summed).
        The source's row stays under the placeholder ``anonymized_external_player_id`` and its
        original id becomes free. Fires ``player.merged``.

        ``status`` is ``"merged"``, or ``"no_op_already_merged"`` when the source was already merged
        into this same target (a safe replay). Raises
        :class:`~livecore_client.errors.PlayerNotFoundError` when either player never existed and
        :class:`~livecore_client.errors.InvalidMergeError` (422) for the same player twice, a source
        merged elsewhere or erased, or a banned, merged or erased target.
        """
        return Call(
            PLAYER_MERGE,
            m.MergePlayerResponse,
            path={"fromExternalId": from_external_id, "toExternalId": to_external_id},
            idempotency_key=idempotency_key,
        )

    def _delete_player(
        self,
        external_id: str,
        *,
        reason: ErasureReasonView | str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.DeletePlayerResponse]:
        """Erase a player: ``player.deleted`` fires with the original id, then the row is anonymized in
        place under ``anonymized_external_id``; financial records (purchases, ledgers) are kept.
        ``reason`` is ``"gdpr_erasure"`` (the service's default), ``"studio_request"`` or ``"test"``
        (or :class:`~livecore_client.models.ErasureReasonView`); ``ValueError`` (before any request)
        for another value.

        Idempotent: ``status`` is ``"deleted"``, or begins with ``no_op_`` for a player already erased
        or one that never existed (``anonymized_external_id`` may then be ``None``).
        """
        body = None if reason is None else m.DeletePlayerRequest(reason=ErasureReasonView(reason))
        return Call(
            PLAYER_DELETE,
            m.DeletePlayerResponse,
            path={"externalId": external_id},
            body=body,
            idempotency_key=idempotency_key,
        )

    def _export_player(self, external_id: str) -> Call[m.ExportPlayerResponse]:
        """Everything held about a player (a data-access request): the player record, grants, inventory
        and wallet holdings, purchases, attempts and lobby memberships, each list capped at 1,000 rows.
        Raises :class:`~livecore_client.errors.PlayerNotFoundError` for an unknown player."""
        return Call(PLAYER_EXPORT, m.ExportPlayerResponse, path={"externalId": external_id})

    # --- Migration ------------------------------------------------------------------------------------

    def _migrate_players(
        self,
        rows: Sequence[m.MigratePlayerRow | Mapping[str, Any]],
        *,
        emit_webhooks: bool = False,
        idempotency_key: str | None = None,
    ) -> Call[m.MigrateOutcome]:
        """Import up to 1,000 players from a legacy backend: ``MigratePlayerRow(external_player_id,
        idempotency_key, name=None, avatar=None, country=None, first_seen_at=None)``, or mappings of
        those names. Each row's own ``idempotency_key`` makes a re-run of the same rows ``replayed``
        rather than applied twice; give them stable values (``f"players:{legacy_id}"``).

        Bad rows are reported in ``failures`` (``index``, ``idempotency_key``, ``code``, ``message``)
        and the others apply. No webhooks fire unless ``emit_webhooks=True``.
        """
        return Call(
            MIGRATE_PLAYERS,
            m.MigrateOutcome,
            body=m.MigratePlayersRequest(rows=_rows(m.MigratePlayerRow, rows), emit_webhooks=emit_webhooks),
            idempotency_key=idempotency_key,
        )

    def _migrate_wallet(
        self,
        rows: Sequence[m.MigrateWalletRow | Mapping[str, Any]],
        *,
        emit_webhooks: bool = False,
        idempotency_key: str | None = None,
    ) -> Call[m.MigrateOutcome]:
        """Import up to 1,000 currency balances: ``MigrateWalletRow(external_player_id,
        idempotency_key, economy_key, amount)`` (or mappings of those names), each credited once per
        row key; players are created as needed. Outcome and webhooks as :meth:`migrate_players`."""
        return Call(
            MIGRATE_WALLET,
            m.MigrateOutcome,
            body=m.MigrateWalletRequest(rows=_rows(m.MigrateWalletRow, rows), emit_webhooks=emit_webhooks),
            idempotency_key=idempotency_key,
        )

    def _migrate_inventory(
        self,
        rows: Sequence[m.MigrateInventoryRow | Mapping[str, Any]],
        *,
        emit_webhooks: bool = False,
        idempotency_key: str | None = None,
    ) -> Call[m.MigrateOutcome]:
        """Import up to 1,000 item holdings: ``MigrateInventoryRow(external_player_id, idempotency_key,
        item_key, quantity, parameters=None)`` (or mappings of those names); ``parameters`` are the
        player's per-instance item attributes. Outcome and webhooks as :meth:`migrate_players`."""
        return Call(
            MIGRATE_INVENTORY,
            m.MigrateOutcome,
            body=m.MigrateInventoryRequest(
                rows=_rows(m.MigrateInventoryRow, rows), emit_webhooks=emit_webhooks
            ),
            idempotency_key=idempotency_key,
        )

    # --- Purchases and spend --------------------------------------------------------------------------

    def _track_purchase(
        self,
        external_id: str,
        *,
        transaction_id: str,
        store: str,
        product_id: str,
        product_type: str,
        amount_minor: int,
        currency: str,
        purchased_at: datetime | None = None,
        metadata: Mapping[str, Any] | None = None,
        validation_status: ValidationStatusView | str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.TrackPurchaseResponse]:
        """Record a store purchase: ``amount_minor`` charged in ``currency``'s minor unit (cents), which
        the service normalises to US cents with the game's exchange rate. ``validation_status`` is
        ``"unverified"`` by default, or ``"verified"`` when your backend checked the receipt;
        ``purchased_at`` defaults to now. Answers the stored ``purchase`` and the player's lifetime
        spend after it; fires ``purchase.tracked`` once per transaction.

        Idempotent on ``transaction_id``: tracking it again answers the stored purchase; the same id
        with a different purchase raises :class:`~livecore_client.errors.IdempotencyConflictError`.
        Raises :class:`~livecore_client.errors.UnknownCurrencyError` when no exchange rate is on file
        and :class:`~livecore_client.errors.PlayerNotFoundError` for an unknown player.
        """
        body = m.ServerTrackPurchaseRequest(
            transaction_id=transaction_id,
            store=store,
            product_id=product_id,
            product_type=product_type,
            amount_minor=amount_minor,
            currency=currency,
            purchased_at=purchased_at,
            metadata=None if metadata is None else dict(metadata),
        )
        if validation_status is not None:
            body = attrs.evolve(body, validation_status=ValidationStatusView(validation_status))
        return Call(
            SERVER_TRACK_PURCHASE,
            m.TrackPurchaseResponse,
            path={"externalId": external_id},
            body=body,
            idempotency_key=idempotency_key,
        )

    def _purchases(
        self, external_id: str, *, limit: int | None = None, cursor: str | None = None
    ) -> Call[m.PurchaseListResponse]:
        """One page of a player's purchases, newest first. ``limit`` defaults to 50 and must be from 1
        to 200; pass the page's ``next_cursor`` as ``cursor`` for the next page (``None`` on the last
        one). :meth:`iter_purchases` walks every page."""
        query = m.PurchaseListQuery(cursor=cursor)
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(SERVER_PURCHASES, m.PurchaseListResponse, path={"externalId": external_id}, query=query)

    def _player_spend(
        self, external_id: str, *, windows: Sequence[int] | None = None
    ) -> Call[m.PlayerSpendResponse]:
        """A player's spend in US cents: lifetime total, purchase count, first and last purchase, and a
        rolling total for each of ``windows`` (day counts, e.g. ``[7, 30]``; at most 8, each 1 to
        3,650). Debug accounts count here too (``debug`` says whether the player is one)."""
        days = None if windows is None else list(windows) or None
        return Call(
            PLAYER_SPEND,
            m.PlayerSpendResponse,
            path={"externalId": external_id},
            query=m.SpendQuery(windows=days),
        )

    def _spend_players(
        self,
        *,
        min_amount_minor: int = 0,
        window_days: int | None = None,
        limit: int | None = None,
        offset: int | None = None,
    ) -> Call[m.SpendQueryResponse]:
        """Players who spent at least ``min_amount_minor`` US cents (inclusive), highest spender first:
        over the last ``window_days`` days, or lifetime without it. Debug accounts are left out.
        ``limit`` defaults to 50 (1 to 200), ``offset`` to 0."""
        query = m.SpendPlayersQuery(min_amount_minor=min_amount_minor, window_days=window_days)
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        if offset is not None:
            query = attrs.evolve(query, offset=offset)
        return Call(SPEND_PLAYERS, m.SpendQueryResponse, query=query)

    def _revenue_summary(
        self, *, from_: date | datetime | str | None = None, to: date | datetime | str | None = None
    ) -> Call[m.RevenueSummaryResponse]:
        """Revenue in US cents from ``from_`` to ``to`` (both included): gross, purchase count, paying
        players, ARPPU (``None`` when nobody paid), and per-product and per-day breakdowns. Debug
        accounts are left out. Each bound is a ``datetime`` (timezone-aware), a ``date`` (``from_``
        starts that UTC day, ``to`` includes all of it) or the wire text; without them the last 30
        days up to now. ``ValueError`` (before any request) for a naive ``datetime``."""
        return Call(
            SPEND_SUMMARY,
            m.RevenueSummaryResponse,
            query=m.RevenueQuery(from_=_bound(from_, "from_"), to=_bound(to, "to")),
        )

    def _health(self) -> Call[m.HealthResponse]:
        """The public liveness probe (``/admin/v1/health``); sent without the API key."""
        return Call(HEALTH, m.HealthResponse)


_Row = TypeVar("_Row", m.MigratePlayerRow, m.MigrateWalletRow, m.MigrateInventoryRow)


def _rows(cls: type[_Row], rows: Sequence[_Row | Mapping[str, Any]]) -> list[_Row]:
    """The rows as ``cls``; a mapping is read as keyword arguments (``TypeError`` for unknown names)."""
    return [cls(**row) if isinstance(row, Mapping) else row for row in rows]


def _bound(value: date | datetime | str | None, name: str) -> str | None:
    """A revenue bound as the wire text: a timestamp, or a ``YYYY-MM-DD`` date."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise ValueError(f"{name} needs a timezone-aware datetime (or a date)")
        return format_ts(value)
    return value.isoformat()


class ServerClient(SyncClient, _ServerCalls):
    """Blocking client for ``/server/v1``. ``timeout`` applies only to the HTTP client it creates itself."""

    ping = sync_method(_ServerCalls._ping)
    set_identity = sync_method(_ServerCalls._set_identity)
    advance_clock = sync_method(_ServerCalls._advance_clock)
    end_event_now = sync_method(_ServerCalls._end_event_now)
    push_lobby = sync_method(_ServerCalls._push_lobby)
    lobby = sync_method(_ServerCalls._lobby)
    put_team_roster = sync_method(_ServerCalls._put_team_roster)
    team = sync_method(_ServerCalls._team)
    guilds = sync_method(_ServerCalls._guilds)
    guild = sync_method(_ServerCalls._guild)
    edit_guild = sync_method(_ServerCalls._edit_guild)
    player_guild = sync_method(_ServerCalls._player_guild)
    remove_guild_member = sync_method(_ServerCalls._remove_guild_member)
    hand_over_guild = sync_method(_ServerCalls._hand_over_guild)
    disband_guild = sync_method(_ServerCalls._disband_guild)
    submit_score = sync_method(_ServerCalls._submit_score)
    rollover_leaderboard_now = sync_method(_ServerCalls._rollover_leaderboard_now)
    create_grant = sync_method(_ServerCalls._create_grant)
    ack_grant = sync_method(_ServerCalls._ack_grant)
    grant_item = sync_method(_ServerCalls._grant_item)
    revoke_item = sync_method(_ServerCalls._revoke_item)
    credit_wallet = sync_method(_ServerCalls._credit_wallet)
    debit_wallet = sync_method(_ServerCalls._debit_wallet)
    friends = sync_method(_ServerCalls._friends)
    friend_requests = sync_method(_ServerCalls._friend_requests)
    blocks = sync_method(_ServerCalls._blocks)
    player_gifts = sync_method(_ServerCalls._player_gifts)
    player_profile = sync_method(_ServerCalls._player_profile)
    ban_player = sync_method(_ServerCalls._ban_player)
    unban_player = sync_method(_ServerCalls._unban_player)
    flag_debug = sync_method(_ServerCalls._flag_debug)
    unflag_debug = sync_method(_ServerCalls._unflag_debug)
    merge_players = sync_method(_ServerCalls._merge_players)
    delete_player = sync_method(_ServerCalls._delete_player)
    export_player = sync_method(_ServerCalls._export_player)
    migrate_players = sync_method(_ServerCalls._migrate_players)
    migrate_wallet = sync_method(_ServerCalls._migrate_wallet)
    migrate_inventory = sync_method(_ServerCalls._migrate_inventory)
    track_purchase = sync_method(_ServerCalls._track_purchase)
    purchases = sync_method(_ServerCalls._purchases)
    player_spend = sync_method(_ServerCalls._player_spend)
    spend_players = sync_method(_ServerCalls._spend_players)
    revenue_summary = sync_method(_ServerCalls._revenue_summary)
    health = sync_method(_ServerCalls._health)

    def iter_purchases(self, external_id: str, *, page_size: int | None = None) -> Iterator[m.PurchaseView]:
        """Every purchase of a player, newest first, fetching pages of ``page_size`` (default 50) as
        the iteration reaches them by following ``next_cursor``."""
        cursor: str | None = None
        while True:
            page = self.purchases(external_id, limit=page_size, cursor=cursor)
            yield from page.purchases
            # A cursor handed back unchanged would repeat this page for ever: stop instead.
            if page.next_cursor is None or page.next_cursor == cursor:
                return
            cursor = page.next_cursor


class AsyncServerClient(AsyncClient, _ServerCalls):
    """Asyncio client for ``/server/v1``; the same methods as :class:`ServerClient`, awaited."""

    ping = async_method(_ServerCalls._ping)
    set_identity = async_method(_ServerCalls._set_identity)
    advance_clock = async_method(_ServerCalls._advance_clock)
    end_event_now = async_method(_ServerCalls._end_event_now)
    push_lobby = async_method(_ServerCalls._push_lobby)
    lobby = async_method(_ServerCalls._lobby)
    put_team_roster = async_method(_ServerCalls._put_team_roster)
    team = async_method(_ServerCalls._team)
    guilds = async_method(_ServerCalls._guilds)
    guild = async_method(_ServerCalls._guild)
    edit_guild = async_method(_ServerCalls._edit_guild)
    player_guild = async_method(_ServerCalls._player_guild)
    remove_guild_member = async_method(_ServerCalls._remove_guild_member)
    hand_over_guild = async_method(_ServerCalls._hand_over_guild)
    disband_guild = async_method(_ServerCalls._disband_guild)
    submit_score = async_method(_ServerCalls._submit_score)
    rollover_leaderboard_now = async_method(_ServerCalls._rollover_leaderboard_now)
    create_grant = async_method(_ServerCalls._create_grant)
    ack_grant = async_method(_ServerCalls._ack_grant)
    grant_item = async_method(_ServerCalls._grant_item)
    revoke_item = async_method(_ServerCalls._revoke_item)
    credit_wallet = async_method(_ServerCalls._credit_wallet)
    debit_wallet = async_method(_ServerCalls._debit_wallet)
    friends = async_method(_ServerCalls._friends)
    friend_requests = async_method(_ServerCalls._friend_requests)
    blocks = async_method(_ServerCalls._blocks)
    player_gifts = async_method(_ServerCalls._player_gifts)
    player_profile = async_method(_ServerCalls._player_profile)
    ban_player = async_method(_ServerCalls._ban_player)
    unban_player = async_method(_ServerCalls._unban_player)
    flag_debug = async_method(_ServerCalls._flag_debug)
    unflag_debug = async_method(_ServerCalls._unflag_debug)
    merge_players = async_method(_ServerCalls._merge_players)
    delete_player = async_method(_ServerCalls._delete_player)
    export_player = async_method(_ServerCalls._export_player)
    migrate_players = async_method(_ServerCalls._migrate_players)
    migrate_wallet = async_method(_ServerCalls._migrate_wallet)
    migrate_inventory = async_method(_ServerCalls._migrate_inventory)
    track_purchase = async_method(_ServerCalls._track_purchase)
    purchases = async_method(_ServerCalls._purchases)
    player_spend = async_method(_ServerCalls._player_spend)
    spend_players = async_method(_ServerCalls._spend_players)
    revenue_summary = async_method(_ServerCalls._revenue_summary)
    health = async_method(_ServerCalls._health)

    async def iter_purchases(
        self, external_id: str, *, page_size: int | None = None
    ) -> AsyncIterator[m.PurchaseView]:
        """Every purchase of a player, newest first, fetching pages of ``page_size`` (default 50) as
        the iteration reaches them by following ``next_cursor`` (``async for``)."""
        cursor: str | None = None
        while True:
            page = await self.purchases(external_id, limit=page_size, cursor=cursor)
            for purchase in page.purchases:
                yield purchase
            # A cursor handed back unchanged would repeat this page for ever: stop instead.
            if page.next_cursor is None or page.next_cursor == cursor:
                return
            cursor = page.next_cursor
