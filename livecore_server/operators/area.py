"""The operators area's server side: the routes only the server answers, creating a webhook endpoint and
rotating its signing secret (:mod:`livecore_server.operators.webhooks`), and its SQL ports, the members
and the audit log (:mod:`livecore_server.operators.sql`), which every other area's admin write is audited
in (:mod:`livecore_server.audit`). Every other operator route is served by the core's handler
(:mod:`livecore.operators.handlers`); the admin API, the portal and ``/mcp`` run these same bindings, and
every other area's admin routes, admitted by :mod:`livecore_server.operators.access` (the area's
``admission``, which every namespace's guard asks)."""

from __future__ import annotations

from livecore.api.route import Auth
from livecore.operators.area import AREA
from livecore_server.area import Admit, ServerArea
from livecore_server.operators import access, sql, webhooks

SERVER_AREA = ServerArea(
    AREA,
    bindings=tuple(webhooks.BINDINGS),
    sql_ports=sql.SQL_PORTS,
    # A member's credential: a portal session or a personal key.
    admission={Auth.MEMBER: Admit(admit=access.admit, sent=access.sent_operator_credential)},
)
