"""The friends and presence actions of a simulated player (``sdk.friends``, ``sdk.presence``). Every
friends call makes the player's friend code first, as the server's routes do."""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from livecore.api.views import display_view
from livecore.friends import api, views
from livecore.friends import commands as cmd
from livecore.friends.settings import PRESENCE_SETTINGS
from livecore.friends.views import ViewsTx
from livecore.players import commands as players_cmd
from livecore.players.commands import get_player, load_game
from livecore.players.rules import Player
from livecore.simulation.actions import Actions, body, external_id_of, query

if TYPE_CHECKING:
    from livecore.simulation.handle import Handle

T = TypeVar("T")


class Friends(Actions):
    def _as_friend(self, op: Callable[[ViewsTx, Player], T], *, write: bool) -> T:
        rt = self._sim.rt

        def with_code(tx: ViewsTx, me: Player) -> T:
            return op(tx, cmd.ensure_friend_code(tx, rt, me))

        return self._write(with_code) if write else self._read(with_code)

    def code(self, *, progression: builtins.list[str] | None = None) -> api.FriendCodeResponse:
        """The player's friend code and identity (``progression``: economy keys to show)."""
        scope = self._sim.scope
        q = query(api.ProgressionQuery, progression=progression)

        def op(tx: ViewsTx, me: Player) -> api.FriendCodeResponse:
            assert me.friend_code is not None
            prog = views.progression_for(tx, load_game(tx, scope), q.progression, [me])
            return api.FriendCodeResponse(
                friend_code=me.friend_code,
                display_identity=display_view(me),
                progression=prog[me.id] if prog else None,
            )

        return self._as_friend(op, write=False)

    def send_request(
        self, *, external_player_id: Handle | str | None = None, friend_code: str | None = None
    ) -> api.SendRequestResponse:
        """Ask a player to be friends, by external id or friend code; a request the other already sent is
        accepted instead (``status`` ``accepted``)."""
        sim = self._sim
        target_of = body(
            api.FriendTarget, external_player_id=external_id_of(external_player_id), friend_code=friend_code
        )

        def op(tx: ViewsTx, me: Player) -> api.SendRequestResponse:
            target = cmd.resolve_target(tx, sim.scope, target_of.friend_code, target_of.external_player_id)
            game = load_game(tx, sim.scope)
            added = cmd.add(tx, sim.rt, sim.scope, game, me, target)
            if added.accepted:
                friend = tx.players.by_id(target.id)
                assert friend is not None
                row = views.new_friend_row(tx, game, me, friend, sim.clock.now(), views.stored_presence)
                return api.SendRequestResponse(status="accepted", friend=row)
            return api.SendRequestResponse(status="pending", request=views.sent_request_row(tx, added))

        return self._as_friend(op, write=True)

    def requests(self, *, progression: builtins.list[str] | None = None) -> api.RequestsResponse:
        """The player's pending requests, incoming and outgoing."""
        scope = self._sim.scope
        q = query(api.ProgressionQuery, progression=progression)
        return self._as_friend(
            lambda tx, me: views.requests_view(tx, load_game(tx, scope), me, q.progression), write=False
        )

    def accept_request(self, request_id: str) -> api.FriendResponse:
        """Accept a request sent to the player: they are friends."""
        sim = self._sim

        def op(tx: ViewsTx, me: Player) -> api.FriendResponse:
            game = load_game(tx, sim.scope)
            friend = cmd.accept(tx, sim.rt, sim.scope, game, me, request_id)
            row = views.new_friend_row(tx, game, me, friend, sim.clock.now(), views.stored_presence)
            return api.FriendResponse(friend=row)

        return self._as_friend(op, write=True)

    def decline_request(self, request_id: str) -> api.RequestDone:
        """Decline a request sent to the player."""
        scope = self._sim.scope

        def op(tx: ViewsTx, me: Player) -> api.RequestDone:
            return api.RequestDone(request_id=cmd.decline(tx, scope, me, request_id).id, status="declined")

        return self._as_friend(op, write=True)

    def cancel_request(self, request_id: str) -> api.RequestDone:
        """Withdraw a request the player sent."""
        scope = self._sim.scope

        def op(tx: ViewsTx, me: Player) -> api.RequestDone:
            return api.RequestDone(request_id=cmd.cancel(tx, scope, me, request_id).id, status="cancelled")

        return self._as_friend(op, write=True)

    def list(self, *, progression: builtins.list[str] | None = None) -> api.FriendsResponse:
        """The player's friends with their presence and the player's gift cooldowns."""
        sim = self._sim
        q = query(api.ProgressionQuery, progression=progression)
        return self._as_friend(
            lambda tx, me: views.friends_view(
                tx, load_game(tx, sim.scope), me, q.progression, sim.clock.now(), views.stored_presence
            ),
            write=False,
        )

    def remove(self, friend_external_id: Handle | str) -> api.RemovedResponse:
        """End a friendship."""
        sim = self._sim

        def op(tx: ViewsTx, me: Player) -> api.RemovedResponse:
            other = get_player(tx, sim.scope, external_id_of(friend_external_id) or "")
            cmd.remove(tx, sim.rt, sim.scope, me, other)
            return api.RemovedResponse(removed=True)

        return self._as_friend(op, write=True)

    def search(
        self, q: str, *, limit: int | None = None, progression: builtins.list[str] | None = None
    ) -> builtins.list[api.SearchHit]:
        """Players whose name matches ``q``, with the player's relationship to each."""
        sim = self._sim
        asked = query(api.SearchQuery, q=q, limit=limit, progression=progression)

        def op(tx: ViewsTx, me: Player) -> builtins.list[api.SearchHit]:
            found = cmd.search(tx, sim.scope, me, asked.q, asked.limit)
            prog = views.progression_for(
                tx, load_game(tx, sim.scope), asked.progression, [h.player for h in found]
            )
            return [
                api.SearchHit(
                    display_identity=display_view(h.player),
                    external_player_id=h.player.external_id,
                    relationship=api.RelationshipView(h.relation.value),
                    progression=prog.get(h.player.id) if prog is not None else None,
                )
                for h in found
            ]

        return self._as_friend(op, write=False)

    def suggestions(
        self, *, limit: int | None = None, progression: builtins.list[str] | None = None
    ) -> api.SuggestionsResponse:
        """Players the player may want to befriend: recently active ones it has no relationship with."""
        sim = self._sim
        q = query(api.SuggestionsQuery, limit=limit, progression=progression)

        def op(tx: ViewsTx, me: Player) -> api.SuggestionsResponse:
            chosen = cmd.suggestions(tx, sim.rt, sim.scope, me, q.limit)
            game = load_game(tx, sim.scope)
            prog = views.progression_for(tx, game, q.progression, chosen)
            now = sim.clock.now()
            return api.SuggestionsResponse(
                suggestions=[views.suggestion_row(game, p, prog, now, views.stored_presence) for p in chosen]
            )

        return self._as_friend(op, write=False)

    def block(
        self, *, external_player_id: Handle | str | None = None, friend_code: str | None = None
    ) -> api.BlockResponse:
        """Block a player: it can no longer befriend, gift or see the player."""
        sim = self._sim
        target_of = body(
            api.FriendTarget, external_player_id=external_id_of(external_player_id), friend_code=friend_code
        )

        def op(tx: ViewsTx, me: Player) -> api.BlockResponse:
            target = cmd.resolve_target(tx, sim.scope, target_of.friend_code, target_of.external_player_id)
            made = cmd.block(tx, sim.rt, sim.scope, me, target)
            return api.BlockResponse(block=views.block_row(target, made.created_at))

        return self._as_friend(op, write=True)

    def blocks(self) -> api.BlocksResponse:
        """The players the player blocked."""
        return self._as_friend(lambda tx, me: views.blocks_view(tx, me), write=False)

    def unblock(self, blocked_external_id: Handle | str) -> api.UnblockedResponse:
        """Lift a block."""
        scope = self._sim.scope

        def op(tx: ViewsTx, me: Player) -> api.UnblockedResponse:
            cmd.unblock(tx, me, get_player(tx, scope, external_id_of(blocked_external_id) or ""))
            return api.UnblockedResponse(unblocked=True)

        return self._as_friend(op, write=True)


class Presence(Actions):
    def heartbeat(self, status: str | None = None) -> api.PresenceResponse:
        """The player is online (``status``: free text its friends see)."""
        sim = self._sim
        asked = body(api.HeartbeatRequest, status=status)

        def op(tx: ViewsTx, me: Player) -> api.PresenceResponse:
            _, done = players_cmd.heartbeat(tx, sim.rt, me, asked.status)
            presence = done.presence
            ttl = load_game(tx, sim.scope).settings.of(PRESENCE_SETTINGS).ttl_seconds
            return api.PresenceResponse(
                online=presence.online(sim.clock.now(), ttl),
                last_active_at=presence.last_active_at,
                status=presence.status,
            )

        return self._write(op)
