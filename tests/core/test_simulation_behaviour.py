"""Simulated players who respond to the economy (docs/simulation.md#the-behaviour-model): how often they
come back follows what they got (livecore/simulation/behaviour.py), and they buy the studio's offers by
price and balance (livecore/grants/offers.py). Embedded, without a server."""

from __future__ import annotations

from datetime import timedelta

import pytest

from livecore.economy.memory import EconomyTables
from livecore.economy.rules import Reason
from livecore.grants.memory import GrantTables
from livecore.grants.offers import OFFERS, UNAFFORDABLE, Offer
from livecore.grants.rules import GrantKind
from livecore.players.memory import PlayerTables
from livecore.purchases.memory import PurchaseTables
from livecore.purchases.rules import ValidationStatus
from livecore.simulation import Simulation, behaviour
from livecore.simulation.population import (
    Population,
    PopulationError,
    check_population,
    parse_population,
    write_population,
)
from livecore.simulation.season import Season
from tests.season_support import MONDAY, POPULATION, SEASON

GIVES = 'gives = [{ type = "crate", key = "chest", amount = 1 }]'
SHOP = """
[studio.offers.chest]
price = { coins = 20 }
gives = [{ type = "crate", key = "chest", amount = 1 }]
buy = 0.5
"""


def season(population: str, *, players: int = 30, days: int = 3, seed: int = 5) -> tuple[Simulation, Season]:
    sim = Simulation.from_manifest(SEASON, seed=seed, start=MONDAY)
    played = Season(sim, parse_population(population), players=players, days=days, seed=seed)
    played.play()
    return sim, played


def with_fields(population: str, **fields: float) -> str:
    """``population`` with ``fields`` set in each of its segments."""
    lines = "".join(f"{name} = {value}\n" for name, value in fields.items())
    return population.replace("[segments.keen]\n", f"[segments.keen]\n{lines}").replace(
        "[segments.casual]\n", f"[segments.casual]\n{lines}"
    )


def sessions(played: Season) -> int:
    return sum(member.sessions for member in played.members)


# --- how a member comes back ------------------------------------------------------------------------


def test_a_reward_raises_the_level_by_its_return_up_to_twice_the_sessions() -> None:
    assert behaviour.rewarded(1.0, 0.25) == 1.25
    assert behaviour.rewarded(1.9, 0.25) == behaviour.MOST_RETURNING == 2.0


def test_a_setback_lowers_the_level_by_its_return_down_to_none() -> None:
    assert behaviour.set_back(1.0, 0.25) == 0.75
    assert behaviour.set_back(0.1, 0.25) == 0.0


def test_each_day_the_level_moves_halfway_back_to_one() -> None:
    assert behaviour.next_day(2.0) == 1.5
    assert behaviour.next_day(0.0) == 0.5
    assert behaviour.next_day(1.0) == 1.0


def test_behaviour_fields_at_zero_play_the_open_loop_season_draw_for_draw() -> None:
    sim_a, plain = season(POPULATION)
    sim_b, zeroed = season(with_fields(POPULATION, reward_return=0, setback_return=0, churn_below=0))
    assert sessions(zeroed) == sessions(plain)
    assert zeroed.refusals == plain.refusals
    assert [(e.kind, e.data) for e in sim_b.webhooks] == [(e.kind, e.data) for e in sim_a.webhooks]


def test_rewards_bring_players_back_more_than_setbacks_on_the_same_draws() -> None:
    """Both populations respond, so their sessions are drawn alike: the rewarded play more."""
    _, rewarded = season(with_fields(POPULATION, reward_return=0.3, setback_return=0.0001))
    _, set_back = season(with_fields(POPULATION, reward_return=0.0001, setback_return=0.3))
    assert sessions(rewarded) > sessions(set_back)


def test_a_member_below_churn_below_as_its_day_ends_leaves_and_plays_no_more() -> None:
    sim = Simulation.from_manifest(SEASON, seed=5, start=MONDAY)
    population = with_fields(POPULATION, setback_return=0.1, churn_below=0.5)
    played = Season(sim, parse_population(population), players=20, days=4, seed=5)
    played.play(days=1)
    leaving = played.members[0]
    leaving.returning = 0.4  # its day ended starved
    before = leaving.sessions
    played.play()
    assert leaving.left and leaving.sessions == before
    assert played.left == sum(m.left for m in played.members) >= 1
    assert sum(m.sessions for m in played.members[1:]) > 0


# --- installs and the return curve -------------------------------------------------------------------


def test_the_return_curve_passes_through_its_two_days_and_falls_by_a_power_law() -> None:
    d1, d7 = 0.45, 0.2
    assert behaviour.return_chance(1, d1, d7) == pytest.approx(d1)
    assert behaviour.return_chance(7, d1, d7) == pytest.approx(d7)
    d30 = behaviour.return_chance(30, d1, d7)
    assert 0 < d30 < d7
    # A power law: the chance falls by the same factor each time the days since install multiply by 7.
    assert behaviour.return_chance(49, d1, d7) == pytest.approx(d7 * d7 / d1)
    assert behaviour.return_chance(30, 0.5, 0.5) == 0.5


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ("return_d1 = 0.4\n", "is required with return_d1"),
        ("return_d7 = 0.2\n", "needs return_d1"),
        ("return_d1 = 0.2\nreturn_d7 = 0.4\n", "must be at most return_d1"),
    ],
)
def test_a_return_curve_is_set_by_both_its_days_and_falls(fields: str, problem: str) -> None:
    with pytest.raises(PopulationError) as refused:
        parse_population(POPULATION.replace("[segments.keen]\n", f"[segments.keen]\n{fields}"))
    assert problem in refused.value.problems["segments.keen.return_d7"]


def test_players_install_evenly_over_their_segments_first_days() -> None:
    fields = {"installs_over": 4, "return_d1": 0.5, "return_d7": 0.2}
    _, played = season(with_fields(POPULATION, **fields), players=200, days=5)
    installed = [m.installed for m in played.members]
    assert set(installed) == {0, 1, 2, 3}
    assert all(30 <= installed.count(day) <= 70 for day in range(4))
    # A player with a return curve plays first on its install day, never before.
    assert all(m.days_played[0] == m.installed for m in played.members)


def test_a_player_is_registered_on_its_install_day_and_met_from_then_on() -> None:
    fields = {"installs_over": 3, "return_d1": 0.5, "return_d7": 0.2}
    sim = Simulation.from_manifest(SEASON, seed=5, start=MONDAY)
    played = Season(sim, parse_population(with_fields(POPULATION, **fields)), players=60, days=3, seed=5)
    played.play(days=1)
    assert all((m.handle is None) == (m.installed > 0) for m in played.members)
    assert {m.index for m in played.installed} == {m.index for m in played.members if m.installed == 0}
    played.play()
    players = sim.store.tables_of(PlayerTables).players
    for member in played.members:
        record = players[(sim.game.id, member.handle.external_id)]
        assert record.first_seen_at.date() == (MONDAY + timedelta(days=member.installed)).date()


def test_installs_spread_over_the_season_at_most() -> None:
    assert behaviour.installed_on(0.99, 14, 3) == 2
    assert behaviour.installed_on(0.99, 0, 3) == 0
    assert behaviour.installed_on(0.5, 1, 3) == 0


def test_players_with_a_return_curve_come_back_less_as_days_since_install_pass() -> None:
    curve = with_fields(POPULATION, return_d1=0.6, return_d7=0.15)
    _, played = season(curve, players=200, days=8)
    back = [sum(day in m.days_played for m in played.members) for day in range(8)]
    assert back[0] == 200  # every player installed on the first day, and played on it
    assert 0.48 * 200 < back[1] < 0.72 * 200
    assert back[7] < back[3] < back[1]
    assert 0.06 * 200 < back[7] < 0.25 * 200


def test_the_level_multiplies_the_return_chance_on_the_same_draws() -> None:
    curve = with_fields(POPULATION, return_d1=0.6, return_d7=0.15)
    _, rewarded = season(with_fields(curve, reward_return=0.3, setback_return=0.0001), days=6)
    _, plain = season(with_fields(curve, reward_return=0.0001, setback_return=0.0001), days=6)
    assert sessions(rewarded) > sessions(plain)


def test_a_setback_is_counted_by_its_reason_with_the_players_who_met_it() -> None:
    sim = Simulation.from_manifest(SEASON, seed=5, start=MONDAY)
    played = Season(sim, parse_population(with_fields(POPULATION, setback_return=0.2)), players=4, days=1)
    played.play()
    first, second = played.members[:2]
    played.set_back(first, "offer_unaffordable")
    played.set_back(first, "offer_unaffordable")
    played.set_back(second, "lost_match")
    assert played.setbacks == {"offer_unaffordable": 2, "lost_match": 1}
    assert first.met == {"offer_unaffordable"} and first.setback == "offer_unaffordable"
    assert first.returning < second.returning < 1


def test_a_member_who_leaves_leaves_for_its_last_setback() -> None:
    sim = Simulation.from_manifest(SEASON, seed=5, start=MONDAY)
    population = with_fields(POPULATION, setback_return=0.3, churn_below=0.5)
    played = Season(sim, parse_population(population), players=20, days=3, seed=5)
    played.play(days=1)
    leaving = played.members[0]
    played.set_back(leaving, "lost_match")
    played.set_back(leaving, "offer_unaffordable")
    played.play()
    assert leaving.left and leaving.left_for == "offer_unaffordable"
    assert played.left_for == {"offer_unaffordable": 1}


def test_a_refusal_in_a_session_is_not_a_setback() -> None:
    """What the service refuses is counted as a refusal, not as a setback of the economy: the simulator's
    own attempts must not send players away."""
    _, played = season(with_fields(POPULATION, setback_return=0.05), days=2)
    assert sum(played.refusals.values()) > 0
    assert all(m.returning >= 1 for m in played.members if m.setback is None)


# --- the studio's offers ----------------------------------------------------------------------------


def test_an_offer_is_parsed_written_back_and_read_again() -> None:
    population = parse_population(POPULATION + SHOP)
    [offer] = population.table(OFFERS).values()
    assert offer == Offer(key="chest", currency="coins", price=20, gives=offer.gives, buy=0.5)
    assert [(str(e.type), e.key, e.amount) for e in offer.gives] == [("crate", "chest", 1)]
    again = parse_population(write_population(population))
    assert again.table(OFFERS) == population.table(OFFERS)
    assert again.studio == population.studio


@pytest.mark.parametrize(
    ("offer", "path", "problem"),
    [
        (
            f"price = {{ coins = 20, gems = 1 }}\n{GIVES}\nbuy = 0.5",
            "studio.offers.chest.price",
            "must name one currency",
        ),
        (
            f"price = {{ coins = 0 }}\n{GIVES}\nbuy = 0.5",
            "studio.offers.chest.price.coins",
            "must be an integer from 1",
        ),
        ("price = { coins = 20 }\ngives = []\nbuy = 0.5", "studio.offers.chest.gives", "must be a list"),
        (
            'price = { coins = 20 }\ngives = [{ type = "hat", key = "x", amount = 1 }]\nbuy = 0.5',
            "studio.offers.chest.gives[0].type",
            "must be a resource type",
        ),
        (
            f"price = {{ coins = 20 }}\n{GIVES}\nbuy = 2",
            "studio.offers.chest.buy",
            "must be a number from 0 to 1",
        ),
        (
            f"price = {{ coins = 20 }}\n{GIVES}",
            "studio.offers.chest.buy",
            "is required",
        ),
        (
            f"price = {{ coins = 20 }}\n{GIVES}\nbuy = 0.5\ncost = 1",
            "studio.offers.chest.cost",
            "",
        ),
    ],
)
def test_a_malformed_offer_is_refused_naming_its_field(offer: str, path: str, problem: str) -> None:
    with pytest.raises(PopulationError) as refused:
        parse_population(f"[studio.offers.chest]\n{offer}\n")
    assert problem in refused.value.problems[path]


@pytest.mark.parametrize(
    ("price", "gives", "path", "problem"),
    [
        (
            "xp",
            '{ type = "crate", key = "chest", amount = 1 }',
            "studio.offers.chest.price.xp",
            "not a currency",
        ),
        (
            "coins",
            '{ type = "crate", key = "gold-chest", amount = 1 }',
            "studio.offers.chest.gives",
            "gold-chest",
        ),
        ("coins", '{ type = "currency", key = "rubies", amount = 1 }', "studio.offers.chest.gives", "rubies"),
        (
            "coins",
            '{ type = "crate", key = "chest", amount = 1 }, { type = "currency", key = "gems", amount = 1 }',
            "studio.offers.chest.gives",
            "one kind of grant",
        ),
    ],
)
def test_an_offer_naming_what_the_game_lacks_is_refused_as_the_service_refuses_its_grant(
    price: str, gives: str, path: str, problem: str
) -> None:
    sim = Simulation.from_manifest(SEASON, seed=5, start=MONDAY)
    text = f"[studio.offers.chest]\nprice = {{ {price} = 20 }}\ngives = [{gives}]\nbuy = 0.5\n"
    with pytest.raises(PopulationError) as refused:
        check_population(parse_population(text), sim.game.settings)
    assert problem in refused.value.problems[path]


def test_a_cheaper_offer_is_wanted_by_its_price_response() -> None:
    offer = Offer(key="chest", currency="coins", price=80, gives=(), buy=0.1, reference=100)
    assert offer.chance(0) == 0.1
    assert offer.chance(2) == pytest.approx(0.1 * (100 / 80) ** 2)
    assert Offer(key="chest", currency="coins", price=1, gives=(), buy=0.5, reference=100).chance(1) == 1.0


def test_a_compared_population_prices_its_offers_against_the_base() -> None:
    base = parse_population(SHOP)
    cheaper = parse_population(SHOP.replace("coins = 20", "coins = 16")).against(base)
    assert cheaper.table(OFFERS)["chest"].reference == 20
    alone = parse_population(SHOP.replace("coins = 20", "coins = 16")).against(Population())
    assert alone.table(OFFERS)["chest"].reference is None


def test_a_session_buys_an_offer_with_a_debit_of_its_price_and_a_grant_of_what_it_gives() -> None:
    sim, _ = season(POPULATION + SHOP, days=2)
    entries = sim.store.tables_of(EconomyTables).entries
    paid = [e for e in entries if e.note == "offer:chest"]
    assert paid and all(e.delta == -20 and e.reason is Reason.CLIENT_DEBIT for e in paid)  # a platform game
    sold = [g for g in sim.store.tables_of(GrantTables).grants.values() if g.source_ref_id == "offer:chest"]
    assert len(sold) == len(paid)
    assert all(g.kind == GrantKind("crate") for g in sold)


def test_a_player_who_wants_an_offer_it_cannot_afford_is_set_back_and_buys_nothing() -> None:
    dear = SHOP.replace("coins = 20", "coins = 1000000").replace("buy = 0.5", "buy = 1")
    sim, played = season(with_fields(POPULATION, setback_return=0.05) + dear, days=1)
    assert not [e for e in sim.store.tables_of(EconomyTables).entries if e.note == "offer:chest"]
    assert all(member.returning < 1 for member in played.members if member.sessions)


# --- offers for real money -----------------------------------------------------------------------------

MONEY = """
[studio.offers.gem-pack]
money = { USD = 4.99 }
gives = [{ type = "currency", key = "gems", amount = 100 }]
buy = 0.2
"""
GEMS = 'gives = [{ type = "currency", key = "gems", amount = 100 }]'


def test_an_offer_for_real_money_is_parsed_in_minor_units_written_back_in_major_ones_and_read_again() -> None:
    population = parse_population(POPULATION + MONEY.replace("buy = 0.2", "buy = 0.2\nreference = 5.99"))
    [offer] = population.table(OFFERS).values()
    assert offer == Offer(
        key="gem-pack", currency="USD", price=499, gives=offer.gives, buy=0.2, reference=599, money=True
    )
    written = write_population(population)
    assert "money = { USD = 4.99 }" in written and "reference = 5.99" in written
    assert parse_population(written).table(OFFERS) == population.table(OFFERS)


@pytest.mark.parametrize(
    ("money", "minor"), [("{ JPY = 500 }", 500), ("{ KWD = 1.25 }", 1250), ("{ EUR = 5 }", 500)]
)
def test_an_amount_of_real_money_takes_its_currency_s_minor_unit(money: str, minor: int) -> None:
    population = parse_population(MONEY.replace("{ USD = 4.99 }", money))
    [offer] = population.table(OFFERS).values()
    assert offer.price == minor
    assert parse_population(write_population(population)).table(OFFERS) == population.table(OFFERS)


@pytest.mark.parametrize(
    ("offer", "path", "problem"),
    [
        (f"price = {{ coins = 20 }}\nmoney = {{ USD = 1 }}\n{GEMS}\nbuy = 0.5", "money", "in place of price"),
        (f"{GEMS}\nbuy = 0.5", "price", "is required (or money"),
        (f"money = {{ USD = 1, EUR = 1 }}\n{GEMS}\nbuy = 0.5", "money", "must name one currency"),
        (f"money = {{ usd = 4.99 }}\n{GEMS}\nbuy = 0.5", "money.usd", "3 upper-case letters"),
        (f"money = {{ USD = 4.999 }}\n{GEMS}\nbuy = 0.5", "money.USD", "to 2 decimals at most"),
        (f"money = {{ USD = 0 }}\n{GEMS}\nbuy = 0.5", "money.USD", "above 0"),
        (f"money = {{ JPY = 1.5 }}\n{GEMS}\nbuy = 0.5", "money.JPY", "a whole amount of JPY"),
        (f'money = {{ USD = "4.99" }}\n{GEMS}\nbuy = 0.5', "money.USD", "above 0"),
        (f"money = {{ USD = 4.99 }}\n{GEMS}\nbuy = 0.5\nreference = 4.991", "reference", "to 2 decimals"),
    ],
)
def test_a_malformed_offer_for_real_money_is_refused_naming_its_field(
    offer: str, path: str, problem: str
) -> None:
    with pytest.raises(PopulationError) as refused:
        parse_population(f"[studio.offers.gem-pack]\n{offer}\n")
    assert problem in refused.value.problems[f"studio.offers.gem-pack.{path}"]


def test_an_offer_for_a_currency_the_manifest_has_no_exchange_rate_for_is_refused() -> None:
    sim = Simulation.from_manifest(SEASON, seed=5, start=MONDAY)
    with pytest.raises(PopulationError) as refused:
        check_population(parse_population(MONEY.replace("USD", "EUR")), sim.game.settings)
    assert "no exchange rate" in refused.value.problems["studio.offers.gem-pack.money.EUR"]
    check_population(parse_population(MONEY), sim.game.settings)  # USD needs none


def test_a_compared_offer_for_real_money_is_priced_against_the_base_in_the_same_currency() -> None:
    cheaper = parse_population(MONEY.replace("4.99", "3.99"))
    assert cheaper.against(parse_population(MONEY)).table(OFFERS)["gem-pack"].reference == 499
    in_coins = parse_population(MONEY.replace("money = { USD = 4.99 }", "price = { gems = 499 }"))
    assert cheaper.against(in_coins).table(OFFERS)["gem-pack"].reference is None


def test_a_sale_for_real_money_is_tracked_by_the_client_verified_by_the_backend_then_granted() -> None:
    sim, played = season(POPULATION + MONEY, days=2)
    bought = list(sim.store.tables_of(PurchaseTables).purchases.values())
    assert bought and all(
        (p.store, p.product_id, p.amount_minor, p.currency) == ("simulated", "gem-pack", 499, "USD")
        and p.validation_status is ValidationStatus.VERIFIED
        for p in bought
    )
    assert len({p.transaction_id for p in bought}) == len(bought)
    made = [
        g for g in sim.store.tables_of(GrantTables).grants.values() if g.source_ref_id == "offer:gem-pack"
    ]
    assert len(made) == len(bought) and all(g.kind is GrantKind.REWARD for g in made)
    # No currency is debited for it; its revenue is the service's, in US cents.
    assert not [e for e in sim.store.tables_of(EconomyTables).entries if e.note == "offer:gem-pack"]
    revenue = sim.server.purchases.revenue_summary(from_=MONDAY, to=sim.now())
    assert revenue.gross_amount_minor == 499 * len(bought)
    assert revenue.paying_players == len({p.player_id for p in bought})
    assert all(played.member_of(p.player_id) is not None for p in bought)


def test_an_offer_for_real_money_is_bought_whatever_the_balance_and_sets_nobody_back() -> None:
    sure = MONEY.replace("buy = 0.2", "buy = 1")
    sim, played = season(with_fields(POPULATION, setback_return=0.05, wealth_response=2) + sure, days=1)
    assert len(sim.store.tables_of(PurchaseTables).purchases) == sessions(played)
    assert UNAFFORDABLE not in played.setbacks


def test_an_offer_for_real_money_draws_once_a_session_as_an_offer_for_a_currency_does() -> None:
    """Two populations of one seed stay aligned whatever their offers are priced in."""
    never = MONEY.replace("buy = 0.2", "buy = 0")
    sim_a, in_money = season(POPULATION + never)
    sim_b, in_gems = season(POPULATION + never.replace("money = { USD = 4.99 }", "price = { gems = 1 }"))
    assert sessions(in_money) == sessions(in_gems)
    assert [(e.kind, e.data) for e in sim_a.webhooks] == [(e.kind, e.data) for e in sim_b.webhooks]
