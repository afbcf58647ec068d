"""The economy' error codes, each with its status and meaning (docs/reference/errors.md), and the
exception a refusal of each raises, in the core and in the typed clients (:mod:`livecore.exceptions`)."""

from __future__ import annotations

from livecore.errors import Code
from livecore.exceptions import ConflictError, NotFoundError

SYSTEM_RESOURCE_LOCKED = Code(
    "system_resource_locked", 409, "A manual change to the system items `sessions` or `login_streak`."
)
RESOURCE_NOT_FOUND = Code("resource_not_found", 404, "The key is not a resource of that type in the game.")
INSUFFICIENT_BALANCE = Code("insufficient_balance", 409, "The debit would take the balance below zero.")
INSUFFICIENT_QUANTITY = Code(
    "insufficient_quantity",
    409,
    (
        "The consume or revoke would take the quantity below zero, or an operator edits the "
        "attributes of an item the player holds none of."
    ),
)
STUDIO_MANAGED_ECONOMY = Code(
    "studio_managed_economy", 409, "A client debit or consume in a game whose studio manages the economy."
)


#: The codes the area adds to the table, in the reference's order (:attr:`livecore.area.Area.errors`).
CODES = (
    SYSTEM_RESOURCE_LOCKED,
    RESOURCE_NOT_FOUND,
    INSUFFICIENT_BALANCE,
    INSUFFICIENT_QUANTITY,
    STUDIO_MANAGED_ECONOMY,
)


__all__ = [
    "InsufficientBalanceError",
    "InsufficientQuantityError",
    "ResourceNotFoundError",
    "StudioManagedEconomyError",
    "SystemResourceLockedError",
]


class SystemResourceLockedError(ConflictError, code=SYSTEM_RESOURCE_LOCKED):
    """409: the system items ``sessions`` and ``login_streak`` cannot be changed by hand."""


class ResourceNotFoundError(NotFoundError, code=RESOURCE_NOT_FOUND):
    """404: the currency or item key is not a resource of this game (or not of the route's type)."""


class InsufficientBalanceError(ConflictError, code=INSUFFICIENT_BALANCE):
    """409: a wallet debit larger than the balance; nothing was taken (balances never go below zero)."""


class InsufficientQuantityError(ConflictError, code=INSUFFICIENT_QUANTITY):
    """409: a consume or revoke of more items than the player holds; nothing was taken."""


class StudioManagedEconomyError(ConflictError, code=STUDIO_MANAGED_ECONOMY):
    """409: the game's economy is studio-managed, so balances live in the studio's backend and a client
    cannot spend through the service."""
