"""The rollover of shared leaderboards' periods at their end (docs/deployment.md, "Shared leaderboards").

A period rolls over in steps (:func:`livecore.leaderboards.commands.rollover_step`), each its own
transaction in its game's write queue: the game's requests are served between the steps, and a rollover
cut short (a crash, a failed step) resumes at the next run where it stopped. The steps decide from the
period's state what is left to do, so two processes rolling one period finish it once between them
(on PostgreSQL, SERIALIZABLE and the game's queue order them): one ``leaderboard.period_finalized``, each
rank paid once.

Wall clock: every second, in every process, unclaimed, after a read of the next end (nothing is written
while nothing is due). Manual clock: at the earliest end of an open period (``Scheduler.when``), so
``clock/advance`` rolls a period at its very boundary. The test environment's rollover-now runs the same
steps (:func:`roll`).
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING

from livecore.leaderboards.commands import next_rollover, periods_due, rollover_step
from livecore_server.storage.server_store import ServerTransaction, game_queue

if TYPE_CHECKING:
    from livecore_server.services import Services

log = logging.getLogger("livecore_server")

DUE_BATCH = 100  # due periods read at once; each then rolls over on its own


async def roll(s: Services, game_id: str, period_id: str) -> None:
    """Every step of one period's rollover, until it is finalized."""

    def step(tx: ServerTransaction) -> bool:
        return rollover_step(tx, s.runtime, game_id, period_id)

    while not await s.store.run_async(step, queue=game_queue(game_id)):
        pass


async def roll_due(s: Services) -> None:
    """Every period whose end has come (or whose rollover was cut short); one failing is tried again at
    the next run and does not hold up the others."""
    tried: set[str] = set()
    while True:
        due = await s.store.read(lambda tx: periods_due(tx, s.runtime, DUE_BATCH))
        due = [p for p in due if p.id not in tried]
        if not due:
            return
        for period in due:
            tried.add(period.id)
            try:
                await roll(s, period.game_id, period.id)
            except Exception:
                log.exception("rolling over period %s failed; the next run tries again", period.id)


def next_due(s: Services, tx: ServerTransaction) -> datetime | None:
    return next_rollover(tx)
