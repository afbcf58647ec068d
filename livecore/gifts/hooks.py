"""The checks a studio's own area may add to this area's commands, before and after their writes: their
specifications (:mod:`livecore.hooks`). Every check also receives ``tx`` (the command's transaction),
``rt`` (clock, randomness) and ``scope`` (studio, game, environment)."""

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

    @hookspec
    def after_send_gift(self, tx: Any, rt: Any, scope: Any, sender: Any, recipient: Any, gift: Any) -> None:
        """A gift was sent: ``gift`` (:class:`livecore.gifts.rules.Gift`) as written, its grant issued; not
        for a replay of an earlier send."""

    @hookspec
    def after_claim_gift(self, tx: Any, rt: Any, scope: Any, recipient: Any, gift: Any) -> None:
        """A gift was claimed through the gifts' claim: ``gift`` as written, claimed, its grant credited."""
