"""The server's scheduled work, run on the in-memory store: what ``POST .../dev/clock/advance`` runs on the
server, for an embedded runtime on a manual clock (tests/server/test_embedded_equivalence.py).

The core has no scheduler of its own yet; this is the one place that stands in for it, and the one to
replace when it comes. It calls the commands the server's schedule modules call, in the server's
:class:`~livecore_server.scheduler.Scheduler` order:

- the periodic jobs of ``livecore_server.services.schedule_sweeps`` (:data:`PERIODIC`), each at its
  interval aligned to the clock (an hourly job at every full hour), that need no server: the grant expiry
  sweep, the guild succession sweep and the login-streak sweep (the idempotency purge and the webhook
  history retention are the server's storage housekeeping and change no outcome);
- the work that says when it is next due (``livecore_server.live_events.schedule.JOBS``, :data:`DUE`):
  windows close, windows open, attempts expire, lobbies start at their ``fill_by``, shared leaderboards'
  periods roll over, each run at its very due time.

The next piece to run is the one due first; at equal times the periodic jobs first, in their order, then
the due work in its order (closing a window before opening the next), as the server's scheduler picks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import TypeVar

import attrs

from livecore.clock import ManualClock, from_millis, to_millis
from livecore.commands import Runtime
from livecore.grants.commands import SWEEP_BATCH, expire_grants
from livecore.guilds.commands import hand_on_inactive
from livecore.leaderboards.commands import next_rollover, periods_due, rollover_step
from livecore.live_events.commands.live_events import (
    close_window,
    due_windows,
    expire_attempts,
    next_closing,
    next_expiry,
    next_opening,
    open_due_windows,
)
from livecore.lobbies.commands import fill_lobby, lobbies_to_fill, next_fill
from livecore.memory import MemoryStore
from livecore.players.commands import sweep_streaks
from livecore.store import Transaction

Run = Callable[[MemoryStore, Runtime], None]
T = TypeVar("T")


def _in(store: MemoryStore, step: Callable[[Transaction], T]) -> T:
    """``step`` in a transaction of its own, as each of the server's is."""
    with store.transaction() as tx:
        return step(tx)


def grant_expiry(store: MemoryStore, rt: Runtime) -> None:
    while _in(store, lambda tx: expire_grants(tx, rt)) == SWEEP_BATCH:
        pass


def guild_succession(store: MemoryStore, rt: Runtime) -> None:
    for game in _in(store, lambda tx: tx.games.with_guilds()):
        after = None
        while True:
            after = _in(store, lambda tx: hand_on_inactive(tx, rt, game.id, after))  # noqa: B023
            if after is None:
                break


def login_streaks(store: MemoryStore, rt: Runtime) -> None:
    _in(store, lambda tx: sweep_streaks(tx, rt))


def close_windows(store: MemoryStore, rt: Runtime) -> None:
    tried: set[str] = set()
    while due := [w for w in _in(store, lambda tx: due_windows(tx, rt, 100)) if w.id not in tried]:
        for window in due:
            tried.add(window.id)
            _in(store, lambda tx: close_window(tx, rt, window.id, window.game_id))  # noqa: B023


def open_windows(store: MemoryStore, rt: Runtime) -> None:
    _in(store, lambda tx: open_due_windows(tx, rt))


def expire(store: MemoryStore, rt: Runtime) -> None:
    while _in(store, lambda tx: expire_attempts(tx, rt)):
        pass


def fill_lobbies(store: MemoryStore, rt: Runtime) -> None:
    tried: set[str] = set()
    while due := [lb for lb in _in(store, lambda tx: lobbies_to_fill(tx, rt)) if lb.id not in tried]:
        for lobby in due:
            tried.add(lobby.id)
            _in(store, lambda tx: fill_lobby(tx, rt, lobby.game_id, lobby.id))  # noqa: B023


def roll_periods(store: MemoryStore, rt: Runtime) -> None:
    tried: set[str] = set()
    while due := [p for p in _in(store, lambda tx: periods_due(tx, rt, 100)) if p.id not in tried]:
        for period in due:
            tried.add(period.id)
            roll(store, rt, period.game_id, period.id)


def roll(store: MemoryStore, rt: Runtime, game_id: str, period_id: str) -> None:
    """Every step of one period's rollover, until it is finalized (also the rollover-now's)."""
    while not _in(store, lambda tx: rollover_step(tx, rt, game_id, period_id)):
        pass


# (server job name, interval, run): the periodic jobs of livecore_server.services.schedule_sweeps.
PERIODIC: tuple[tuple[str, timedelta, Run], ...] = (
    ("grant_expiry_sweep", timedelta(minutes=1), grant_expiry),
    ("guild_succession_sweep", timedelta(hours=1), guild_succession),
    ("login_streak_sweep", timedelta(hours=1), login_streaks),
)

# (server work name, when next due, run): livecore_server.live_events.schedule.JOBS, in its order.
DUE: tuple[tuple[str, Callable[[Transaction, Runtime], datetime | None], Run], ...] = (
    ("live_windows_close", lambda tx, rt: next_closing(tx), close_windows),
    ("live_windows_open", lambda tx, rt: next_opening(tx, rt), open_windows),
    ("live_attempts_expiry", lambda tx, rt: next_expiry(tx), expire),
    ("lobby_fill_timeouts", lambda tx, rt: next_fill(tx), fill_lobbies),
    ("leaderboard_rollover", lambda tx, rt: next_rollover(tx), roll_periods),
)


def _aligned(now: datetime, interval: timedelta) -> datetime:
    step = int(interval.total_seconds() * 1000)
    return from_millis((to_millis(now) // step + 1) * step)


@attrs.define
class _Periodic:
    name: str
    interval: timedelta
    run: Run
    next_due: datetime


class EmbeddedScheduler:
    """The scheduled work of an embedded runtime on a manual clock. ``periodic``: the names of the
    :data:`PERIODIC` jobs to run (the server may leave some out)."""

    def __init__(self, store: MemoryStore, rt: Runtime, periodic: Iterable[str]) -> None:
        assert isinstance(rt.clock, ManualClock)
        self.store, self.rt, self.clock = store, rt, rt.clock
        wanted = set(periodic)
        now = self.clock.now()
        self.all_jobs = [_Periodic(n, i, r, _aligned(now, i)) for n, i, r in PERIODIC if n in wanted]
        self.jobs = list(self.all_jobs)

    def run_only(self, names: Iterable[str]) -> None:
        """Run only the periodic jobs ``names`` from now on (a job taken back is due at its next aligned
        time), as a test does to the server's ``Scheduler.jobs``."""
        wanted, now = set(names), self.clock.now()
        running = {j.name for j in self.jobs}
        self.jobs = [
            j if j.name in running else _Periodic(j.name, j.interval, j.run, _aligned(now, j.interval))
            for j in self.all_jobs
            if j.name in wanted
        ]

    def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` on, running each piece of work at the time it comes due."""
        until = self.clock.now() + timedelta(seconds=seconds)
        repeats: dict[tuple[str, datetime], int] = {}
        while True:
            candidates: list[tuple[datetime, str, Run, _Periodic | None]] = [
                (j.next_due, j.name, j.run, j) for j in self.jobs
            ]
            for name, when, run in DUE:
                with self.store.transaction() as tx:
                    due = when(tx, self.rt)
                if due is None:
                    continue
                due = max(due, self.clock.now())
                assert repeats.get((name, due), 0) < 3, f"{name} is still due at {due} after it ran"
                candidates.append((due, name, run, None))
            if not candidates:
                break
            at, name, run, job = min(candidates, key=lambda c: c[0])
            if at > until:
                break
            if at > self.clock.now():
                self.clock.set(at)
            if job is not None:
                job.next_due += job.interval
            else:
                repeats[(name, at)] = repeats.get((name, at), 0) + 1
            run(self.store, self.rt)
        self.clock.set(until)
