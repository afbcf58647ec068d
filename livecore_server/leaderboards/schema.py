"""The leaderboards area's tables, declared (:data:`SCHEMA`), and the migrations of each dialect that built
them (:data:`HISTORY`), under the names deployed databases recorded. The area declares them (``ServerArea``),
and its store adds them to the shared ones."""

from __future__ import annotations

from livecore_server.live_events.sql.rank_pages import RankPages, paged, pages_table
from livecore_server.storage.area_storage import taken_over
from livecore_server.storage.history import History
from livecore_server.storage.schema import (
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

# A whole period's pages; a division is counted on its own index range (it holds DIVISION_SIZE_MAX at most).
PAGES = RankPages("shared_pages", "shared_entries", "period_id")

SCHEMA = Schema(
    tables=(
        # One row per period of a board in an environment, with the board's settings it opened with (JSON,
        # as windows keep theirs). ``finalized_through`` counts the divisions a rollover has paid and moved.
        table(
            "board_periods",
            Column("id"),
            Column("game_id", references=Ref("games")),
            Column("env"),
            Column("board_key"),
            nullable("starts_at", MS),  # none: the all-time period
            nullable("ends_at", MS),
            Column("status"),
            Column("settings", JSON),
            Column("finalized_through", INT),
            nullable("finalized_at", MS),
            rowid=False,
        ),
        # A period's divisions, by tier (0: the lowest) and number in the order they opened.
        table(
            "divisions",
            Column("id"),
            Column("period_id", references=Ref("board_periods")),
            Column("tier", INT),
            Column("number", INT),
            Column("members", INT),
            rowid=False,
        ),
        # A player's aggregated score in a period. ``rank_key`` is the score in board order (negated on a
        # ``desc`` board), as in board_entries.
        table(
            "shared_entries",
            Column("period_id", references=Ref("board_periods")),
            Column("player_id", references=PLAYER),
            Column("score", REAL),
            Column("rank_key", REAL),
            Column("reached_at", MS),
            Column("division_id", null=True, references=Ref("divisions")),
            primary_key=("period_id", "player_id"),
            rowid=False,
        ),
        # How many entries each stretch of a period holds, in board order (as board_pages for boards).
        pages_table("shared_pages"),
        # The tier each player plays on a board with divisions.
        table(
            "league_tiers",
            Column("game_id", references=Ref("games")),
            Column("env"),
            Column("board_key"),
            Column("player_id", references=PLAYER),
            Column("tier", INT),
            primary_key=("game_id", "env", "board_key", "player_id"),
            rowid=False,
        ),
    ),
    indexes=(
        # A board's periods by status and start (its open one, its latest finalized).
        Index(
            "board_periods_of_board",
            "board_periods",
            ("game_id", "env", "board_key", "status", "starts_at", "id"),
        ),
        # The rollover's look-up: periods finalizing, and open ones whose end has come.
        Index("board_periods_due", "board_periods", ("status", "ends_at", "id")),
        Index("divisions_in_order", "divisions", ("period_id", "tier", "number")),
        # Board order in a whole period and in one division, each covering: a page is cut from the index
        # alone.
        Index(
            "shared_entries_by_rank",
            "shared_entries",
            ("period_id", "rank_key", "reached_at", "player_id", "score", "division_id"),
        ),
        Index(
            "shared_entries_by_division",
            "shared_entries",
            ("period_id", "division_id", "rank_key", "reached_at", "player_id", "score"),
        ),
        Index("shared_entries_by_player", "shared_entries", ("player_id", "period_id")),
        # A merge's look-up of the source's tiers, covering.
        Index("league_tiers_by_player", "league_tiers", ("player_id", "game_id", "env", "board_key", "tier")),
    ),
)

HISTORY = History(
    sqlite=(
        (
            # Shared leaderboards: periods, their divisions and entries, and each player's tier.
            "0016_shared_leaderboards",
            [
                *SCHEMA.create_statements("board_periods", SQLITE),
                *SCHEMA.create_statements("divisions", SQLITE),
                *SCHEMA.create_statements("shared_entries", SQLITE),
                *SCHEMA.create_statements("league_tiers", SQLITE),
            ],
        ),
        (
            # Rank pages of the periods (ranks in a thousand rows read), made for the periods already entered.
            "0029_shared_pages",
            [*SCHEMA.create_statements("shared_pages", SQLITE), paged(PAGES, SQLITE)],
        ),
    ),
    postgres=(
        (
            # Shared leaderboards: periods, their divisions and entries, and each player's tier.
            "0008_shared_leaderboards",
            [
                *SCHEMA.create_statements("board_periods", POSTGRES),
                *SCHEMA.create_statements("divisions", POSTGRES),
                *SCHEMA.create_statements("shared_entries", POSTGRES),
                *SCHEMA.create_statements("league_tiers", POSTGRES),
            ],
        ),
        (
            # Rank pages of the periods (ranks in a thousand rows read), made for the periods already entered.
            "0021_shared_pages",
            [*SCHEMA.create_statements("shared_pages", POSTGRES), paged(PAGES, POSTGRES)],
        ),
    ),
)

# The area's migrations, recorded as ``leaderboards:<name>``: those of :data:`HISTORY`, which the service's
# history applied under its own numbers before the area had migrations of its own.
MIGRATIONS = taken_over(HISTORY)
