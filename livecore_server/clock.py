"""The server's clocks: the wall clock, or a manual clock (``serve --clock manual``,
docs/reference/manifest-and-cli.md#manual-clock)."""

from __future__ import annotations

from datetime import UTC, datetime

from livecore.clock import ManualClock


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


__all__ = ["ManualClock", "SystemClock"]
