"""The operators area's server side: the routes only the server answers, creating a webhook endpoint and
rotating its signing secret (:mod:`livecore_server.operators.webhooks`), rotating a player's secret around
the core's handler (:mod:`livecore_server.operators.players`), and its SQL ports, the members and the audit
log (:mod:`livecore_server.operators.sql`). Every other operator route is served by the core's handler
(:mod:`livecore.operators.handlers`); the admin API, the portal and ``/mcp`` run these same bindings,
admitted by :mod:`livecore_server.operators.access`."""

from __future__ import annotations

from livecore.operators.area import AREA
from livecore_server.area import ServerArea
from livecore_server.operators import players, sql, webhooks

SERVER_AREA = ServerArea(AREA, bindings=(*webhooks.BINDINGS, *players.BINDINGS), sql_ports=sql.SQL_PORTS)
