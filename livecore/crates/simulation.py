"""The crate action of a simulated player: ``sdk.grants.open_crate``, joined to the grants' actions as the
client joins the crates' call to its grants resource (:mod:`livecore_client.resources.crates`)."""

from __future__ import annotations

from livecore.crates import commands as crates
from livecore.crates.api import OpenCrateResponse
from livecore.grants import simulation as grants


class Grants(grants.Grants):
    def open_crate(self, grant_id: str) -> OpenCrateResponse:
        """Open a crate grant: its contents are drawn and granted."""
        sim = self._sim
        return self._write(
            lambda tx, me: OpenCrateResponse.of(crates.open_crate(tx, sim.rt, sim.scope, me, grant_id))
        )
