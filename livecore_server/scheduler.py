"""Scheduled work, driven by the service clock (docs/reference/manifest-and-cli.md#manual-clock).

What is scheduled is declared by the areas, in the core (:mod:`livecore.schedule`): each :class:`Job`
says what is due and when. This module drives them: :func:`schedule_jobs` registers them on the
:class:`Scheduler`, :func:`run_job` runs one the way the core's embedded schedule does, each task's
steps in transactions of their own in the task's game's write queue, and :func:`catch_up` runs each
state-driven job once as a server starts (what came due while no server ran).

A job due by the state (window closes, rollovers, lobby fills) is looked at every second by every process
with the wall clock, unclaimed: its ``tasks`` read comes first, so nothing is written while nothing is
due, and each step decides from the state what is left to do (a closed window is not closed again; on
PostgreSQL, SERIALIZABLE lets one of two processes win, the other then finding it done). With the manual
clock it runs at the very time it is next due. A periodic job (sweeps) runs at each multiple of its period,
claimed, in one process.

Periodic jobs run at fixed intervals aligned to the clock (an hourly job at every full hour). Other work
says itself when it is next due (the webhook dispatcher: its next retry): :meth:`Scheduler.when`. With
the wall clock a background task runs the periodic jobs that came due, once a second (the dispatcher has
its own loop). With the manual clock nothing runs on its own: :meth:`Scheduler.advance` moves the clock to
each due time in order and runs that work there, so it sees the time it was due at, as in real time.

Several processes on one database each run this scheduler; a periodic job's run is *claimed* first
(``claim``: one row per job in the database holding the last claimed due time), so each due time runs in
one process only. A process that dies during a run loses that run; the next due time runs again (every
job here catches up on what it missed). A job registered ``claimed=False`` runs in every process: work
whose commands decide from the state what is left to do (a closed window is not closed again), which a
claim every second would only slow down.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta

import attrs

from livecore.clock import Clock, ManualClock, to_millis
from livecore.commands import Runtime
from livecore.schedule import Job, Task, aligned
from livecore_server.storage.server_store import ServerStore, ServerTransaction, game_queue

log = logging.getLogger(__name__)

JobFn = Callable[[], Awaitable[None]]
# (job name, due time) -> True for the one process that runs it.
ClaimFn = Callable[[str, datetime], Awaitable[bool]]
# A job that claims its due time itself, in its first transaction (``run_job``'s ``claim``).
ClaimingFn = Callable[[datetime], Awaitable[None]]


@attrs.define
class Tally:
    """What a job's runs cost in this process, for ``GET /metrics``: runs, the transactions they took
    (claims and the look-ups of due times included) and their seconds."""

    runs: int = 0
    transactions: int = 0
    seconds: float = 0.0


@attrs.define
class Periodic:
    name: str
    interval: timedelta
    fn: JobFn
    next_due: datetime
    claimed: bool = True
    claiming: ClaimingFn | None = None
    # When the job next has work (a read; None: none); the manual clock passes over its runs before.
    idle_until: Callable[[ServerTransaction], datetime | None] | None = None


@attrs.define
class DueWork:
    """Work that says when it is next due (``due``, a read; None: nothing to do)."""

    name: str
    due: Callable[[ServerTransaction], datetime | None]
    fn: JobFn


# The tally the look-ups of the due times of the work due by the state count under.
DUE_TIMES = "next_due"


class Scheduler:
    def __init__(self, clock: Clock, claim: ClaimFn | None = None, store: ServerStore | None = None) -> None:
        self.clock = clock
        self.claim = claim
        self.store = store
        self.jobs: list[Periodic] = []
        self.work: list[DueWork] = []
        self.tallies: dict[str, Tally] = {}
        self._lock = asyncio.Lock()

    def every(
        self,
        name: str,
        interval: timedelta,
        fn: JobFn,
        *,
        claimed: bool = True,
        claiming: ClaimingFn | None = None,
        idle_until: Callable[[ServerTransaction], datetime | None] | None = None,
    ) -> None:
        """Run ``fn`` at each multiple of ``interval``, claimed first unless ``claimed`` is False; a job
        given ``claiming`` runs that instead, with the due time, and claims it itself. With
        ``idle_until`` (a read: when the job next has work, None when it has none), :meth:`advance`
        passes over the runs before then, which would do nothing."""
        if idle_until is not None and self.store is None:
            raise RuntimeError("idle_until needs the scheduler's store")
        first = aligned(self.clock.now(), interval)
        self.jobs.append(Periodic(name, interval, fn, first, claimed, claiming, idle_until))

    def when(self, name: str, due: Callable[[ServerTransaction], datetime | None], fn: JobFn) -> None:
        """Register work run by :meth:`advance` whenever the time ``due(tx)`` reads has come (manual
        clock). Every such work's due time is read in one transaction at each move of the clock."""
        if self.store is None:
            raise RuntimeError("work due by the state needs the scheduler's store")
        self.work.append(DueWork(name, due, fn))

    def tally(self, name: str) -> Tally:
        found = self.tallies.get(name)
        if found is None:
            found = self.tallies[name] = Tally()
        return found

    async def run_due(self) -> int:
        """Run every job due at the current time (wall clock)."""
        async with self._lock:
            return await self._run_until(self.clock.now(), step_clock=False)

    async def advance(self, seconds: float) -> datetime:
        """Manual clock: move forward ``seconds``, running due work at its due time on the way."""
        clock = self.clock
        if not isinstance(clock, ManualClock):
            raise RuntimeError("advance needs the manual clock")
        async with self._lock:
            target = clock.now() + timedelta(seconds=seconds)
            await self._run_until(target, step_clock=True)
            clock.set(target)
            for job in self.jobs:
                if job.idle_until is not None:  # its runs up to the target were passed over
                    job.next_due = max(job.next_due, aligned(target, job.interval))
            return target

    async def _run_until(self, until: datetime, *, step_clock: bool) -> int:
        ran = 0
        repeats: dict[tuple[str, datetime], int] = {}
        while True:
            dues: list[datetime | None] = []
            idle: dict[str, datetime | None] = {}
            if step_clock and (self.work or any(j.idle_until for j in self.jobs)):
                dues, idle = await self._due_times()
            # At one time the periodic jobs first (min keeps the first of equals), then the work due by
            # the state, in the order registered.
            candidates: list[tuple[datetime, str, JobFn, Periodic | None]] = []
            for j in self.jobs:
                if j.name not in idle:
                    candidates.append((j.next_due, j.name, j.fn, j))
                elif (has_work := idle[j.name]) is not None:
                    # The first of its due times at or after the work's: those before would do nothing.
                    first = aligned(has_work - timedelta(milliseconds=1), j.interval)
                    candidates.append((max(j.next_due, first), j.name, j.fn, j))
            for w, due in zip(self.work, dues, strict=False):
                if due is None:
                    continue
                due = max(due, self.clock.now())
                # Work still due at the same time after running (it could not finish) must not spin.
                if repeats.get((w.name, due), 0) < 3:
                    candidates.append((due, w.name, w.fn, None))
            if not candidates:
                break
            due_at, name, fn, job = min(candidates, key=lambda c: c[0])
            if due_at > until:
                break
            if step_clock and isinstance(self.clock, ManualClock) and due_at > self.clock.now():
                self.clock.set(due_at)
            if job is not None:
                job.next_due = due_at + job.interval
            else:
                repeats[(name, due_at)] = repeats.get((name, due_at), 0) + 1
            tally = self.tally(name)
            started = time.perf_counter()
            try:
                if job is not None and job.claiming is not None and self.claim is not None:
                    await job.claiming(due_at)
                elif job is None or not job.claimed or self.claim is None:
                    await fn()
                else:
                    tally.transactions += 1
                    if await self.claim(name, due_at):
                        await fn()
            except Exception:
                # One failing job must not stop the others; it runs again at its next due time.
                log.exception("scheduled work %s failed", name)
            tally.runs += 1
            tally.seconds += time.perf_counter() - started
            ran += 1
        return ran

    async def _due_times(self) -> tuple[list[datetime | None], dict[str, datetime | None]]:
        """When each work due by the state is next due, and when each periodic job that says so next
        has work (by name), in one transaction."""
        assert self.store is not None  # ``when`` and ``idle_until`` need it
        work = self.work
        periodic = [(j.name, j.idle_until) for j in self.jobs if j.idle_until is not None]

        def read(tx: ServerTransaction) -> tuple[list[datetime | None], dict[str, datetime | None]]:
            return [w.due(tx) for w in work], {name: idle(tx) for name, idle in periodic}

        tally = self.tally(DUE_TIMES)
        started = time.perf_counter()
        try:
            return await self.store.read(read)
        finally:
            tally.transactions += 1
            tally.seconds += time.perf_counter() - started

    async def run_forever(self, tick: float = 1.0) -> None:
        while True:
            await self.run_due()
            await asyncio.sleep(tick)


EVERY = timedelta(seconds=1)  # wall clock: how often every process looks at the work due by the state


async def run_task(store: ServerStore, task: Task, tally: Tally | None = None) -> None:
    """Each step of ``task`` in a transaction of its own, in its game's write queue, until it is done."""
    cursor: str | None = None
    queue = game_queue(task.game_id) if task.game_id else None
    while True:

        def step(tx: ServerTransaction, cursor: str | None = cursor) -> str | None:
            return task.step(tx, cursor)

        cursor = await store.run_async(step, queue=queue)
        if tally is not None:
            tally.transactions += 1
        if cursor is None:
            return


async def run_job(
    store: ServerStore,
    rt: Runtime,
    job: Job,
    tally: Tally | None = None,
    claim: datetime | None = None,
) -> None:
    """Everything ``job`` has due now; a task that fails is tried again at the next run and does not
    hold up the others. With ``claim``, the job's run due then is claimed (``tx.schedule.claim``) in the
    transaction of its first read, and nothing runs when another process claimed it."""
    tried: set[str] = set()
    tally = tally if tally is not None else Tally()
    while True:

        def due(tx: ServerTransaction) -> list[Task]:
            return [t for t in job.tasks(tx, rt) if t.key not in tried]

        if claim is not None:

            def claimed(tx: ServerTransaction, due_ms: int = to_millis(claim)) -> list[Task] | None:
                now_ms = to_millis(rt.clock.now())
                return due(tx) if tx.schedule.claim(job.name, due_ms, now_ms, flushed=False) else None

            found = await store.run_async(claimed)
            claim = None
        else:
            found = await store.read(due)
        tally.transactions += 1
        if not found:
            return
        for task in found:
            tried.add(task.key)
            try:
                await run_task(store, task, tally)
            except Exception:
                log.exception("scheduled work %s on %s failed; the next run tries again", job.name, task.key)


def schedule_jobs(scheduler: Scheduler, store: ServerStore, rt: Runtime, jobs: Sequence[Job]) -> None:
    manual = isinstance(scheduler.clock, ManualClock)
    for job in jobs:
        tally = scheduler.tally(job.name)

        async def run(job: Job = job, tally: Tally = tally) -> None:
            await run_job(store, rt, job, tally)

        async def claiming(due: datetime, job: Job = job, tally: Tally = tally) -> None:
            await run_job(store, rt, job, tally, claim=due)

        if job.every is not None:
            scheduler.every(job.name, job.every, run, claiming=claiming, idle_until=_read(rt, job.idle_until))
        elif manual:
            scheduler.when(job.name, _due_time(rt, job), run)
        else:
            scheduler.every(job.name, EVERY, run, claimed=False)


def _due_time(rt: Runtime, job: Job) -> Callable[[ServerTransaction], datetime | None]:
    when = _read(rt, job.next_due)
    assert when is not None
    return when


def _read(
    rt: Runtime, fn: Callable[[ServerTransaction, Runtime], datetime | None] | None
) -> Callable[[ServerTransaction], datetime | None] | None:
    if fn is None:
        return None

    def read(tx: ServerTransaction) -> datetime | None:
        return fn(tx, rt)

    return read


async def catch_up(store: ServerStore, rt: Runtime, jobs: Sequence[Job]) -> None:
    """Run each job due by the state once now: a server starting does what came due while none ran."""
    for job in jobs:
        if job.next_due is not None:
            try:
                await run_job(store, rt, job)
            except Exception:
                log.exception("scheduled work %s failed", job.name)
