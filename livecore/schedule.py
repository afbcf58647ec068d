"""Scheduled work, declared by the areas and driven the same way everywhere.

An area declares each piece of its scheduled work as a :class:`Job`: what is due now (``tasks``, a read),
and either when it is next due (``next_due``: window closes, rollovers, lobby fills, which the state
says) or a fixed period (``every``: sweeps). Each :class:`Task` runs in transactions of its own, in its
game's write queue, one step at a time until it says it is done: a big window does not hold up the
others, a rollover is served between its steps, and a task that fails is tried again at the next run
without holding up the rest. Every step decides from the state what is left to do, so running a job
twice, or in two processes at once, does the work once.

Who drives the jobs: the server (``livecore_server/scheduler.py``: the wall clock, several processes,
catch-up at start) and an embedded user (:class:`Schedule`, on a manual clock, for simulations and
tests). Both run :func:`run_job`'s order: read what is due, run each task it has not tried in this run,
read again, until nothing new is due. The embedded schedule keeps a job's next due time while the tables
it reads are unwritten (:attr:`Job.reads`, :class:`Schedule`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

import attrs

from livecore.clock import ManualClock, from_millis, to_millis

#: A task's step: ``(transaction, cursor) -> next cursor``; None when the task is done. The cursor is
#: where the last committed step stopped (None at the first), so a step retried by the store is safe.
Step = Callable[[Any, str | None], str | None]


@attrs.frozen
class Task:
    """One piece of due work: ``key`` names what it works on (a run tries each key once), ``game_id`` the
    game whose write queue its steps run in (None: none in particular)."""

    key: str
    game_id: str | None
    step: Step


def once(fn: Callable[[Any], object]) -> Step:
    """A step that does its work in one transaction."""

    def step(tx: Any, cursor: str | None) -> str | None:
        fn(tx)
        return None

    return step


def until_false(fn: Callable[[Any], bool]) -> Step:
    """A step repeated while ``fn`` says there is more (a sweep that works in batches)."""

    def step(tx: Any, cursor: str | None) -> str | None:
        return "more" if fn(tx) else None

    return step


@attrs.frozen
class Job:
    """Scheduled work: ``tasks(tx, rt)`` reads what is due now. A job with ``next_due`` runs when its time
    comes (``next_due(tx, rt)``, None when nothing is due) and is looked at by every process; a job with
    ``every`` runs at each multiple of the period on the clock (an hourly job at every full hour), in
    one process only. A job with ``every`` may say when it next has work (``idle_until(tx, rt)``, None
    when it has none): its runs before then do nothing, so a scheduler moving a manual clock passes over
    them (a minute sweep does not run 1,440 times in a day with nothing to sweep).

    A job with ``next_due`` may name the in-memory tables ``next_due`` reads (``reads``: ``"games"``, or
    ``"<area>.<table>"``): :class:`Schedule` then keeps its answer until one of them is written or the
    clock reaches it. Such a ``next_due`` must give, for an unchanged state, the same answer at any later
    time up to that answer (None: at any later time); a time read from the state does, and so does the
    next start of a window on a calendar, which the clock only reaches by passing that start."""

    name: str
    tasks: Callable[[Any, Any], Sequence[Task]]
    next_due: Callable[[Any, Any], datetime | None] | None = None
    every: timedelta | None = None
    idle_until: Callable[[Any, Any], datetime | None] | None = None
    reads: tuple[str, ...] = ()

    def __attrs_post_init__(self) -> None:
        if (self.next_due is None) == (self.every is None):
            raise ValueError(f"job {self.name}: give next_due or every, not both")
        if self.idle_until is not None and self.every is None:
            raise ValueError(f"job {self.name}: idle_until is for a job run every period")
        if self.reads and self.next_due is None:
            raise ValueError(f"job {self.name}: reads is for a job due by the state")


class KeptAnswerError(Exception):
    """A job's kept next due time is not what the job answers now (:attr:`Schedule.checked`): its
    ``next_due`` reads a table its ``reads`` does not name, or its answer moves with the clock."""


def aligned(now: datetime, interval: timedelta) -> datetime:
    """The first multiple of ``interval`` on the clock after ``now``."""
    step = int(interval.total_seconds() * 1000)
    return from_millis((to_millis(now) // step + 1) * step)


class EmbeddedStore(Protocol):
    """What :class:`Schedule` needs of a store (``MemoryStore``): a transaction as a context manager, and
    a count of the writes to some of its tables (:meth:`livecore.memory.store.MemoryStore.writes`)."""

    def transaction(self) -> Any: ...

    def writes(self, tables: Iterable[str]) -> Callable[[], int]: ...


def run_task(store: EmbeddedStore, task: Task) -> None:
    """Each step of ``task`` in a transaction of its own, until it is done."""
    cursor: str | None = None
    while True:
        with store.transaction() as tx:
            cursor = task.step(tx, cursor)
        if cursor is None:
            return


def run_job(store: EmbeddedStore, rt: Any, job: Job) -> None:
    """Run everything ``job`` has due now, on an embedded store (the server runs the same order, async)."""
    tried: set[str] = set()
    while True:
        with store.transaction() as tx:
            due = [t for t in job.tasks(tx, rt) if t.key not in tried]
        if not due:
            return
        for task in due:
            tried.add(task.key)
            run_task(store, task)


class Schedule:
    """The jobs of the registered areas on an embedded store and a manual clock: :meth:`advance` moves
    the clock and runs each job that falls due, at its due time, in time order, as the server's scheduler
    does with its test clock: at one time the periodic jobs first, then those due by the state, each in
    the order the areas declare them (a window that ends when the next starts closes before it opens).

    It looks for the next due job at every move of the clock, and a simulated season moves it a few times
    for every player and day. A job that names the tables it reads (:attr:`Job.reads`) is not asked each
    time: its answer is kept, with the count of writes to those tables then, and holds until the count
    moves or the clock reaches the answer. ``checked`` (for tests) asks every job anyway and raises
    :class:`KeptAnswerError` when a kept answer differs from the fresh one."""

    checked = False

    def __init__(self, store: EmbeddedStore, rt: Any, jobs: Iterable[Job]) -> None:
        if not isinstance(rt.clock, ManualClock):
            raise TypeError("an embedded schedule runs on a ManualClock")
        self.store = store
        self.rt = rt
        self.clock: ManualClock = rt.clock
        jobs = tuple(jobs)
        self.jobs = (*(j for j in jobs if j.every), *(j for j in jobs if not j.every))
        self._periodic = {j.name: aligned(self.clock.now(), j.every) for j in self.jobs if j.every}
        self._paused: set[str] = set()
        self._writes = {j.name: store.writes(j.reads) for j in self.jobs if j.reads}
        # A job's kept answer: (the count of writes to its tables then, when it was asked, the answer).
        self._kept: dict[str, tuple[int, datetime, datetime | None]] = {}

    def only(self, names: Iterable[str]) -> None:
        """Run only the periodic jobs ``names`` from now on (a simulation over months may leave out the
        minute sweeps); one taken back is next due at its next multiple of its period. The jobs due by
        the state always run."""
        wanted = set(names)
        for job in self.jobs:
            if job.every is not None and job.name in wanted and job.name in self._paused:
                self._periodic[job.name] = aligned(self.clock.now(), job.every)
        self._paused = {j.name for j in self.jobs if j.every is not None and j.name not in wanted}

    def _next(self, ran: dict[tuple[str, datetime], int]) -> tuple[datetime, Job] | None:
        found: tuple[datetime, Job] | None = None
        now = self.clock.now()
        # One read of the state for every job: this runs at each move of the clock.
        with self.store.transaction() as tx:
            for job in self.jobs:
                if job.name in self._paused:
                    continue
                if job.every is not None:
                    due: datetime | None = self._periodic[job.name]
                else:
                    due = self._next_due(job, tx, now)
                    if due is not None:
                        due = max(due, now)
                # Work still due at the same time after three runs (it could not finish) must not spin.
                if due is not None and ran.get((job.name, due), 0) >= 3:
                    continue
                if due is not None and (found is None or due < found[0]):
                    found = (due, job)
        return found

    def _next_due(self, job: Job, tx: Any, now: datetime) -> datetime | None:
        assert job.next_due is not None
        writes = self._writes.get(job.name)
        if writes is None:
            return job.next_due(tx, self.rt)
        count = writes()
        kept = self._kept.get(job.name)
        if kept is not None and kept[0] == count and kept[1] <= now and (kept[2] is None or now < kept[2]):
            if self.checked and (asked := job.next_due(tx, self.rt)) != kept[2]:
                raise KeptAnswerError(f"job {job.name} at {now}: kept {kept[2]}, asked {asked}")
            return kept[2]
        due = job.next_due(tx, self.rt)
        self._kept[job.name] = (count, now, due)
        return due

    def run_due(self) -> None:
        """Run every job due at the current time."""
        self.advance(timedelta(0))

    def advance(self, by: timedelta) -> datetime:
        """Move the clock forward ``by``, running due work at its due time on the way."""
        target = self.clock.now() + by
        ran: dict[tuple[str, datetime], int] = {}
        while (nxt := self._next(ran)) is not None and nxt[0] <= target:
            due, job = nxt
            ran[(job.name, due)] = ran.get((job.name, due), 0) + 1
            if due > self.clock.now():
                self.clock.set(due)
            if job.every is not None:
                self._periodic[job.name] = due + job.every
            run_job(self.store, self.rt, job)
        self.clock.set(target)
        return target
