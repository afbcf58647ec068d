"""Every route of the service, once, in the order the server mounts them and the documents list them.

The routes are declared in their domain's module (:mod:`livecore.gifts.api` holds the gift routes and
models, and so on); :class:`~livecore.api.route.Route` says what a declaration is. The server, the clients
and the OpenAPI documents iterate :data:`ALL`.
"""

from __future__ import annotations

from livecore.api import system
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

ALL: tuple[Route, ...] = (
    system.HEALTH,
    system.PING,
    system.CLOCK_ADVANCE,
    players.REGISTER,
    players.SDK_SET_IDENTITY,
    players.SERVER_SET_IDENTITY,
    economy.SDK_WALLET,
    economy.SDK_WALLET_DEBIT,
    economy.SDK_INVENTORY,
    economy.SDK_INVENTORY_CONSUME,
    grants.SDK_PENDING_GRANTS,
    grants.SDK_CLAIM_GRANT,
    grants.SDK_OPEN_CRATE,
    grants.SERVER_CREATE_GRANT,
    grants.SERVER_ACK_GRANT,
    economy.SERVER_INVENTORY_GRANT,
    economy.SERVER_INVENTORY_REVOKE,
    economy.SERVER_WALLET_CREDIT,
    economy.SERVER_WALLET_DEBIT,
    *friends.ROUTES,
    *gifts.ROUTES,
    *player_tools.ROUTES,
    *purchases.ROUTES,
    *live_events.ROUTES,
    *lobbies.ROUTES,
    *leaderboards.ROUTES,
    *teams.ROUTES,
    *guilds.ROUTES,
    *admin.ROUTES,
)
BY_NAME: dict[str, Route] = {r.name: r for r in ALL}
