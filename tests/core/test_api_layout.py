"""The route registry: every route a domain module declares is in ``routes.ALL``, once."""

from __future__ import annotations

from types import ModuleType

from livecore.api import (
    admin,
    economy,
    friends,
    gifts,
    grants,
    guilds,
    leaderboards,
    live_events,
    lobbies,
    player_tools,
    players,
    purchases,
    routes,
    system,
    teams,
)
from livecore.api.route import Route

DOMAINS: tuple[ModuleType, ...] = (
    system,
    players,
    economy,
    grants,
    friends,
    gifts,
    player_tools,
    purchases,
    live_events,
    lobbies,
    leaderboards,
    teams,
    guilds,
    admin,
)


def test_every_declared_route_is_in_its_domain_routes() -> None:
    for module in DOMAINS:
        declared = {value for value in vars(module).values() if isinstance(value, Route)}
        assert declared == set(module.ROUTES), module.__name__


def test_all_is_the_domains_routes_each_once() -> None:
    by_domain = [route for module in DOMAINS for route in module.ROUTES]
    assert len(routes.ALL) == len(set(routes.ALL))
    assert sorted(r.name for r in routes.ALL) == sorted(r.name for r in by_domain)
