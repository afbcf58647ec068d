"""The server surface's probes and the test clock: ``server.system``."""

from __future__ import annotations

from livecore.api.call import Call
from livecore.api.system import (
    CLOCK_ADVANCE,
    CLOCK_STEP,
    HEALTH,
    PING,
    ClockAdvanceRequest,
    ClockAdvanceResponse,
    HealthResponse,
    ServerPingResponse,
)

from .._client import AsyncClient, AsyncResource, SyncClient, SyncResource, async_method, sync_method
from ._base import ServerCalls

__all__ = ["ADVANCE_SECONDS_PER_DAY", "AsyncServerSystem", "ServerSystem"]

#: Seconds an advance of the manual clock may take per day of service time it moves, beyond the client's
#: timeout: the server runs every job that comes due on the way before it answers, which took up to 16 s a
#: day on PostgreSQL on a loaded machine (docs/client.md#the-manual-clock); this allows about twice that.
ADVANCE_SECONDS_PER_DAY = 30.0


class _ServerSystemCalls(ServerCalls):
    """The ``/server/v1`` probe and clock calls (and the public health probe)."""

    def _ping(self) -> Call[ServerPingResponse]:
        """Check connectivity and the key: which studio, game and environment it belongs to."""
        return Call(PING, ServerPingResponse)

    def _health(self) -> Call[HealthResponse]:
        """The public liveness probe (``/admin/v1/health``); sent without the API key."""
        return Call(HEALTH, HealthResponse)

    def _advance_clock(self, seconds: float) -> Call[ClockAdvanceResponse]:
        """Move a manual-clock server forward and run the work that came due (test keys only).

        The server answers once that work has run, so the answer is waited for the client's timeout plus
        :data:`ADVANCE_SECONDS_PER_DAY` per day advanced. Not idempotent: a timeout or 5xx is raised
        rather than retried, since a resend could advance the clock twice.
        """
        return Call(
            CLOCK_ADVANCE,
            ClockAdvanceResponse,
            body=ClockAdvanceRequest(seconds=seconds),
            # Within the step the server takes: a value it refuses is refused before any work.
            work_time=min(max(0.0, seconds), CLOCK_STEP.maximum) / 86_400 * ADVANCE_SECONDS_PER_DAY,
        )


class ServerSystem(SyncResource[SyncClient], _ServerSystemCalls):
    """``server.system``: the ``/server/v1`` probe and clock calls."""

    ping = sync_method(_ServerSystemCalls._ping)
    health = sync_method(_ServerSystemCalls._health)
    advance_clock = sync_method(_ServerSystemCalls._advance_clock)


class AsyncServerSystem(AsyncResource[AsyncClient], _ServerSystemCalls):
    """The methods of :class:`ServerSystem`, awaited."""

    ping = async_method(_ServerSystemCalls._ping)
    health = async_method(_ServerSystemCalls._health)
    advance_clock = async_method(_ServerSystemCalls._advance_clock)
