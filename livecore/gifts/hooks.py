"""The checks a studio's own area may add to this area's commands: their specifications
(:mod:`livecore.hooks`). Every check also receives ``tx`` (the command's transaction), ``rt`` (clock,
randomness) and ``scope`` (studio, game, environment)."""

from __future__ import annotations

from typing import Any

from livecore.hooks import hookspec


class GiftSpecs:
    """The gifts area's commands a studio's area can check."""

    @hookspec
    def before_send_gift(
        self, tx: Any, rt: Any, scope: Any, sender: Any, recipient: Any, request: Any
    ) -> None:
        """A gift is sent: ``request`` is its :class:`livecore.gifts.commands.SendRequest` (resource,
        amount, message); not for a replay of an earlier send."""
