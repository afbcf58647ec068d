"""Clients for the operators' admin API ``/admin/v1``: :class:`AdminClient` and :class:`AsyncAdminClient`.

For a studio's scripts, acting as a member with the member's personal key (``svc_pk_...``, made in the
portal; docs/client.md#admin-client). What the key may do is what the member's role (and the key's own
role, when lower) allows; dashboard-only actions (API keys, personal keys, live webhook endpoints) raise
:class:`~livecore_client.errors.DashboardOnlyError`. Every write is audited, with the key as its actor.

The client is bound to one studio (its key or ``std_`` id); game-scoped methods take ``game`` (a key or a
``gam_`` id) first, and those naming a player, a grant or an attempt act in ``env``: when it is not
given, the server acts in the environment the game has API keys in (live when it has both). Every write
sends an idempotency key, made once per call and reused by its retries, or the ``idempotency_key`` given.

The methods are grouped by resource (``admin.players.ban(...)``), each its route's builder, written once
in the operators area's :mod:`livecore.operators.calls` and sent over HTTP by its client resources
(:mod:`livecore_client.resources.operators`); the only hand-written pair is
``audit.iter``, which walks ``audit.list`` page by page.
"""

from __future__ import annotations

from ._client import resource
from .resources.operators.attempts import AdminLiveEvents, AsyncAdminLiveEvents
from .resources.operators.audit import AdminAudit, AsyncAdminAudit
from .resources.operators.grants import AdminGrants, AsyncAdminGrants
from .resources.operators.keys import (
    AdminApiKeys,
    AdminPersonalKeys,
    AsyncAdminApiKeys,
    AsyncAdminPersonalKeys,
)
from .resources.operators.members import AdminMembers, AsyncAdminMembers
from .resources.operators.players import AdminPlayers, AsyncAdminPlayers
from .resources.operators.surface import AdminSurface, AsyncAdminSurface
from .resources.operators.webhooks import AdminWebhooks, AsyncAdminWebhooks

__all__ = ["AdminClient", "AsyncAdminClient"]


class AdminClient(AdminSurface):
    """Blocking client for ``/admin/v1`` with a member's personal key, bound to ``studio`` (key or id).
    ``timeout`` applies only to the HTTP client it creates itself."""

    members = resource(AdminMembers)
    players = resource(AdminPlayers)
    grants = resource(AdminGrants)
    live_events = resource(AdminLiveEvents)
    webhooks = resource(AdminWebhooks)
    api_keys = resource(AdminApiKeys)
    personal_keys = resource(AdminPersonalKeys)
    audit = resource(AdminAudit)


class AsyncAdminClient(AsyncAdminSurface):
    """Asyncio client for ``/admin/v1``; the same resources as :class:`AdminClient`, their methods
    awaited."""

    members = resource(AsyncAdminMembers)
    players = resource(AsyncAdminPlayers)
    grants = resource(AsyncAdminGrants)
    live_events = resource(AsyncAdminLiveEvents)
    webhooks = resource(AsyncAdminWebhooks)
    api_keys = resource(AsyncAdminApiKeys)
    personal_keys = resource(AsyncAdminPersonalKeys)
    audit = resource(AsyncAdminAudit)
