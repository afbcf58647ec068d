"""The studio's offers in a simulated season (docs/simulation.md#offers): what its shop sells for a
currency of the game, or for real money, declared in the population's ``[studio.offers.<key>]``::

    [studio.offers.bronze-chest]
    price = { coins = 100 }                                # one currency of the game
    gives = [{ type = "crate", key = "bronze-chest", amount = 1 }]   # one grant's entries
    buy = 0.05                                             # a session's chance to buy it, at ``reference``
    reference = 100                                        # optional: the price ``buy`` is measured at

    [studio.offers.gem-pack]
    money = { USD = 4.99 }                                 # in place of ``price``: real money
    gives = [{ type = "currency", key = "gems", amount = 100 }]
    buy = 0.01

A sale for a currency of the game is made as a studio's backend makes it: a debit of the price with the
reason ``offer:<key>`` (the player's own in a platform-managed game, the backend's for it in a
studio-managed one), then a grant of what it gives, of the kind its entries are (a crate grant for
crates, a reward grant for currencies and items), whose ``source_ref_id`` is that reason too. The offer's
sink is then on the report by that reason, and what it gives is minted as the grant is claimed or the
crate opened. A sale for real money is made as a game makes one: the player's client tracks the store's
purchase (its ``productId`` the offer's key, a transaction id of its own), the studio's backend tracks
it verified, then grants what it gives as above; its revenue is then on the report.

A session visits the shop after its events: for each offer, in the file's order, one draw decides. The
chance to buy is ``buy``, times ``(reference / price) ** price_response`` (a cheaper offer sells more), times
``(balance / price) ** wealth_response`` (a player holding many prices' worth buys more), at most 1. A
player who would buy at ``buy`` times the price response but holds less than the price cannot: that is a
setback (:mod:`livecore.simulation.behaviour`). An offer for real money has no balance to answer to: its
chance is ``buy`` times the price response, and nobody is set back for want of money. A purchase is a
reward.

``reference`` left out is the offer's price; in a comparison of two populations it is the base
population's price of the same offer (in the same currency), so a price changed in one line is measured
against the base's. An offer for real money writes its ``money`` and its ``reference`` in the currency's
major units (``4.99`` dollars, ``500`` yen: :mod:`livecore.currencies`) and holds them in its minor units.
``price_response`` and ``wealth_response`` are segment fields (0 by default: the chance is ``buy``)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

import attrs

from livecore.currencies import CODE, amount_rule, major_units, minor_units
from livecore.economy.memory import EconomyTables
from livecore.economy.rules import NotedDebits, Reason
from livecore.errors import LivecoreError
from livecore.games import Economy, Game, GameSettings, ResourceType
from livecore.grants.api import RewardEntry
from livecore.grants.rules import GrantKind, kind_holding, validate_entries
from livecore.section import is_int
from livecore.simulation.fields import CHANCE, Problems, key, table, unknown, value, written
from livecore.simulation.part import OFFER, FitPeriod, Member, Play, Played, PopulationTable, Rate

#: How a session's chance to buy an offer follows its price: times ``(reference / price)`` to this power.
PRICE_RESPONSE = Rate("price_response", 0.0, bounds=(0.0, 10.0))
#: How it follows the player's balance: times ``(balance / price)`` to this power.
WEALTH_RESPONSE = Rate("wealth_response", 0.0, bounds=(0.0, 10.0))
#: The reason of an offer's debit, before its key: the report's sink of the offer.
REASON = OFFER
#: The setback of a player who wanted an offer and held less than its price.
UNAFFORDABLE = "offer_unaffordable"
_PRICE = (1, 10**12)
#: The store a sale for real money is tracked from, and its product type.
STORE = "simulated"
PRODUCT_TYPE = "consumable"


@attrs.frozen
class Offer:
    """``[studio.offers.<key>]``: its price (``price`` of ``currency``), what it gives (one grant's
    entries), a session's chance to buy it at ``reference`` (None: at its price). With ``money``, it is
    priced in real money: ``currency`` is an ISO 4217 code, ``price`` and ``reference`` its minor units."""

    key: str
    currency: str
    price: int
    gives: tuple[RewardEntry, ...]
    buy: float
    reference: int | None = None
    money: bool = False

    @property
    def reason(self) -> str:
        return f"{REASON}{self.key}"

    @property
    def shown_price(self) -> int | float:
        """Its price as the file writes it: a game currency's amount, or real money's major units."""
        return float(major_units(self.price, self.currency)) if self.money else self.price

    def chance(self, price_response: float) -> float:
        """The chance to want it, from its price: ``buy`` times the price response."""
        reference = self.price if self.reference is None else self.reference
        return min(1.0, self.buy * float((reference / self.price) ** price_response))


def _offer(name: str, raw: Any, path: str, problems: Problems) -> Offer | None:
    found = table(raw, path, problems)
    if found is None or not key(name, path, problems):
        return None
    unknown(found, {"price", "money", "gives", "buy", "reference"}, path, problems)
    ok = True
    for field in ("gives", "buy"):
        if field not in found:
            problems[f"{path}.{field}"] = "is required"
            ok = False
    priced = _priced(found, path, problems)
    gives = _gives(found.get("gives", []), f"{path}.gives", problems)
    ok &= gives is not None
    ok &= "buy" not in found or value(found["buy"], "number", CHANCE, f"{path}.buy", problems)
    reference = None
    if "reference" in found and priced is not None:
        money, currency, _ = priced
        reference = _amount(found["reference"], money, currency, f"{path}.reference", problems)
        ok &= reference is not None
    if not ok or priced is None or gives is None:
        return None
    money, currency, price = priced
    return Offer(
        key=name,
        currency=currency,
        price=price,
        gives=gives,
        buy=float(found["buy"]),
        reference=reference,
        money=money,
    )


def _priced(found: dict[str, Any], path: str, problems: Problems) -> tuple[bool, str, int] | None:
    """Whether the offer is priced in real money, its currency and its price (in minor units for real
    money): its ``price`` (one currency of the game) or its ``money`` (one ISO 4217 currency), not both."""
    if "price" in found and "money" in found:
        problems[f"{path}.money"] = "is in place of price: an offer is priced in a currency or in real money"
        return None
    money = "money" in found
    field = "money" if money else "price"
    if field not in found:
        problems[f"{path}.price"] = "is required (or money, for a price in real money)"
        return None
    priced = table(found[field], f"{path}.{field}", problems)
    if priced is None or len(priced) != 1:
        example = "{ USD = 4.99 }" if money else "{ coins = 100 }"
        problems.setdefault(f"{path}.{field}", f"must name one currency and its amount: {example}")
        return None
    [(currency, amount)] = priced.items()
    at = f"{path}.{field}.{currency}"
    if money and not CODE.fullmatch(currency):
        problems[at] = "must be a currency code of 3 upper-case letters (ISO 4217)"
        return None
    if not money and not key(currency, at, problems):
        return None
    price = _amount(amount, money, currency, at, problems)
    return None if price is None else (money, currency, price)


def _amount(found: Any, money: bool, currency: str, path: str, problems: Problems) -> int | None:
    """An amount of the offer's currency (a price, a reference): a game currency's whole amount, or real
    money's major units as its minor units."""
    if not money:
        return found if value(found, "int", _PRICE, path, problems) else None
    minor = minor_units(found, currency)
    if minor is None or not _PRICE[0] <= minor <= _PRICE[1]:
        problems[path] = amount_rule(currency)
        return None
    return minor


def _gives(raw: Any, path: str, problems: Problems) -> tuple[RewardEntry, ...] | None:
    if not isinstance(raw, list) or not raw:
        problems[path] = "must be a list of entries: [{ type, key, amount }]"
        return None
    out: list[RewardEntry] = []
    for i, entry in enumerate(raw):
        at = f"{path}[{i}]"
        found = table(entry, at, problems)
        if found is None:
            continue
        unknown(found, {"type", "key", "amount"}, at, problems)
        if not (isinstance(found.get("type"), str) and kind_holding(found["type"]) is not None):
            problems[f"{at}.type"] = "must be a resource type or a kind of grant entry (crate)"
        elif isinstance(found.get("key"), str) and key(found["key"], f"{at}.key", problems):
            if is_int(found.get("amount")) and found["amount"] >= 1:
                out.append(RewardEntry(type=found["type"], key=found["key"], amount=found["amount"]))
            else:
                problems[f"{at}.amount"] = "must be an integer of at least 1"
        else:
            problems.setdefault(f"{at}.key", "must be a key")
    return tuple(out) if len(out) == len(raw) else None


def _parse(raw: Any, problems: Problems) -> dict[str, Offer] | None:
    found = table(raw, "studio.offers", problems)
    if found is None:
        return None
    offers = {name: _offer(name, raw, f"studio.offers.{name}", problems) for name, raw in found.items()}
    return {name: o for name, o in offers.items() if o is not None} if all(offers.values()) else None


def grant_kind(offer: Offer) -> GrantKind | None:
    """The kind of the grant an offer's entries make, None when they mix kinds."""
    kinds = {kind_holding(str(entry.type)) for entry in offer.gives}
    return kinds.pop() if len(kinds) == 1 else None


def _check(offers: Mapping[str, Offer], settings: GameSettings, problems: Problems) -> None:
    game = Game(id="", studio_id="", key="", name="", settings=settings)
    for name, offer in offers.items():
        path = f"studio.offers.{name}"
        if offer.money:
            if offer.currency not in {"USD", *settings.exchange_rates}:
                at = f"{path}.money.{offer.currency}"
                problems[at] = "has no exchange rate in the manifest ([exchange_rates])"
        else:
            resource = settings.resources.get(offer.currency)
            if resource is None or resource.type is not ResourceType.CURRENCY:
                problems[f"{path}.price.{offer.currency}"] = "is not a currency of the game"
        kind = grant_kind(offer)
        if kind is None:
            problems[f"{path}.gives"] = "must be entries of one kind of grant (crates; currencies and items)"
            continue
        try:  # what the service's grant would refuse, it refuses
            validate_entries(game, kind, [entry.to_entry() for entry in offer.gives])
        except LivecoreError as refused:
            problems[f"{path}.gives"] = refused.message


def _write(offers: Mapping[str, Offer]) -> list[str]:
    lines: list[str] = []
    for offer in offers.values():
        gives = ", ".join(
            f'{{ type = "{e.type}", key = "{e.key}", amount = {e.amount} }}' for e in offer.gives
        )
        lines += [
            *([""] if lines else []),
            f"[studio.offers.{offer.key}]",
            f"{_FIELD[offer.money]} = {{ {offer.currency} = {_written(offer, offer.price)} }}",
            f"gives = [{gives}]",
            f"buy = {written(offer.buy)}",
        ]
        if offer.reference is not None:
            lines.append(f"reference = {_written(offer, offer.reference)}")
    return lines


_FIELD = {False: "price", True: "money"}


def _written(offer: Offer, amount: int) -> str:
    return major_units(amount, offer.currency) if offer.money else str(amount)


def _against(offers: Mapping[str, Offer] | None, base: Mapping[str, Offer] | None) -> dict[str, Offer] | None:
    """Each offer the base has too, in the same currency (of the game, or real money), measured against the
    base's price."""
    if offers is None:
        return None
    out = dict(offers)
    for name, offer in offers.items():
        found = (base or {}).get(name)
        same = found is not None and (found.money, found.currency) == (offer.money, offer.currency)
        if offer.reference is None and found is not None and same:
            reference = found.price if found.reference is None else found.reference
            out[name] = attrs.evolve(offer, reference=reference)
    return out


#: The reasons of an offer's debit: the player's own (a platform-managed game), the backend's for it.
_SALES = (Reason.CLIENT_DEBIT.value, Reason.SERVER_DEBIT.value)


def _fit(tx: Any, period: FitPeriod, played: Played) -> dict[str, Offer] | None:
    """The offers sold in the period (docs/simulation.md#fitting-a-population), in the order of their
    keys: each from its sales and the grants made for them (whose ``source_ref_id`` is its reason). A sale
    for a currency is a debit whose note is the offer's reason: the offer's currency is the one most of its
    debits took, its price the amount the latest of those took (a price changed in the period is fitted at
    its latest). A sale for real money is a tracked purchase whose ``productId`` is the offer's key (an
    offer sold for a currency too is fitted as that): its price is in US dollars, the mean its purchases
    took normalised to US cents (the purchases' revenue keeps no currency as charged). What it gives is
    the entries of the latest grant made for it; ``buy`` is its sales per session the players played: the
    chance per session at ``price_response`` and ``wealth_response`` 0, which are not fitted. An offer
    with no grant on record, or that the game would refuse (its key, its currency, what it gives), is
    left out; None where none is left."""
    if played.sessions <= 0:
        return None
    made = tx.grants.latest(period.game_id, REASON, period.since, period.until)
    offers = _fit_for_currency(tx, period, played, made)
    for name, offer in _fit_for_money(tx, period, played, made).items():
        offers.setdefault(name, offer)
    problems: Problems = {}
    _check(offers, period.settings, problems)
    kept = {
        name: o
        for name, o in sorted(offers.items())
        if not any(p.startswith(f"studio.offers.{name}.") for p in problems)
    }
    return kept or None


def _fitted(name: str, made: Mapping[str, Any], sold: int, played: Played, **priced: Any) -> Offer | None:
    """The offer ``name`` sold ``sold`` times in the period, with the entries of its latest grant (None
    where it has none on record, or its name is no key of the file)."""
    gives = made.get(f"{REASON}{name}")
    if gives is None or not key(name, name, {}):
        return None
    return Offer(
        key=name,
        gives=tuple(RewardEntry(type=e.type, key=e.key, amount=e.amount) for e in gives),
        buy=min(1.0, float(f"{sold / played.sessions:.4g}")),
        **priced,
    )


def _fit_for_currency(
    tx: Any, period: FitPeriod, played: Played, made: Mapping[str, Any]
) -> dict[str, Offer]:
    sales = tx.ledger.noted(period.game_id, _SALES, REASON, period.since, period.until)
    by_offer: dict[str, dict[tuple[str, int], NotedDebits]] = {}
    for (note, currency, amount), found in sales.items():
        by_offer.setdefault(note[len(REASON) :], {})[currency, amount] = found
    offers: dict[str, Offer] = {}
    for name, prices in by_offer.items():
        taken: dict[str, int] = {}
        for (currency, _), found in prices.items():
            taken[currency] = taken.get(currency, 0) + found.count
        currency = max(sorted(taken), key=taken.__getitem__)
        _, price = max((found.last, amount) for (c, amount), found in prices.items() if c == currency)
        offer = _fitted(name, made, sum(taken.values()), played, currency=currency, price=price)
        if offer is not None:
            offers[name] = offer
    return offers


#: The purchases' revenue counts both ends of its period; a fitted period ends before its ``until``.
_LAST_INSTANT = timedelta(milliseconds=1)


def _fit_for_money(tx: Any, period: FitPeriod, played: Played, made: Mapping[str, Any]) -> dict[str, Offer]:
    until = period.until - _LAST_INSTANT
    revenue = tx.purchases.revenue(period.game_id, period.env, period.since, until)
    offers: dict[str, Offer] = {}
    for product in revenue.per_product:
        cents = max(1, round(product.amount_minor / product.purchase_count))
        priced = {"currency": "USD", "price": cents, "money": True}
        offer = _fitted(product.product_id, made, product.purchase_count, played, **priced)
        if offer is not None:
            offers[product.product_id] = offer
    return offers


#: ``[studio.offers.<key>]``: the studio's offers.
OFFERS = PopulationTable("offers", _parse, _check, fit=_fit, write=_write, studio=True, against=_against)


class Shop:
    """The offers a session may buy, and the sale of one (the module's docstring)."""

    def __init__(self, play: Play) -> None:
        self.play = play
        offers: Mapping[str, Offer] = play.table(OFFERS) or {}
        self.offers = [(offer, grant_kind(offer)) for offer in offers.values()]
        self.platform = play.settings.economy is Economy.PLATFORM
        self.holdings = play.store.tables_of(EconomyTables).holdings
        self.charged = 0  # the sales for real money made: each one's transaction id is its own

    def visit(self, member: Member) -> None:
        play = self.play
        for offer, kind in self.offers:
            wanted = offer.chance(member.segment.rate(PRICE_RESPONSE))
            draw = play.rng.random()
            if offer.money:
                bought = draw < wanted and self._charge(member, offer)
            else:
                bought = self._buys(member, offer, wanted, draw) and self._debit(member, offer)
            if bought:
                self._grant(member, offer, kind)

    def _buys(self, member: Member, offer: Offer, wanted: float, draw: float) -> bool:
        """Whether the session's draw buys an offer for a currency, by the wealth response on the
        player's balance; a player who would buy but holds less than the price is set back."""
        held = self.holdings.get((member.handle.id, offer.currency))
        balance = held.amount if held is not None else 0
        if balance < offer.price:
            if draw < wanted:
                self.play.set_back(member, UNAFFORDABLE)
            return False
        richer = float((balance / offer.price) ** member.segment.rate(WEALTH_RESPONSE))
        return draw < min(1.0, wanted * richer)

    def _debit(self, member: Member, offer: Offer) -> bool:
        """The price taken from the player's balance: its own debit, or the backend's for it."""
        play = self.play
        if self.platform:
            debit = member.handle.wallet.debit
            paid = play.act("wallet.debit", debit, offer.currency, offer.price, reason=offer.reason)
        else:
            debit = play.server.wallet.debit
            paid = play.act(
                "wallet.debit", debit, member.handle, offer.currency, offer.price, reason=offer.reason
            )
        return paid is not None

    def _charge(self, member: Member, offer: Offer) -> bool:
        """The store's charge, as a game records it: the client tracks the purchase, then the studio's
        backend tracks it verified (having checked the store's receipt)."""
        play = self.play
        self.charged += 1
        purchase = {
            "transaction_id": f"{STORE}-{member.handle.id}-{self.charged}",
            "store": STORE,
            "product_id": offer.key,
            "product_type": PRODUCT_TYPE,
            "amount_minor": offer.price,
            "currency": offer.currency,
        }
        if play.act("purchases.track", member.handle.purchases.track, **purchase) is None:
            return False
        track = play.server.purchases.track
        verified = play.act(
            "server.purchases.track", track, member.handle, validation_status="verified", **purchase
        )
        return verified is not None

    def _grant(self, member: Member, offer: Offer, kind: GrantKind | None) -> None:
        """What the offer gives, granted for its reason: the purchase is a reward."""
        play = self.play
        create = play.server.grants.create
        entries = list(offer.gives)
        made = play.act(
            "grants.create", create, member.handle, entries, kind=kind, source_ref_id=offer.reason
        )
        if made is not None:
            play.rewarded(member)


__all__ = [
    "OFFERS",
    "PRICE_RESPONSE",
    "PRODUCT_TYPE",
    "REASON",
    "STORE",
    "UNAFFORDABLE",
    "WEALTH_RESPONSE",
    "Offer",
    "Shop",
    "grant_kind",
]
