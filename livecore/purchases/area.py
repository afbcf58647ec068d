"""The purchases area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from livecore.area import Area, ClientPart
from livecore.commands import Runtime
from livecore.limits import duration
from livecore.players.rules import Player
from livecore.purchases import api, samples, webhooks
from livecore.purchases import rules as purchases
from livecore.purchases.errors import CODES
from livecore.purchases.handlers import HANDLERS
from livecore.purchases.memory import MemoryPurchases, PurchaseTables
from livecore.purchases.rules import PURCHASE_ID_PREFIX
from livecore.purchases.store import HasPurchases
from livecore.scope import Scope


def _move_records(tx: HasPurchases, rt: Runtime, scope: Scope, player: Player, to: Player) -> None:
    """A merge or an erasure: the player's purchases become ``to``'s."""
    tx.purchases.reassign(player.id, to)


def _limits() -> Mapping[str, Sequence[tuple[str, str]]]:
    return {
        "economy": [
            ("Purchase `amountMinor`", purchases.AMOUNT_MINOR.describe()),
            (
                "Purchase `purchasedAt` ahead of service time",
                f"at most {duration(purchases.FUTURE_TOLERANCE)}",
            ),
            (
                "Spend windows per request",
                f"{purchases.WINDOWS.describe()}, {purchases.WINDOW_DAYS.describe()} days each",
            ),
            (
                "Purchase `transactionId`, `store`, `productId`, `productType`",
                purchases.STORE_TEXT.describe(),
            ),
        ],
    }


AREA = Area(
    name="purchases",
    summary="Purchases: tracked purchases, spend and revenue.",
    page="economy",
    builds_on=("players",),
    routes=api.ROUTES,
    handlers=HANDLERS,
    merge=_move_records,
    erase=_move_records,
    webhooks=webhooks.PAYLOADS,
    samples=samples.SAMPLES,
    errors=CODES,
    limits=_limits,
    id_prefixes=(PURCHASE_ID_PREFIX,),
    tables=PurchaseTables,
    ports={"purchases": MemoryPurchases},
    client=(
        ClientPart("sdk", "purchases", "livecore_client.resources.purchases", "Purchases"),
        ClientPart("server", "purchases", "livecore_client.resources.purchases", "ServerPurchases"),
    ),
)
