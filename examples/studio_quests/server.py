"""The quests area's server side (:class:`livecore_server.area.ServerArea`): the handler bound to each
route, the SQL port a transaction reaches as ``tx.ports.quests``, and the migration of its table."""

from __future__ import annotations

from livecore_server.area import ServerArea
from livecore_server.http.endpoint import Binding, Call, bind, player_of
from studio_quests import api, commands
from studio_quests.area import AREA
from studio_quests.commands import QuestsTx
from studio_quests.report import REPORT
from studio_quests.sql import MIGRATIONS, SqlQuests


def check_in(call: Call[None, None], tx: QuestsTx) -> api.CheckInResponse:
    done = commands.check_in(tx, call.rt, call.scope, player_of(call))
    return api.CheckInResponse.of(done, call.rt.clock.now())


def read_own(call: Call[None, None], tx: QuestsTx) -> api.QuestResponse:
    state = commands.own_quest(tx, player_of(call))
    return api.QuestResponse(quest=api.QuestView.of(state, call.rt.clock.now()))


def read(call: Call[None, None], tx: QuestsTx) -> api.QuestResponse:
    state = commands.quest_of(tx, call.scope, call.external_id)
    return api.QuestResponse(quest=api.QuestView.of(state, call.rt.clock.now()))


BINDINGS: tuple[Binding, ...] = (
    bind(api.SDK_CHECK_IN, check_in),
    bind(api.SDK_READ, read_own),
    bind(api.SERVER_READ, read),
)

SERVER_AREA = ServerArea(
    AREA,
    bindings=BINDINGS,
    sql_ports={commands.NAME: SqlQuests},
    migrations=MIGRATIONS,
    report=REPORT,
)
