"""Scheduled work, driven by the service clock (DECISIONS 1.2).

Jobs run at fixed intervals aligned to the clock (an hourly job at every full hour). With the wall clock
a background task runs whatever came due, once a second. With the manual clock nothing runs on its own:
:meth:`Scheduler.advance` moves the clock to each due time in order and runs the job there, so a job
sees the time it was due at, exactly as it would have in real time.
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


@attrs.define
class Job:
    name: str
    interval: timedelta
    fn: JobFn
    next_due: datetime


def _aligned(now: datetime, interval: timedelta) -> datetime:
    step = int(interval.total_seconds() * 1000)
    ms = to_millis(now)
    return from_millis((ms // step + 1) * step)


class Scheduler:
    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.jobs: list[Job] = []
        self._lock = asyncio.Lock()

    def every(self, name: str, interval: timedelta, fn: JobFn) -> None:
        self.jobs.append(Job(name, interval, fn, _aligned(self.clock.now(), interval)))

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
        while self.jobs:
            job = min(self.jobs, key=lambda j: j.next_due)
            if job.next_due > until:
                break
            if step_clock and isinstance(self.clock, ManualClock) and job.next_due > self.clock.now():
                self.clock.set(job.next_due)
            job.next_due += job.interval
            try:
                await job.fn()
            except Exception:
                # One failing job must not stop the others; it runs again at its next due time.
                log.exception("scheduled job %s failed", job.name)
            ran += 1
        return ran

    async def run_forever(self, tick: float = 1.0) -> None:
        while True:
            await self.run_due()
            await asyncio.sleep(tick)
