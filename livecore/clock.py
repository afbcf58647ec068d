"""Service time. The core never reads the wall clock: a :class:`Clock` is passed in.

Timestamps on the wire are ``YYYY-MM-DDTHH:MM:SS.sssZ`` (docs/reference/conventions.md#ids-and-timestamps);
:func:`format_ts` and :func:`parse_ts` are the only conversions.
"""

from __future__ import annotations

import functools
from datetime import UTC, date, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current service time, timezone-aware UTC."""
        ...


class ManualClock:
    """A clock that moves only when told: simulations and ``serve --clock manual``
    (docs/reference/manifest-and-cli.md#manual-clock)."""

    def __init__(self, start: datetime) -> None:
        if start.tzinfo is None:
            raise ValueError("ManualClock needs an aware datetime")
        self._now = start.astimezone(UTC)

    def now(self) -> datetime:
        return self._now

    def advance(self, seconds: float) -> datetime:
        if seconds < 0:
            raise ValueError("time only moves forward")
        self._now += timedelta(seconds=seconds)
        return self._now

    def set(self, when: datetime) -> None:
        """Move to ``when``; never backwards."""
        if when < self._now:
            raise ValueError("time only moves forward")
        self._now = when


@functools.lru_cache(maxsize=1024)
def format_ts(value: datetime) -> str:
    """``2026-11-21T20:40:15.123Z``: UTC, milliseconds, trailing Z.

    Cached: one command writes the same instant several times (the record's time, each event payload's,
    the response's), and a simulation's manual clock repeats instants across many commands."""
    if value.tzinfo is not UTC:
        value = value.astimezone(UTC)
    # isoformat is several times faster than strftime, and timestamps are on every response.
    return value.replace(tzinfo=None).isoformat(timespec="milliseconds") + "Z"


def parse_ts(text: str) -> datetime:
    """Parse an ISO 8601 timestamp; naive values are refused because they are ambiguous."""
    value = datetime.fromisoformat(text.replace("Z", "+00:00") if text.endswith("Z") else text)
    if value.tzinfo is None:
        raise ValueError("timestamp needs a time zone (use Z for UTC)")
    return value.astimezone(UTC)


def utc_day(value: datetime) -> date:
    return value.astimezone(UTC).date()


@functools.lru_cache(maxsize=1024)
def to_millis(value: datetime) -> int:
    """Milliseconds since the epoch: the storage form of a timestamp (sortable, exact to the wire).
    Integer arithmetic, not ``timestamp()``: a float can land one millisecond off."""
    return (value - _EPOCH) // _MILLI


def from_millis(ms: int) -> datetime:
    # A timedelta times an int is exact integer arithmetic, and about half the cost of building a
    # timedelta from keyword arguments: every timestamp read from a row comes through here.
    return _EPOCH + _MILLI * ms


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MILLI = timedelta(milliseconds=1)
