"""The operators area's server side: the routes only the server answers, creating a webhook endpoint and
rotating its signing secret (:mod:`livecore_server.operators.webhooks`), and its SQL ports, the members
and the audit log (:mod:`livecore_server.operators.sql`), which every other area's admin write is audited
in (:mod:`livecore_server.audit`). Every other operator route is served by the core's handler
(:mod:`livecore.operators.handlers`); the admin API, the portal and ``/mcp`` run these same bindings, and
every other area's admin routes, admitted by :mod:`livecore_server.operators.access`."""

from __future__ import annotations

from livecore.operators.area import AREA
from livecore_server.area import ServerArea
from livecore_server.operators import sql, webhooks

SERVER_AREA = ServerArea(AREA, bindings=tuple(webhooks.BINDINGS), sql_ports=sql.SQL_PORTS)
