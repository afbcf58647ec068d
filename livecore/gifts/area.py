"""The gifts area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta

from livecore.api.route import add_refusals
from livecore.area import Area
from livecore.commands import Runtime
from livecore.friends.views import add_row_fields
from livecore.gifts import api, samples, webhooks
from livecore.gifts import rules as gifts
from livecore.gifts.commands import delivered, friend_row_cooldowns
from livecore.gifts.errors import CODES, GIFT_ALREADY_CLAIMED, GIFT_EXPIRED, GIFT_NOT_FOUND
from livecore.gifts.handlers import HANDLERS
from livecore.gifts.hooks import GiftSpecs
from livecore.gifts.manifest import GIFT_RESOURCE_FIELDS, GIFTING
from livecore.gifts.memory import GiftTables, MemoryGifts
from livecore.gifts.season import SEASON
from livecore.gifts.settings import GiftingSettings
from livecore.grants.api import SDK_CLAIM_GRANT
from livecore.grants.commands import register_delivery
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


# A gift's grant delivers the gift (a claim of it runs the gift's claim rule), and a friend row shows when
# its friend may be gifted again.
register_delivery(gifts.GIFT_SOURCE_KIND, delivered)
add_refusals((SDK_CLAIM_GRANT,), (GIFT_ALREADY_CLAIMED, GIFT_EXPIRED))
add_row_fields(api.GIFT_ROW, friend_row_cooldowns)

AREA = Area(
    name="gifts",
    manifest=(GIFTING, GIFT_RESOURCE_FIELDS),
    summary="Gifting between friends: the send refusal order, inbox, claims, expiry.",
    page="gifts",
    builds_on=("friends", "grants"),
    routes=api.ROUTES,
    handlers=HANDLERS,
    record_ids={"giftId": GIFT_NOT_FOUND},
    merge=_merge,
    erase=_erase,
    webhooks=webhooks.PAYLOADS,
    samples=samples.SAMPLES,
    errors=CODES,
    limits=_limits,
    hookspecs=GiftSpecs,
    tables=GiftTables,
    ports={"gifts": MemoryGifts},
    season=SEASON,
)
