"""The leaderboards area's rows: each record's columns declared once (read by name) and the
values it writes, in the order of its declaration's ``names`` (:mod:`livecore_server.storage.rows`)."""

from __future__ import annotations

from typing import Any

import orjson

from livecore.clock import from_millis
from livecore.leaderboards.rules import BoardPeriod, Division, PeriodStatus, SharedEntry
from livecore.leaderboards.settings import LeaderboardSettings
from livecore.scope import Environment
from livecore_server.storage.columns import Columns
from livecore_server.storage.records import settings_converter
from livecore_server.storage.rows import dt, ms


def period_row(p: BoardPeriod) -> tuple[Any, ...]:
    return (
        p.id,
        p.game_id,
        p.env.value,
        p.board_key,
        ms(p.starts_at),
        ms(p.ends_at),
        p.status.value,
        orjson.dumps(settings_converter.unstructure(p.settings)).decode(),
        p.finalized_through,
        ms(p.finalized_at),
    )


def _period(
    id: Any,
    game_id: Any,
    env: Any,
    board_key: Any,
    starts_at: Any,
    ends_at: Any,
    status: Any,
    settings: Any,
    finalized_through: Any,
    finalized_at: Any,
) -> BoardPeriod:
    return BoardPeriod(
        id=id,
        game_id=game_id,
        env=Environment(env),
        board_key=board_key,
        starts_at=dt(starts_at),
        ends_at=dt(ends_at),
        status=PeriodStatus(status),
        settings=settings_converter.structure(orjson.loads(settings), LeaderboardSettings),
        finalized_through=finalized_through,
        finalized_at=dt(finalized_at),
    )


PERIOD_COLUMNS = Columns(_period)


def _division(id: Any, period_id: Any, tier: Any, number: Any, members: Any) -> Division:
    return Division(id=id, period_id=period_id, tier=tier, number=number, members=members)


DIVISION_COLUMNS = Columns(_division)


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
