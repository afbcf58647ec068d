"""The checks a studio's own area may add to this area's commands, before and after their writes: their
specifications (:mod:`livecore.hooks`). Every check also receives ``tx`` (the command's transaction),
``rt`` (clock, randomness) and ``scope`` (studio, game, environment)."""

from __future__ import annotations

from typing import Any

from livecore.hooks import hookspec


class CrateSpecs:
    """The crates area's commands a studio's area can check."""

    @hookspec
    def before_open_crate(self, tx: Any, rt: Any, scope: Any, player: Any, crate: Any) -> None:
        """A player opens a crate grant (``crate``, still pending)."""

    @hookspec
    def after_open_crate(self, tx: Any, rt: Any, scope: Any, player: Any, crate: Any, contents: Any) -> None:
        """A player opened a crate grant: ``crate`` (claimed) and ``contents`` (the grant drawn from it,
        claimed) as written."""
