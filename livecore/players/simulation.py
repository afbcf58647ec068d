"""The player actions of a simulation: a player setting its own display identity (``sdk.players``; its
registration is the handle's making, :class:`~livecore.simulation.player.SimPlayer`) and the studio's
backend on players (``server.players``: an identity, a player's profile, a ban and its lifting, the player
tools' reads and moderation commands)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from livecore.api.views import display_view
from livecore.memory.store import MemoryTransaction
from livecore.player_tools.api import BanPlayerResponse, BanRequest, PlayerProfileResponse, ProfileQuery
from livecore.player_tools.commands import moderation
from livecore.player_tools.views import player_profile
from livecore.players import api
from livecore.players.commands import PlayersTx, get_player, set_identity
from livecore.players.rules import Player
from livecore.simulation.actions import Actions, ServerActions, body, external_id_of, query

if TYPE_CHECKING:
    from livecore.simulation.player import SimPlayer


class Players(Actions):
    """``player.players``: the player's own record."""

    def set_identity(self, *, name: str, avatar: str | None = None) -> api.IdentityResponse:
        """Set the player's display identity (its anonymized identity never changes)."""
        rt = self._sim.rt
        asked = body(api.SetIdentityRequest, name=name, avatar=avatar)

        def op(tx: PlayersTx, me: Player) -> api.IdentityResponse:
            changed = set_identity(tx, rt, me, name=asked.name, avatar=asked.avatar, by_player=True)
            return api.IdentityResponse(display_identity=display_view(changed))

        return self._write(op)


class ServerPlayers(ServerActions):
    """``sim.server.players``: the studio's backend on any player."""

    def set_identity(
        self, external_id: SimPlayer | str, *, name: str, avatar: str | None = None
    ) -> api.IdentityResponse:
        """Set a player's display identity (a banned player's too: it is not the player's write)."""
        sim = self._sim
        asked = body(api.SetIdentityRequest, name=name, avatar=avatar)

        def op(tx: MemoryTransaction) -> api.IdentityResponse:
            player = get_player(tx, sim.server_scope, external_id_of(external_id) or "")
            changed = set_identity(tx, sim.rt, player, name=asked.name, avatar=asked.avatar, by_player=False)
            return api.IdentityResponse(display_identity=display_view(changed))

        return self._run(op)

    def profile(self, external_id: SimPlayer | str, *, limit: int | None = None) -> PlayerProfileResponse:
        """A player's profile: its record (with its ``platform``, whether the game registers it, and its
        ``app_version``, as its client last reported them), its most recent attempts, grants and lobbies,
        at most ``limit`` each (1 to 200, default 50), and the summary counters. A merged or erased
        player is read by its placeholder id."""
        sim = self._sim
        asked = query(ProfileQuery, limit=limit)  # refused before the player is looked up, as on the server

        def op(tx: MemoryTransaction) -> PlayerProfileResponse:
            player = get_player(tx, sim.server_scope, external_id_of(external_id) or "", retired=True)
            return player_profile(tx, sim.server_scope, player, asked.limit, sim.clock.now())

        return self._run(op)

    def ban(self, external_id: SimPlayer | str, *, reason: str) -> BanPlayerResponse:
        """Ban a player (soft): its own writes are refused with
        :class:`~livecore.exceptions.PlayerBannedError`, its reads keep working. ``applied`` only on the
        transition (``player.banned``); banning a banned player refreshes the reason quietly."""
        sim = self._sim
        asked = body(BanRequest, reason=reason)

        def op(tx: MemoryTransaction) -> BanPlayerResponse:
            player = get_player(tx, sim.server_scope, external_id_of(external_id) or "")
            return BanPlayerResponse.of(
                moderation.ban_player(tx, sim.rt, sim.server_scope, player, asked.reason)
            )

        return self._run(op)

    def unban(self, external_id: SimPlayer | str) -> BanPlayerResponse:
        """Lift a ban: ``applied`` only when the player was banned (``player.unbanned``)."""
        sim = self._sim

        def op(tx: MemoryTransaction) -> BanPlayerResponse:
            player = get_player(tx, sim.server_scope, external_id_of(external_id) or "")
            return BanPlayerResponse.of(moderation.unban_player(tx, sim.rt, sim.server_scope, player))

        return self._run(op)
