"""The routes a server tries before the others: its most frequent requests, each declared by the area that
owns it (``Area(contributes=(HOT(PRESENCE_HEARTBEAT),))``), so the server's router names none of them."""

from __future__ import annotations

from livecore.api.route import Route
from livecore.contributions import Point

#: Added to a surface's router ahead of its other routes: a heartbeat, about every 30 s from every online
#: player, pays no pattern matching of the routes under the same literal prefix.
HOT: Point[Route] = Point("routes.hot")
