"""The grant actions of a simulation, each its client method's builder (:mod:`livecore.grants.calls`)
run in memory (:mod:`livecore.simulation.calls`): a player's (``ada.grants``, as ``sdk.grants`` without
the external id; opening a crate grant is the crates' action beside them,
:mod:`livecore.crates.simulation`) and the studio's (``sim.server.grants``)."""

from __future__ import annotations

from livecore.grants.api import GrantResponse
from livecore.grants.calls import GrantsCalls, ServerGrantsCalls
from livecore.grants.rules import GrantTrigger, kind_of
from livecore.simulation.calls import Actions, ServerActions, player_method, server_method


class Grants(Actions, GrantsCalls):
    """``player.grants``: the player's pending grants."""

    pending = player_method(GrantsCalls._pending)
    claim = player_method(GrantsCalls._claim)

    def claim_all(self) -> list[GrantResponse]:
        """Claim every pending grant of a kind that is claimed (crates stay to be opened)."""
        claimed = [g for g in self.pending().grants if GrantTrigger.CLAIM in kind_of(g.kind).triggers]
        return [self.claim(g.grant_id) for g in claimed]


class ServerGrants(ServerActions, ServerGrantsCalls):
    """``sim.server.grants``: the grants the studio's backend creates and acknowledges."""

    create = server_method(ServerGrantsCalls._create)
    ack = server_method(ServerGrantsCalls._ack)
