"""The purchases' error codes, each with its status and meaning (docs/reference/errors.md), and the
exception a refusal of each raises, in the core and in the typed clients (:mod:`livecore.exceptions`)."""

from __future__ import annotations

from livecore.errors import Code
from livecore.exceptions import InvalidRequestError

UNKNOWN_CURRENCY = Code("unknown_currency", 400, "A purchase in a currency with no exchange rate on file.")


#: The codes the area adds to the table, in the reference's order (:attr:`livecore.area.Area.errors`).
CODES = (UNKNOWN_CURRENCY,)


__all__ = ["UnknownCurrencyError"]


class UnknownCurrencyError(InvalidRequestError, code=UNKNOWN_CURRENCY):
    """400: a purchase in a currency the game has no exchange rate for (USD is always known; rates are
    the manifest's ``[exchange_rates]``); ``details["currency"]`` names it. Nothing was recorded."""
