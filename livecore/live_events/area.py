"""The live events area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Protocol

from livecore import events
from livecore.area import Area, ClientPart
from livecore.commands import Runtime
from livecore.limits import PAGE, duration
from livecore.live_events import admin, api, attempts, boards, samples, webhooks
from livecore.live_events.commands.boards import merge_entries
from livecore.live_events.commands.live_events import (
    LiveEventsTx,
    close_window,
    due_windows,
    expire_attempts,
    games_expiring,
    next_closing,
    next_expiry,
    next_opening,
    open_due_windows,
)
from livecore.live_events.errors import ATTEMPT_NOT_FOUND, CODES, LEADERBOARD_NOT_FOUND
from livecore.live_events.handlers import HANDLERS
from livecore.live_events.hooks import LiveEventSpecs
from livecore.live_events.manifest import EVENTS
from livecore.live_events.memory import LiveEventTables
from livecore.live_events.memory.attempts import MemoryAttempts
from livecore.live_events.memory.boards import MemoryBoards
from livecore.live_events.memory.windows import MemoryWindows
from livecore.live_events.rules import (
    ATTEMPT_ID_PREFIX,
    BOARD_ID_PREFIX,
    LIVE_EVENT_ID_PREFIX,
    WINDOW_ID_PREFIX,
)
from livecore.live_events.season import SEASON
from livecore.live_events.store.attempts import HasAttempts
from livecore.live_events.store.boards import HasBoards
from livecore.players.rules import Player
from livecore.schedule import Job, Task, once, until_false
from livecore.scope import Scope


class MergeTx(HasAttempts, HasBoards, Protocol):
    """The ports a merge moves the source's attempts and board entries through."""


CLOSE_BATCH = 100  # due windows read at once; each then closes in its own transaction


def _closing(tx: LiveEventsTx, rt: Runtime) -> list[Task]:
    return [
        Task(w.id, w.game_id, once(partial(close_window, rt=rt, window_id_=w.id, game_id=w.game_id)))
        for w in due_windows(tx, rt, CLOSE_BATCH)
    ]


def _opening(tx: LiveEventsTx, rt: Runtime) -> list[Task]:
    due = next_opening(tx, rt)
    if due is None or due > rt.clock.now():
        return []
    return [Task("windows", None, once(lambda tx: open_due_windows(tx, rt)))]


def _expiring(tx: LiveEventsTx, rt: Runtime) -> list[Task]:
    due = next_expiry(tx)
    if due is None or due > rt.clock.now():
        return []
    return [
        Task(f"attempts:{game_id}", game_id, until_false(partial(_expire, rt=rt, game_id=game_id)))
        for game_id in games_expiring(tx, rt)
    ]


def _expire(tx: LiveEventsTx, rt: Runtime, game_id: str) -> bool:
    return expire_attempts(tx, rt, game_id) > 0


# Closing first: a window that ends when the next one starts is closed before that one opens.
JOBS = (
    Job(
        "live_windows_close",
        _closing,
        next_due=lambda tx, rt: next_closing(tx),
        reads=("live_events.windows", "live_events.open_windows"),
    ),
    # A game's events (its settings) and the windows recorded; the next start is read from the calendar.
    Job("live_windows_open", _opening, next_due=next_opening, reads=("games", "live_events.windows")),
    Job(
        "live_attempts_expiry",
        _expiring,
        next_due=lambda tx, rt: next_expiry(tx),
        reads=("live_events.attempts", "live_events.in_progress"),
    ),
)


def _merge(tx: MergeTx, rt: Runtime, scope: Scope, source: Player, target: Player) -> None:
    """Attempts keep their ids, numbers and states (the target may so hold more attempts in a window than
    max_attempts, or two in progress: its next start then waits for both to end); the target keeps the
    better of two entries on one board."""
    tx.attempts.reassign(source.id, target)
    merge_entries(tx, source.id, target)


def _erase(tx: HasAttempts, rt: Runtime, scope: Scope, player: Player, kept: Player) -> None:
    """Attempts name the anonymized row; board entries name the row already, so they stay on their
    boards and show its anonymized identity."""
    tx.attempts.reassign(player.id, kept)


def _limits() -> Mapping[str, Sequence[tuple[str, str]]]:
    return {
        "events": [
            ("Metrics per progress write", attempts.METRICS.describe()),
            (
                "Event leaderboard page `limit`",
                f"{PAGE.describe()}, {boards.DEFAULT_LIMIT} by default",
            ),
            ("Entries in the stream's `ready`", f"the top {boards.STREAM_TOP}"),
            ("Entries in `leaderboard.finalized`", f"the top {boards.FINALIZED_TOP}"),
            ("`event.progress_updated` per attempt", f"at most one per {duration(events.DEBOUNCE)}"),
        ],
    }


AREA = Area(
    name="live_events",
    manifest=(EVENTS,),
    summary="Live events: windows, attempts, milestones, anti-cheat, event boards and their stream.",
    page="events",
    builds_on=("grants",),
    routes=(*api.ROUTES, *admin.ROUTES),
    handlers=HANDLERS,
    record_ids={"attemptId": ATTEMPT_NOT_FOUND, "leaderboardId": LEADERBOARD_NOT_FOUND},
    merge=_merge,
    erase=_erase,
    jobs=JOBS,
    webhooks=webhooks.PAYLOADS,
    samples=samples.SAMPLES,
    errors=CODES,
    limits=_limits,
    hookspecs=LiveEventSpecs,
    id_prefixes=(LIVE_EVENT_ID_PREFIX, WINDOW_ID_PREFIX, ATTEMPT_ID_PREFIX, BOARD_ID_PREFIX),
    tables=LiveEventTables,
    ports={"windows": MemoryWindows, "attempts": MemoryAttempts, "boards": MemoryBoards},
    season=SEASON,
    client=(
        ClientPart("sdk", "live_events", "livecore_client.resources.live_events", "LiveEvents"),
        ClientPart("server", "live_events", "livecore_client.resources.live_events", "ServerLiveEvents"),
    ),
)
