"""The route registry: every route a domain module declares is in ``routes.ALL``, once."""

from __future__ import annotations

from types import ModuleType

from livecore.api import routes, system
from livecore.api.route import Route
from livecore.economy import api as economy
from livecore.friends import api as friends
from livecore.gifts import api as gifts
from livecore.grants import api as grants
from livecore.guilds import api as guilds
from livecore.leaderboards import api as leaderboards
from livecore.live_events import api as live_events
from livecore.lobbies import api as lobbies
from livecore.operators import api as admin
from livecore.player_tools import api as player_tools
from livecore.players import api as players
from livecore.purchases import api as purchases
from livecore.teams import api as teams

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
