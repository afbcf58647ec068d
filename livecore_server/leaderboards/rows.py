"""The leaderboards area's rows: a period and a division are kept in the declared ``board_periods`` and
``divisions`` tables (:data:`PERIOD`, :data:`DIVISION`: their inserts, the values they write and how a row
is read back, :class:`~livecore_server.storage.mapped.Mapped`); a shared entry's columns are declared once
(read by name, :data:`SHARED_ENTRY_COLUMNS`)."""

from __future__ import annotations

from typing import Any

import orjson

from livecore.clock import from_millis
from livecore.leaderboards.rules import BoardPeriod, Division, SharedEntry
from livecore.leaderboards.settings import LeaderboardSettings
from livecore_server.leaderboards.schema import SCHEMA
from livecore_server.storage.columns import Columns
from livecore_server.storage.mapped import Convert, Mapped
from livecore_server.storage.records import settings_converter

PERIOD = Mapped(
    SCHEMA.table("board_periods"),
    BoardPeriod,
    convert={
        "settings": Convert(
            lambda settings: orjson.dumps(settings_converter.unstructure(settings)).decode(),
            lambda text: settings_converter.structure(orjson.loads(text), LeaderboardSettings),
        )
    },
)
PERIOD_COLUMNS = PERIOD.columns
DIVISION = Mapped(SCHEMA.table("divisions"), Division)
DIVISION_COLUMNS = DIVISION.columns


# Hand-written: an entry's ``rank_key`` is its score in its period's board order, which it does not hold.
def _shared_entry(
    period_id: Any, player_id: Any, score: Any, reached_at: Any, division_id: Any
) -> SharedEntry:
    return SharedEntry(
        period_id=period_id,
        player_id=player_id,
        score=score,
        reached_at=from_millis(reached_at),
        division_id=division_id,
    )


SHARED_ENTRY_COLUMNS = Columns(_shared_entry)
