"""The live events area's rows: each record's columns declared once (read by name) and the
values it writes, in the order of its declaration's ``names`` (:mod:`livecore_server.storage.rows`)."""

from __future__ import annotations

from typing import Any

import orjson

from livecore.clock import from_millis, to_millis
from livecore.games import Order
from livecore.live_events.attempts import Attempt, AttemptStatus
from livecore.live_events.boards import Board, BoardEntry, BoardStatus
from livecore.live_events.rules import Window, WindowStatus
from livecore.live_events.settings import EventSettings
from livecore.scope import Environment
from livecore_server.storage.columns import Columns
from livecore_server.storage.records import settings_converter
from livecore_server.storage.rows import dt, ms


def window_row(w: Window) -> tuple[Any, ...]:
    return (
        w.id,
        w.game_id,
        w.env.value,
        w.event_key,
        w.event_id,
        to_millis(w.starts_at),
        to_millis(w.ends_at),
        w.status.value,
        orjson.dumps(settings_converter.unstructure(w.settings)).decode(),
        to_millis(w.opened_at),
        ms(w.closed_at),
    )


def _window(
    id: Any,
    game_id: Any,
    env: Any,
    event_key: Any,
    event_id: Any,
    starts_at: Any,
    ends_at: Any,
    status: Any,
    settings: Any,
    opened_at: Any,
    closed_at: Any,
) -> Window:
    return Window(
        id=id,
        game_id=game_id,
        env=Environment(env),
        event_key=event_key,
        event_id=event_id,
        starts_at=from_millis(starts_at),
        ends_at=from_millis(ends_at),
        status=WindowStatus(status),
        settings=settings_converter.structure(orjson.loads(settings), EventSettings),
        opened_at=from_millis(opened_at),
        closed_at=dt(closed_at),
    )


WINDOW_COLUMNS = Columns(_window)


def board_row(b: Board) -> tuple[Any, ...]:
    return (
        b.id,
        b.game_id,
        b.env.value,
        b.event_key,
        b.event_id,
        b.window_id,
        b.order.value,
        to_millis(b.closes_at),
        orjson.dumps(b.segment_values).decode(),
        b.status.value,
        b.version,
        b.lobby_id,
        ms(b.finalized_at),
    )


def _board(
    id: Any,
    game_id: Any,
    env: Any,
    event_key: Any,
    event_id: Any,
    window_id: Any,
    sort_order: Any,
    closes_at: Any,
    segment_values: Any,
    status: Any,
    version: Any,
    lobby_id: Any,
    finalized_at: Any,
) -> Board:
    return Board(
        id=id,
        game_id=game_id,
        env=Environment(env),
        event_key=event_key,
        event_id=event_id,
        window_id=window_id,
        order=Order(sort_order),
        closes_at=from_millis(closes_at),
        segment_values=orjson.loads(segment_values),
        status=BoardStatus(status),
        version=version,
        lobby_id=lobby_id,
        finalized_at=dt(finalized_at),
    )


BOARD_COLUMNS = Columns(_board)


def attempt_row(a: Attempt) -> tuple[Any, ...]:
    return (
        a.id,
        a.game_id,
        a.env.value,
        a.player_id,
        a.external_player_id,
        a.event_key,
        a.event_id,
        a.window_id,
        a.board_id,
        a.status.value,
        to_millis(a.started_at),
        to_millis(a.ends_at),
        a.attempt_count,
        orjson.dumps(a.segment_values).decode(),
        orjson.dumps(a.metrics).decode(),
        a.score,
        ms(a.score_at),
        ms(a.completed_at),
        orjson.dumps(a.milestones).decode(),
        a.flagged,  # a bool: 1/0 on SQLite, a boolean on PostgreSQL
        a.lobby_id,
        ms(a.frozen_at),
    )


def _attempt(
    id: Any,
    game_id: Any,
    env: Any,
    player_id: Any,
    external_player_id: Any,
    event_key: Any,
    event_id: Any,
    window_id: Any,
    board_id: Any,
    status: Any,
    started_at: Any,
    ends_at: Any,
    attempt_count: Any,
    segment_values: Any,
    metrics: Any,
    score: Any,
    score_at: Any,
    completed_at: Any,
    milestones: Any,
    flagged: Any,
    lobby_id: Any,
    frozen_at: Any,
) -> Attempt:
    return Attempt(
        id=id,
        game_id=game_id,
        env=Environment(env),
        player_id=player_id,
        external_player_id=external_player_id,
        event_key=event_key,
        event_id=event_id,
        window_id=window_id,
        board_id=board_id,
        status=AttemptStatus(status),
        started_at=from_millis(started_at),
        ends_at=from_millis(ends_at),
        attempt_count=attempt_count,
        segment_values=orjson.loads(segment_values),
        metrics=orjson.loads(metrics),
        score=score,
        score_at=dt(score_at),
        completed_at=dt(completed_at),
        milestones=tuple(orjson.loads(milestones)),
        flagged=bool(flagged),
        lobby_id=lobby_id,
        frozen_at=dt(frozen_at),
    )


ATTEMPT_COLUMNS = Columns(_attempt)


def _entry(board_id: Any, player_id: Any, score: Any, reached_at: Any, attempt_id: Any) -> BoardEntry:
    return BoardEntry(
        board_id=board_id,
        player_id=player_id,
        score=score,
        reached_at=from_millis(reached_at),
        attempt_id=attempt_id,
    )


ENTRY_COLUMNS = Columns(_entry)
