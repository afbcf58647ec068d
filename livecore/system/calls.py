"""The system routes' calls, as the typed clients send them (``server.system``): one builder per route
(:mod:`livecore.api.call`)."""

from __future__ import annotations

from livecore.api.call import Call, ServerCalls
from livecore.system import api

#: Seconds an advance of the manual clock may take per day of service time it moves, beyond the client's
#: timeout: the server runs every job that comes due on the way before it answers, which took up to 16 s a
#: day on PostgreSQL on a loaded machine (docs/client.md#the-manual-clock); this allows about twice that.
ADVANCE_SECONDS_PER_DAY = 30.0


class ServerSystemCalls(ServerCalls):
    """The ``/server/v1`` probe and clock calls (and the public health probe)."""

    def _ping(self) -> Call[api.ServerPingResponse]:
        """Check connectivity and the key: which studio, game and environment it belongs to."""
        return Call(api.PING, api.ServerPingResponse)

    def _health(self) -> Call[api.HealthResponse]:
        """The public liveness probe (``/admin/v1/health``); sent without the API key."""
        return Call(api.HEALTH, api.HealthResponse)

    def _advance_clock(self, seconds: float) -> Call[api.ClockAdvanceResponse]:
        """Move a manual-clock server forward and run the work that came due (test keys only).

        The server answers once that work has run, so the answer is waited for the client's timeout plus
        :data:`ADVANCE_SECONDS_PER_DAY` per day advanced. Not idempotent: a timeout or 5xx is raised
        rather than retried, since a resend could advance the clock twice.
        """
        return Call(
            api.CLOCK_ADVANCE,
            api.ClockAdvanceResponse,
            body=api.ClockAdvanceRequest(seconds=seconds),
            # Within the step the server takes: a value it refuses is refused before any work.
            work_time=min(max(0.0, seconds), api.CLOCK_STEP.maximum) / 86_400 * ADVANCE_SECONDS_PER_DAY,
        )
