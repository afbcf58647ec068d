"""Play a game embedded: :class:`Simulation` (docs/simulation.md).

The two names are read on first use: each area's actions (``livecore/<area>/simulation.py``) import
:mod:`livecore.simulation.calls`, and :class:`SimPlayer` and :class:`Simulation` import the areas'
actions, so loading them with the package would leave an area's module half made when it is imported first."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from livecore.simulation.player import SimPlayer, Simulation

__all__ = ["SimPlayer", "Simulation"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from livecore.simulation import player

        return getattr(player, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
