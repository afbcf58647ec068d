"""The lobbies port in SQL, for SQLite and PostgreSQL: each read is one range of one index (schema.py's
``lobbies_*`` and ``lobby_seats_*``). A second seat of one player in one window breaks the unique
(window_id, seat_id) and fails the transaction with the database's integrity error."""

from __future__ import annotations

from datetime import datetime

import orjson

from livecore.clock import to_millis
from livecore.lobbies.rules import Lobby, Seat
from livecore.players.rules import Player
from livecore.scope import Environment
from livecore_server.lobbies.rows import LOBBY, LOBBY_COLUMNS, SEAT_COLUMNS, seat_row
from livecore_server.storage.rows import dt, ms
from livecore_server.storage.sqlport import Insert, SqlPort

INSERT_SEAT = Insert("lobby_seats", SEAT_COLUMNS.names)

# A segment's matchmaking in a window: its forming lobbies' seats (``SqlTransaction.hold``).
MATCHMAKING = "lobby_matchmaking"


class SqlLobbies(SqlPort):
    __slots__ = ()

    def get(self, game_id: str, lobby_id: str) -> Lobby | None:
        row = self.db.read(
            f"SELECT {LOBBY_COLUMNS.sql} FROM lobbies WHERE id = ? AND game_id = ?", (lobby_id, game_id)
        ).fetchone()
        return None if row is None else LOBBY_COLUMNS.of(row)

    def insert(self, lobby: Lobby) -> None:
        self.db.insert(LOBBY.insert, LOBBY.params(lobby))

    def update(self, lobby: Lobby) -> None:
        # What a lobby's life changes: its status and seat counts, its start and close; its window,
        # segment, capacity and keys stay as it was created.
        self.db.write(
            "lobbies",
            "UPDATE lobbies SET status = ?, fill_by = ?, participant_count = ?, bot_count = ?,"
            " started_at = ?, closed_at = ?, promotion_reason = ?, metadata = ?, terminated_by = ?"
            " WHERE id = ?",
            (
                lobby.status.value,
                ms(lobby.fill_by),
                lobby.participant_count,
                lobby.bot_count,
                ms(lobby.started_at),
                ms(lobby.closed_at),
                None if lobby.promotion_reason is None else lobby.promotion_reason.value,
                None if lobby.metadata is None else orjson.dumps(lobby.metadata).decode(),
                lobby.terminated_by,
                lobby.id,
            ),
        )

    def oldest_forming(self, window_id: str, segment_key: str) -> Lobby | None:
        # Read to seat a start: every start of the segment decides on it (its free seats, or a new lobby
        # when none is forming), so the segment's matchmaking is held from here to the commit, and starts
        # running beside each other seat one after the other.
        self.db.hold(MATCHMAKING, f"{window_id}:{segment_key}")
        row = self.db.read(
            f"SELECT {LOBBY_COLUMNS.sql} FROM lobbies WHERE window_id = ? AND segment_key = ?"
            " AND status = 'forming' ORDER BY created_at, id LIMIT 1",
            (window_id, segment_key),
        ).fetchone()
        return None if row is None else LOBBY_COLUMNS.of(row)

    def by_push_key(self, game_id: str, env: Environment, push_key: str) -> Lobby | None:
        row = self.db.read(
            f"SELECT {LOBBY_COLUMNS.sql} FROM lobbies WHERE game_id = ? AND env = ? AND push_key = ?",
            (game_id, env.value, push_key),
        ).fetchone()
        return None if row is None else LOBBY_COLUMNS.of(row)

    def of_window(self, window_id: str) -> list[Lobby]:
        rows = self.db.read(
            f"SELECT {LOBBY_COLUMNS.sql} FROM lobbies WHERE window_id = ? AND status != 'closed'"
            " ORDER BY created_at, id",
            (window_id,),
        )
        return [LOBBY_COLUMNS.of(r) for r in rows]

    def due_to_fill(self, now: datetime, limit: int) -> list[Lobby]:
        rows = self.db.read(
            f"SELECT {LOBBY_COLUMNS.sql} FROM lobbies WHERE status = 'forming' AND fill_by <= ?"
            " ORDER BY fill_by, id LIMIT ?",
            (to_millis(now), limit),
        )
        return [LOBBY_COLUMNS.of(r) for r in rows]

    def next_fill_by(self) -> datetime | None:
        row = self.db.read(
            "SELECT fill_by FROM lobbies WHERE status = 'forming' AND fill_by IS NOT NULL"
            " ORDER BY fill_by LIMIT 1",
            (),
        ).fetchone()
        return None if row is None else dt(row[0])

    def add_seat(self, seat: Seat) -> None:
        self.db.insert(INSERT_SEAT, seat_row(seat))

    def seats(self, lobby_id: str) -> list[Seat]:
        rows = self.db.read(
            f"SELECT {SEAT_COLUMNS.sql} FROM lobby_seats WHERE lobby_id = ?"
            " ORDER BY seat_position, joined_at, seat_id",
            (lobby_id,),
        )
        return [SEAT_COLUMNS.of(r) for r in rows]

    def seat_in_window(self, window_id: str, player_id: str) -> Seat | None:
        row = self.db.read(
            f"SELECT {SEAT_COLUMNS.sql} FROM lobby_seats WHERE window_id = ? AND seat_id = ?",
            (window_id, player_id),
        ).fetchone()
        return None if row is None else SEAT_COLUMNS.of(row)

    def seats_of(self, player_id: str, limit: int) -> list[Seat]:
        rows = self.db.read(
            f"SELECT {SEAT_COLUMNS.sql} FROM lobby_seats WHERE seat_id = ?"
            " ORDER BY joined_at DESC, lobby_id DESC LIMIT ?",
            (player_id, limit),
        )
        return [SEAT_COLUMNS.of(r) for r in rows]

    def running_count(self, player_id: str) -> int:
        row = self.db.read(
            "SELECT COUNT(*) FROM lobby_seats s JOIN lobbies l ON l.id = s.lobby_id"
            " WHERE s.seat_id = ? AND l.status != 'closed'",
            (player_id,),
        ).fetchone()
        return int(row[0])

    def delete_seat(self, lobby_id: str, seat_id: str) -> None:
        self.db.write(
            "lobby_seats", "DELETE FROM lobby_seats WHERE lobby_id = ? AND seat_id = ?", (lobby_id, seat_id)
        )

    def reassign(self, from_id: str, to: Player) -> None:
        if to.id != from_id:
            # A merge: the source's seats in the windows where the target sits already go.
            self.db.write(
                "lobbies",
                "UPDATE lobbies SET participant_count = participant_count - 1 WHERE id IN"
                " (SELECT s.lobby_id FROM lobby_seats s JOIN lobby_seats t"
                " ON t.window_id = s.window_id AND t.seat_id = ? WHERE s.seat_id = ?)",
                (to.id, from_id),
            )
            self.db.write(
                "lobby_seats",
                "DELETE FROM lobby_seats WHERE seat_id = ? AND window_id IN"
                " (SELECT window_id FROM lobby_seats WHERE seat_id = ?)",
                (from_id, to.id),
            )
        self.db.write(
            "lobby_seats",
            "UPDATE lobby_seats SET seat_id = ?, external_player_id = ? WHERE seat_id = ?",
            (to.id, to.external_id, from_id),
        )


SQL_PORTS = {"lobbies": SqlLobbies}
