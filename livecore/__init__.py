"""livecore: the pure rules of the live-ops service.

No I/O lives here: time comes in as a :class:`~livecore.clock.Clock`, randomness as a
:class:`~livecore.rand.RandomSource`, storage through the :class:`~livecore.store.Store` port.
:class:`Simulation` plays a game from its manifest embedded (docs/simulation.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from livecore.errors import Code, LivecoreError
from livecore.version import __version__

if TYPE_CHECKING:
    from livecore.simulation import Simulation

__all__ = ["Code", "LivecoreError", "Simulation", "__version__"]


def __getattr__(name: str) -> Any:
    # Loaded on first use: the simulation imports every area, which ``import livecore`` alone (the
    # server's and the client's first import) should not pay for.
    if name == "Simulation":
        from livecore.simulation import Simulation

        return Simulation
    raise AttributeError(f"module 'livecore' has no attribute {name!r}")
