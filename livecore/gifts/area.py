"""The gifts area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta

from livecore.api.route import REFUSALS, Refusals
from livecore.area import Area, ClientPart
from livecore.commands import Runtime
from livecore.enums import VALUES
from livecore.friends.views import row_part
from livecore.gifts import api, samples, webhooks
from livecore.gifts import rules as gifts
from livecore.gifts.commands import GIFT_COST, delivered, friend_row_cooldowns
from livecore.gifts.errors import CODES, GIFT_ALREADY_CLAIMED, GIFT_EXPIRED, GIFT_NOT_FOUND
from livecore.gifts.handlers import HANDLERS
from livecore.gifts.hooks import GiftSpecs
from livecore.gifts.manifest import GIFT_RESOURCE_FIELDS, GIFTING
from livecore.gifts.memory import GiftTables, MemoryGifts
from livecore.gifts.season import SEASON
from livecore.gifts.settings import GiftingSettings
from livecore.gifts.store import HasGifts
from livecore.grants.api import SDK_CLAIM_GRANT
from livecore.grants.commands import DELIVERIES, Delivers
from livecore.limits import duration
from livecore.players.rules import Player
from livecore.scope import Scope


def _merge(tx: HasGifts, rt: Runtime, scope: Scope, source: Player, target: Player) -> None:
    tx.gifts.reassign(source.id, target)


def _erase(tx: HasGifts, rt: Runtime, scope: Scope, player: Player, kept: Player) -> None:
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


AREA = Area(
    name="gifts",
    # A gift's grant delivers the gift (a claim of it runs the gift's claim rule), a friend row shows when
    # its friend may be gifted again, and a gift costs the sender for a reason of its own.
    contributes=(
        DELIVERIES(Delivers(gifts.GIFT_SOURCE_KIND, delivered)),
        REFUSALS(Refusals((SDK_CLAIM_GRANT,), (GIFT_ALREADY_CLAIMED, GIFT_EXPIRED))),
        *row_part(api.GIFT_ROW, friend_row_cooldowns),
        VALUES(GIFT_COST),
    ),
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
    client=(
        ClientPart("sdk", "gifts", "livecore_client.resources.gifts", "Gifts"),
        ClientPart("server", "gifts", "livecore_client.resources.gifts", "ServerGifts", simulated=False),
    ),
)
