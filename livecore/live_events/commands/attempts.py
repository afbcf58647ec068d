"""How an attempt ends, whatever ends it (docs/events.md#attempts): its time runs out, its window or its
lobby closes, or it completes. Shared by the live-event and the lobby commands.

An area that builds on live events adds what a finishing attempt does there at :data:`FINISH`, in its
declaration (the shared leaderboards take the score of an event that feeds them): live events name no area
that builds on them."""

from __future__ import annotations

from typing import Any, Protocol

from livecore.commands import Runtime, emit
from livecore.contributions import Point
from livecore.live_events.attempts import Attempt, AttemptTrigger, transition
from livecore.live_events.commands.boards import BoardsTx
from livecore.live_events.settings import EventSettings
from livecore.live_events.store.attempts import HasAttempts
from livecore.live_events.store.windows import HasWindows
from livecore.live_events.webhooks import AttemptExpired
from livecore.players.rules import Player
from livecore.scope import Scope


class AttemptsTx(BoardsTx, HasWindows, HasAttempts, Protocol):
    """The ports these commands use. A step added at :data:`FINISH` is handed the same transaction, which
    holds every registered area's ports, and is typed against those of the area that adds it."""


class FinishStep(Protocol):
    """What an area does when an attempt finishes, in the transaction that finishes it: ``event`` is the
    settings of the attempt's window."""

    def __call__(
        self,
        tx: Any,
        rt: Runtime,
        scope: Scope,
        event: EventSettings,
        player: Player,
        attempt: Attempt,
    ) -> None: ...


FINISH: Point[FinishStep] = Point("live_events.finish")
"""What every finishing attempt does besides its own end: each area's step, declared
``Area(contributes=(FINISH(step),))``, in the areas' order."""


def expire(tx: AttemptsTx, rt: Runtime, scope: Scope, attempt: Attempt) -> Attempt:
    """The attempt, in progress, expires now (``event.expired``); its score stands."""
    expired = transition(attempt, AttemptTrigger.EXPIRE, rt.clock.now())
    tx.attempts.update(expired)
    finished(tx, rt, scope, expired)
    emit(tx, rt, scope, AttemptExpired.of(expired))
    return expired


def finished(tx: AttemptsTx, rt: Runtime, scope: Scope, attempt: Attempt) -> None:
    """What every finishing attempt does (completed, force-completed, expired), once: the steps the
    areas building on live events added (:data:`FINISH`)."""
    window = tx.windows.get(attempt.game_id, attempt.window_id)
    player = tx.players.by_id(attempt.player_id)
    assert window is not None and player is not None
    for step in rt.contributions.of(FINISH):
        step(tx, rt, scope, window.settings, player, attempt)
    if rt.checks.active:
        rt.checks.hook.after_finish_attempt(tx=tx, rt=rt, scope=scope, player=player, attempt=attempt)
