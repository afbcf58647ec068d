"""A simulated player: registered once, then acting through its areas' actions, named as the typed
client names them (``ada.gifts.send(...)`` for ``sdk.gifts.send("ada", ...)``), without the external id,
the player secret or an idempotency key, which the handle holds or a simulation does not need."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from livecore.economy.simulation import Inventory, Wallet
from livecore.friends.simulation import Friends, Presence
from livecore.gifts.simulation import Gifts
from livecore.grants.simulation import Grants
from livecore.guilds.simulation import Guilds
from livecore.live_events.simulation import LiveEvents
from livecore.players.api import RegisterRequest
from livecore.players.commands import register
from livecore.players.platforms import APP_VERSION_HEADER, PLATFORM_HEADER, sent_build
from livecore.players.simulation import Players
from livecore.purchases.simulation import Purchases
from livecore.simulation.actions import body
from livecore.teams.simulation import Teams

if TYPE_CHECKING:
    from livecore.simulation.world import Simulation


class SimPlayer:
    """One player of a :class:`~livecore.simulation.world.Simulation`, registered as it is made (the
    SDK's register: ``player.registered`` and the first-contact rules). ``id`` is its player id,
    ``external_id`` the studio's id for it."""

    def __init__(
        self,
        sim: Simulation,
        external_id: str,
        *,
        player_context: dict[str, Any] | None = None,
        platform: str | None = None,
        app_version: str | None = None,
    ) -> None:
        self.sim = sim
        self.external_id = external_id
        # As the SDK reports them in its headers, and checked the same way.
        headers = {k: v for k, v in ((PLATFORM_HEADER, platform), (APP_VERSION_HEADER, app_version)) if v}
        context = body(RegisterRequest, player_context=player_context).player_context
        registered = sim.run(
            lambda tx: register(
                tx, sim.rt, sim.scope, external_id, context=context, build=sent_build(headers)
            )
        )
        self.id = registered.player.id
        self.secret = registered.secret
        self.friends = Friends(self)
        self.presence = Presence(self)
        self.gifts = Gifts(self)
        self.grants = Grants(self)
        self.wallet = Wallet(self)
        self.inventory = Inventory(self)
        self.live_events = LiveEvents(self)
        self.guilds = Guilds(self)
        self.teams = Teams(self)
        self.purchases = Purchases(self)
        self.players = Players(self)

    def __repr__(self) -> str:
        return f"SimPlayer({self.external_id!r})"
