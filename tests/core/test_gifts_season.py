"""What a segment gifts (livecore/gifts/season.py, docs/simulation.md#the-population): the segment's
``gift`` field, parsed, refused by its path, checked against the game's giftable resources, written back;
a season's gifts are what it says; and fitted from the gifts a segment's players sent, a population of
players who only gifted 5 coins gifts only 5 coins, minting no gems by gifts."""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime

import pytest

from livecore.games import GameSettings
from livecore.gifts.memory import GiftTables
from livecore.gifts.season import GIFT, Gifted
from livecore.manifest import parse_manifest
from livecore.simulation import Simulation
from livecore.simulation.population import (
    PopulationError,
    check_population,
    parse_population,
    write_population,
)
from livecore.simulation.season import Season

START = datetime(2026, 3, 2, tzinfo=UTC)

#: A studio-managed game of two giftable currencies.
GAME = """
studio = "acme"

[games.shop]
name = "Shop"

[games.shop.gifting]
enabled = true
cooldown_seconds = 60

[games.shop.resources.coins]
type = "currency"
giftable = true
max_per_gift = 100

[games.shop.resources.gems]
type = "currency"
giftable = true
max_per_gift = 10

[games.shop.resources.xp]
type = "currency"
"""

#: Players who gift often, and only 5 coins.
FIVE_COINS = """
[segments.all]
share = 1.0
sessions_per_day = 3.0
friends = 4
gifts = 0.6
gift = { coins = 5 }
"""


def refused(field: str) -> dict[str, str]:
    with pytest.raises(PopulationError) as caught:
        parse_population(f"[segments.all]\nshare = 1.0\n{field}\n")
    return caught.value.problems


def settings() -> GameSettings:
    return parse_manifest(GAME).games["shop"].settings()


def test_a_segment_says_what_it_gifts_an_amount_or_an_amount_and_a_share() -> None:
    (segment,) = parse_population(
        "[segments.all]\nshare = 1.0\ngift = { coins = 5, gems = { amount = 1.5, share = 0.25 } }\n"
    ).segments
    assert segment.table(GIFT) == {"coins": Gifted(5.0, 1.0), "gems": Gifted(1.5, 0.25)}
    # Left out, a segment has none: its gifts are of any giftable resource.
    assert parse_population(FIVE_COINS.replace("gift = { coins = 5 }\n", "")).segments[0].table(GIFT) is None


def test_what_a_segment_gifts_is_written_back_as_it_reads() -> None:
    text = "[segments.all]\nshare = 1.0\ngift = { coins = 5, gems = { amount = 1.5, share = 0.25 } }\n"
    population = parse_population(text)
    written = write_population(population)
    assert "gift = { coins = 5, gems = { amount = 1.5, share = 0.25 } }" in written
    assert parse_population(written) == population


@pytest.mark.parametrize(
    ("field", "problems"),
    [
        ("gift = 5", {"segments.all.gift": "must be a table"}),
        ("gift = {}", {"segments.all.gift": "must name a giftable resource (`gifts = 0` sends none)"}),
        ("gift = { coins = 0 }", {"segments.all.gift.coins": "must be a number from 1 to 1,000,000,000,000"}),
        (
            "gift = { coins = true }",
            {"segments.all.gift.coins": "must be a number from 1 to 1,000,000,000,000"},
        ),
        ("gift = { coins = { share = 1 } }", {"segments.all.gift.coins.amount": "is required"}),
        (
            "gift = { coins = { amount = 5, share = 0 } }",
            {"segments.all.gift.coins.share": "must be above 0 (leave the resource out to gift none of it)"},
        ),
        (
            "gift = { coins = { amount = 5, share = 2, often = 1 } }",
            {
                "segments.all.gift.coins.share": "must be a number from 0 to 1",
                "segments.all.gift.coins.often": "is not a known field",
            },
        ),
        (
            "gift = { Coins = 5 }",
            {"segments.all.gift.Coins": "must be a key: lower-case letters, digits, '-' and '_', at most 64"},
        ),
    ],
)
def test_what_a_segment_gifts_is_refused_by_its_path(field: str, problems: dict[str, str]) -> None:
    assert refused(field) == problems


def test_what_a_segment_gifts_must_be_giftable_in_the_game_within_its_max_per_gift() -> None:
    check_population(parse_population(FIVE_COINS), settings())
    text = "[segments.all]\nshare = 1.0\ngift = { xp = 1, gold = 1, gems = 11, coins = 100 }\n"
    with pytest.raises(PopulationError) as caught:
        check_population(parse_population(text), settings())
    known = "is not a giftable resource of the game (its giftable resources: coins, gems)"
    assert caught.value.problems == {
        "segments.all.gift.xp": known,
        "segments.all.gift.gold": known,
        "segments.all.gift.gems": "gifts 11 a gift, over the resource's max_per_gift (10)",
    }


def test_a_fractional_amount_plays_the_whole_amounts_either_side_of_it_at_its_mean() -> None:
    rng = random.Random(1)
    drawn = Counter(Gifted(2.25).drawn(rng) for _ in range(4_000))
    assert set(drawn) == {2, 3}
    assert abs(drawn[3] / 4_000 - 0.25) < 0.03
    whole = random.Random(1)
    assert Gifted(5.0).drawn(whole) == 5 and whole.random() == random.Random(1).random()  # no draw


def _gifts(sim: Simulation) -> Counter[tuple[str, int]]:
    """The season's gifts, by resource and amount."""
    found = sim.store.tables_of(GiftTables).gifts.values()
    return Counter((g.resource_key, g.amount) for g in found if g.game_id == sim.game.id)


def test_a_segment_gifts_what_it_says() -> None:
    sim = Simulation.from_manifest(GAME, start=START, seed=5)
    Season(sim, parse_population(FIVE_COINS), players=40, days=2, seed=5).play()
    gifts = _gifts(sim)
    assert sum(gifts.values()) > 20 and set(gifts) == {("coins", 5)}
    shared = FIVE_COINS.replace("{ coins = 5 }", "{ coins = { amount = 5, share = 0.75 }, gems = 2 }")
    again = Simulation.from_manifest(GAME, start=START, seed=5)
    Season(again, parse_population(shared), players=40, days=2, seed=5).play()
    gifts = _gifts(again)
    assert set(gifts) == {("coins", 5), ("gems", 2)}
    # Coins by 0.75 over 1.75 of the gifts, gems by 1 over 1.75.
    assert abs(gifts["coins", 5] / sum(gifts.values()) - 0.75 / 1.75) < 0.1


def test_players_who_only_gifted_five_coins_are_fitted_to_gift_five_coins_minting_no_gems() -> None:
    sim = Simulation.from_manifest(GAME, start=START, seed=7)
    Season(sim, parse_population(FIVE_COINS), players=60, days=3, seed=7).play()
    fitted = sim.fit_population(1).population
    (segment,) = fitted.segments
    assert segment.table(GIFT) == {"coins": Gifted(5.0, 1.0)}
    assert "gift = { coins = 5 }" in write_population(fitted)
    replay = Simulation.from_manifest(GAME, start=START, seed=7)
    Season(replay, fitted, players=60, days=3, seed=7).play()
    gifts = _gifts(replay)
    assert sum(gifts.values()) > 20 and set(gifts) == {("coins", 5)}
