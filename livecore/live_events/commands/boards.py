"""Event-board commands: a score onto its board, finalizing a board at its window's close, the pages a
client reads and what the live stream sends (rules: ``livecore.live_events.boards``).

A room's board (a lobby's: ``Board.lobby_id`` set) is read whole, as the area seating the room says
(:data:`ROOM_ROWS`): a lobby's also shows its bots, computed at read time and never stored. It is
small (at most the room's seats), so pages, ranks and the finalized top are read from that list
(``livecore.live_events.boards.listed``). Ranks count the bots; rank rewards go to players only."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

import attrs

from livecore.commands import Runtime, emit
from livecore.contributions import Point, served
from livecore.errors import LivecoreError, invalid_request
from livecore.grants.commands import GrantsTx
from livecore.grants.rank_rewards import Placing, pay_rank_rewards
from livecore.limits import ID, PAGE
from livecore.live_events.attempts import Attempt
from livecore.live_events.boards import (
    DEFAULT_LIMIT,
    FINALIZED_TOP,
    STREAM_TOP,
    Board,
    BoardEntry,
    BoardPage,
    BoardStatus,
    Contender,
    Ranking,
    Standing,
    cursor_of,
    finalized,
    key_after,
    listed,
    not_found,
    paid_ranks,
    parse_cursor,
    read_ranked,
    replaces,
    sort_key,
)
from livecore.live_events.settings import EventSettings
from livecore.live_events.store.boards import HasBoards
from livecore.live_events.webhooks import FinalEntry, LeaderboardFinalized
from livecore.players.commands import find_player
from livecore.players.errors import PLAYER_NOT_FOUND
from livecore.players.rules import Player
from livecore.players.store import HasPlayers
from livecore.scope import Scope

RANK_SOURCE_KIND = "event_rank"


class BoardsTx(GrantsTx, HasBoards, Protocol):
    """The ports these commands use."""


def record_score(tx: HasBoards, scope: Scope, player: Player, attempt: Attempt) -> bool:
    """The attempt's score becomes the player's entry on its board when it beats the entry; a finalized
    board no longer moves. True when the board changed."""
    board = tx.boards.get(scope.game_id, attempt.board_id)
    if (
        board is None
        or board.status is not BoardStatus.OPEN
        or attempt.score is None
        or attempt.score_at is None
    ):
        return False
    if not replaces(board.order, tx.boards.entry(board.id, player.id), attempt.score):
        return False
    entry = BoardEntry(board.id, player.id, attempt.score, attempt.score_at, attempt.id)
    tx.boards.put_entry(attrs.evolve(board, version=board.version + 1), entry)
    return True


def rescore(tx: HasBoards, scope: Scope, player: Player, attempts: list[Attempt]) -> bool:
    """The player's entry on a board after one of its attempts' score was replaced (it may have got
    worse): the best of ``attempts`` (the player's attempts on that board; equal scores, the one reached
    first), none when no attempt has a score. A finalized board no longer moves. True when it changed."""
    board_ids = {a.board_id for a in attempts}
    assert len(board_ids) == 1, board_ids
    board = tx.boards.get(scope.game_id, board_ids.pop())
    if board is None or board.status is not BoardStatus.OPEN:
        return False
    scored = [
        BoardEntry(board.id, player.id, a.score, a.score_at, a.id)
        for a in attempts
        if a.score is not None and a.score_at is not None
    ]
    best = min(scored, key=lambda e: sort_key(board.order, e), default=None)
    current = tx.boards.entry(board.id, player.id)
    if best == current:
        return False
    raised = attrs.evolve(board, version=board.version + 1)
    if best is None:
        tx.boards.delete_entry(board.id, player.id)
        tx.boards.update(raised)
    else:
        tx.boards.put_entry(raised, best)
    return True


class ReadTx(HasBoards, HasPlayers, Protocol):
    """What reading a board needs."""


class RoomRows(Protocol):
    """A room's board read whole at ``now``: its players' stored entries and what its area computes (a
    lobby's bots), in no particular order. ``tx`` holds every registered area's ports: the area that adds
    the rows types it against its own."""

    def __call__(self, tx: Any, board: Board, now: datetime) -> list[tuple[BoardEntry, Contender]]: ...


ROOM_ROWS: Point[RoomRows] = Point("live_events.room_rows")
"""How a room's board is read whole: the area that seats rooms declares its one reader here."""


def room_rows(tx: ReadTx, board: Board, now: datetime) -> list[tuple[BoardEntry, Contender]]:
    """A room's board (``board.lobby_id`` set) whole at ``now`` (:class:`RoomRows`)."""
    (reader,) = served().of(ROOM_ROWS)
    return reader(tx, board, now)


def ranking(tx: ReadTx, board: Board, now: datetime) -> Ranking[BoardEntry]:
    """The board in order, as its store reads it; a room's board whole at ``now`` (:func:`room_rows`)."""
    if board.lobby_id is not None:
        return listed(board.order, room_rows(tx, board, now))
    return Ranking(
        board.order,
        lambda key, n: tx.boards.page(board, key, n),
        lambda key, n: tx.boards.page_before(board, key, n),
        lambda key: tx.boards.count_ahead(board, key),
    )


def finalize_board(tx: BoardsTx, rt: Runtime, scope: Scope, board: Board, event: EventSettings) -> Board:
    """Freeze the board, pay its rank bands as pending grants (sourceKind ``event_rank``, sourceRefId the
    board id) and fire ``leaderboard.finalized`` with its top ten. On a lobby's board the bots hold their
    ranks (a band that pays a bot's rank pays no one) and are left out of the top ten, whose entries name
    a player's external id; its ``entryCount`` counts them."""
    now = rt.clock.now()
    shown = max(paid_ranks(event.rank_rewards), FINALIZED_TOP)
    rows = room_rows(tx, board, now) if board.lobby_id is not None else None
    ranked = ranking(tx, board, now) if rows is None else listed(board.order, rows)
    top, _ = read_ranked(ranked, shown)
    placings = (
        Placing(
            rank=s.rank,
            player_ids=() if s.player.is_bot else (s.player.id,),
            source_ref_id=board.id,
            metadata={"eventKey": board.event_key, "rank": s.rank},
        )
        for s in top
    )
    pay_rank_rewards(tx, rt, scope, event.rank_rewards, placings, source_kind=RANK_SOURCE_KIND)
    done = finalized(attrs.evolve(board, version=board.version + 1), now)
    tx.boards.update(done)
    emit(
        tx,
        rt,
        scope,
        LeaderboardFinalized(
            leaderboard_id=board.id,
            event_id=board.event_id,
            event_key=board.event_key,
            event_window_id=board.window_id,
            lobby_id=board.lobby_id,
            segment_values=board.segment_values,
            participant_scope="player",
            entry_count=tx.boards.size(board.id) if rows is None else len(rows),
            top=tuple(_final(s) for s in top[:FINALIZED_TOP] if not s.player.is_bot),
            finalized_at=now,
        ),
    )
    return done


def _final(standing: Standing[BoardEntry]) -> FinalEntry:
    player, entry = standing.player, standing.entry
    return FinalEntry(
        rank=standing.rank,
        player_id=player.id,
        external_player_id=player.player_external_id,
        score=entry.score,
        attempt_id=entry.attempt_id,
        reached_at=entry.reached_at,
    )


def get_board(tx: HasBoards, scope: Scope, board_id: str) -> Board:
    board = tx.boards.get(scope.game_id, board_id)
    if board is None or board.env is not scope.env:
        raise not_found(board_id)
    return board


def read_board(
    tx: ReadTx,
    rt: Runtime,
    scope: Scope,
    board_id: str,
    *,
    limit: int = DEFAULT_LIMIT,
    cursor: str | None = None,
    around: str | None = None,
) -> BoardPage:
    """A page of the board: the top, after ``cursor``, or ``around`` a player (docs/events.md#boards).
    A player with no entry gets the top; an unknown player is 404 ``player_not_found``. A lobby's board
    shows its bots as they are at the clock's now."""
    PAGE.check(limit, "limit")
    ID.check_optional(cursor, "cursor")
    ID.check_optional(around, "around")
    board = get_board(tx, scope, board_id)
    if cursor is not None and around is not None:
        raise invalid_request("Give cursor or around, not both.", {"around": "not with cursor"})
    after = None
    mine = None
    if cursor is not None:
        after = key_after(board.order, parse_cursor(board.id, cursor))
    elif around is not None:
        player = find_player(tx, scope, around)
        if player is None:
            raise LivecoreError(PLAYER_NOT_FOUND, "Player not found.", {"externalPlayerId": around})
        entry = tx.boards.entry(board.id, player.id)
        mine = None if entry is None else (entry, Contender.of(player))
    standings, more = read_ranked(ranking(tx, board, rt.clock.now()), limit, after, mine)
    next_cursor = cursor_of(board.id, standings[-1].entry) if more and standings else None
    return BoardPage(board, standings, next_cursor)


def stream_ready(tx: ReadTx, rt: Runtime, scope: Scope, board_id: str) -> BoardPage:
    """What a new subscriber gets first: the board and its top entries."""
    return read_board(tx, rt, scope, board_id, limit=STREAM_TOP)


def standing_of(tx: ReadTx, rt: Runtime, board: Board, player_id: str) -> Standing[BoardEntry] | None:
    """The player's entry on the board with its rank now (what a ``score_update`` carries); on a lobby's
    board the bots ahead of it count."""
    entry = tx.boards.entry(board.id, player_id)
    player = tx.players.by_id(player_id)
    if entry is None or player is None:
        return None
    rank = ranking(tx, board, rt.clock.now()).count_ahead(sort_key(board.order, entry)) + 1
    return Standing(rank, entry, Contender.of(player))


def bot_standings(tx: ReadTx, board: Board, now: datetime) -> list[Standing[BoardEntry]]:
    """The bots of a room's board with their entries and ranks at ``now`` (the stream sends their growing
    scores); none for any other board."""
    if board.lobby_id is None:
        return []
    rows = sorted(room_rows(tx, board, now), key=lambda row: sort_key(board.order, row[0]))
    return [Standing(i + 1, entry, who) for i, (entry, who) in enumerate(rows) if who.is_bot]


def merge_entries(tx: HasBoards, from_id: str, to: Player) -> None:
    """A merge: each of the source's entries moves to the target, which keeps the better of two on one
    board (equal scores: the one reached first)."""
    for entry in tx.boards.entries_of(from_id):
        tx.boards.delete_entry(entry.board_id, from_id)
        board = tx.boards.get(to.game_id, entry.board_id)
        assert board is not None
        theirs = tx.boards.entry(board.id, to.id)
        moved = attrs.evolve(entry, player_id=to.id)
        if theirs is None or sort_key(board.order, moved) < sort_key(board.order, theirs):
            tx.boards.put_entry(attrs.evolve(board, version=board.version + 1), moved)


__all__ = [
    "ROOM_ROWS",
    "BoardPage",
    "BoardsTx",
    "ReadTx",
    "RoomRows",
    "bot_standings",
    "finalize_board",
    "get_board",
    "merge_entries",
    "ranking",
    "read_board",
    "record_score",
    "rescore",
    "room_rows",
    "standing_of",
    "stream_ready",
]
