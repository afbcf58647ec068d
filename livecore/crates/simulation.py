"""The crate action of a simulated player: ``sdk.grants.open_crate``'s builder
(:mod:`livecore.crates.calls`) run in memory (:mod:`livecore.simulation.calls`), joined to the grants'
actions as the client joins the crates' call to its grants resource
(:mod:`livecore_client.resources.crates`)."""

from __future__ import annotations

from livecore.crates.calls import CratesCalls
from livecore.grants import simulation as grants
from livecore.simulation.calls import player_method


class Grants(grants.Grants, CratesCalls):
    """``player.grants``: the player's pending grants, and opening a crate grant."""

    open_crate = player_method(CratesCalls._open_crate)
