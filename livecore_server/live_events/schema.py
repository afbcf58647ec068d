"""The live events area's tables, declared (:data:`SCHEMA`), and the migrations of each dialect that built
them (:data:`HISTORY`), under the names deployed databases recorded. The area declares them (``ServerArea``),
and its store adds them to the shared ones."""

from __future__ import annotations

from livecore_server.live_events.sql.rank_pages import RankPages, paged, pages_table
from livecore_server.storage.area_storage import taken_over
from livecore_server.storage.history import History
from livecore_server.storage.schema import (
    BIGINT,
    BOOL,
    INT,
    JSON,
    MS,
    PLAYER,
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

# A board's pages, in board order (rank_pages.py).
PAGES = RankPages("board_pages", "board_entries", "board_id")

SCHEMA = Schema(
    tables=(
        # Event windows as they opened, with the event's settings they opened with (JSON, as game settings
        # are written: a window closes on those even after the manifest changed or dropped the event).
        table(
            "windows",
            Column("id"),
            Column("game_id", references=Ref("games")),
            Column("env"),
            Column("event_key"),
            Column("event_id"),
            Column("starts_at", MS),
            Column("ends_at", MS),
            Column("status"),
            Column("settings", JSON),
            Column("opened_at", MS),
            nullable("closed_at", MS),
            rowid=False,
        ),
        # One event leaderboard per window and segment values; ``version`` counts its changes (the stream's
        # event ids). "order" is a keyword of both dialects: the column is ``sort_order``.
        table(
            "boards",
            Column("id"),
            Column("game_id", references=Ref("games")),
            Column("env"),
            Column("event_key"),
            Column("event_id"),
            Column("window_id", references=Ref("windows")),
            Column("sort_order"),
            Column("closes_at", MS),
            Column("segment_values", JSON),
            Column("status"),
            Column("version", BIGINT),
            nullable("lobby_id"),
            nullable("finalized_at", MS),
            rowid=False,
        ),
        table(
            "attempts",
            Column("id"),
            Column("game_id", references=Ref("games")),
            Column("env"),
            Column("player_id", references=PLAYER),
            Column("external_player_id"),
            Column("event_key"),
            Column("event_id"),
            Column("window_id", references=Ref("windows")),
            Column("board_id", references=Ref("boards")),
            Column("status"),
            Column("started_at", MS),
            Column("ends_at", MS),
            Column("attempt_count", INT),
            Column("segment_values", JSON),
            Column("metrics", JSON),
            nullable("score", REAL),
            nullable("score_at", MS),
            nullable("completed_at", MS),
            Column("milestones", JSON),
            Column("flagged", BOOL),
            nullable("lobby_id"),
            Column("frozen_at", MS, null=True, since="0018_attempts_frozen (PostgreSQL: 0010)"),
            rowid=False,
        ),
        # A player's best score on a board. ``rank_key`` is the score in board order (negated on a ``desc``
        # board), so one ascending index serves both orders: pages, keysets and ranks.
        table(
            "board_entries",
            Column("board_id", references=Ref("boards")),
            Column("player_id", references=PLAYER),
            Column("score", REAL),
            Column("rank_key", REAL),
            Column("reached_at", MS),
            Column("attempt_id", references=Ref("attempts")),
            primary_key=("board_id", "player_id"),
            rowid=False,
        ),
        # How many entries each stretch of a board holds, in board order (rank_pages.py): a rank in a
        # thousand rows read whatever the board's size.
        pages_table("board_pages"),
    ),
    indexes=(
        # Live events: the scheduler's and the commands' look-ups, each a range of one index.
        Index(
            "windows_open",
            "windows",
            ("game_id", "env", "event_key", "starts_at", "id"),
            where="status = 'open'",
        ),
        Index("windows_to_close", "windows", ("ends_at", "id"), where="status = 'open'"),
        Index("boards_of_window", "boards", ("window_id", "id")),
        Index("attempts_by_player", "attempts", ("player_id", "started_at", "id")),
        Index("attempts_in_window", "attempts", ("player_id", "window_id", "started_at", "id")),
        Index(
            "attempts_running_in_window",
            "attempts",
            ("window_id", "started_at", "id"),
            where="status = 'in_progress'",
        ),
        Index("attempts_to_expire", "attempts", ("ends_at", "id"), where="status = 'in_progress'"),
        Index(
            "attempts_in_lobby",
            "attempts",
            ("lobby_id", "started_at", "id"),
            where="lobby_id IS NOT NULL",
            since="0018_attempts_frozen (PostgreSQL: 0010)",
        ),
        # Board order: pages from the top or after a keyset, the rank of an entry (entries ahead of it).
        # Board order, carrying score and attempt too: a page and its offset read the index alone.
        Index(
            "board_entries_by_rank",
            "board_entries",
            ("board_id", "rank_key", "reached_at", "player_id", "score", "attempt_id"),
        ),
        Index("board_entries_by_player", "board_entries", ("player_id", "board_id")),
    ),
)

HISTORY = History(
    sqlite=(
        (
            # Live events: windows, their boards, attempts and board entries.
            "0015_live_events",
            [
                *SCHEMA.create_statements("windows", SQLITE),
                *SCHEMA.create_statements("boards", SQLITE),
                *SCHEMA.create_statements("attempts", SQLITE),
                *SCHEMA.create_statements("board_entries", SQLITE),
            ],
        ),
        (
            # An attempt frozen by its lobby's sudden death.
            "0018_attempts_frozen",
            [
                SCHEMA.add_column("attempts", "frozen_at", SQLITE),
                SCHEMA.create_index("attempts_in_lobby", SQLITE),
            ],
        ),
        (
            # Rank pages of the boards (ranks in a thousand rows read), made for the boards already entered.
            "0028_board_pages",
            [*SCHEMA.create_statements("board_pages", SQLITE), paged(PAGES, SQLITE)],
        ),
    ),
    postgres=(
        (
            # Live events: windows, their boards, attempts and board entries.
            "0007_live_events",
            [
                *SCHEMA.create_statements("windows", POSTGRES),
                *SCHEMA.create_statements("boards", POSTGRES),
                *SCHEMA.create_statements("attempts", POSTGRES),
                *SCHEMA.create_statements("board_entries", POSTGRES),
            ],
        ),
        (
            # An attempt frozen by its lobby's sudden death.
            "0010_attempts_frozen",
            [
                SCHEMA.add_column("attempts", "frozen_at", POSTGRES),
                SCHEMA.create_index("attempts_in_lobby", POSTGRES),
            ],
        ),
        (
            # Rank pages of the boards (ranks in a thousand rows read), made for the boards already entered.
            "0020_board_pages",
            [*SCHEMA.create_statements("board_pages", POSTGRES), paged(PAGES, POSTGRES)],
        ),
    ),
)

# The area's migrations, recorded as ``live_events:<name>``: those of :data:`HISTORY`, which the service's
# history applied under its own numbers before the area had migrations of its own.
MIGRATIONS = taken_over(HISTORY)
