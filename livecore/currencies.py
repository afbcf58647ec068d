"""Real money's currencies (ISO 4217): how many decimals each one's minor unit has, and an amount between
its major units, as a person writes it (``4.99`` US dollars), and its minor units (499 cents). The
purchases area tracks amounts in minor units (docs/reference/economy.md#purchases); a simulated offer
priced in real money is written in major units (docs/simulation.md#offers). Shared: no area's."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from livecore.section import is_number

#: A currency code: 3 upper-case letters (ISO 4217).
CODE = re.compile(r"[A-Z]{3}")

#: ISO 4217 minor-unit exponents that are not 2.
EXPONENTS: dict[str, int] = {
    **dict.fromkeys(("BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX"), 0),
    **dict.fromkeys(("UYI", "VND", "VUV", "XAF", "XOF", "XPF"), 0),
    **dict.fromkeys(("BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"), 3),
}


def exponent(currency: str) -> int:
    """The decimals of ``currency``'s minor unit: 2 (cents) unless :data:`EXPONENTS` says otherwise."""
    return EXPONENTS.get(currency, 2)


def minor_units(amount: Any, currency: str) -> int | None:
    """``amount`` of ``currency`` in major units (``4.99``) as its minor units (499), None where it is not
    a number or has more decimals than the minor unit (``4.999`` dollars)."""
    if not is_number(amount):
        return None
    try:
        scaled = Decimal(repr(amount)).scaleb(exponent(currency))
    except InvalidOperation:
        return None
    return int(scaled) if scaled.is_finite() and scaled == scaled.to_integral_value() else None


def major_units(minor: int, currency: str) -> str:
    """``minor`` units of ``currency`` in major units, as TOML and a person write them: ``4.99``, ``500``
    (yen have no minor unit)."""
    places = exponent(currency)
    return str(minor) if places == 0 else f"{Decimal(minor).scaleb(-places):.{places}f}"


def amount_rule(currency: str) -> str:
    """What an amount of ``currency`` in major units must be, as a refusal says it."""
    places = exponent(currency)
    if places == 0:
        return f"must be a whole amount of {currency}, 1 or more"
    return f"must be an amount of {currency} above 0, to {places} decimals at most"
