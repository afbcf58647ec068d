"""The studio's offers in a simulated season (docs/simulation.md#offers): what its shop sells for a
currency, declared in the population's ``[studio.offers.<key>]``::

    [studio.offers.bronze-chest]
    price = { coins = 100 }                                # one currency of the game
    gives = [{ type = "crate", key = "bronze-chest", amount = 1 }]   # one grant's entries
    buy = 0.05                                             # a session's chance to buy it, at ``reference``
    reference = 100                                        # optional: the price ``buy`` is measured at

A sale is made as a studio's backend makes it: a debit of the price with the reason ``offer:<key>`` (the
player's own in a platform-managed game, the backend's for it in a studio-managed one), then a grant of
what it gives, of the kind its entries are (a crate grant for crates, a reward grant for currencies and
items), whose ``source_ref_id`` is that reason too. The offer's sink is then on the report by that reason,
and what it gives is minted as the grant is claimed or the crate opened.

A session visits the shop after its events: for each offer, in the file's order, one draw decides. The
chance to buy is ``buy``, times ``(reference / price) ** price_response`` (a cheaper offer sells more), times
``(balance / price) ** wealth_response`` (a player holding many prices' worth buys more), at most 1. A
player who would buy at ``buy`` times the price response but holds less than the price cannot: that is a
setback (:mod:`livecore.simulation.behaviour`). A purchase is a reward.

``reference`` left out is the offer's price; in a comparison of two populations it is the base
population's price of the same offer, so a price changed in one line is measured against the base's.
``price_response`` and ``wealth_response`` are segment fields (0 by default: the chance is ``buy``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

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


@attrs.frozen
class Offer:
    """``[studio.offers.<key>]``: its price (``amount`` of ``currency``), what it gives (one grant's
    entries), a session's chance to buy it at ``reference`` (None: at its price)."""

    key: str
    currency: str
    price: int
    gives: tuple[RewardEntry, ...]
    buy: float
    reference: int | None = None

    @property
    def reason(self) -> str:
        return f"{REASON}{self.key}"

    def chance(self, price_response: float) -> float:
        """The chance to want it, from its price: ``buy`` times the price response."""
        reference = self.price if self.reference is None else self.reference
        return min(1.0, self.buy * float((reference / self.price) ** price_response))


def _offer(name: str, raw: Any, path: str, problems: Problems) -> Offer | None:
    found = table(raw, path, problems)
    if found is None or not key(name, path, problems):
        return None
    unknown(found, {"price", "gives", "buy", "reference"}, path, problems)
    ok = True
    for field in ("price", "gives", "buy"):
        if field not in found:
            problems[f"{path}.{field}"] = "is required"
            ok = False
    price = table(found.get("price", {}), f"{path}.price", problems)
    if price is None or len(price) != 1:
        problems.setdefault(f"{path}.price", "must name one currency and its amount: { coins = 100 }")
        ok = False
    else:
        [(currency, amount)] = price.items()
        ok &= key(currency, f"{path}.price.{currency}", problems)
        ok &= value(amount, "int", _PRICE, f"{path}.price.{currency}", problems)
    gives = _gives(found.get("gives", []), f"{path}.gives", problems)
    ok &= gives is not None
    ok &= "buy" not in found or value(found["buy"], "number", CHANCE, f"{path}.buy", problems)
    if "reference" in found:
        ok &= value(found["reference"], "int", _PRICE, f"{path}.reference", problems)
    if not ok or price is None or gives is None:
        return None
    return Offer(
        key=name,
        currency=currency,
        price=amount,
        gives=gives,
        buy=float(found["buy"]),
        reference=found.get("reference"),
    )


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
            f"price = {{ {offer.currency} = {offer.price} }}",
            f"gives = [{gives}]",
            f"buy = {written(offer.buy)}",
        ]
        if offer.reference is not None:
            lines.append(f"reference = {offer.reference}")
    return lines


def _against(offers: Mapping[str, Offer] | None, base: Mapping[str, Offer] | None) -> dict[str, Offer] | None:
    """Each offer the base has too, in the same currency, measured against the base's price."""
    if offers is None:
        return None
    out = dict(offers)
    for name, offer in offers.items():
        found = (base or {}).get(name)
        if offer.reference is None and found is not None and found.currency == offer.currency:
            reference = found.price if found.reference is None else found.reference
            out[name] = attrs.evolve(offer, reference=reference)
    return out


#: The reasons of an offer's debit: the player's own (a platform-managed game), the backend's for it.
_SALES = (Reason.CLIENT_DEBIT.value, Reason.SERVER_DEBIT.value)


def _fit(tx: Any, period: FitPeriod, played: Played) -> dict[str, Offer] | None:
    """The offers sold in the period (docs/simulation.md#fitting-a-population), in the order of their
    keys: each from its sales (the debits whose note is its reason) and the grants made for them (whose
    ``source_ref_id`` is its reason). Its currency is the one most of its debits took, its price the
    amount the latest of those took (a price changed in the period is fitted at its latest), what it
    gives the entries of the latest grant made for it; ``buy`` is its sales per session the players
    played: the chance per session at ``price_response`` and ``wealth_response`` 0, which are not
    fitted. An offer with no grant on record, or that the game would refuse (its key, its currency,
    what it gives), is left out; None where none is left."""
    if played.sessions <= 0:
        return None
    game_id, since, until = period.game_id, period.since, period.until
    sales = tx.ledger.noted(game_id, _SALES, REASON, since, until)
    made = tx.grants.latest(game_id, REASON, since, until)
    by_offer: dict[str, dict[tuple[str, int], NotedDebits]] = {}
    for (note, currency, amount), found in sales.items():
        by_offer.setdefault(note[len(REASON) :], {})[currency, amount] = found
    offers: dict[str, Offer] = {}
    for name, prices in sorted(by_offer.items()):
        gives = made.get(f"{REASON}{name}")
        if gives is None or not key(name, name, {}):
            continue
        taken: dict[str, int] = {}
        for (currency, _), found in prices.items():
            taken[currency] = taken.get(currency, 0) + found.count
        currency = max(sorted(taken), key=taken.__getitem__)
        _, price = max((found.last, amount) for (c, amount), found in prices.items() if c == currency)
        buy = sum(taken.values()) / played.sessions
        offers[name] = Offer(
            key=name,
            currency=currency,
            price=price,
            gives=tuple(RewardEntry(type=e.type, key=e.key, amount=e.amount) for e in gives),
            buy=min(1.0, float(f"{buy:.4g}")),
        )
    problems: Problems = {}
    _check(offers, period.settings, problems)
    kept = {
        name: o
        for name, o in offers.items()
        if not any(p.startswith(f"studio.offers.{name}.") for p in problems)
    }
    return kept or None


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

    def visit(self, member: Member) -> None:
        play = self.play
        segment = member.segment
        for offer, kind in self.offers:
            wanted = offer.chance(segment.rate(PRICE_RESPONSE))
            draw = play.rng.random()
            held = self.holdings.get((member.handle.id, offer.currency))
            balance = held.amount if held is not None else 0
            if balance < offer.price:
                if draw < wanted:
                    play.set_back(member, UNAFFORDABLE)
            elif draw < min(1.0, wanted * (balance / offer.price) ** segment.rate(WEALTH_RESPONSE)):
                self._sell(member, offer, kind)

    def _sell(self, member: Member, offer: Offer, kind: GrantKind | None) -> None:
        play = self.play
        if self.platform:
            debit = member.handle.wallet.debit
            paid = play.act("wallet.debit", debit, offer.currency, offer.price, reason=offer.reason)
        else:
            debit = play.server.wallet.debit
            paid = play.act(
                "wallet.debit", debit, member.handle, offer.currency, offer.price, reason=offer.reason
            )
        if paid is None:
            return
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
    "REASON",
    "UNAFFORDABLE",
    "WEALTH_RESPONSE",
    "Offer",
    "Shop",
    "grant_kind",
]
