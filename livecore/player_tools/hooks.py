"""The checks a studio's own area may add to this area's commands: their specifications
(:mod:`livecore.hooks`). Every check also receives ``tx`` (the command's transaction), ``rt`` (clock,
randomness) and ``scope`` (studio, game, environment)."""

from __future__ import annotations

from typing import Any

from livecore.hooks import hookspec


class PlayerToolSpecs:
    """What a studio's area does when a player is merged or erased: it moves its own records."""

    @hookspec
    def on_merge(self, tx: Any, rt: Any, scope: Any, source: Any, target: Any) -> None:
        """A player merges into another: the area moves its records of ``source`` to ``target``, after
        the built-in areas moved theirs. A refusal here refuses the merge."""

    @hookspec
    def on_erase(self, tx: Any, rt: Any, scope: Any, player: Any, kept: Any) -> None:
        """A player is erased: the area moves its records to the anonymized row ``kept`` (or deletes
        them), after the built-in areas. A refusal here refuses the erasure."""
