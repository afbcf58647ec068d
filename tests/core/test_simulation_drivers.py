"""What the areas' drivers play (docs/simulation.md#the-behaviour-model, #playing-a-season): a player does
not try what its own state says the rules refuse; an attempt is completed by its segment's ``completes``
chance, else left to expire; a session sends ``gifts`` gifts, a mean count above 1, up to the day's limit;
an entry cost a player cannot pay is a setback, not a refused start."""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime

import pytest

from livecore.gifts.memory import GiftTables
from livecore.gifts.season import count
from livecore.live_events.attempts import AttemptStatus
from livecore.live_events.memory import LiveEventTables
from livecore.live_events.season import ENTRY_COST_UNAFFORDABLE, planned
from livecore.simulation import Simulation
from livecore.simulation.population import parse_population
from livecore.simulation.season import Season
from tests.core.test_gifts_season import GAME

START = datetime(2026, 3, 2, tzinfo=UTC)

#: A platform-managed game: an event that charges 50 coins to enter, and one of short attempts.
EVENTS = """
studio = "acme"

[games.arcade]
name = "Arcade"
economy = "platform"

[games.arcade.resources.coins]
type = "currency"

[games.arcade.events.paid]
name = "Paid"
starts_at = "2026-03-02T00:00:00Z"
window_seconds = 86400
repeat_every_seconds = 86400
attempt_seconds = 300
score_metric = "score"
entry_cost = [{ type = "currency", key = "coins", amount = 50 }]

[games.arcade.events.free]
name = "Free"
starts_at = "2026-03-02T00:00:00Z"
window_seconds = 3600
repeat_every_seconds = 3600
attempt_seconds = 300
score_metric = "score"
"""


def _segment(fields: str) -> str:
    return f"[segments.all]\nshare = 1.0\nsessions_per_day = 4.0\nevents = 1.0\n{fields}\n"


def _attempts(sim: Simulation, event_key: str) -> Counter[AttemptStatus]:
    found = sim.store.tables_of(LiveEventTables).attempts.values()
    return Counter(a.status for a in found if a.event_key == event_key)


def test_gifts_up_to_one_is_the_chance_of_a_gift_and_above_one_a_mean_count() -> None:
    rng = random.Random(1)
    assert {count(0.3, rng) for _ in range(200)} == {0, 1}
    assert {count(2.0, rng) for _ in range(50)} == {2}
    draws = [count(2.5, rng) for _ in range(4000)]
    assert set(draws) == {2, 3}
    assert sum(draws) / len(draws) == pytest.approx(2.5, abs=0.05)


def test_a_session_sends_several_gifts_each_to_a_friend_off_cooldown_and_stops_at_the_daily_limit() -> None:
    game = GAME.replace("cooldown_seconds = 60", "cooldown_seconds = 60\ndaily_send_limit = 3")
    sim = Simulation.from_manifest(game, start=START, seed=2)
    season = Season(sim, parse_population(_segment("friends = 6\ngifts = 5")), players=30, days=2, seed=2)
    season.play()
    sent = sim.store.tables_of(GiftTables).gifts_sent
    per_day = Counter((sender, when.date()) for sender, gifts in sent.items() for when, _, _ in gifts)
    assert max(per_day.values()) == 3  # the limit binds
    assert not season.refusals


def test_an_attempt_not_completed_is_left_to_expire_unreported() -> None:
    sim = Simulation.from_manifest(EVENTS, start=START, seed=1)
    Season(sim, parse_population(_segment("completes = 0")), players=20, days=1, seed=1).play()
    found = _attempts(sim, "free")
    assert found[AttemptStatus.EXPIRED] > 0
    assert found[AttemptStatus.COMPLETED] == 0


def test_a_completed_attempt_is_reported_before_its_time_runs_out_and_nothing_is_refused() -> None:
    sim = Simulation.from_manifest(EVENTS, start=START, seed=1)
    season = Season(sim, parse_population(_segment("attempts_per_session = 3")), players=40, days=2, seed=1)
    season.play()
    found = _attempts(sim, "free")
    assert found[AttemptStatus.COMPLETED] > 0
    # A play that would outlast its window's close is left to expire, never reported late.
    assert not season.refusals


def test_a_player_who_cannot_pay_an_entry_cost_does_not_start_and_is_set_back() -> None:
    sim = Simulation.from_manifest(EVENTS, start=START, seed=1)
    season = Season(sim, parse_population(_segment("")), players=10, days=1, seed=1)
    season.play()
    assert not _attempts(sim, "paid")
    assert season.setbacks[ENTRY_COST_UNAFFORDABLE] > 0
    assert not season.refusals


@pytest.mark.parametrize(("attempts", "completes"), [(1, 0.5), (3, 0.8), (5, 0.95), (2, 1.0)])
def test_the_attempts_a_play_sets_out_to_make_are_told_from_those_made_and_the_completes(
    attempts: int, completes: float
) -> None:
    made = sum(completes**i for i in range(attempts))  # an abandoned attempt ends its play
    assert planned(made, completes) == pytest.approx(attempts)
