"""Scheduled jobs with several server processes on one database
(docs/reference/manifest-and-cli.md#manual-clock; issue: scale out).

Every process runs the same scheduler; a periodic job's due time is claimed first
(``SqlSchedule.claim``, table ``scheduled_runs``), so each due time runs in one process
only. Two Services on one PostgreSQL schema stand for two processes: each has its own pool, caches and
(manual) clock.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path

from livecore.clock import ManualClock, from_millis, to_millis
from livecore_server.services import Services
from tests.conftest import START, make_services

JOBS = ("grant_expiry_sweep", "login_streak_sweep", "idempotency_purge", "webhook_retention")


class Probe:
    """A job registered in every process: records (process, due time) of each run."""

    def __init__(self) -> None:
        self.runs: list[tuple[str, datetime]] = []

    def register(self, name: str, services: Services, interval: timedelta, job: str = "probe") -> None:
        clock = services.clock

        async def run() -> None:
            self.runs.append((name, clock.now()))
            await asyncio.sleep(0)  # let the other process's scheduler interleave

        services.scheduler.every(job, interval, run)

    def times(self) -> list[datetime]:
        return sorted(t for _, t in self.runs)


def _claimed(services: Services) -> dict[str, datetime]:
    rows = services.store.run(
        lambda tx: list(tx.execute("SELECT job, due_at FROM scheduled_runs")), write=False
    )
    return {job: from_millis(due) for job, due in rows}


async def _pair(url: str) -> tuple[Services, Services]:
    # Distinct seeds: two processes never draw the same ids.
    return await asyncio.to_thread(make_services, url, seed=1), await asyncio.to_thread(
        make_services, url, seed=2
    )


def _clock(services: Services) -> ManualClock:
    assert isinstance(services.clock, ManualClock)
    return services.clock


async def test_each_due_time_runs_once_across_two_processes(pg_url: str) -> None:
    a, b = await _pair(pg_url)
    probe = Probe()
    try:
        probe.register("a", a, timedelta(minutes=1))
        probe.register("b", b, timedelta(minutes=1))
        # Both schedulers pass the same five due times at the same moment.
        await asyncio.gather(a.scheduler.advance(300), b.scheduler.advance(300))
        expected = [START + timedelta(minutes=m) for m in range(1, 6)]
        assert probe.times() == expected  # each due time once in all, not once per process
        assert _clock(a).now() == _clock(b).now() == START + timedelta(minutes=5)

        # The service's own jobs too: the last claimed due time of each, once.
        claimed = _claimed(a)
        # No grant expires: the minute sweep's runs, which would do nothing, are passed over.
        assert "grant_expiry_sweep" not in claimed
        assert claimed["probe"] == START + timedelta(minutes=5)
        assert not set(JOBS[1:]) & set(claimed)  # the hourly ones are not due yet

        # One hour on: the hourly jobs come due once, the minute ones 55 more times.
        await asyncio.gather(a.scheduler.advance(3300), b.scheduler.advance(3300))
        times = probe.times()
        assert len(times) == 60 and len(set(times)) == 60
        assert times == [START + timedelta(minutes=m) for m in range(1, 61)]
        claimed = _claimed(b)
        for job in JOBS[1:]:
            assert claimed[job] == START + timedelta(hours=1), job
    finally:
        a.close()
        b.close()


async def test_a_process_that_lags_behind_does_not_run_past_due_times_again(pg_url: str) -> None:
    a, b = await _pair(pg_url)
    probe = Probe()
    try:
        probe.register("a", a, timedelta(minutes=10))
        probe.register("b", b, timedelta(minutes=10))
        await a.scheduler.advance(3600)  # a runs the six due times of the hour
        assert [p for p, _ in probe.runs] == ["a"] * 6
        await b.scheduler.advance(1800)  # b, behind, passes three of them: all taken
        assert len(probe.runs) == 6
        await b.scheduler.advance(1800 + 600)  # b reaches the hour, then the next due time
        await a.scheduler.advance(600)  # a reaches that same one: b took it
        assert Counter(p for p, _ in probe.runs) == {"a": 6, "b": 1}
        assert probe.times() == [START + timedelta(minutes=10 * m) for m in range(1, 8)]
    finally:
        a.close()
        b.close()


async def test_jobs_are_claimed_each_for_itself(pg_url: str) -> None:
    """A claim is per job: one process taking ``x`` at a due time does not take ``y`` at it."""
    a, b = await _pair(pg_url)
    probe = Probe()
    try:
        probe.register("a", a, timedelta(minutes=1), job="x")
        probe.register("b", b, timedelta(minutes=1), job="y")
        await asyncio.gather(a.scheduler.advance(180), b.scheduler.advance(180))
        assert Counter(p for p, _ in probe.runs) == {"a": 3, "b": 3}
    finally:
        a.close()
        b.close()


async def test_an_unclaimed_job_runs_in_every_process_without_a_claim(pg_url: str) -> None:
    """Work whose commands decide from the state what is left (live events) runs in each process."""
    a, b = await _pair(pg_url)
    runs: list[str] = []
    try:
        for name, services in (("a", a), ("b", b)):

            async def run(name: str = name) -> None:
                runs.append(name)

            services.scheduler.every("unclaimed", timedelta(minutes=1), run, claimed=False)
        await asyncio.gather(a.scheduler.advance(120), b.scheduler.advance(120))
        assert Counter(runs) == {"a": 2, "b": 2}
        assert "unclaimed" not in _claimed(a)
    finally:
        a.close()
        b.close()


def test_claim_rule_one_caller_per_job_and_due_time(db_url: str) -> None:
    """On either store: the first claim of (job, due) wins, a repeat or an earlier due time loses, a
    later due time wins again; jobs are independent."""
    services = make_services(db_url)
    store = services.store
    due = to_millis(START)

    def claim(job: str, due_ms: int) -> bool:
        return bool(store.run(lambda tx: tx.schedule.claim(job, due_ms, due_ms + 5)))

    try:
        assert claim("sweep", due) is True
        assert claim("sweep", due) is False  # the same due time again (another process, or a rerun)
        assert claim("sweep", due - 60_000) is False  # an earlier one, after a later one ran
        assert claim("other", due) is True  # another job at the same time
        assert claim("sweep", due + 60_000) is True
        assert claim("sweep", due + 60_000) is False
        rows = store.run(
            lambda tx: list(tx.execute("SELECT job, due_at, claimed_at FROM scheduled_runs ORDER BY job")),
            write=False,
        )
        assert [tuple(r) for r in rows] == [("other", due, due + 5), ("sweep", due + 60_000, due + 60_005)]
    finally:
        services.close()


async def test_sqlite_repeated_due_time_runs_once(tmp_path: Path) -> None:
    """One SQLite process whose scheduler is asked to run a due time it already ran (a restart whose
    clock starts behind the last run) skips it, then runs the next one."""
    db = tmp_path / "s.db"
    first = await asyncio.to_thread(make_services, db)
    probe = Probe()
    try:
        probe.register("first", first, timedelta(minutes=1))
        await first.scheduler.advance(120)
    finally:
        first.close()
    again = await asyncio.to_thread(
        make_services, db
    )  # the clock starts at START again: 12:01 and 12:02 come due once more
    try:
        probe.register("again", again, timedelta(minutes=1))
        await again.scheduler.advance(180)
    finally:
        again.close()
    assert probe.runs == [
        ("first", START + timedelta(minutes=1)),
        ("first", START + timedelta(minutes=2)),
        ("again", START + timedelta(minutes=3)),
    ]


async def test_a_job_idle_until_a_time_is_passed_over_until_its_first_due_time_at_or_after_it(
    db_url: str,
) -> None:
    """``idle_until``: the manual clock passes over a periodic job's runs while it has no work, then runs
    it at each due time from the first at or after its work's time, claimed as any run."""
    services = await asyncio.to_thread(make_services, db_url)
    runs: list[datetime] = []
    work: list[datetime | None] = [None]
    try:

        async def run() -> None:
            runs.append(services.clock.now())

        services.scheduler.every("idle_probe", timedelta(minutes=1), run, idle_until=lambda tx: work[0])
        await services.scheduler.advance(600)
        assert runs == []
        work[0] = START + timedelta(minutes=12, seconds=30)
        await services.scheduler.advance(600)
        assert runs == [START + timedelta(minutes=m) for m in range(13, 21)]
        assert _claimed(services)["idle_probe"] == START + timedelta(minutes=20)
        work[0] = None
        await services.scheduler.advance(600)
        assert len(runs) == 8
    finally:
        services.close()
