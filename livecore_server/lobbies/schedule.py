"""Lobbies' ``fill_by`` deadlines (docs/lobbies.md#filling), scheduled with the live-event work
(:mod:`livecore_server.live_events.schedule`): with the wall clock every process looks every second; with the
manual clock each forming lobby starts at its very ``fill_by``.

Each due lobby is promoted in a transaction of its own, in its game's write queue, so it starts once
across processes (the command finds a lobby promoted already and does nothing), and one that fails is
tried again at the next run without holding up the others.
"""

from __future__ import annotations

import functools
import logging
from datetime import datetime
from typing import TYPE_CHECKING

from livecore.lobbies.commands import fill_lobby, lobbies_to_fill, next_fill
from livecore_server.storage.server_store import ServerTransaction, game_queue

if TYPE_CHECKING:
    from livecore_server.services import Services

log = logging.getLogger("livecore_server")


async def fill_due(s: Services) -> None:
    tried: set[str] = set()
    while True:
        due = await s.store.read(lambda tx: lobbies_to_fill(tx, s.runtime))
        due = [lobby for lobby in due if lobby.id not in tried]
        if not due:
            return
        for lobby in due:
            tried.add(lobby.id)
            try:
                await s.store.run_async(
                    functools.partial(fill_lobby, rt=s.runtime, game_id=lobby.game_id, lobby_id=lobby.id),
                    queue=game_queue(lobby.game_id),
                )
            except Exception:
                log.exception("starting lobby %s at its fill_by failed; the next run tries again", lobby.id)


def next_due(s: Services, tx: ServerTransaction) -> datetime | None:
    return next_fill(tx)
