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
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta

import attrs

from livecore.clock import Clock, ManualClock
from livecore.commands import Runtime
from livecore.schedule import Job, Task, aligned
from livecore_server.storage.server_store import ServerStore, ServerTransaction, game_queue

log = logging.getLogger(__name__)

JobFn = Callable[[], Awaitable[None]]
# (job name, due time) -> True for the one process that runs it.
ClaimFn = Callable[[str, datetime], Awaitable[bool]]


@attrs.define
class Periodic:
    name: str
    interval: timedelta
    fn: JobFn
    next_due: datetime
    claimed: bool = True


@attrs.define
class DueWork:
    """Work that computes its own next due time (None: nothing to do)."""

    name: str
    due: Callable[[], datetime | None]
    fn: JobFn


class Scheduler:
    def __init__(self, clock: Clock, claim: ClaimFn | None = None) -> None:
        self.clock = clock
        self.claim = claim
        self.jobs: list[Periodic] = []
        self.work: list[DueWork] = []
        self._lock = asyncio.Lock()

    def every(self, name: str, interval: timedelta, fn: JobFn, *, claimed: bool = True) -> None:
        self.jobs.append(Periodic(name, interval, fn, aligned(self.clock.now(), interval), claimed))

    def when(self, name: str, due: Callable[[], datetime | None], fn: JobFn) -> None:
        """Register work run by :meth:`advance` whenever ``due()`` has come (manual clock)."""
        self.work.append(DueWork(name, due, fn))

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
            return target

    async def _run_until(self, until: datetime, *, step_clock: bool) -> int:
        ran = 0
        repeats: dict[tuple[str, datetime], int] = {}
        while True:
            candidates: list[tuple[datetime, str, JobFn, Periodic | None]] = [
                (j.next_due, j.name, j.fn, j) for j in self.jobs
            ]
            if step_clock:
                for w in self.work:
                    due = w.due()
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
                job.next_due += job.interval
            else:
                repeats[(name, due_at)] = repeats.get((name, due_at), 0) + 1
            try:
                if job is None or not job.claimed or self.claim is None or await self.claim(name, due_at):
                    await fn()
            except Exception:
                # One failing job must not stop the others; it runs again at its next due time.
                log.exception("scheduled work %s failed", name)
            ran += 1
        return ran

    async def run_forever(self, tick: float = 1.0) -> None:
        while True:
            await self.run_due()
            await asyncio.sleep(tick)


EVERY = timedelta(seconds=1)  # wall clock: how often every process looks at the work due by the state


async def run_task(store: ServerStore, task: Task) -> None:
    """Each step of ``task`` in a transaction of its own, in its game's write queue, until it is done."""
    cursor: str | None = None
    queue = game_queue(task.game_id) if task.game_id else None
    while True:

        def step(tx: ServerTransaction, cursor: str | None = cursor) -> str | None:
            return task.step(tx, cursor)

        cursor = await store.run_async(step, queue=queue)
        if cursor is None:
            return


async def run_job(store: ServerStore, rt: Runtime, job: Job) -> None:
    """Everything ``job`` has due now; a task that fails is tried again at the next run and does not
    hold up the others."""
    tried: set[str] = set()
    while True:
        due = await store.read(lambda tx: [t for t in job.tasks(tx, rt) if t.key not in tried])
        if not due:
            return
        for task in due:
            tried.add(task.key)
            try:
                await run_task(store, task)
            except Exception:
                log.exception("scheduled work %s on %s failed; the next run tries again", job.name, task.key)


def schedule_jobs(scheduler: Scheduler, store: ServerStore, rt: Runtime, jobs: Sequence[Job]) -> None:
    manual = isinstance(scheduler.clock, ManualClock)
    for job in jobs:

        async def run(job: Job = job) -> None:
            await run_job(store, rt, job)

        if job.every is not None:
            scheduler.every(job.name, job.every, run)
        elif manual:
            scheduler.when(job.name, _due_time(store, rt, job), run)
        else:
            scheduler.every(job.name, EVERY, run, claimed=False)


def _due_time(store: ServerStore, rt: Runtime, job: Job) -> Callable[[], datetime | None]:
    next_due = job.next_due
    assert next_due is not None

    def when() -> datetime | None:
        return store.run(lambda tx: next_due(tx, rt), write=False)

    return when


async def catch_up(store: ServerStore, rt: Runtime, jobs: Sequence[Job]) -> None:
    """Run each job due by the state once now: a server starting does what came due while none ran."""
    for job in jobs:
        if job.next_due is not None:
            try:
                await run_job(store, rt, job)
            except Exception:
                log.exception("scheduled work %s failed", job.name)
