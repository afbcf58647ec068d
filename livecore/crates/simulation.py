"""The crate action of a simulated player: ``sdk.grants.open_crate``'s builder
(:mod:`livecore.crates.calls`) run in memory (:mod:`livecore.simulation.calls`), the crates' part of
``player.grants``, which the simulated player composes with the grants' actions
(:class:`livecore.simulation.player.SimPlayer`), as the client composes ``sdk.grants``."""

from __future__ import annotations

from livecore.crates.calls import CratesCalls
from livecore.simulation.calls import Actions, player_method


class CrateGrants(Actions, CratesCalls):
    """The crates' part of ``player.grants``: opening a crate grant."""

    open_crate = player_method(CratesCalls._open_crate)
