"""The system actions of a simulation, each its client method's builder (:mod:`livecore.system.calls`)
run in memory (:mod:`livecore.simulation.calls`): the studio's backend pinging with its key and reading
the health probe (``sim.server.system``). An advance of the manual clock is the simulation's own
(``sim.advance``): the route's handler is the server's."""

from __future__ import annotations

from livecore.simulation.calls import ServerActions, server_method
from livecore.system.calls import ServerSystemCalls


class ServerSystem(ServerActions, ServerSystemCalls):
    """``sim.server.system``: the ping and the health probe."""

    ping = server_method(ServerSystemCalls._ping)
    health = server_method(ServerSystemCalls._health)
