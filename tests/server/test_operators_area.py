"""The operators area is an area like the others: each operator route is served once, by the core's handler
unless it needs the server's own things, and each has its call builder, which the admin client sends."""

from __future__ import annotations

import inspect

from livecore.operators import api, calls
from livecore.operators.area import AREA
from livecore_server.operators.area import SERVER_AREA
from livecore_server.operators.portal.pages import BINDINGS as PORTAL_BINDINGS


def test_every_operator_route_is_served_once() -> None:
    served = [b.route for b in SERVER_AREA.served]
    assert sorted(r.name for r in served) == sorted(r.name for r in api.ROUTES)


def test_the_server_binds_only_what_needs_its_keys_its_address_policy_or_its_stored_answers() -> None:
    # A player's rotation runs the core's handler, then withdraws the stored answers that showed the old
    # secret (livecore_server/shown_secrets.py).
    assert {b.route for b in SERVER_AREA.bindings} == {
        api.WEBHOOK_CREATE,
        api.WEBHOOK_ROTATE_SECRET,
        api.ROTATE_SECRET,
    }
    assert set(AREA.handlers) == set(api.ROUTES) - {api.WEBHOOK_CREATE, api.WEBHOOK_ROTATE_SECRET}


def test_the_portal_runs_the_areas_bindings() -> None:
    assert {b.route.name: b for b in SERVER_AREA.served} == PORTAL_BINDINGS


def test_every_operator_route_has_a_call_builder() -> None:
    source = inspect.getsource(calls)
    names = {route: name for name, route in vars(api).items() if route in api.ROUTES}
    assert len(names) == len(api.ROUTES)
    assert [r.name for r, name in names.items() if f"api.{name}," not in source] == []
