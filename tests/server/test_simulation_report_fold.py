"""A report folded as its season plays (docs/simulation.md#memory): each day's end, the parts that fold
take what they read of the store and drop it, so the season holds less; the report is the one gathered
at the end of a season that kept everything."""

from __future__ import annotations

from typing import Any

from livecore.economy.memory import EconomyTables
from livecore.live_events.memory import LiveEventTables
from livecore.lobbies.memory import LobbyTables
from livecore.simulation import Simulation
from livecore.simulation.population import parse_population
from livecore.simulation.season import Season
from livecore_server.simulate.gather import fold, gather
from livecore_server.simulate.run import play
from livecore_server.simulate.section import Gathering, ReportPart
from tests.season_support import MONDAY, POPULATION, SEASON


def _season(days: int = 3) -> Season:
    sim = Simulation.from_manifest(SEASON, seed=5, start=MONDAY)
    return Season(sim, parse_population(POPULATION), players=60, days=days, seed=5, forget_webhooks=True)


def test_a_report_folded_day_by_day_is_the_report_gathered_at_the_end() -> None:
    kept = _season()
    kept.play()
    whole = gather(kept.sim, kept, run={"manifest": "m", "seed": 5})
    folded = play(_season(), run={"manifest": "m"})
    assert folded == whole
    assert sum(sum(r["minted"].values()) for r in folded["economy"].values()) > 0


def test_the_ledger_and_the_attempts_and_seats_of_windows_over_are_dropped_at_each_days_end() -> None:
    season = _season()
    entries = season.sim.store.tables_of(EconomyTables).entries
    held: list[int] = []
    play(season, run={}, on_day=lambda day: held.append(len(entries)))
    # Each day's end, once folded, the ledger holds nothing: what the season did is in the report.
    assert held == [0, 0, 0]
    # A season gathered only at its end keeps every entry and every attempt; the folded one keeps the
    # attempts of the windows not yet over only.
    kept = _season()
    kept.play()
    assert len(kept.sim.store.tables_of(EconomyTables).entries) > 100
    attempts = season.sim.store.tables_of(LiveEventTables).attempts
    every = kept.sim.store.tables_of(LiveEventTables).attempts
    assert len(every) > 100 and len(attempts) < len(every) / 2
    # And the seats of the lobbies of those windows, which the report never reads.
    seats = season.sim.store.tables_of(LobbyTables).seats
    every_seat = kept.sim.store.tables_of(LobbyTables).seats
    assert len(every_seat) > 50 and len(seats) < len(every_seat) / 2


def test_every_part_folds_before_any_drops() -> None:
    """A part may read another's records the day they are dropped: the drops wait for every fold."""
    order: list[str] = []

    def folding(name: str) -> Any:
        def fold(at: Gathering) -> Any:
            order.append(f"fold {name}")
            return lambda: order.append(f"drop {name}")

        return fold

    season = _season(days=1)
    at = Gathering(season.sim, season, [ReportPart(key=n, fold=folding(n)) for n in ("a", "b")])
    fold(at)
    assert order == ["fold a", "fold b", "drop a", "drop b"]
