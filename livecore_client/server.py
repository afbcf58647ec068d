"""Clients for the studio-backend surface ``/server/v1``: :class:`ServerClient` and
:class:`AsyncServerClient`.

Use a ``server_integration`` key, and never ship it in a game client (SPEC 5 rule 1). Server routes need
no player secret; every state-changing one requires an idempotency key, which these clients always send.

Adding a route: one ``_name`` builder in :class:`_ServerCalls`, one line in each client.
"""

from __future__ import annotations

from livecore.api import routes

from . import models as m
from ._client import AsyncClient, SyncClient, async_method, sync_method
from ._transport import Call

__all__ = ["AsyncServerClient", "ServerClient"]


class _ServerCalls:
    """The ``/server/v1`` calls (and the public health probe), written once for both clients."""

    def _ping(self) -> Call[m.ServerPingResponse]:
        """Check connectivity and the key: which studio, game and environment it belongs to."""
        return Call(routes.PING, m.ServerPingResponse)

    def _set_identity(
        self, external_id: str, *, name: str, avatar: str | None = None, idempotency_key: str | None = None
    ) -> Call[m.IdentityResponse]:
        """Set a player's display identity from the studio backend."""
        return Call(
            routes.SERVER_SET_IDENTITY,
            m.IdentityResponse,
            path={"externalId": external_id},
            body=m.SetIdentityRequest(name=name, avatar=avatar),
            idempotency_key=idempotency_key,
        )

    def _advance_clock(self, seconds: float) -> Call[m.ClockAdvanceResponse]:
        """Move a manual-clock server forward and run the work that came due (test keys only).

        Not idempotent: a timeout or 5xx is raised rather than retried, since a resend could advance
        the clock twice.
        """
        return Call(routes.CLOCK_ADVANCE, m.ClockAdvanceResponse, body=m.ClockAdvanceRequest(seconds=seconds))

    def _health(self) -> Call[m.HealthResponse]:
        """The public liveness probe (``/admin/v1/health``); sent without the API key."""
        return Call(routes.HEALTH, m.HealthResponse)


class ServerClient(SyncClient, _ServerCalls):
    """Blocking client for ``/server/v1``. ``timeout`` applies only to the HTTP client it creates itself."""

    ping = sync_method(_ServerCalls._ping)
    set_identity = sync_method(_ServerCalls._set_identity)
    advance_clock = sync_method(_ServerCalls._advance_clock)
    health = sync_method(_ServerCalls._health)


class AsyncServerClient(AsyncClient, _ServerCalls):
    """Asyncio client for ``/server/v1``; the same methods as :class:`ServerClient`, awaited."""

    ping = async_method(_ServerCalls._ping)
    set_identity = async_method(_ServerCalls._set_identity)
    advance_clock = async_method(_ServerCalls._advance_clock)
    health = async_method(_ServerCalls._health)
