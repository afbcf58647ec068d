"""The gifts area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from livecore.area import Area
from livecore.commands import Runtime
from livecore.gifts import api, samples
from livecore.gifts.webhooks import GiftClaimed, GiftSent
from livecore.players.rules import Player
from livecore.scope import Scope
from livecore.store import Transaction


def _merge(tx: Transaction, rt: Runtime, scope: Scope, source: Player, target: Player) -> None:
    tx.gifts.reassign(source.id, target)


def _erase(tx: Transaction, rt: Runtime, scope: Scope, player: Player, kept: Player) -> None:
    """The messages go; the gifts name the anonymized row."""
    tx.gifts.clear_messages(player.id)
    tx.gifts.reassign(player.id, kept)


AREA = Area(
    name="gifts",
    summary="Gifting between friends: the send refusal order, inbox, claims, expiry.",
    page="gifts",
    routes=api.ROUTES,
    merge=_merge,
    erase=_erase,
    webhooks=(
        GiftSent,
        GiftClaimed,
    ),
    samples=samples.SAMPLES,
)
