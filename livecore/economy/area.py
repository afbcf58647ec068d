"""The economy area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from livecore import limits
from livecore.area import Area, ClientPart
from livecore.commands import Runtime
from livecore.economy import admin, api, samples, webhooks
from livecore.economy.errors import CODES
from livecore.economy.handlers import HANDLERS
from livecore.economy.manifest import RESOURCES
from livecore.economy.memory import EconomyTables, MemoryLedger
from livecore.economy.rules import LEDGER_ENTRY_ID_PREFIX, fold_holdings
from livecore.economy.season import SEASON
from livecore.economy.store import HasLedger
from livecore.players.rules import Player
from livecore.scope import Scope


def _merge(tx: HasLedger, rt: Runtime, scope: Scope, source: Player, target: Player) -> None:
    """The source's holdings add to the target's."""
    held = fold_holdings(tx.ledger.holdings(source.id), tx.ledger.holdings(target.id))
    tx.ledger.move(source.id, target.id, held)


def _limits() -> Mapping[str, Sequence[tuple[str, str]]]:
    return {
        "economy": [
            ("Amount or quantity of one change", limits.AMOUNT.describe()),
        ],
        "conventions": [
            (
                "Amounts in reward, grant, gift and donation entries (every route and the manifest)",
                limits.AMOUNT.describe(),
            ),
        ],
    }


AREA = Area(
    name="economy",
    manifest=(RESOURCES,),
    summary="The economy: wallets and inventories, the ledger that moves them.",
    page="economy",
    builds_on=("players",),
    routes=(*api.ROUTES, *admin.ROUTES),
    handlers=HANDLERS,
    merge=_merge,
    webhooks=webhooks.PAYLOADS,
    samples=samples.SAMPLES,
    errors=CODES,
    limits=_limits,
    id_prefixes=(LEDGER_ENTRY_ID_PREFIX,),
    tables=EconomyTables,
    ports={"ledger": MemoryLedger},
    season=SEASON,
    client=(
        ClientPart("sdk", "wallet", "livecore_client.resources.economy", "Wallet"),
        ClientPart("sdk", "inventory", "livecore_client.resources.economy", "Inventory"),
        ClientPart("server", "wallet", "livecore_client.resources.economy", "ServerWallet"),
        ClientPart(
            "server", "inventory", "livecore_client.resources.economy", "ServerInventory", simulated=False
        ),
    ),
)
