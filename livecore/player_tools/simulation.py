"""The player tools' actions of a simulation: the studio's backend reading a player's profile, banning a
player and lifting a ban (``server.players``, which the client's resource shares with the players area's
own actions, :class:`livecore.players.simulation.ServerPlayers`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from livecore.memory.store import MemoryTransaction
from livecore.player_tools.api import BanPlayerResponse, BanRequest, PlayerProfileResponse, ProfileQuery
from livecore.player_tools.commands import moderation
from livecore.player_tools.views import player_profile
from livecore.players.commands import get_player
from livecore.players.simulation import ServerPlayers
from livecore.simulation.actions import body, external_id_of, query

if TYPE_CHECKING:
    from livecore.simulation.handle import Handle


class ServerPlayerTools(ServerPlayers):
    """``sim.server.players``: the players area's actions and the player tools' reads and moderation, as
    the client's ``server.players`` holds both (the player tools build on players)."""

    def profile(self, external_id: Handle | str, *, limit: int | None = None) -> PlayerProfileResponse:
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

    def ban(self, external_id: Handle | str, *, reason: str) -> BanPlayerResponse:
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

    def unban(self, external_id: Handle | str) -> BanPlayerResponse:
        """Lift a ban: ``applied`` only when the player was banned (``player.unbanned``)."""
        sim = self._sim

        def op(tx: MemoryTransaction) -> BanPlayerResponse:
            player = get_player(tx, sim.server_scope, external_id_of(external_id) or "")
            return BanPlayerResponse.of(moderation.unban_player(tx, sim.rt, sim.server_scope, player))

        return self._run(op)
