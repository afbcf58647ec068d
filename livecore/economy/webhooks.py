"""Economy webhooks: a platform-managed balance or item quantity changed (one per ledger entry)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

import attrs

from livecore.economy.rules import Holding, LedgerEntry, merged_parameters
from livecore.games import Resource, ResourceType
from livecore.players.rules import Player
from livecore.webhooks.payload import WebhookPayload


@attrs.frozen
class BalanceChange(WebhookPayload):
    """The fields shared by ``wallet.changed`` and ``inventory.changed``: the ledger entry that made
    the change. ``actor`` is who caused it, as in the ledger."""

    player_id: str
    external_player_id: str
    delta: int
    reason: str
    note: str | None
    source_ref_id: str | None
    entry_id: str
    actor: dict[str, Any]
    changed_at: datetime


@attrs.frozen
class WalletChanged(BalanceChange):
    """``wallet.changed``: a platform-managed currency balance changed."""

    KIND: ClassVar[str] = "wallet.changed"

    economy_key: str
    balance: int


@attrs.frozen
class InventoryChanged(BalanceChange):
    """``inventory.changed``: a platform-managed item quantity changed, or an operator edited the item's
    attributes (``delta`` 0, reason ``operator_edit``): the payload carries them."""

    KIND: ClassVar[str] = "inventory.changed"

    item_key: str
    quantity: int
    parameters: dict[str, Any]


def balance_changed(
    player: Player, resource: Resource, holding: Holding, entry: LedgerEntry
) -> WalletChanged | InventoryChanged:
    """The payload for ``entry``, which left ``holding`` of ``resource``."""
    common: dict[str, Any] = {
        "player_id": player.id,
        "external_player_id": player.external_id,
        "delta": entry.delta,
        "reason": entry.reason.value,
        "note": entry.note,
        "source_ref_id": entry.source_ref_id,
        "entry_id": entry.id,
        "actor": entry.actor,
        "changed_at": entry.created_at,
    }
    if resource.type is ResourceType.CURRENCY:
        return WalletChanged(**common, economy_key=resource.key, balance=holding.amount)
    return InventoryChanged(
        **common,
        item_key=resource.key,
        quantity=holding.amount,
        parameters=merged_parameters(resource, holding.parameters),
    )


#: The kinds this area sends, as its area declares them (:attr:`livecore.area.Area.webhooks`).
PAYLOADS: tuple[type[WebhookPayload], ...] = (
    WalletChanged,
    InventoryChanged,
)
