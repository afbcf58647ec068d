"""What the areas that build on live events add to its commands, declared by those areas
(``Area(contributes=(SCORE(step),))``, :mod:`livecore.contributions`): live events name none of them.

An event may be played in rooms (the lobbies area seats a start in a lobby, which has a board of its
own) or in teams (the teams area keeps a team's score from its members' attempts). Each such area adds
its steps where it declares itself, at these points, run in the areas' order:

- :data:`START`: where a start plays, before anything is charged: a :class:`Room`, or a start
  :class:`Held` back (committed, answered 202), or None when the event is not the area's;
- :data:`SCORE`: the player's score in a window moved (a progress write, a force-complete);
- :data:`PROGRESS`: after a progress write, in its transaction;
- :data:`CLOSE`: a window closes, after its attempts expired and before its boards are finalized.

An area whose steps change, on a progress write, rows that other players' writes change too (a team's
score, a lobby and its players' attempts, a shared leaderboard) declares for which events
(:data:`SHARED_ROWS`): a progress write of such an event holds its game alone on PostgreSQL, where the
others run beside each other, each holding its player (docs/architecture.md, "Concurrency"). Steps that
change only the player's own rows and its event board declare nothing.
"""

from __future__ import annotations

from typing import Any, Generic, Protocol, TypeVar

import attrs

from livecore.commands import Runtime
from livecore.contributions import Point
from livecore.errors import LivecoreError
from livecore.live_events.attempts import Attempt, HeldStart
from livecore.live_events.commands.attempts import AttemptsTx
from livecore.live_events.rules import Window
from livecore.live_events.settings import EventSettings
from livecore.players.rules import Player
from livecore.scope import Scope

T = TypeVar("T")


class StepsTx(AttemptsTx, Protocol):
    """The ports the live-event commands use. A step an area adds is handed the command's transaction,
    which holds every registered area's ports: it is typed against those of the area that adds it."""


@attrs.frozen
class Room:
    """Where a start plays when an area seats it: the room's id (the attempt's ``lobby_id``) and the
    room's own board."""

    id: str
    board_id: str


@attrs.frozen
class Held(Generic[T]):
    """A start an area holds back: the seat it took is kept (the transaction commits), nothing is charged,
    and the answer is ``answer`` with status 202. ``record`` is the area's record that holds it (a
    forming lobby), ``view`` the answer's body as a caller reads it."""

    answer: LivecoreError
    record: T
    view: HeldStart


class StartStep(Protocol):
    def __call__(
        self,
        tx: Any,
        rt: Runtime,
        scope: Scope,
        window: Window,
        player: Player,
        values: dict[str, str | None],
    ) -> Room | Held[Any] | None: ...


class ScoreStep(Protocol):
    def __call__(self, tx: Any, rt: Runtime, scope: Scope, player: Player, window: Window) -> None: ...


class ProgressStep(Protocol):
    """Answers the attempt as the step left it (frozen or expired by it)."""

    def __call__(
        self, tx: Any, rt: Runtime, scope: Scope, event: EventSettings, attempt: Attempt
    ) -> Attempt: ...


class CloseStep(Protocol):
    def __call__(self, tx: Any, rt: Runtime, scope: Scope, window: Window) -> None: ...


class SharesRows(Protocol):
    """Whether the area's steps change, on a progress write of ``event``, rows other players share."""

    def __call__(self, event: EventSettings) -> bool: ...


START: Point[StartStep] = Point("live_events.start")
SCORE: Point[ScoreStep] = Point("live_events.score")
PROGRESS: Point[ProgressStep] = Point("live_events.progress")
CLOSE: Point[CloseStep] = Point("live_events.close")
SHARED_ROWS: Point[SharesRows] = Point("live_events.shared_rows")


def shares_rows(rt: Runtime, event: EventSettings) -> bool:
    """Whether a progress write of ``event`` changes rows other players share (:data:`SHARED_ROWS`)."""
    return any(shares(event) for shares in rt.contributions.of(SHARED_ROWS))


def seated(
    tx: StepsTx, rt: Runtime, scope: Scope, window: Window, player: Player, values: dict[str, str | None]
) -> Room | Held[Any] | None:
    """The first answer of the start steps; None: the start plays on the board of its segment."""
    for step in rt.contributions.of(START):
        answer = step(tx, rt, scope, window, player, values)
        if answer is not None:
            return answer
    return None


def scored(tx: StepsTx, rt: Runtime, scope: Scope, player: Player, window: Window) -> None:
    for step in rt.contributions.of(SCORE):
        step(tx, rt, scope, player, window)


def progressed(tx: StepsTx, rt: Runtime, scope: Scope, event: EventSettings, attempt: Attempt) -> Attempt:
    for step in rt.contributions.of(PROGRESS):
        attempt = step(tx, rt, scope, event, attempt)
    return attempt


def closing(tx: StepsTx, rt: Runtime, scope: Scope, window: Window) -> None:
    for step in rt.contributions.of(CLOSE):
        step(tx, rt, scope, window)


__all__ = [
    "CLOSE",
    "PROGRESS",
    "SCORE",
    "SHARED_ROWS",
    "START",
    "CloseStep",
    "Held",
    "HeldStart",
    "ProgressStep",
    "Room",
    "ScoreStep",
    "SharesRows",
    "StartStep",
    "StepsTx",
    "closing",
    "progressed",
    "scored",
    "seated",
    "shares_rows",
]
