"""Clients for the studio-backend surface ``/server/v1``: :class:`ServerClient` and
:class:`AsyncServerClient`.

Use a ``server_integration`` key, and never ship it in a game client
(docs/reference/conventions.md#surfaces-and-credentials). Server routes need no player secret; every
state-changing one requires an idempotency key, which these clients always send.

The methods are grouped by resource (``server.guilds.list(...)``), each written once in its area's module
under :mod:`livecore_client.resources`. The only hand-written pair is ``purchases.iter`` (a generator
cannot be one builder): it just walks ``purchases.list`` page by page. ``server.players`` is composed here
of the players area's part (the identity call) and the player tools', so neither area's module extends
the other's.
"""

from __future__ import annotations

from ._client import AsyncClient, SyncClient, resource
from .resources import players
from .resources.economy import AsyncServerInventory, AsyncServerWallet, ServerInventory, ServerWallet
from .resources.friends import AsyncServerFriends, ServerFriends
from .resources.gifts import AsyncServerGifts, ServerGifts
from .resources.grants import AsyncServerGrants, ServerGrants
from .resources.guilds import AsyncServerGuilds, ServerGuilds
from .resources.leaderboards import AsyncServerLeaderboards, ServerLeaderboards
from .resources.live_events import AsyncServerLiveEvents, ServerLiveEvents
from .resources.lobbies import AsyncServerLobbies, ServerLobbies
from .resources.player_tools import AsyncServerPlayerTools, ServerPlayerTools
from .resources.player_tools.migration import AsyncServerMigration, ServerMigration
from .resources.purchases import AsyncServerPurchases, ServerPurchases
from .resources.system import AsyncServerSystem, ServerSystem
from .resources.teams import AsyncServerTeams, ServerTeams

__all__ = ["AsyncServerClient", "ServerClient"]


# The added part comes first, as in the SDK clients (livecore_client.sdk).
class ServerPlayers(ServerPlayerTools, players.ServerPlayers):
    """``server.players``: the ``/server/v1`` player calls: the identity (the players'), and the player
    tools'."""


class AsyncServerPlayers(AsyncServerPlayerTools, players.AsyncServerPlayers):
    """The methods of :class:`ServerPlayers`, awaited."""


class ServerClient(SyncClient):
    """Blocking client for ``/server/v1``. ``timeout`` applies only to the HTTP client it creates itself."""

    system = resource(ServerSystem)
    players = resource(ServerPlayers)
    migration = resource(ServerMigration)
    wallet = resource(ServerWallet)
    inventory = resource(ServerInventory)
    grants = resource(ServerGrants)
    friends = resource(ServerFriends)
    gifts = resource(ServerGifts)
    purchases = resource(ServerPurchases)
    live_events = resource(ServerLiveEvents)
    lobbies = resource(ServerLobbies)
    teams = resource(ServerTeams)
    guilds = resource(ServerGuilds)
    leaderboards = resource(ServerLeaderboards)


class AsyncServerClient(AsyncClient):
    """Asyncio client for ``/server/v1``; the same resources as :class:`ServerClient`, their methods
    awaited."""

    system = resource(AsyncServerSystem)
    players = resource(AsyncServerPlayers)
    migration = resource(AsyncServerMigration)
    wallet = resource(AsyncServerWallet)
    inventory = resource(AsyncServerInventory)
    grants = resource(AsyncServerGrants)
    friends = resource(AsyncServerFriends)
    gifts = resource(AsyncServerGifts)
    purchases = resource(AsyncServerPurchases)
    live_events = resource(AsyncServerLiveEvents)
    lobbies = resource(AsyncServerLobbies)
    teams = resource(AsyncServerTeams)
    guilds = resource(AsyncServerGuilds)
    leaderboards = resource(AsyncServerLeaderboards)
