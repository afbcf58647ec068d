"""The live events area's rows: a window, a board and an attempt are kept in their declared tables
(:data:`WINDOW`, :data:`BOARD`, :data:`ATTEMPT`: their inserts, the values they write and how a row is read
back, :class:`~livecore_server.storage.mapped.Mapped`); a board entry's columns are declared once (read by
name, :data:`ENTRY_COLUMNS`)."""

from __future__ import annotations

from typing import Any

import orjson

from livecore.clock import from_millis
from livecore.live_events.attempts import Attempt
from livecore.live_events.boards import Board, BoardEntry
from livecore.live_events.rules import Window
from livecore.live_events.settings import EventSettings
from livecore_server.live_events.schema import SCHEMA
from livecore_server.storage.columns import Columns
from livecore_server.storage.mapped import Convert, Mapped
from livecore_server.storage.records import settings_converter

WINDOW = Mapped(
    SCHEMA.table("windows"),
    Window,
    convert={
        "settings": Convert(
            lambda settings: orjson.dumps(settings_converter.unstructure(settings)).decode(),
            lambda text: settings_converter.structure(orjson.loads(text), EventSettings),
        )
    },
)
WINDOW_COLUMNS = WINDOW.columns
BOARD = Mapped(SCHEMA.table("boards"), Board, attributes={"sort_order": "order"})
BOARD_COLUMNS = BOARD.columns
ATTEMPT = Mapped(SCHEMA.table("attempts"), Attempt)
ATTEMPT_COLUMNS = ATTEMPT.columns


# Hand-written: an entry's ``rank_key`` is its score in its board's order, which it does not hold.
def _entry(board_id: Any, player_id: Any, score: Any, reached_at: Any, attempt_id: Any) -> BoardEntry:
    return BoardEntry(
        board_id=board_id,
        player_id=player_id,
        score=score,
        reached_at=from_millis(reached_at),
        attempt_id=attempt_id,
    )


ENTRY_COLUMNS = Columns(_entry)
