"""The studio's backend in a simulation: the server key's actions (``server.<resource>.<action>`` on the
typed client), on any player."""

from __future__ import annotations

from typing import TYPE_CHECKING

from livecore.economy.simulation import ServerWallet
from livecore.grants.simulation import ServerGrants
from livecore.guilds.simulation import ServerGuilds
from livecore.leaderboards.simulation import ServerLeaderboards
from livecore.live_events.simulation import ServerLiveEvents
from livecore.lobbies.simulation import ServerLobbies
from livecore.player_tools.simulation import ServerPlayerTools
from livecore.purchases.simulation import ServerPurchases
from livecore.teams.simulation import ServerTeams

if TYPE_CHECKING:
    from livecore.simulation.world import Simulation


class SimServer:
    """``sim.server``: the studio's backend."""

    def __init__(self, sim: Simulation) -> None:
        self.wallet = ServerWallet(sim)
        self.grants = ServerGrants(sim)
        self.leaderboards = ServerLeaderboards(sim)
        self.live_events = ServerLiveEvents(sim)
        self.lobbies = ServerLobbies(sim)
        self.teams = ServerTeams(sim)
        self.guilds = ServerGuilds(sim)
        self.purchases = ServerPurchases(sim)
        self.players = ServerPlayerTools(sim)
