"""Live events and their windows (docs/events.md).

An event is declared in the manifest (:class:`livecore.games.EventSettings`) and runs the same schedule in
each environment. Its windows start at ``starts_at`` and then every ``repeat_every_seconds`` (none: a
single window), each ``window_seconds`` long.

Window states, as a transition table: a window is ``scheduled`` until ``startsAt``; the scheduler (or the
first start that finds it due) records it ``open``; at ``endsAt`` the scheduler closes it, in one step
(``commands/live_events.close_window``): expire its in-progress attempts, finalize its boards, create the
rank-reward grants, then ``window.closed``. A window missed whole while no server ran is never opened:
nobody could have played it.

Ids are derived from what they name (:func:`livecore.ids.derived_id`): an event's from its game and key, a
window's from its event, environment and start, a board's from its window and segment values; so every
process, and every read, names them alike without a write.

An event removed from the manifest opens no new window; its windows, attempts and boards stay, and a
window still open closes on time with the settings it opened with.
"""

from __future__ import annotations

import enum
import functools
import math
from datetime import datetime, timedelta
from typing import Any

import attrs
import orjson

from livecore.errors import LivecoreError
from livecore.games import Game
from livecore.ids import derived_id
from livecore.live_events.errors import EVENT_NOT_FOUND
from livecore.live_events.settings import EVENT_SETTINGS, EventSettings
from livecore.scope import Environment

# The id prefixes of the area's records, claimed in its declaration (``Area.id_prefixes``).
LIVE_EVENT_ID_PREFIX = "ev"  # ``evt`` is the webhook envelope's, so events are ``ev`` (docs/events.md#ids)
WINDOW_ID_PREFIX = "win"
ATTEMPT_ID_PREFIX = "att"
BOARD_ID_PREFIX = "lb"


class WindowStatus(enum.StrEnum):
    OPEN = "open"
    CLOSED = "closed"


class WindowTrigger(enum.Enum):
    CLOSE = "close"


class EventState(enum.StrEnum):
    """What the events list says of an event now."""

    SCHEDULED = "scheduled"
    OPEN = "open"
    ENDED = "ended"


# (status, trigger) -> next status; a window is recorded when it opens, so ``open`` is where it starts.
WINDOW_TRANSITIONS: dict[tuple[WindowStatus, WindowTrigger], WindowStatus] = {
    (WindowStatus.OPEN, WindowTrigger.CLOSE): WindowStatus.CLOSED,
}


@attrs.frozen
class Window:
    id: str
    game_id: str
    env: Environment
    event_key: str
    event_id: str
    starts_at: datetime
    ends_at: datetime
    status: WindowStatus
    settings: EventSettings
    opened_at: datetime
    closed_at: datetime | None = None


@attrs.frozen
class Slot:
    """One window of the schedule, whether or not it was recorded."""

    starts_at: datetime
    ends_at: datetime


def event_id(game_id: str, event: EventSettings) -> str:
    return derived_id(LIVE_EVENT_ID_PREFIX, event.starts_at, game_id, event.key)


# Kept: the scheduler asks for each event's current window at every move of a manual clock, and the id
# is a hash of what names it.
@functools.lru_cache(maxsize=4096)
def window_id(game_id: str, env: Environment, event_key: str, starts_at: datetime) -> str:
    return derived_id(WINDOW_ID_PREFIX, starts_at, game_id, env.value, event_key, starts_at.isoformat())


def board_id(window: Window, segment_values: dict[str, str | None]) -> str:
    return derived_id(BOARD_ID_PREFIX, window.starts_at, window.id, canonical(segment_values))


def canonical(values: dict[str, Any]) -> str:
    return orjson.dumps(values, option=orjson.OPT_SORT_KEYS).decode()


def _slot(event: EventSettings, index: int) -> Slot:
    start = event.starts_at + timedelta(seconds=(event.repeat_every_seconds or 0) * index)
    return Slot(start, start + timedelta(seconds=event.window_seconds))


def slot_at(event: EventSettings, now: datetime) -> Slot | None:
    """The window open at ``now`` (``startsAt <= now < endsAt``), if any."""
    if now < event.starts_at:
        return None
    index = 0
    if event.repeat_every_seconds is not None:
        index = int((now - event.starts_at).total_seconds() // event.repeat_every_seconds)
    slot = _slot(event, index)
    return slot if slot.starts_at <= now < slot.ends_at else None


def next_start(event: EventSettings, now: datetime) -> datetime | None:
    """The start of the first window after ``now``; None when none is due."""
    if now < event.starts_at:
        return event.starts_at
    if event.repeat_every_seconds is None:
        return None
    index = int((now - event.starts_at).total_seconds() // event.repeat_every_seconds) + 1
    return _slot(event, index).starts_at


def windows_between(event: EventSettings, start: datetime, end: datetime) -> int:
    """How many of the event's windows are open at some time from ``start`` to ``end`` (not included)."""
    if event.repeat_every_seconds is None:
        slot = _slot(event, 0)
        return int(slot.starts_at < end and slot.ends_at > start)
    every = event.repeat_every_seconds
    # The first window ending after ``start``, and the last starting before ``end``.
    first = max(0, math.floor((start - event.starts_at).total_seconds() - event.window_seconds) // every + 1)
    last = math.ceil((end - event.starts_at).total_seconds() / every) - 1
    return max(0, last - first + 1)


def state(event: EventSettings, now: datetime) -> EventState:
    if slot_at(event, now) is not None:
        return EventState.OPEN
    return EventState.SCHEDULED if next_start(event, now) is not None else EventState.ENDED


def opened(game: Game, env: Environment, event: EventSettings, slot: Slot, now: datetime) -> Window:
    """The record of ``slot`` opening now, keeping the settings it opens with."""
    return Window(
        id=window_id(game.id, env, event.key, slot.starts_at),
        game_id=game.id,
        env=env,
        event_key=event.key,
        event_id=event_id(game.id, event),
        starts_at=slot.starts_at,
        ends_at=slot.ends_at,
        status=WindowStatus.OPEN,
        settings=event,
        opened_at=now,
    )


def close(window: Window, now: datetime) -> Window:
    nxt = WINDOW_TRANSITIONS.get((window.status, WindowTrigger.CLOSE))
    if nxt is None:
        raise ValueError(f"window {window.id} is {window.status.value}")
    return attrs.evolve(window, status=nxt, closed_at=now)


def event_settings(game: Game, key: str) -> EventSettings:
    """The event ``key`` of the game's manifest; 404 ``event_not_found`` otherwise."""
    found = game.settings.of(EVENT_SETTINGS).get(key)
    if found is None:
        raise LivecoreError(EVENT_NOT_FOUND, f"No event {key!r} in this game.", {"eventKey": key})
    return found
