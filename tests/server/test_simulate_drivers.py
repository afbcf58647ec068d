"""A season of the demo game played by the shop example's population (examples/shop_price/shop.toml,
docs/simulation.md#the-behaviour-model): its players try nothing their own state tells them the rules
refuse (an attempt over, a help request open or asked too recently, a friend gifted within the cooldown, an
invite pending), a lost match and a crate well below its average are setbacks; and the report warns of
crates sent by default and of currencies nobody spends, and of an entry cost players could not pay
(docs/simulation.md#warnings)."""

from __future__ import annotations

from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

from livecore.crates.season import BELOW_EXPECTED
from livecore.live_events.season import ENTRY_COST_UNAFFORDABLE
from livecore.lobbies.season import LOST_MATCH
from livecore.simulation import Simulation
from livecore.simulation.population import parse_population
from livecore.simulation.season import Season
from livecore_server.simulate.gather import gather
from livecore_server.simulate.run import parse, read_population, season
from tests.core.test_simulation_drivers import EVENTS
from tests.core.test_simulation_drivers import START as MARCH

SHOP = Path(__file__).parents[2] / "examples" / "shop_price" / "shop.toml"
START = datetime(2026, 1, 5, tzinfo=UTC)


def _played(population: str | None) -> tuple[Any, dict[str, Any]]:
    manifest = parse(resources.files("livecore_server").joinpath("demo.toml").read_text())
    played = season(manifest, read_population(population), players=120, days=3, seed=0, start=START)
    played.play()
    return played, gather(played.sim, played, run={"manifest": "demo", "population": "p", "seed": 0})


def test_the_shop_examples_players_try_nothing_their_state_says_is_refused() -> None:
    played, _ = _played(str(SHOP))
    assert played.refusals == {}
    assert played.setbacks[LOST_MATCH] > 0


def test_a_crate_that_gives_less_than_its_average_is_a_setback() -> None:
    played, _ = _played(None)
    opened = played.sim.store.outbox
    crates = sum(1 for event in opened if event.kind == "crate.opened")
    assert 0 < played.setbacks[BELOW_EXPECTED] < crates


def test_the_default_population_is_warned_of_crates_sent_by_default_and_of_currencies_never_spent() -> None:
    _, report = _played(None)
    warned = {(w["area"], w["subject"]): w["message"] for w in report["warnings"]}
    assert warned["crates", "studio"] == (
        "The population sets no [studio] crates, so every player received 0.1 bronze-chest, 0.1 gem-box a day"
        " played by default: set what the studio's backend sends (crates = {} for none)."
    )
    assert warned["economy", "currencies"].startswith("No currency was spent (")


def test_a_population_that_sets_its_crates_and_spends_is_not_warned_of_either() -> None:
    _, report = _played(str(SHOP))
    subjects = {(w["area"], w["subject"]) for w in report["warnings"]}
    assert ("crates", "studio") not in subjects
    assert ("economy", "currencies") not in subjects


def test_an_entry_cost_players_could_not_pay_is_warned_of_by_its_event() -> None:
    sim = Simulation.from_manifest(EVENTS, start=MARCH, seed=1)
    population = parse_population("[segments.all]\nshare = 1.0\nsessions_per_day = 4.0\nevents = 1.0\n")
    played = Season(sim, population, players=10, days=1, seed=1)
    played.play()
    report = gather(sim, played, run={"manifest": "m", "population": "p", "seed": 1})
    unaffordable = report["events"]["paid"]["summary"]["entry_cost_unaffordable"]
    assert unaffordable == played.setbacks[ENTRY_COST_UNAFFORDABLE] > 0
    warned = [w["message"] for w in report["warnings"] if (w["area"], w["subject"]) == ("events", "paid")]
    expected = f"Players could not pay Paid's entry cost {unaffordable:,} times, and started no attempt."
    assert expected in warned
