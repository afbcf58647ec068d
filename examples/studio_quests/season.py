"""The quests area's part of a simulated season (docs/extending.md#your-area-in-a-simulated-season): a
segment's ``quests`` chance, and a session's check-in by it, in a game that configures the area. The
check-in's reward is a pending grant, which the player claims as it claims its grants."""

from __future__ import annotations

from livecore.simulation.part import Driver, Member, Play, Rate, SeasonPart
from studio_quests.commands import NAME
from studio_quests.simulation import Quests

#: A session's chance to check in (a second check-in the same day is refused, and counted so).
QUESTS = Rate("quests", 0.5, {"engaged": 0.9, "regular": 0.6, "casual": 0.3})


class _Quests(Driver):
    def __init__(self, play: Play) -> None:
        self.play = play
        self.configured = NAME in play.settings.areas

    def session(self, member: Member) -> None:
        play = self.play
        if self.configured and play.rng.random() < member.segment.rate(QUESTS):
            play.act("quests.check_in", Quests(member.handle).check_in)


SEASON = SeasonPart(rates=(QUESTS,), driver=_Quests)
