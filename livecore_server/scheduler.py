"""Scheduled work, driven by the service clock (docs/reference/manifest-and-cli.md#manual-clock).

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
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

import attrs

from livecore.clock import Clock, ManualClock, from_millis, to_millis

log = logging.getLogger(__name__)

JobFn = Callable[[], Awaitable[None]]
# (job name, due time) -> True for the one process that runs it.
ClaimFn = Callable[[str, datetime], Awaitable[bool]]


@attrs.define
class Job:
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


def _aligned(now: datetime, interval: timedelta) -> datetime:
    step = int(interval.total_seconds() * 1000)
    ms = to_millis(now)
    return from_millis((ms // step + 1) * step)


class Scheduler:
    def __init__(self, clock: Clock, claim: ClaimFn | None = None) -> None:
        self.clock = clock
        self.claim = claim
        self.jobs: list[Job] = []
        self.work: list[DueWork] = []
        self._lock = asyncio.Lock()

    def every(self, name: str, interval: timedelta, fn: JobFn, *, claimed: bool = True) -> None:
        self.jobs.append(Job(name, interval, fn, _aligned(self.clock.now(), interval), claimed))

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
            candidates: list[tuple[datetime, str, JobFn, Job | None]] = [
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
