"""The quests area in an embedded :class:`livecore.Simulation` (docs/simulation.md): a simulated player's
check-in and read, and the studio backend's read, each the client's method (``studio_quests.calls``) run
in memory through the route's handler, as the sync and async clients bind them::

    sim = Simulation.from_manifest(MANIFEST, areas=[AREA])
    ada = sim.player("ada")
    ada.quests.check_in()       # CheckInResponse, refusals raised as the client's exceptions
    sim.server.quests.get("ada")

as the area declares them (``player_actions=Quests``, ``server_actions=ServerQuests``), the way a built-in
area's read (``ada.gifts.send(...)``).
"""

from __future__ import annotations

from livecore.simulation.calls import Actions, ServerActions, player_method, server_method
from studio_quests.calls import QuestCalls, ServerQuestCalls


class Quests(Actions, QuestCalls):
    """A player's daily check-in (``game.quests``)."""

    check_in = player_method(QuestCalls._check_in)
    get = player_method(QuestCalls._get)


class ServerQuests(ServerActions, ServerQuestCalls):
    """The studio backend's read of a player's check-in (``backend.quests``)."""

    get = server_method(ServerQuestCalls._get)
