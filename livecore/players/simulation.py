"""The player actions of a simulation: a player setting its own display identity (``sdk.players``; its
registration is the handle's making, :class:`~livecore.simulation.player.SimPlayer`) and the studio's
backend setting a player's identity (``server.players``, which the player tools extend with their own
actions in :mod:`livecore.player_tools.simulation`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from livecore.api.views import display_view
from livecore.memory.store import MemoryTransaction
from livecore.players import api
from livecore.players.commands import PlayersTx, get_player, set_identity
from livecore.players.rules import Player
from livecore.simulation.actions import Actions, ServerActions, body, external_id_of

if TYPE_CHECKING:
    from livecore.simulation.handle import Handle


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
        self, external_id: Handle | str, *, name: str, avatar: str | None = None
    ) -> api.IdentityResponse:
        """Set a player's display identity (a banned player's too: it is not the player's write)."""
        sim = self._sim
        asked = body(api.SetIdentityRequest, name=name, avatar=avatar)

        def op(tx: MemoryTransaction) -> api.IdentityResponse:
            player = get_player(tx, sim.server_scope, external_id_of(external_id) or "")
            changed = set_identity(tx, sim.rt, player, name=asked.name, avatar=asked.avatar, by_player=False)
            return api.IdentityResponse(display_identity=display_view(changed))

        return self._run(op)
