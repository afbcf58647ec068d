"""How an attempt ends, whatever ends it (docs/events.md#attempts): its time runs out, its window or its
lobby closes, or it completes. Shared by the live-event and the lobby commands."""

from __future__ import annotations

from typing import Protocol

from livecore.commands import Runtime, emit
from livecore.leaderboards.commands import feed
from livecore.live_events.attempts import Attempt, AttemptTrigger, transition
from livecore.live_events.commands.boards import BoardsTx
from livecore.live_events.webhooks import AttemptExpired
from livecore.scope import Scope
from livecore.store import HasAttempts, HasLeaderboards, HasWindows


class AttemptsTx(BoardsTx, HasWindows, HasAttempts, HasLeaderboards, Protocol):
    """The ports these commands use."""


def expire(tx: AttemptsTx, rt: Runtime, scope: Scope, attempt: Attempt) -> Attempt:
    """The attempt, in progress, expires now (``event.expired``); its score stands."""
    expired = transition(attempt, AttemptTrigger.EXPIRE, rt.clock.now())
    tx.attempts.update(expired)
    finished(tx, rt, scope, expired)
    emit(tx, rt, scope, AttemptExpired.of(expired))
    return expired


def finished(tx: AttemptsTx, rt: Runtime, scope: Scope, attempt: Attempt) -> None:
    """What every finishing attempt does (completed, force-completed, expired): its score feeds the
    shared boards its event lists, once."""
    window = tx.windows.get(attempt.game_id, attempt.window_id)
    player = tx.players.by_id(attempt.player_id)
    assert window is not None and player is not None
    feed(tx, rt, scope, window.settings, player, attempt)
