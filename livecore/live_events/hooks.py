"""The checks a studio's own area may add to this area's commands, before and after their writes: their
specifications (:mod:`livecore.hooks`). Every check also receives ``tx`` (the command's transaction),
``rt`` (clock, randomness) and ``scope`` (studio, game, environment)."""

from __future__ import annotations

from typing import Any

from livecore.hooks import hookspec


class LiveEventSpecs:
    """The live events area's commands a studio's area can check."""

    @hookspec
    def before_submit_progress(
        self, tx: Any, rt: Any, scope: Any, player: Any, attempt: Any, metrics: dict[str, Any]
    ) -> None:
        """An attempt's progress is submitted: ``attempt`` as it was, ``metrics`` as checked."""

    @hookspec
    def after_submit_progress(
        self, tx: Any, rt: Any, scope: Any, player: Any, attempt: Any, granted: Any
    ) -> None:
        """An attempt's progress was submitted: ``attempt`` as written (finished when the write completed
        it), ``granted`` the milestone grants it issued."""

    @hookspec
    def after_finish_attempt(self, tx: Any, rt: Any, scope: Any, player: Any, attempt: Any) -> None:
        """An attempt finished, whatever finished it (completed, force-completed, expired, its window or
        lobby closed): ``attempt`` as written."""
