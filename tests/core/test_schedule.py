"""The embedded schedule keeps a job's next due time (livecore/schedule.py): it asks again only once a
table the job reads is written or the clock reaches the answer, and its answers are those a fresh ask
gives (``Schedule.checked``, here over a played season)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.hashing import KeyedHasher
from livecore.lobbies.memory import LobbyTables
from livecore.memory import MemoryStore
from livecore.rand import SeededRandomSource
from livecore.schedule import Job, KeptAnswerError, Schedule, Task, once
from livecore.simulation import Simulation
from livecore.simulation.population import parse_population
from livecore.simulation.season import Season
from tests.season_support import MONDAY, POPULATION, SEASON

T0 = datetime(2026, 3, 2, 12, tzinfo=UTC)


class _Forming:
    """A job due an hour after the clock's start for each lobby forming (``lobbies.forming``), that
    counts how often it is asked and when it runs."""

    def __init__(self, store: MemoryStore, clock: ManualClock, reads: tuple[str, ...]) -> None:
        self.store = store
        self.clock = clock
        self.asked = 0
        self.ran: list[datetime] = []
        self.job = Job("forming", self.tasks, next_due=self.next_due, reads=reads)

    def next_due(self, tx: Any, rt: Any) -> datetime | None:
        self.asked += 1
        forming = self.store.tables_of(LobbyTables).forming
        return T0 + timedelta(hours=len(forming)) if forming else None

    def tasks(self, tx: Any, rt: Any) -> list[Task]:
        due = self.next_due(tx, rt)
        if due is None or due > self.clock.now() or due in self.ran:
            return []
        return [Task(due.isoformat(), None, once(lambda tx: self.ran.append(due)))]

    def form(self, lobby_id: str) -> None:
        with self.store.transaction() as tx:
            tx.journal.put(self.store.tables_of(LobbyTables).forming, lobby_id, None)


def _schedule(reads: tuple[str, ...]) -> tuple[Schedule, _Forming]:
    clock = ManualClock(T0)
    store = MemoryStore()
    forming = _Forming(store, clock, reads)
    rt = Runtime(clock=clock, rng=SeededRandomSource(1), hasher=KeyedHasher(b"k" * 32))
    return Schedule(store, rt, [forming.job]), forming


def test_a_kept_answer_holds_until_a_table_the_job_reads_is_written() -> None:
    schedule, forming = _schedule(("lobbies.forming",))
    forming.form("l1")
    for _ in range(10):
        schedule.advance(timedelta(minutes=1))
    assert forming.asked == 1
    forming.form("l2")  # now due two hours after the start
    schedule.advance(timedelta(minutes=1))
    assert forming.asked == 2
    schedule.advance(timedelta(hours=3))
    assert forming.ran == [T0 + timedelta(hours=2)]


def test_a_job_reading_a_table_it_does_not_name_is_caught_when_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    schedule, forming = _schedule(("games",))
    forming.form("l1")
    schedule.advance(timedelta(minutes=1))
    forming.form("l2")
    schedule.advance(timedelta(minutes=1))  # unchecked: the answer kept is an hour, no longer two
    monkeypatch.setattr(Schedule, "checked", True)
    with pytest.raises(KeptAnswerError, match="forming"):
        schedule.advance(timedelta(minutes=1))


def test_an_answer_read_from_the_clock_is_asked_again_once_the_clock_reaches_it() -> None:
    clock = ManualClock(T0)
    ran: list[datetime] = []

    def next_hour(tx: Any, rt: Any) -> datetime:
        return T0 + timedelta(hours=(clock.now() - T0) // timedelta(hours=1) + 1)

    def tasks(tx: Any, rt: Any) -> list[Task]:
        now = clock.now()
        done = now in ran or now.minute != 0
        return [] if done else [Task(now.isoformat(), None, once(lambda tx: ran.append(now)))]

    job = Job("hourly", tasks, next_due=next_hour, reads=("games",))
    rt = Runtime(clock=clock, rng=SeededRandomSource(1), hasher=KeyedHasher(b"k" * 32))
    schedule = Schedule(MemoryStore(), rt, [job])
    for _ in range(3 * 6):
        schedule.advance(timedelta(minutes=10))
    assert ran == [T0 + timedelta(hours=h) for h in (1, 2, 3)]


def test_reads_is_for_a_job_due_by_the_state() -> None:
    with pytest.raises(ValueError, match="reads"):
        Job("sweep", lambda tx, rt: [], every=timedelta(hours=1), reads=("games",))


def test_every_kept_answer_is_the_fresh_one_over_a_played_season(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Schedule, "checked", True)
    sim = Simulation.from_manifest(SEASON, seed=5, start=MONDAY)
    Season(sim, parse_population(POPULATION), players=30, days=2, seed=5).play()
    kinds = {e.kind for e in sim.webhooks}
    # Each job whose answer is kept has worked in the season.
    jobs = {
        "window.opened",
        "window.closed",
        "event.expired",
        "lobby.bot_filled",
        "leaderboard.period_finalized",
    }
    assert jobs <= kinds
