"""The studio's test-environment tools in a simulation: an event's window ended now
(``server.live_events.end_now``) and a shared board's period rolled over now
(``server.leaderboards.rollover_now``), without moving the clock."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from livecore.exceptions import PermissionDeniedError
from livecore.live_events.errors import EventNotFoundError
from livecore.lobbies.api import LobbyForming
from livecore.scope import Environment
from livecore.simulation import Simulation

MONDAY = datetime(2026, 3, 2, tzinfo=UTC)

SEASON = """
studio = "acme"

[games.arena]
name = "Arena"
economy = "platform"

[games.arena.resources.gems]
type = "currency"

[games.arena.events.sprint]
name = "Sprint"
starts_at = "2026-03-02T00:00:00Z"
window_seconds = 86400
repeat_every_seconds = 86400
attempt_seconds = 600
score_metric = "score"

[[games.arena.events.sprint.rank_rewards]]
from = 1
to = 1
rewards = [{ type = "currency", key = "gems", amount = 10 }]

[games.arena.leaderboards.weekly]
name = "Weekly"
period = "weekly"
aggregation = "best"

[[games.arena.leaderboards.weekly.rank_rewards]]
from = 1
to = 1
rewards = [{ type = "currency", key = "gems", amount = 3 }]
"""


@pytest.fixture
def sim() -> Simulation:
    return Simulation.from_manifest(SEASON, seed=9, start=MONDAY)


def test_end_now_closes_the_open_window_and_pays_its_ranks(sim: Simulation) -> None:
    ada = sim.player("ada")
    started = ada.live_events.start_attempt("sprint")
    assert not isinstance(started, LobbyForming)
    ada.live_events.report_progress("sprint", started.attempt.attempt_id, {"score": 40})

    closed = sim.server.live_events.end_now("sprint").closed_windows
    assert closed == [started.attempt.window_id]
    assert sim.now() == MONDAY  # the clock did not move
    ada.grants.claim_all()
    assert sim.balance(ada, "gems") == 10
    assert sim.server.live_events.end_now("sprint").closed_windows == []
    with pytest.raises(EventNotFoundError):
        sim.server.live_events.end_now("marathon")


def test_rollover_now_finalizes_the_period_and_pays(sim: Simulation) -> None:
    ada, bo = sim.player("ada"), sim.player("bo")
    assert sim.server.leaderboards.rollover_now("weekly").rolled_over is False  # no entries: nothing
    sim.server.leaderboards.submit_score("weekly", ada, 50)
    sim.server.leaderboards.submit_score("weekly", bo, 40)

    rolled = sim.server.leaderboards.rollover_now("weekly")
    assert rolled.rolled_over and rolled.period_id is not None
    assert [e.kind for e in sim.webhooks_of("leaderboard.period_finalized")] == [
        "leaderboard.period_finalized"
    ]
    assert sim.leaderboard("weekly").entries == []  # a new period, from now
    assert [e.external_player_id for e in sim.leaderboard("weekly", period=rolled.period_id).entries] == [
        "ada",
        "bo",
    ]
    ada.grants.claim_all()
    assert sim.balance(ada, "gems") == 3


def test_the_tools_refuse_a_live_simulation() -> None:
    sim = Simulation.from_manifest(SEASON, start=MONDAY, env=Environment.LIVE)
    with pytest.raises(PermissionDeniedError):
        sim.server.live_events.end_now("sprint")
    with pytest.raises(PermissionDeniedError):
        sim.server.leaderboards.rollover_now("weekly")
