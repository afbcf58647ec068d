"""The lobbies area's tables, declared (:data:`SCHEMA`), and the migrations of each dialect that built them
(:data:`HISTORY`), under the names deployed databases recorded. The area declares them (``ServerArea``), and
its store adds them to the shared ones."""

from __future__ import annotations

from livecore_server.storage.area_storage import taken_over
from livecore_server.storage.history import History
from livecore_server.storage.schema import (
    INT,
    JSON,
    MS,
    POSTGRES,
    REAL,
    SQLITE,
    Column,
    Index,
    Ref,
    Schema,
    nullable,
    table,
)

SCHEMA = Schema(
    tables=(
        # Lobbies: small rooms of one window that fill, start and close, each with its own event board
        # (``board_id``, a derived id: the board may be written after its lobby). ``segment_key`` is the
        # canonical text of ``segment_values``; ``push_key`` the key a studio's server pushed it with.
        table(
            "lobbies",
            Column("id"),
            Column("game_id", references=Ref("games")),
            Column("env"),
            Column("event_key"),
            Column("event_id"),
            Column("window_id", references=Ref("windows")),
            Column("board_id"),
            Column("status"),
            Column("capacity", INT),
            Column("segment_values", JSON),
            Column("segment_key"),
            Column("created_at", MS),
            Column("ends_at", MS),
            nullable("fill_by", MS),
            Column("participant_count", INT),
            Column("bot_count", INT),
            nullable("started_at", MS),
            nullable("closed_at", MS),
            nullable("promotion_reason"),
            nullable("metadata", JSON),
            nullable("push_key"),
            nullable("terminated_by"),
            rowid=False,
        ),
        # A lobby's seats, players' and bots' (a bot's ``seat_id`` is a bot id: no player row, so no foreign
        # key). Unique (window_id, seat_id): a player holds one seat per window, whatever two processes race.
        table(
            "lobby_seats",
            Column("lobby_id", references=Ref("lobbies")),
            Column("window_id", references=Ref("windows")),
            Column("seat_id"),
            Column("joined_at", MS),
            Column("source"),
            nullable("external_player_id"),
            nullable("identity_name"),
            nullable("identity_avatar"),
            nullable("final_score", REAL),
            Column("seat_position", INT),
            primary_key=("lobby_id", "seat_id"),
            unique=(("window_id", "seat_id"),),
            rowid=False,
        ),
    ),
    indexes=(
        # Matchmaking's look-up: a window's oldest forming lobby of a segment.
        Index("lobbies_forming", "lobbies", ("window_id", "segment_key", "status", "created_at", "id")),
        # A window's lobbies still running, oldest first (the window's close walks them).
        Index("lobbies_of_window", "lobbies", ("window_id", "created_at", "id"), where="status != 'closed'"),
        # A push's key answers the lobby it made, per game and environment.
        Index(
            "lobbies_by_push_key",
            "lobbies",
            ("game_id", "env", "push_key"),
            unique=True,
            where="push_key IS NOT NULL",
        ),
        # The scheduler's look-up: forming lobbies whose fill_by has come, and the next one to.
        Index("lobbies_to_fill", "lobbies", ("fill_by", "id"), where="status = 'forming'"),
        Index("lobby_seats_in_order", "lobby_seats", ("lobby_id", "seat_position", "joined_at", "seat_id")),
        Index("lobby_seats_by_player", "lobby_seats", ("seat_id", "joined_at", "lobby_id")),
    ),
)

HISTORY = History(
    sqlite=(
        (
            # Lobbies and their seats.
            "0017_lobbies",
            [
                *SCHEMA.create_statements("lobbies", SQLITE),
                *SCHEMA.create_statements("lobby_seats", SQLITE),
            ],
        ),
    ),
    postgres=(
        (
            # Lobbies and their seats.
            "0009_lobbies",
            [
                *SCHEMA.create_statements("lobbies", POSTGRES),
                *SCHEMA.create_statements("lobby_seats", POSTGRES),
            ],
        ),
    ),
)

# The area's migrations, recorded as ``lobbies:<name>``: those of :data:`HISTORY`, which the service's
# history applied under its own numbers before the area had migrations of its own.
MIGRATIONS = taken_over(HISTORY)
