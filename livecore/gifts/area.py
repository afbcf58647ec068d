"""The gifts area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta

from livecore.area import Area
from livecore.commands import Runtime
from livecore.errors import Code, ErrorCode
from livecore.games import GiftingSettings
from livecore.gifts import api, samples
from livecore.gifts import rules as gifts
from livecore.gifts.hooks import GiftSpecs
from livecore.gifts.manifest import GIFTING
from livecore.gifts.memory import GiftTables, MemoryGifts
from livecore.gifts.webhooks import GiftClaimed, GiftSent
from livecore.limits import duration
from livecore.players.rules import Player
from livecore.scope import Scope
from livecore.store import Transaction


def _merge(tx: Transaction, rt: Runtime, scope: Scope, source: Player, target: Player) -> None:
    tx.gifts.reassign(source.id, target)


def _erase(tx: Transaction, rt: Runtime, scope: Scope, player: Player, kept: Player) -> None:
    """The messages go; the gifts name the anonymized row."""
    tx.gifts.clear_messages(player.id)
    tx.gifts.reassign(player.id, kept)


_MEANINGS: Mapping[ErrorCode | Code, str] = {
    ErrorCode.GIFTING_DISABLED: "The game has gifting turned off (the server history: never turned on).",
    ErrorCode.NOT_FRIENDS: "The gift's target is not an accepted friend.",
    ErrorCode.GIFT_NOT_ALLOWED: "The resource is not giftable, or it costs the sender in a studio-managed "
    "game.",
    ErrorCode.GIFT_AMOUNT_INVALID: "The amount is below 1 or above the resource's cap per gift.",
    ErrorCode.GIFT_COOLDOWN: "Too soon to gift this friend again; `details.cooldownUntil` says when.",
    ErrorCode.GIFT_LIMIT_REACHED: "The sender reached the game's daily send limit; `details.resetsAt`.",
    ErrorCode.GIFT_INSUFFICIENT_BALANCE: "The gift costs the sender, who holds too little.",
    ErrorCode.GIFT_EXPIRED: "The gift was not claimed before it expired.",
    ErrorCode.GIFT_NOT_FOUND: "No such gift among those the caller received.",
    ErrorCode.GIFT_ALREADY_CLAIMED: "The gift (or the grant delivering it) was claimed already.",
}


def _limits() -> Mapping[str, Sequence[tuple[str, str]]]:
    return {
        "gifts": [
            (
                "Gift cooldown per sender and friend (default, per game)",
                duration(timedelta(seconds=GiftingSettings().cooldown_seconds)),
            ),
            ("Gift message", gifts.MESSAGE.describe()),
        ],
    }


AREA = Area(
    name="gifts",
    manifest=(GIFTING,),
    summary="Gifting between friends: the send refusal order, inbox, claims, expiry.",
    page="gifts",
    builds_on=("friends", "grants"),
    routes=api.ROUTES,
    record_ids={"giftId": ErrorCode.GIFT_NOT_FOUND},
    merge=_merge,
    erase=_erase,
    webhooks=(
        GiftSent,
        GiftClaimed,
    ),
    samples=samples.SAMPLES,
    error_meanings=_MEANINGS,
    limits=_limits,
    hookspecs=GiftSpecs,
    tables=GiftTables,
    ports={"gifts": MemoryGifts},
)
