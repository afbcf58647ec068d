"""The quests area, as it declares itself (:class:`livecore.area.Area`): everything it brings to the
service, in one place. The server loads it by its package name (``[plugins] areas = ["studio_quests"]``,
``serve --area studio_quests``); an embedded user passes it to ``MemoryStore([AREA])`` and
``registry.runtime([AREA], clock=..., rng=..., hasher=...)``."""

from __future__ import annotations

from datetime import timedelta

from livecore.area import Area, ClientPart
from livecore.commands import Runtime
from livecore.schedule import Job, Task, until_false
from studio_quests import api
from studio_quests.commands import NAME, end_lapsed_streaks, erase_player, merge_player
from studio_quests.handlers import HANDLERS
from studio_quests.hooks import QuestHooks
from studio_quests.memory import memory_port
from studio_quests.rules import (
    QUEST_ALREADY_CHECKED_IN,
    QUEST_CHECK_IN_FIRST,
    QUESTS_NOT_CONFIGURED,
    problems,
)
from studio_quests.season import SEASON
from studio_quests.simulation import Quests, ServerQuests
from studio_quests.webhooks import SAMPLES, QuestCheckedIn


def _sweep(tx: object, rt: Runtime) -> list[Task]:
    """One task over every game: the lapsed streaks are few, and ending one needs no game's settings."""
    return [Task("lapsed", None, until_false(lambda tx: end_lapsed_streaks(tx, rt)))]


AREA = Area(
    name=NAME,
    summary="Quests: a daily check-in, its streak and its reward (a studio's own area).",
    page="quests",
    builds_on=("grants",),
    routes=api.ROUTES,
    handlers=HANDLERS,
    webhooks=(QuestCheckedIn,),
    samples=SAMPLES,
    errors=(QUEST_ALREADY_CHECKED_IN, QUEST_CHECK_IN_FIRST, QUESTS_NOT_CONFIGURED),
    jobs=(Job("quest_streak_sweep", _sweep, every=timedelta(hours=1)),),
    tables=dict,  # the in-memory store's table: player id -> QuestState
    ports={NAME: memory_port},
    hooks=QuestHooks(),
    merge=merge_player,
    erase=erase_player,
    settings=problems,
    season=SEASON,
    player_actions=Quests,  # ada.quests.check_in() in an embedded simulation
    server_actions=ServerQuests,  # sim.server.quests.get("ada")
    client=(  # sdk.quests.check_in("ada"), server.quests.get("ada"): studio_quests/typed.py binds them
        ClientPart("sdk", "quests", "studio_quests.client", "Quests"),
        ClientPart("server", "quests", "studio_quests.client", "ServerQuests"),
    ),
)
