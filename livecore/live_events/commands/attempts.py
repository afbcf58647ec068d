"""How an attempt ends, whatever ends it (docs/events.md#attempts): its time runs out, its window or its
lobby closes, or it completes. Shared by the live-event and the lobby commands.

An area that builds on live events adds what a finishing attempt does there with :func:`on_finish`
when it is registered (the shared leaderboards take the score of an event that feeds them): live events
name no area that builds on them."""

from __future__ import annotations

from typing import Protocol

from livecore.commands import Runtime, emit
from livecore.live_events.attempts import Attempt, AttemptTrigger, transition
from livecore.live_events.commands.boards import BoardsTx
from livecore.live_events.settings import EventSettings
from livecore.live_events.webhooks import AttemptExpired
from livecore.players.rules import Player
from livecore.scope import Scope
from livecore.store import HasAttempts, HasLeaderboards, HasWindows


class AttemptsTx(BoardsTx, HasWindows, HasAttempts, HasLeaderboards, Protocol):
    """The ports these commands and the steps registered with :func:`on_finish` use."""


class FinishStep(Protocol):
    """What an area does when an attempt finishes, in the transaction that finishes it: ``event`` is the
    settings of the attempt's window."""

    def __call__(
        self,
        tx: AttemptsTx,
        rt: Runtime,
        scope: Scope,
        event: EventSettings,
        player: Player,
        attempt: Attempt,
    ) -> None: ...


# By the step's dotted name, in the order added: a module imported again (a reload) replaces its step
# rather than adding a second one, which would feed a board twice.
_FINISH_STEPS: dict[str, FinishStep] = {}


def on_finish(step: FinishStep) -> FinishStep:
    """Adds ``step`` to what every finishing attempt does, after the steps added before it."""
    _FINISH_STEPS[f"{step.__module__}.{getattr(step, '__qualname__', repr(step))}"] = step
    return step


def expire(tx: AttemptsTx, rt: Runtime, scope: Scope, attempt: Attempt) -> Attempt:
    """The attempt, in progress, expires now (``event.expired``); its score stands."""
    expired = transition(attempt, AttemptTrigger.EXPIRE, rt.clock.now())
    tx.attempts.update(expired)
    finished(tx, rt, scope, expired)
    emit(tx, rt, scope, AttemptExpired.of(expired))
    return expired


def finished(tx: AttemptsTx, rt: Runtime, scope: Scope, attempt: Attempt) -> None:
    """What every finishing attempt does (completed, force-completed, expired), once: the steps the
    areas building on live events registered (:func:`on_finish`)."""
    window = tx.windows.get(attempt.game_id, attempt.window_id)
    player = tx.players.by_id(attempt.player_id)
    assert window is not None and player is not None
    for step in _FINISH_STEPS.values():
        step(tx, rt, scope, window.settings, player, attempt)
    if rt.checks.active:
        rt.checks.hook.after_finish_attempt(tx=tx, rt=rt, scope=scope, player=player, attempt=attempt)
