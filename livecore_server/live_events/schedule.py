"""The scheduled work of live events: windows open and close, attempts expire, by the service clock
(docs/deployment.md, "Live events"); and the periods of shared leaderboards roll over
(:mod:`livecore_server.leaderboards.schedule`) and forming lobbies start at their ``fill_by``
(:mod:`livecore_server.lobbies.schedule`), scheduled the same way.

Wall clock: every second, in every process, unclaimed; each looks with a read first, so nothing is
written while nothing is due. Each command decides from the state what is left to do (a recorded window
is not opened again, a closed one not closed again, an expired attempt not expired again), and on
PostgreSQL SERIALIZABLE lets one of two processes doing the same thing win, the other then finding it
done. Manual clock: each runs at the time it is next due (``Scheduler.when``), so ``clock/advance`` opens
and closes windows at their very start and end. A starting server runs all three once before it serves
(what came due while no server ran).

Each due window closes in a transaction of its own, in its game's write queue: a big window does not
hold up the others, and a close that fails leaves its window open for the next run.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from livecore.live_events.commands.live_events import (
    close_window,
    due_windows,
    expire_attempts,
    next_closing,
    next_expiry,
    next_opening,
    open_due_windows,
)
from livecore_server.leaderboards import schedule as leaderboard_schedule
from livecore_server.lobbies import schedule as lobby_schedule
from livecore_server.storage.server_store import ServerTransaction, game_queue

if TYPE_CHECKING:
    from livecore_server.services import Services

log = logging.getLogger("livecore_server")

EVERY = timedelta(seconds=1)  # wall clock: how often windows and attempts are looked at
CLOSE_BATCH = 100  # due windows read at once; each then closes in its own transaction


async def open_windows(s: Services) -> None:
    await s.store.run_async(lambda tx: open_due_windows(tx, s.runtime))


async def close_windows(s: Services) -> None:
    tried: set[str] = set()
    while True:
        due = await s.store.read(lambda tx: due_windows(tx, s.runtime, CLOSE_BATCH))
        due = [w for w in due if w.id not in tried]
        if not due:
            return
        for window in due:
            tried.add(window.id)
            try:
                await s.store.run_async(
                    functools.partial(
                        close_window, rt=s.runtime, window_id_=window.id, game_id=window.game_id
                    ),
                    queue=game_queue(window.game_id),
                )
            except Exception:
                log.exception("closing window %s failed; the next run tries again", window.id)


async def expire(s: Services) -> None:
    while await s.store.run_async(lambda tx: expire_attempts(tx, s.runtime)):
        pass


Job = Callable[["Services"], Awaitable[None]]
Due = Callable[["Services", ServerTransaction], datetime | None]

# Closing first: a window that ends when the next one starts is closed before that one opens.
JOBS: tuple[tuple[str, Job, Due], ...] = (
    ("live_windows_close", close_windows, lambda s, tx: next_closing(tx)),
    ("live_windows_open", open_windows, lambda s, tx: next_opening(tx, s.runtime)),
    ("live_attempts_expiry", expire, lambda s, tx: next_expiry(tx)),
    ("lobby_fill_timeouts", lobby_schedule.fill_due, lobby_schedule.next_due),
    ("leaderboard_rollover", leaderboard_schedule.roll_due, leaderboard_schedule.next_due),
)


def register(s: Services) -> None:
    for name, job, due in JOBS:
        if s.manual_clock:
            s.scheduler.when(name, _due_time(s, due), _when_due(s, job, due))
        else:
            s.scheduler.every(name, EVERY, _when_due(s, job, due), claimed=False)


def _when_due(s: Services, job: Job, due: Due) -> Callable[[], Awaitable[None]]:
    """``job``, run only when its work is due: a read first, so that the every-second look of each
    process writes nothing (on PostgreSQL, no SERIALIZABLE transaction) while nothing is due."""

    async def run() -> None:
        when = await s.store.read(lambda tx: due(s, tx))
        if when is not None and when <= s.clock.now():
            await job(s)

    return run


def _due_time(s: Services, due: Due) -> Callable[[], datetime | None]:
    def when() -> datetime | None:
        return s.store.run(lambda tx: due(s, tx), write=False)

    return when


async def catch_up(s: Services) -> None:
    """Run each once now: a server starting does what came due while none ran."""
    for name, job, due in JOBS:
        try:
            await _when_due(s, job, due)()
        except Exception:
            log.exception("scheduled work %s failed", name)
