"""The checks a studio's own area may add to this area's commands, after their writes: their
specifications (:mod:`livecore.hooks`). Every check also receives ``tx`` (the command's transaction),
``rt`` (clock, randomness) and ``scope`` (studio, game, environment)."""

from __future__ import annotations

from typing import Any

from livecore.hooks import hookspec


class GrantSpecs:
    """The grants area's commands a studio's area can check."""

    @hookspec
    def after_claim_grant(self, tx: Any, rt: Any, scope: Any, player: Any, grant: Any) -> None:
        """A player claimed one of its grants through the grants' claim (a gift's grant too): ``grant`` as
        written, claimed, its entries credited."""
