"""Clients for the game-client surface ``/sdk/v1``: :class:`SdkClient` and :class:`AsyncSdkClient`.

The ``client_sdk`` key identifies the game, not the player; player-scoped routes also need that player's
secret (docs/reference/conventions.md#surfaces-and-credentials), taken per call or from the client's
``player_secret``. Every write carries an idempotency key, so the built-in retries never apply it twice.

The methods are grouped by resource (``sdk.friends.list(...)``), each written once in its area's module
under :mod:`livecore_client.resources`. Adding a route: one builder in the area's calls class, one line in
each of its two resource classes; adding an area: its module, and one ``resource(...)`` line in each
client.
"""

from __future__ import annotations

import httpx

from ._client import (
    DEFAULT_BASE_URL,
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT,
    AsyncClient,
    SyncClient,
    resource,
)
from ._transport import RetryPolicy, build_headers
from .resources.economy import AsyncInventory, AsyncWallet, Inventory, Wallet
from .resources.friends import AsyncFriends, AsyncPresence, Friends, Presence
from .resources.gifts import AsyncGifts, Gifts
from .resources.grants import AsyncGrants, Grants
from .resources.guilds import AsyncGuilds, Guilds
from .resources.leaderboards import AsyncLeaderboards, Leaderboards
from .resources.live_events import AsyncLiveEvents, LiveEvents
from .resources.lobbies import AsyncLobbies, Lobbies
from .resources.players import AsyncPlayers, Players
from .resources.purchases import AsyncPurchases, Purchases
from .resources.teams import AsyncTeams, Teams

__all__ = ["AsyncSdkClient", "SdkClient"]


class SdkClient(SyncClient):
    """Blocking client for ``/sdk/v1``. ``timeout`` applies only to the HTTP client it creates itself.
    ``platform`` and ``app_version`` (the game's platform key, ``"ios"``, and build, ``"1.4.2"``) are
    reported on every request, and the service keeps the last of each on the player."""

    def __init__(
        self,
        api_key: str,
        *,
        base_url: str = DEFAULT_BASE_URL,
        player_secret: str | None = None,
        platform: str | None = None,
        app_version: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        http_client: httpx.Client | None = None,
        retry_policy: RetryPolicy | None = None,
    ) -> None:
        # Checked before the HTTP client is made: a refused value leaves nothing to close.
        headers = build_headers(platform, app_version)
        super().__init__(
            api_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            http_client=http_client,
            retry_policy=retry_policy,
        )
        self.player_secret = player_secret
        self._headers = headers

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


class AsyncSdkClient(AsyncClient):
    """Asyncio client for ``/sdk/v1``; the same resources as :class:`SdkClient`, their methods awaited."""

    def __init__(
        self,
        api_key: str,
        *,
        base_url: str = DEFAULT_BASE_URL,
        player_secret: str | None = None,
        platform: str | None = None,
        app_version: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        http_client: httpx.AsyncClient | None = None,
        retry_policy: RetryPolicy | None = None,
    ) -> None:
        # Checked before the HTTP client is made: a refused value leaves nothing to close.
        headers = build_headers(platform, app_version)
        super().__init__(
            api_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            http_client=http_client,
            retry_policy=retry_policy,
        )
        self.player_secret = player_secret
        self._headers = headers

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
