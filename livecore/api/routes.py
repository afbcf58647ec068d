"""Every route of the service, once, in the order the server mounts them and the documents list them.

The routes are declared in their area's ``api`` module (:mod:`livecore.gifts.api` holds the gift routes
and models, and so on) and listed by the area's declaration (:mod:`livecore.areas`);
:class:`~livecore.api.route.Route` says what a declaration is. The server, the clients and the OpenAPI
documents iterate :data:`ALL`, the built-in areas' routes in their order.
"""

from __future__ import annotations

from livecore import areas
from livecore.api.route import Route

ALL: tuple[Route, ...] = areas.routes()
BY_NAME: dict[str, Route] = {r.name: r for r in ALL}
