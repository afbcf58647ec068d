"""A population playing a season (livecore/simulation/season.py, docs/simulation.md#playing-a-season),
embedded, without a server: every area is played, the same seed plays the same season, and two manifests
meet the same players."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import attrs
import pytest

from livecore.economy.memory import EconomyTables
from livecore.events import DomainEvent
from livecore.grants.memory import GrantTables
from livecore.grants.season import EXPIRY_JOB
from livecore.live_events.memory import LiveEventTables
from livecore.simulation import Simulation, calls
from livecore.simulation.population import PopulationError, parse_population
from livecore.simulation.season import Season
from tests.season_support import MONDAY, POPULATION, SEASON


def play(
    manifest: str = SEASON, *, seed: int = 5, players: int = 30, days: int = 2
) -> tuple[Simulation, Season]:
    sim = Simulation.from_manifest(manifest, seed=seed, start=MONDAY)
    season = Season(sim, parse_population(POPULATION), players=players, days=days, seed=seed)
    season.play()
    return sim, season


def trace(events: list[DomainEvent]) -> list[tuple[str, object]]:
    return [(e.kind, e.data) for e in events]


@pytest.fixture(scope="module")
def played() -> tuple[Simulation, Season]:
    return play()


def test_every_area_is_played(played: tuple[Simulation, Season]) -> None:
    sim, season = played
    kinds = {e.kind for e in sim.webhooks}
    assert {
        "friend.request_accepted",
        "gift.sent",
        "gift.claimed",
        "grant.claimed",
        "grant.expired",
        "crate.opened",
        "entry_cost.charged",
        "event.completed",
        "event.milestone_granted",
        "lobby.started",
        "lobby.bot_filled",
        "partner.invite_accepted",
        "event_team.formed",
        "leaderboard.period_finalized",
        "guild.created",
        "guild.member_joined",
        "guild.help_requested",
        "wallet.changed",
    } <= kinds
    assert sim.now() == MONDAY + timedelta(days=2)
    assert len(season.segment_of) == 30
    assert set(season.segment_of.values()) == {"keen", "casual"}


def test_the_studio_forms_external_teams_as_their_window_opens(played: tuple[Simulation, Season]) -> None:
    sim, _ = played
    formed = sim.webhooks_of("event_team.formed")
    raids = [e.occurred_at for e in formed if e.data["eventKey"] == "raid"]
    # The first window opened with the simulation, before the season began: its teams are formed too.
    assert MONDAY in raids and MONDAY + timedelta(days=1) in raids
    assert any(e.data["eventKey"] == "relay" for e in formed)


def test_the_same_seed_plays_the_same_season(played: tuple[Simulation, Season]) -> None:
    sim, season = played
    again, replayed = play()
    assert trace(again.webhooks) == trace(sim.webhooks)
    assert replayed.refusals == season.refusals


def test_a_season_played_in_steps_is_the_season_played_at_once(played: tuple[Simulation, Season]) -> None:
    sim, season = played
    stepped_sim = Simulation.from_manifest(SEASON, seed=5, start=MONDAY)
    stepped = Season(stepped_sim, parse_population(POPULATION), players=30, days=2, seed=5)
    with pytest.raises(ValueError, match="play 1 to 2 days"):
        stepped.play(days=3)
    stepped.play(days=1)
    assert stepped.played == 1 and stepped_sim.now() == MONDAY + timedelta(days=1)
    stepped.play()
    assert stepped.played == 2
    assert trace(stepped_sim.webhooks) == trace(sim.webhooks)
    assert stepped.refusals == season.refusals
    with pytest.raises(ValueError, match="every day of the season is played"):
        stepped.play()


def test_another_seed_plays_another_season(played: tuple[Simulation, Season]) -> None:
    sim, _ = played
    other, _ = play(seed=6)
    assert trace(other.webhooks) != trace(sim.webhooks)


def test_two_manifests_meet_the_same_players_at_the_same_times() -> None:
    cheaper = SEASON.replace("amount = 5 }]\ncompletion_rewards", "amount = 1 }]\ncompletion_rewards")
    assert cheaper != SEASON
    a, first = play(days=1)
    b, second = play(cheaper, days=1)
    assert first.segment_of == second.segment_of
    registered = [e.data["externalPlayerId"] for e in a.webhooks_of("player.registered")]
    assert registered == [e.data["externalPlayerId"] for e in b.webhooks_of("player.registered")]
    charged = [e.data["cost"] for e in b.webhooks_of("entry_cost.charged")]
    assert charged and all(cost["currencies"] == [{"key": "coins", "amount": 1}] for cost in charged)


def test_the_minute_sweep_runs_only_when_a_grant_is_due(played: tuple[Simulation, Season]) -> None:
    sim, _ = played
    expired = sim.webhooks_of("grant.expired")
    # Gifts expire after 12 hours: the season's own sweep ran, on the hour.
    assert expired
    assert all(e.occurred_at.minute == 0 and e.occurred_at.second == 0 for e in expired)
    assert EXPIRY_JOB in {j.name for j in sim.schedule.jobs}


def test_forgetting_webhooks_changes_nothing_the_tables_hold(played: tuple[Simulation, Season]) -> None:
    sim, season = played
    again = Simulation.from_manifest(SEASON, seed=5, start=MONDAY)
    forgetting = Season(again, parse_population(POPULATION), players=30, days=2, seed=5, forget_webhooks=True)
    forgetting.forget_after = 50
    forgetting.play()
    assert len(again.webhooks) < 100 < len(sim.webhooks)
    assert again.webhooks == sim.webhooks[-len(again.webhooks) :]
    assert forgetting.refusals == season.refusals
    for kind in (EconomyTables, GrantTables, LiveEventTables):
        assert again.store.tables_of(kind) == sim.store.tables_of(kind)


def test_a_season_reads_its_own_calls_through_the_wire_only_when_checking(
    played: tuple[Simulation, Season], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Unchecked, the handlers read the models the builders made; checked, every call goes through its
    wire form, gives those models back, and the season is the same."""
    sim, season = played
    read = calls.structured
    wired: list[str] = []

    def counted(route: Any, *args: Any) -> Any:
        wired.append(route.name)
        return read(route, *args)

    monkeypatch.setattr(calls, "structured", counted)
    checked_sim = Simulation.from_manifest(SEASON, seed=5, start=MONDAY)
    checked = Season(checked_sim, parse_population(POPULATION), players=30, days=2, seed=5, check=True)
    checked.play()
    assert checked_sim.checked  # as the caller left it
    assert trace(checked_sim.webhooks) == trace(sim.webhooks)
    assert checked.refusals == season.refusals
    every = len(wired)
    wired.clear()
    play()
    assert 0 < len(wired) < every / 3


def test_checking_refuses_a_builders_call_the_wire_reads_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    sim = Simulation.from_manifest(SEASON, seed=5, start=MONDAY)
    ada = sim.player("ada")
    assert ada.presence.heartbeat() is not None
    read = calls.structured

    def changed(route: Any, *args: Any) -> Any:
        body, query = read(route, *args)
        return attrs.evolve(body, status="away"), query

    monkeypatch.setattr(calls, "structured", changed)
    with pytest.raises(TypeError, match="the wire reads the builder's call differently"):
        ada.presence.heartbeat()
    sim.checked = False
    assert ada.presence.heartbeat() is not None


def test_a_season_is_refused_before_it_plays() -> None:
    sim = Simulation.from_manifest(SEASON, start=MONDAY)
    with pytest.raises(ValueError, match="at least one player"):
        Season(sim, parse_population(""), players=0, days=1)
    with pytest.raises(ValueError, match="tick"):
        Season(sim, parse_population(""), players=1, days=1, tick=timedelta(seconds=7))
    with pytest.raises(PopulationError) as refused:
        Season(sim, parse_population("[events.marathon]\nworst = 0\nbest = 1"), players=1, days=1)
    assert list(refused.value.problems) == ["events.marathon"]
    assert sim.webhooks_of("player.registered") == []


def test_a_studio_area_plays_its_part_of_a_season() -> None:
    # An area outside the core adds a segment field and a driver, as a built-in area does (Area.season).
    from livecore.area import Area
    from livecore.simulation.part import Driver, Member, Play, Rate, SeasonPart

    visits = Rate("visits", 0.0, {"engaged": 1.0})
    seen: dict[str, int] = {}

    class Visits(Driver):
        def __init__(self, play: Play) -> None:
            self.play = play

        def session(self, member: Member) -> None:
            if self.play.rng.random() < member.segment.rate(visits):
                seen[member.handle.external_id] = seen.get(member.handle.external_id, 0) + 1

    area = Area(
        name="visits", summary="Visits.", page="visits", season=SeasonPart(rates=(visits,), driver=Visits)
    )
    sim = Simulation.from_manifest(SEASON, seed=5, start=MONDAY, areas=[area])
    keen_only = POPULATION.replace("[segments.keen]\n", "[segments.keen]\nvisits = 1.0\n", 1)
    population = parse_population(keen_only, sim.areas)
    season = Season(sim, population, players=20, days=1, seed=5)
    season.play()
    keen = {player for player, segment in season.segment_of.items() if segment == "keen"}
    assert seen and set(seen) == keen
    with pytest.raises(PopulationError) as refused:
        parse_population(keen_only)  # without the area, its field is not known
    assert refused.value.problems == {"segments.keen.visits": "is not a known field"}
