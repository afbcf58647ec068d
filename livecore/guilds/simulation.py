"""The guild actions of a simulation: a player's (``sdk.guilds``: found, join, leave, edit, answer join
requests, kick, promote, demote, hand on the leadership, ask for help and donate), the client key's reads
(``sdk.guilds.search`` and ``get``, which name no player: :meth:`Simulation.guilds
<livecore.simulation.player.Simulation.guilds>` and :meth:`Simulation.guild
<livecore.simulation.player.Simulation.guild>`, answered by :func:`search` and :func:`get` here) and the
studio's moderation (``server.guilds``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from livecore.api.convert import ABSENT, Absent
from livecore.games import ResourceType
from livecore.guilds import api, commands
from livecore.guilds.rules import DEFAULT_PAGE_LIMIT, JoinType
from livecore.players.rules import Player
from livecore.simulation.actions import Actions, ServerActions, body, external_id_of, patch, query

if TYPE_CHECKING:
    from livecore.simulation.handle import Handle, World


def search(
    sim: World, q: str | None = None, *, limit: int = DEFAULT_PAGE_LIMIT, offset: int = 0
) -> api.GuildSearchResponse:
    """Guilds not disbanded whose name holds ``q`` (every guild without it), newest first, a page of
    ``limit`` from ``offset``, without their members (``sdk.guilds.search``: the client key alone)."""
    asked = query(api.GuildSearchQuery, q=q, limit=limit, offset=offset)
    return sim.run(
        lambda tx: api.GuildSearchResponse(
            guilds=[
                api.GuildView.of(g)
                for g in commands.search(tx, sim.scope, asked.q, asked.limit, asked.offset)
            ]
        )
    )


def get(sim: World, guild_id: str) -> api.GuildResponse:
    """A guild with its members in joining order; a disbanded guild stays readable (``sdk.guilds.get``:
    the client key alone)."""
    return sim.run(lambda tx: api.GuildResponse.of(commands.read_guild(tx, sim.scope, guild_id)))


class Guilds(Actions):
    """``player.guilds``: the player's own guild. Each call is the client's method of that name, without
    the external id, the player secret or an idempotency key."""

    def create(
        self,
        name: str,
        join_type: JoinType | str,
        *,
        description: str | None = None,
        badge: str | None = None,
        country: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> api.GuildResponse:
        """Found a guild led by the player (``join_type`` ``open`` or ``request``); a platform-managed
        game debits its ``create_cost``."""
        sim = self._sim
        asked = body(
            api.CreateGuildRequest,
            name=name,
            join_type=join_type,
            description=description,
            badge=badge,
            country=country,
            metadata=metadata,
        )
        return self._write(
            lambda tx, me: api.GuildResponse.of(
                commands.create(tx, sim.rt, sim.scope, me, asked.profile()).read
            )
        )

    def mine(self) -> api.OwnGuildResponse:
        """The player's guild with its members and the player's ``role``; ``guild`` None when in none."""
        scope = self._sim.scope
        return self._read(lambda tx, me: api.OwnGuildResponse.of(commands.my_guild(tx, scope, me)))

    def join(self, guild_id: str, *, message: str | None = None) -> api.GuildJoined | api.GuildJoinPending:
        """Join an open guild at once (:class:`~livecore.guilds.api.GuildJoined`), or ask to join a
        request-only one with ``message`` (:class:`~livecore.guilds.api.GuildJoinPending`)."""
        sim = self._sim
        asked = body(api.JoinGuildRequest, message=message)

        def op(tx: commands.GuildsTx, me: Player) -> api.GuildJoined | api.GuildJoinPending:
            return api.join_answer(commands.join(tx, sim.rt, sim.scope, me, guild_id, asked.message))

        return self._write(op)

    def cancel_join_request(self, guild_id: str) -> api.CancelledResponse:
        """Withdraw the player's pending request to join the guild."""
        sim = self._sim

        def op(tx: commands.GuildsTx, me: Player) -> api.CancelledResponse:
            commands.cancel_join_request(tx, sim.rt, sim.scope, me, guild_id)
            return api.CancelledResponse(cancelled=True)

        return self._write(op)

    def leave(self) -> api.LeftResponse:
        """Leave the player's guild: a leader hands on, the last member's going disbands it."""
        sim = self._sim

        def op(tx: commands.GuildsTx, me: Player) -> api.LeftResponse:
            commands.leave(tx, sim.rt, sim.scope, me)
            return api.LeftResponse(left=True)

        return self._write(op)

    def edit(
        self,
        *,
        name: str | Absent = ABSENT,
        description: str | Absent | None = ABSENT,
        badge: str | Absent | None = ABSENT,
        country: str | Absent | None = ABSENT,
        join_type: JoinType | str | Absent = ABSENT,
        metadata: Mapping[str, Any] | Absent | None = ABSENT,
    ) -> api.GuildResponse:
        """Edit the guild's profile (its leader and co-leaders): only the fields given change; None clears
        ``description``, ``badge``, ``country`` or ``metadata``."""
        sim = self._sim
        asked = patch(
            api.EditGuildRequest,
            name=name,
            description=description,
            badge=badge,
            country=country,
            join_type=join_type,
            metadata=metadata,
        )
        return self._write(
            lambda tx, me: api.GuildResponse.of(
                commands.edit(tx, sim.rt, sim.scope, me, asked.profile()).read
            )
        )

    def join_requests(self) -> api.JoinRequestsResponse:
        """The pending requests to join the player's guild, oldest first (its leader and co-leaders)."""
        scope = self._sim.scope
        return self._read(
            lambda tx, me: api.JoinRequestsResponse(
                requests=[api.JoinRequestView.of(r) for r in commands.join_requests(tx, scope, me)]
            )
        )

    def accept_join_request(self, request_id: str) -> api.AcceptedResponse:
        """Accept a pending request to join the player's guild: the requester joins it."""
        sim = self._sim

        def op(tx: commands.GuildsTx, me: Player) -> api.AcceptedResponse:
            commands.answer_join_request(tx, sim.rt, sim.scope, me, request_id, accept=True)
            return api.AcceptedResponse(accepted=True)

        return self._write(op)

    def decline_join_request(self, request_id: str) -> api.DeclinedResponse:
        """Decline a pending request to join the player's guild."""
        sim = self._sim

        def op(tx: commands.GuildsTx, me: Player) -> api.DeclinedResponse:
            commands.answer_join_request(tx, sim.rt, sim.scope, me, request_id, accept=False)
            return api.DeclinedResponse(declined=True)

        return self._write(op)

    def kick(self, member_external_id: Handle | str) -> api.GuildResponse:
        """Kick a member (the leader kicks co-leaders and members, a co-leader members only)."""
        sim = self._sim
        member = external_id_of(member_external_id) or ""
        return self._write(
            lambda tx, me: api.GuildResponse.of(commands.kick(tx, sim.rt, sim.scope, me, member).read)
        )

    def promote(self, member_external_id: Handle | str) -> api.GuildResponse:
        """Promote a member to co-leader (the leader)."""
        sim = self._sim
        member = external_id_of(member_external_id) or ""
        return self._write(
            lambda tx, me: api.GuildResponse.of(commands.promote(tx, sim.rt, sim.scope, me, member).read)
        )

    def demote(self, member_external_id: Handle | str) -> api.GuildResponse:
        """Demote a co-leader to member (the leader)."""
        sim = self._sim
        member = external_id_of(member_external_id) or ""
        return self._write(
            lambda tx, me: api.GuildResponse.of(commands.demote(tx, sim.rt, sim.scope, me, member).read)
        )

    def transfer_leadership(self, member_external_id: Handle | str) -> api.GuildResponse:
        """Hand the leadership to another member (the leader); the old leader becomes co-leader."""
        sim = self._sim
        asked = body(api.TransferRequest, external_player_id=external_id_of(member_external_id))
        return self._write(
            lambda tx, me: api.GuildResponse.of(
                commands.transfer(tx, sim.rt, sim.scope, me, asked.external_player_id).read
            )
        )

    def ask_help(
        self, *, type: ResourceType | str, resource_key: str, amount: int
    ) -> api.HelpRequestResponse:
        """Ask the guild for ``amount`` of one of the game's ``help.resources``: open until filled,
        expired or its player leaves."""
        sim = self._sim
        asked = body(api.AskHelpRequest, type=type, resource_key=resource_key, amount=amount)

        def op(tx: commands.GuildsTx, me: Player) -> api.HelpRequestResponse:
            made = commands.ask_help(tx, sim.rt, sim.scope, me, asked.type, asked.resource_key, asked.amount)
            return api.HelpRequestResponse(help_request=api.HelpRequestView.of(made, sim.clock.now()))

        return self._write(op)

    def help_requests(self) -> api.HelpRequestsResponse:
        """The open help requests of the player's guild, newest first."""
        sim = self._sim

        def op(tx: commands.GuildsTx, me: Player) -> api.HelpRequestsResponse:
            found = commands.help_requests(tx, sim.rt, sim.scope, me)
            now = sim.clock.now()
            return api.HelpRequestsResponse(help_requests=[api.HelpRequestView.of(r, now) for r in found])

        return self._read(op)

    def donate_help(self, request_id: str, amount: int) -> api.DonationResponse:
        """Donate ``amount`` to another member's open help request: a platform-managed game debits the
        player; the requester gets a pending grant of it, the player one of the game's donor reward."""
        sim = self._sim
        asked = body(api.DonateRequest, amount=amount)
        return self._write(
            lambda tx, me: api.DonationResponse.of(
                commands.donate(tx, sim.rt, sim.scope, me, request_id, asked.amount), sim.clock.now()
            )
        )


class ServerGuilds(ServerActions):
    """``sim.server.guilds``: the studio's moderation, each change naming the server key as its actor."""

    def list(
        self,
        q: str | None = None,
        *,
        player: Handle | str | None = None,
        include_disbanded: bool = False,
        limit: int = DEFAULT_PAGE_LIMIT,
        offset: int = 0,
    ) -> api.GuildListResponse:
        """The game's guilds, newest first: those whose name holds ``q``, every guild ``player`` was ever
        in, disbanded ones only with ``include_disbanded``; ``next_offset`` None on the last page."""
        sim = self._sim
        asked = query(
            api.GuildListQuery,
            q=q,
            player=external_id_of(player),
            include_disbanded=include_disbanded,
            limit=limit,
            offset=offset,
        )
        return self._run(
            lambda tx: api.GuildListResponse.of(
                commands.admin_search(
                    tx,
                    sim.server_scope,
                    text=asked.q,
                    player_external_id=asked.player,
                    include_disbanded=asked.include_disbanded,
                    limit=asked.limit,
                    offset=asked.offset,
                )
            )
        )

    def get(self, guild_id: str) -> api.GuildDetailResponse:
        """A guild's detail: its members, pending join requests and every stint it had."""
        scope = self._sim.server_scope
        return self._run(lambda tx: api.GuildDetailResponse.of(commands.guild_detail(tx, scope, guild_id)))

    def edit(
        self,
        guild_id: str,
        *,
        name: str | Absent = ABSENT,
        description: str | Absent | None = ABSENT,
        badge: str | Absent | None = ABSENT,
        country: str | Absent | None = ABSENT,
        join_type: JoinType | str | Absent = ABSENT,
        metadata: Mapping[str, Any] | Absent | None = ABSENT,
    ) -> api.GuildDetailResponse:
        """Edit a guild's profile as the studio: as a member's edit, without the game's name filter."""
        sim = self._sim
        asked = patch(
            api.ServerEditGuildRequest,
            name=name,
            description=description,
            badge=badge,
            country=country,
            join_type=join_type,
            metadata=metadata,
        )
        return self._run(
            lambda tx: api.GuildDetailResponse.of(
                commands.admin_edit(tx, sim.rt, sim.server_scope, guild_id, asked.profile())
            )
        )

    def of_player(self, external_id: Handle | str) -> api.PlayerGuildResponse:
        """A player's current guild (None when in none) and every stint it had, newest first."""
        scope = self._sim.server_scope
        someone = external_id_of(external_id) or ""
        return self._run(lambda tx: api.PlayerGuildResponse.of(commands.player_guild(tx, scope, someone)))

    def remove_member(self, guild_id: str, member_external_id: Handle | str) -> api.GuildDetailResponse:
        """Remove a member (moderation: nothing stops it from joining again)."""
        sim = self._sim
        member = external_id_of(member_external_id) or ""
        return self._run(
            lambda tx: api.GuildDetailResponse.of(
                commands.remove_member(tx, sim.rt, sim.server_scope, guild_id, member)
            )
        )

    def hand_over(self, guild_id: str, external_player_id: Handle | str) -> api.GuildDetailResponse:
        """Make a member the leader; the old leader becomes co-leader."""
        sim = self._sim
        asked = body(api.ServerLeaderRequest, external_player_id=external_id_of(external_player_id))
        return self._run(
            lambda tx: api.GuildDetailResponse.of(
                commands.hand_over(tx, sim.rt, sim.server_scope, guild_id, asked.external_player_id)
            )
        )

    def disband(self, guild_id: str) -> api.GuildDetailResponse:
        """Disband a guild, irreversibly: every member leaves; it stays readable."""
        sim = self._sim
        return self._run(
            lambda tx: api.GuildDetailResponse.of(commands.disband(tx, sim.rt, sim.server_scope, guild_id))
        )
