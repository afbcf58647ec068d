"""The studio's offers fitted from history (livecore/grants/offers.py,
docs/simulation.md#fitting-a-population): a season played with a known shop is fitted back (each offer's
price, what it gives and its chance per session), the fitted population read back as written; and the
rules of a sale's record, on planted reads (a changed price, a second currency, an offer with no grant)."""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any

import attrs

from livecore.economy.memory import EconomyTables
from livecore.economy.rules import NotedDebits
from livecore.games import Entry, ResourceType
from livecore.grants.offers import OFFERS, Offer
from livecore.purchases.rules import ProductRevenue, RevenueSummary
from livecore.scope import Environment
from livecore.simulation import Simulation
from livecore.simulation.part import FitPeriod, Played
from livecore.simulation.population import parse_population, write_population
from livecore.simulation.season import Season
from tests.season_support import MONDAY, POPULATION, SEASON

DAYS = 5
PLAYERS = 200
#: Two offers: a crate for coins, and gems for coins, cheap enough that the coins credited each day (20)
#: nearly always pay for them (a session whose player cannot pay buys nothing, which the fit reads as a
#: lower chance).
SHOP = """
[studio.offers.chest]
price = { coins = 6 }
gives = [{ type = "crate", key = "chest", amount = 1 }]
buy = 0.15

[studio.offers.gems]
price = { coins = 4 }
gives = [{ type = "currency", key = "gems", amount = 3 }]
buy = 0.05
"""
#: How far the players' sessions fitted may be from those played (relative): told from those on record
#: as a segment's ``sessions_per_day`` is, they come within half a percent here.
SESSIONS = 0.02
#: How far the crates sent a day played may be from those played: test_simulation_fitting.py's.
CRATES_SENT = 0.05


def test_a_season_played_with_offers_fits_them_back_within_tolerances() -> None:
    sim = Simulation.from_manifest(SEASON, start=MONDAY, seed=7)
    known = parse_population(POPULATION + SHOP)
    played = Season(sim, known, players=PLAYERS, days=DAYS, seed=7)
    played.play()
    fitted = sim.fit_population(2).population
    offers = fitted.table(OFFERS)
    assert offers is not None and list(offers) == ["chest", "gems"]
    sessions = sum(member.sessions for member in played.members)
    entries = sim.store.tables_of(EconomyTables).entries
    for name, offer in known.table(OFFERS).items():
        found = offers[name]
        assert (found.currency, found.price, found.gives) == (offer.currency, offer.price, offer.gives)
        assert found.reference is None
        # Its sales over the sessions fitted: those over the sessions played, but for the sessions'
        # estimate.
        sold = sum(1 for e in entries if e.note == f"offer:{name}" and e.delta == -offer.price)
        assert abs(found.buy - sold / sessions) <= SESSIONS * sold / sessions, name
        # Its sales are a binomial draw over the sessions played: the chance played, within three
        # standard errors (and the sessions' estimate).
        error = 3 * math.sqrt(offer.buy * (1 - offer.buy) / sessions)
        assert abs(found.buy - offer.buy) <= error + SESSIONS * offer.buy, (name, found.buy, offer.buy)
    # A sale is neither a spend nor a crate the studio's backend sent: the population spends nothing
    # (``[economy] spend`` left out) and the backend sends a chest on half the days played.
    assert "economy" not in fitted.tables
    assert all(segment.rates["spend"] == 0 for segment in fitted.segments)
    assert abs(fitted.studio.rates["crates"]["chest"] - 0.5) <= CRATES_SENT
    again = parse_population(write_population(fitted))
    assert again.table(OFFERS) == offers
    assert again == fitted


# --- the rules of a sale's record ---------------------------------------------------------------------

GEMS = (Entry(type=ResourceType.CURRENCY, key="gems", amount=3),)


@attrs.frozen
class _Ledger:
    sales: dict[tuple[str, str, int], NotedDebits]

    def noted(self, *args: Any) -> dict[tuple[str, str, int], NotedDebits]:
        return self.sales


@attrs.frozen
class _Grants:
    made: dict[str, tuple[Any, ...]]

    def latest(self, *args: Any) -> dict[str, tuple[Any, ...]]:
        return self.made


@attrs.frozen
class _Purchases:
    products: tuple[ProductRevenue, ...]

    def revenue(self, *args: Any) -> RevenueSummary:
        gross = sum(p.amount_minor for p in self.products)
        sold = sum(p.purchase_count for p in self.products)
        return RevenueSummary(gross, sold, sold, self.products, ())


@attrs.frozen
class _Tx:
    ledger: _Ledger
    grants: _Grants
    purchases: _Purchases


def _fit(
    sales: dict[tuple[str, str, int], NotedDebits],
    made: dict[str, tuple[Any, ...]],
    products: tuple[ProductRevenue, ...] = (),
) -> Any:
    assert OFFERS.fit is not None
    sim = Simulation.from_manifest(SEASON, start=MONDAY, seed=1)
    period = FitPeriod(
        game_id=sim.game.id,
        env=Environment.TEST,
        since=MONDAY,
        until=MONDAY + timedelta(days=DAYS),
        settings=sim.game.settings,
        parts=(),
    )
    return OFFERS.fit(
        _Tx(_Ledger(sales), _Grants(made), _Purchases(products)), period, Played(10, 30.0, 200.0)
    )


def test_an_offer_is_fitted_at_its_latest_price_in_the_currency_most_of_its_sales_took() -> None:
    day = timedelta(days=1)
    sales = {
        ("offer:gems", "coins", 5): NotedDebits(30, MONDAY + day),
        ("offer:gems", "coins", 4): NotedDebits(10, MONDAY + 2 * day),  # the price cut on the third day
        ("offer:gems", "gems", 1): NotedDebits(20, MONDAY + 3 * day),  # the currency fewer sales took
    }
    [offer] = _fit(sales, {"offer:gems": GEMS}).values()
    assert (offer.currency, offer.price) == ("coins", 4)
    # Every sale counts, whatever it took: 60 over the 200 sessions played.
    assert offer == Offer(key="gems", currency="coins", price=4, gives=offer.gives, buy=0.3)
    assert [(str(e.type), e.key, e.amount) for e in offer.gives] == [("currency", "gems", 3)]


def test_an_offer_with_no_grant_or_that_the_game_refuses_is_left_out() -> None:
    sales = {
        ("offer:gems", "coins", 4): NotedDebits(10, MONDAY),
        ("offer:ghost", "coins", 4): NotedDebits(10, MONDAY),  # no grant on record
        ("offer:Bad Key", "coins", 4): NotedDebits(10, MONDAY),  # not a key of the file
        ("offer:gold", "gold", 4): NotedDebits(10, MONDAY),  # not a currency of the game
    }
    made = {"offer:gems": GEMS, "offer:Bad Key": GEMS, "offer:gold": GEMS}
    assert list(_fit(sales, made)) == ["gems"]
    assert _fit({}, {}) is None
    assert _fit({("offer:ghost", "coins", 4): NotedDebits(10, MONDAY)}, {}) is None


def test_an_offer_sold_for_real_money_is_fitted_from_its_key_s_purchases_at_their_mean_in_dollars() -> None:
    """Its purchases' revenue is normalised to US cents: 40 purchases took $200.40, $5.01 each."""
    products = (ProductRevenue("gem-pack", 20_040, 40), ProductRevenue("com.acme.coins", 999, 1))
    made = {"offer:gem-pack": GEMS, "offer:gems": GEMS}
    offers = _fit({("offer:gems", "coins", 4): NotedDebits(10, MONDAY)}, made, products)
    assert list(offers) == ["gem-pack", "gems"]  # a product no grant was made for is no offer
    assert offers["gem-pack"] == Offer(
        key="gem-pack", currency="USD", price=501, gives=offers["gem-pack"].gives, buy=0.2, money=True
    )
    assert OFFERS.write is not None and "money = { USD = 5.01 }" in OFFERS.write(offers)


def test_an_offer_sold_for_a_currency_is_fitted_as_that_though_purchases_name_its_key() -> None:
    sales = {("offer:gems", "coins", 4): NotedDebits(10, MONDAY)}
    [offer] = _fit(sales, {"offer:gems": GEMS}, (ProductRevenue("gems", 500, 1),)).values()
    assert (offer.money, offer.currency, offer.price) == (False, "coins", 4)
