"""The quests area's server side (:class:`livecore_server.area.ServerArea`): the SQL port a transaction
reaches as ``tx.ports.quests``, the migration of its table and its part of a season's report. Its routes'
handlers are the core declaration's (``studio_quests.handlers``), which the server binds."""

from __future__ import annotations

from livecore_server.area import ServerArea
from studio_quests import commands
from studio_quests.area import AREA
from studio_quests.report import REPORT
from studio_quests.sql import MIGRATIONS, SqlQuests

SERVER_AREA = ServerArea(
    AREA,
    sql_ports={commands.NAME: SqlQuests},
    migrations=MIGRATIONS,
    report=REPORT,
)
