"""The window of an event open now (docs/events.md#windows): recorded on its first mention, by a start, a
lobby push or the scheduler, whichever comes first."""

from __future__ import annotations

from typing import Protocol

from livecore.commands import Runtime, emit
from livecore.games import Game
from livecore.live_events.rules import Window, WindowStatus, opened, slot_at, window_id
from livecore.live_events.settings import EventSettings
from livecore.live_events.store.windows import HasWindows
from livecore.live_events.webhooks import WindowOpened
from livecore.scope import Environment, Scope
from livecore.store.outbox import HasOutbox


class WindowsTx(HasWindows, HasOutbox, Protocol):
    """The ports these commands use."""


def current_window(
    tx: WindowsTx, rt: Runtime, scope: Scope, game: Game, event: EventSettings
) -> Window | None:
    """The event's window open now in the scope's environment, recorded (``window.opened`` for a live
    one) if this is its first mention; None when none is open."""
    now = rt.clock.now()
    slot = slot_at(event, now)
    if slot is None:
        return None
    window = tx.windows.get(game.id, window_id(game.id, scope.env, event.key, slot.starts_at))
    if window is None:
        window = opened(game, scope.env, event, slot, now)
        tx.windows.insert(window)
        if scope.env is Environment.LIVE:
            emit(tx, rt, scope, WindowOpened.of(window, now))
    # A window recorded with other settings (the manifest changed under it) may end before the slot does.
    return window if window.status is WindowStatus.OPEN and now < window.ends_at else None
