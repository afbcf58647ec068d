"""The checks a studio's own area may add to this area's commands, before and after their writes: their
specifications (:mod:`livecore.hooks`). Every check also receives ``tx`` (the command's transaction),
``rt`` (clock, randomness) and ``scope`` (studio, game, environment)."""

from __future__ import annotations

from typing import Any

from livecore.hooks import hookspec


class PlayerSpecs:
    """The players area's commands a studio's area can check."""

    @hookspec
    def before_register(self, tx: Any, rt: Any, scope: Any, external_id: str, existing: Any) -> None:
        """A player registers (or re-registers with ``force``): ``existing`` is its record, None for a
        new player."""

    @hookspec
    def after_register(self, tx: Any, rt: Any, scope: Any, player: Any, created: bool) -> None:
        """A player registered (or re-registered): ``player`` as written, ``created`` True for a new
        player."""
