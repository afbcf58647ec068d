"""The quests area in an embedded :class:`livecore.Simulation` (docs/simulation.md): a simulated player's
check-in and read, as ``game.quests`` (``studio_quests.client``) makes them, and the studio backend's read.

A simulated player's handle holds the built-in areas' actions; an area's own are made on it::

    sim = Simulation.from_manifest(MANIFEST, areas=[AREA])
    ada = Quests(sim.player("ada"))
    ada.check_in()              # CheckInResponse, refusals raised as the client's exceptions
    ServerQuests(sim).get("ada")

Each action authenticates the player and runs the area's command as the server's handler does, answering
the same model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from livecore.simulation.actions import Actions, ServerActions, external_id_of
from studio_quests import api, commands

if TYPE_CHECKING:
    from livecore.simulation import SimPlayer


class Quests(Actions):
    """A player's daily check-in (``game.quests``)."""

    def check_in(self) -> api.CheckInResponse:
        """Check in for today (UTC): the streak moves on and the day's reward is granted, pending. A
        second check-in the same day raises :class:`~livecore.exceptions.ConflictError` with code
        ``quest_already_checked_in``."""
        sim = self._sim
        return self._write(
            lambda tx, me: api.CheckInResponse.of(
                commands.check_in(tx, sim.rt, sim.scope, me), sim.clock.now()
            )
        )

    def get(self) -> api.QuestResponse:
        """The player's daily check-in: today's, the streak, the best streak."""
        sim = self._sim
        return self._read(
            lambda tx, me: api.QuestResponse(
                quest=api.QuestView.of(commands.own_quest(tx, me), sim.clock.now())
            )
        )


class ServerQuests(ServerActions):
    """The studio backend's read of a player's check-in (``backend.quests``)."""

    def get(self, external_id: SimPlayer | str) -> api.QuestResponse:
        sim = self._sim
        return self._run(
            lambda tx: api.QuestResponse(
                quest=api.QuestView.of(
                    commands.quest_of(tx, sim.server_scope, external_id_of(external_id) or ""),
                    sim.clock.now(),
                )
            )
        )
