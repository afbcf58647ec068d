"""A lobby's own event board, as the lobbies area reads it for live events
(``livecore.live_events.commands.boards.ROOM_ROWS``): its players' stored entries and its bots',
computed at read time and never stored (a bot's line: :func:`livecore.lobbies.rules.bot_reached`)."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from livecore.live_events.boards import Board, BoardEntry, Contender
from livecore.live_events.commands.boards import ReadTx
from livecore.lobbies.rules import Lobby, Seat, bot_reached
from livecore.lobbies.store import HasLobbies


def bot_contender(seat: Seat) -> Contender:
    """A bot seat as its lobby's board shows it: the identity drawn for it when it was seated, no external
    id and no country."""
    if not seat.is_bot or seat.identity is None:
        raise ValueError(f"seat {seat.seat_id} is not a bot's")
    return Contender(seat.seat_id, None, seat.identity, None, None, is_bot=True)


def bot_entry(seat: Seat, board: Board, lobby: Lobby, now: datetime) -> BoardEntry:
    """A bot's entry on its lobby's board ``now``, computed (never stored): its seat id as player and
    attempt, its score and time as its line gives them (:func:`~livecore.lobbies.rules.bot_reached`).
    Raises ValueError for a lobby that has not started."""
    score, reached_at = bot_reached(seat, lobby, now)
    return BoardEntry(board.id, seat.seat_id, score, reached_at, seat.seat_id)


class RowsTx(ReadTx, HasLobbies, Protocol):
    """What reading a lobby's board needs."""


def lobby_rows(tx: RowsTx, board: Board, now: datetime) -> list[tuple[BoardEntry, Contender]]:
    """A lobby board's whole list at ``now``: its players' stored entries and its bots' (none before the
    lobby starts), in no particular order."""
    assert board.lobby_id is not None
    lobby = tx.lobbies.get(board.game_id, board.lobby_id)
    assert lobby is not None  # a lobby's board is made with its lobby, and neither is deleted
    rows = tx.boards.page(board, None, lobby.capacity)
    if lobby.started_at is not None:
        rows += [
            (bot_entry(seat, board, lobby, now), bot_contender(seat))
            for seat in tx.lobbies.seats(lobby.id)
            if seat.is_bot
        ]
    return rows


__all__ = ["bot_contender", "bot_entry", "lobby_rows"]
