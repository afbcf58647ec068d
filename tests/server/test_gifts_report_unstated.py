"""The gifts' warning of what a season's gifts minted that the population does not say its players gift
(livecore_server/gifts/report.py, docs/simulation.md#warnings): a segment without ``gift`` gifts any
giftable resource in random amounts, the model's guess; the warning names what those gifts minted, the
segments that sent them and what to set."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from livecore.simulation import Simulation
from livecore.simulation.population import parse_population
from livecore.simulation.season import Season
from livecore_server.simulate.gather import gather
from tests.core.test_gifts_season import GAME

START = datetime(2026, 3, 2, tzinfo=UTC)

SEGMENTS = """
[segments.coiners]
share = 0.5
sessions_per_day = 3.0
friends = 4
gifts = 0.6
gift = {{ coins = 5 }}

[segments.anything]
share = 0.5
sessions_per_day = 3.0
friends = 4
gifts = 0.6
{anything}
"""


def report(anything: str) -> dict[str, Any]:
    sim = Simulation.from_manifest(GAME, start=START, seed=4)
    season = Season(sim, parse_population(SEGMENTS.format(anything=anything)), players=60, days=2, seed=4)
    season.play()
    return gather(sim, season, run={"manifest": "shop.toml", "population": "p.toml", "seed": 4})


def test_gifts_minting_what_the_population_does_not_say_it_gifts_are_named_with_what_to_set() -> None:
    found = report("")
    unstated = found["gifts"]["unstated"]
    # Only the segment without `gift` gifted at random: both giftable currencies, in random amounts.
    assert unstated["segments"] == ["anything"]
    assert set(unstated["resources"]) == {"coins", "gems"}
    coins, gems = unstated["resources"]["coins"], unstated["resources"]["gems"]
    (warned,) = [w for w in found["warnings"] if (w["area"], w["subject"]) == ("gifts", "gift")]
    assert warned["message"] == (
        f"Gifts minted {coins:,} coins and {gems:,} gems that the population does not say its players gift:"
        " segment anything set no `gift`, so their gifts were of any giftable resource, in random amounts"
        " (the model's guess, not the game's). Set each segment's `gift` to what its players gift"
        " (`gift = { coins = 5 }`), or fit the population from the game's history."
    )


def test_a_population_that_says_what_each_segment_gifts_is_not_warned() -> None:
    found = report("gift = { gems = { amount = 2, share = 0.5 }, coins = 1 }")
    assert found["gifts"]["sent"] > 0
    assert found["gifts"]["unstated"] == {"resources": {}, "segments": []}
    assert not [w for w in found["warnings"] if w["subject"] == "gift"]
