"""Clients for the game-client surface ``/sdk/v1``: :class:`SdkClient` and :class:`AsyncSdkClient`.

The ``client_sdk`` key identifies the game, not the player; player-scoped routes also need that player's
secret (docs/reference/conventions.md#surfaces-and-credentials), taken per call or from the client's
``player_secret``. Every write carries an idempotency key, so the built-in retries never apply it twice.

The methods are grouped by resource (``sdk.friends.list(...)``), each written once in its area's module
under :mod:`livecore_client.resources`. Adding a route: one builder in the area's calls class, one line in
each of its two resource classes; adding an area: its module, and one ``resource(...)`` line in each
client. A resource one area adds calls to is composed here of each area's part, so no area's module
extends another's: ``sdk.grants`` is the grants' resource with the crates' ``open_crate``, and
``sdk.live_events`` the events' with the lobbies' ``start_attempt``.
"""

from __future__ import annotations

from ._client import resource
from ._surfaces import AsyncSdkSurface, SdkSurface
from .resources import grants, live_events
from .resources.crates import AsyncCrateGrants, CrateGrants
from .resources.economy import AsyncInventory, AsyncWallet, Inventory, Wallet
from .resources.friends import AsyncFriends, AsyncPresence, Friends, Presence
from .resources.gifts import AsyncGifts, Gifts
from .resources.guilds import AsyncGuilds, Guilds
from .resources.leaderboards import AsyncLeaderboards, Leaderboards
from .resources.lobbies import AsyncLobbies, AsyncLobbyStart, Lobbies, LobbyStart
from .resources.players import AsyncPlayers, Players
from .resources.purchases import AsyncPurchases, Purchases
from .resources.teams import AsyncTeams, Teams

__all__ = ["AsyncSdkClient", "SdkClient"]


# The added part comes first among the bases: the generated method table (docs/client.md) reads the
# classes from the base up, so it lists the base's methods before the additions.
class Grants(CrateGrants, grants.Grants):
    """``sdk.grants``: the ``/sdk/v1`` grant calls, and opening a crate grant (the crates')."""


class AsyncGrants(AsyncCrateGrants, grants.AsyncGrants):
    """The methods of :class:`Grants`, awaited."""


class LiveEvents(LobbyStart, live_events.LiveEvents):
    """``sdk.live_events``: the ``/sdk/v1`` live event calls, and the start, which seats the player in a
    lobby first on a lobby event (the lobbies')."""


class AsyncLiveEvents(AsyncLobbyStart, live_events.AsyncLiveEvents):
    """The methods of :class:`LiveEvents`, awaited."""


class SdkClient(SdkSurface):
    """Blocking client for ``/sdk/v1``. ``timeout`` applies only to the HTTP client it creates itself.
    ``platform`` and ``app_version`` (the game's platform key, ``"ios"``, and build, ``"1.4.2"``) are
    reported on every request, and the service keeps the last of each on the player."""

    players = resource(Players)
    wallet = resource(Wallet)
    inventory = resource(Inventory)
    grants = resource(Grants)
    friends = resource(Friends)
    presence = resource(Presence)
    gifts = resource(Gifts)
    purchases = resource(Purchases)
    live_events = resource(LiveEvents)
    lobbies = resource(Lobbies)
    teams = resource(Teams)
    guilds = resource(Guilds)
    leaderboards = resource(Leaderboards)


class AsyncSdkClient(AsyncSdkSurface):
    """Asyncio client for ``/sdk/v1``; the same resources as :class:`SdkClient`, their methods awaited."""

    players = resource(AsyncPlayers)
    wallet = resource(AsyncWallet)
    inventory = resource(AsyncInventory)
    grants = resource(AsyncGrants)
    friends = resource(AsyncFriends)
    presence = resource(AsyncPresence)
    gifts = resource(AsyncGifts)
    purchases = resource(AsyncPurchases)
    live_events = resource(AsyncLiveEvents)
    lobbies = resource(AsyncLobbies)
    teams = resource(AsyncTeams)
    guilds = resource(AsyncGuilds)
    leaderboards = resource(AsyncLeaderboards)
