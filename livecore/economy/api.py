"""Economy: wallets and inventories, read and spent by the client, credited and debited by the server."""

from __future__ import annotations

from typing import Any

import attrs

from livecore.api.route import Auth, Idempotency, Route, Surface
from livecore.economy.errors import (
    INSUFFICIENT_BALANCE,
    INSUFFICIENT_QUANTITY,
    RESOURCE_NOT_FOUND,
    STUDIO_MANAGED_ECONOMY,
    SYSTEM_RESOURCE_LOCKED,
)
from livecore.errors import Code
from livecore.idempotency import KEY
from livecore.limits import AMOUNT, FREE_FORM, FREE_TEXT, limited
from livecore.players.errors import PLAYER_NOT_FOUND, PLAYER_SECRET_INVALID
from livecore.players.routes import PLAYER_WRITE_ERRORS


@attrs.frozen
class CurrencyBalance:
    key: str
    balance: int


@attrs.frozen
class WalletResponse:
    currencies: list[CurrencyBalance]


@attrs.frozen
class ItemHolding:
    key: str
    quantity: int
    parameters: dict[str, Any]
    # True for the read-only system progression items ``sessions`` and ``login_streak``.
    system: bool = False


@attrs.frozen
class InventoryResponse:
    items: list[ItemHolding]


@attrs.frozen
class AdjustWalletRequest:
    """Wallet credit/debit (docs/reference/economy.md). ``reason`` is free text recorded on the ledger
    entry."""

    amount: int = attrs.field(metadata=limited(AMOUNT))
    reason: str | None = attrs.field(default=None, metadata=limited(FREE_TEXT))
    source_ref_id: str | None = attrs.field(default=None, metadata=limited(FREE_TEXT))
    idempotency_key: str | None = attrs.field(default=None, metadata=limited(KEY))


@attrs.frozen
class SpendItemRequest:
    """Inventory consume and revoke (docs/reference/economy.md)."""

    quantity: int = attrs.field(metadata=limited(AMOUNT))
    reason: str | None = attrs.field(default=None, metadata=limited(FREE_TEXT))
    source_ref_id: str | None = attrs.field(default=None, metadata=limited(FREE_TEXT))
    idempotency_key: str | None = attrs.field(default=None, metadata=limited(KEY))


@attrs.frozen
class AdjustItemRequest:
    """Inventory grant (docs/reference/economy.md), which may set the player's item ``parameters``."""

    quantity: int = attrs.field(metadata=limited(AMOUNT))
    reason: str | None = attrs.field(default=None, metadata=limited(FREE_TEXT))
    source_ref_id: str | None = attrs.field(default=None, metadata=limited(FREE_TEXT))
    idempotency_key: str | None = attrs.field(default=None, metadata=limited(KEY))
    parameters: dict[str, Any] | None = attrs.field(default=None, metadata=limited(FREE_FORM))


@attrs.frozen
class WalletAdjustResponse:
    key: str
    balance: int
    delta: int
    entry_id: str


@attrs.frozen
class ItemAdjustResponse:
    key: str
    quantity: int
    delta: int
    parameters: dict[str, Any]
    entry_id: str


_SPEND_ERRORS = (
    *PLAYER_WRITE_ERRORS,
    RESOURCE_NOT_FOUND,
    SYSTEM_RESOURCE_LOCKED,
    STUDIO_MANAGED_ECONOMY,
)


SDK_WALLET = Route(
    name="wallet.get",
    surface=Surface.SDK,
    method="GET",
    path="/players/{externalId}/wallet",
    summary="The player's currency balances (every declared currency; 0 when never earned).",
    auth=Auth.PLAYER,
    response=WalletResponse,
    errors=(PLAYER_SECRET_INVALID, PLAYER_NOT_FOUND),
)


SDK_WALLET_DEBIT = Route(
    name="wallet.debit",
    surface=Surface.SDK,
    method="POST",
    path="/players/{externalId}/wallet/{economyKey}/debit",
    summary="Spend currency (platform-managed games); never below zero.",
    auth=Auth.PLAYER,
    request=AdjustWalletRequest,
    response=WalletAdjustResponse,
    idempotency=Idempotency.OPTIONAL,
    body_idempotency_field=True,
    errors=(*_SPEND_ERRORS, INSUFFICIENT_BALANCE),
)


SDK_INVENTORY = Route(
    name="inventory.get",
    surface=Surface.SDK,
    method="GET",
    path="/players/{externalId}/inventory",
    summary="The player's items with their parameters, and the system items sessions and login_streak.",
    auth=Auth.PLAYER,
    response=InventoryResponse,
    errors=(PLAYER_SECRET_INVALID, PLAYER_NOT_FOUND),
)


SDK_INVENTORY_CONSUME = Route(
    name="inventory.consume",
    surface=Surface.SDK,
    method="POST",
    path="/players/{externalId}/inventory/{itemKey}/consume",
    summary="Use up items (platform-managed games); never below zero.",
    auth=Auth.PLAYER,
    request=SpendItemRequest,
    response=ItemAdjustResponse,
    idempotency=Idempotency.OPTIONAL,
    body_idempotency_field=True,
    errors=(*_SPEND_ERRORS, INSUFFICIENT_QUANTITY),
)


_ADJUST_ERRORS = (PLAYER_NOT_FOUND, RESOURCE_NOT_FOUND, SYSTEM_RESOURCE_LOCKED)


def _server_adjust(name: str, path: str, summary: str, request: type, response: type, *extra: Code) -> Route:
    return Route(
        name=name,
        surface=Surface.SERVER,
        method="POST",
        path=path,
        summary=summary,
        request=request,
        response=response,
        idempotency=Idempotency.REQUIRED,
        body_idempotency_field=True,
        errors=(*_ADJUST_ERRORS, *extra),
    )


SERVER_INVENTORY_GRANT = _server_adjust(
    "server.inventory.grant",
    "/players/{externalId}/inventory/{itemKey}/grant",
    "Add items (atomic increment); may set the player's item parameters.",
    AdjustItemRequest,
    ItemAdjustResponse,
)


SERVER_INVENTORY_REVOKE = _server_adjust(
    "server.inventory.revoke",
    "/players/{externalId}/inventory/{itemKey}/revoke",
    "Remove items (atomic decrement); 409 when the player holds fewer.",
    SpendItemRequest,
    ItemAdjustResponse,
    INSUFFICIENT_QUANTITY,
)


SERVER_WALLET_CREDIT = _server_adjust(
    "server.wallet.credit",
    "/players/{externalId}/wallet/{economyKey}/credit",
    "Mint currency; only the server API can credit.",
    AdjustWalletRequest,
    WalletAdjustResponse,
)


SERVER_WALLET_DEBIT = _server_adjust(
    "server.wallet.debit",
    "/players/{externalId}/wallet/{economyKey}/debit",
    "Take currency; 409 when the balance is insufficient.",
    AdjustWalletRequest,
    WalletAdjustResponse,
    INSUFFICIENT_BALANCE,
)

ROUTES = (
    SDK_WALLET,
    SDK_WALLET_DEBIT,
    SDK_INVENTORY,
    SDK_INVENTORY_CONSUME,
    SERVER_INVENTORY_GRANT,
    SERVER_INVENTORY_REVOKE,
    SERVER_WALLET_CREDIT,
    SERVER_WALLET_DEBIT,
)
