"""Play a game embedded: :class:`Simulation` (docs/simulation.md)."""

from livecore.simulation.player import SimPlayer
from livecore.simulation.world import Simulation

__all__ = ["SimPlayer", "Simulation"]
