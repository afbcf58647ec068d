"""The operators area is an area like the others: each operator route is served once, by the core's handler
unless it needs the server's own things, and each has its call builder, which the admin client sends."""

from __future__ import annotations

import inspect

from livecore import registry
from livecore.api.route import Auth
from livecore.operators import api, calls
from livecore.operators.area import AREA
from livecore_server.operators.area import SERVER_AREA


def test_every_operator_route_is_served_once() -> None:
    served = [b.route for b in SERVER_AREA.served]
    assert sorted(r.name for r in served) == sorted(r.name for r in api.ROUTES)


def test_the_server_binds_only_what_needs_its_keys_or_its_address_policy() -> None:
    assert {b.route for b in SERVER_AREA.bindings} == {api.WEBHOOK_CREATE, api.WEBHOOK_ROTATE_SECRET}
    assert set(AREA.handlers) == set(api.ROUTES) - {api.WEBHOOK_CREATE, api.WEBHOOK_ROTATE_SECRET}


def test_the_operators_declare_only_their_own_admin_routes() -> None:
    # Every other admin route is declared, handled and served by the area whose records it acts on.
    others = {
        r.name for a in registry.installed() if a is not AREA for r in a.routes if r.auth is Auth.MEMBER
    }
    assert others == {
        "admin.players.rotate_secret",
        "admin.players.edit_item_attributes",
        "admin.grants.create",
        "admin.grants.force_claim",
        "admin.attempts.force_complete",
        "admin.attempts.retry_reward_roll",
        "admin.players.ban",
        "admin.players.unban",
        "admin.players.set_country",
    }


def test_every_operator_route_has_a_call_builder() -> None:
    source = inspect.getsource(calls)
    names = {route: name for name, route in vars(api).items() if route in api.ROUTES}
    assert len(names) == len(api.ROUTES)
    assert [r.name for r, name in names.items() if f"api.{name}," not in source] == []
