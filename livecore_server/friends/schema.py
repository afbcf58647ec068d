"""The friends area's tables, declared (:data:`SCHEMA`), the area's migrations (:data:`MIGRATIONS`, rendered
from the declaration), and the SQLite migrations that gave the players' table its friend code and activity
index (:data:`HISTORY`, under the names deployed databases recorded). The area declares them
(``ServerArea``), and its store adds them to the shared ones."""

from __future__ import annotations

from livecore_server.storage.area_storage import AreaMigration
from livecore_server.storage.history import History
from livecore_server.storage.schema import (
    MS,
    PLAYER,
    Column,
    Index,
    Schema,
    table,
)

SCHEMA = Schema(
    tables=(
        table(
            "friend_requests",
            Column("id"),
            Column("game_id"),
            Column("from_player_id", references=PLAYER),
            Column("to_player_id", references=PLAYER),
            # The unordered pair: at most one pending request between two players.
            Column("pair", unique=True),
            Column("created_at", MS),
            rowid=False,
        ),
        # One row per direction: a player's friends are one index range.
        table(
            "friendships",
            Column("player_id", references=PLAYER),
            Column("friend_id", references=PLAYER),
            Column("since", MS),
            # On the row of the player who sent the request the friendship came from: when it was sent.
            Column("requested_at", MS, null=True, since="0002_friendships_requested"),
            primary_key=("player_id", "friend_id"),
            checks=("player_id != friend_id",),
            rowid=False,
        ),
        table(
            "blocks",
            Column("blocker_id", references=PLAYER),
            Column("blocked_id", references=PLAYER),
            Column("created_at", MS),
            primary_key=("blocker_id", "blocked_id"),
            rowid=False,
        ),
    ),
    indexes=(
        Index("friend_requests_incoming", "friend_requests", ("to_player_id", "created_at")),
        Index("friend_requests_outgoing", "friend_requests", ("from_player_id", "created_at")),
        Index("blocks_by_blocked", "blocks", ("blocked_id", "blocker_id")),
    ),
)

# What the service's history applied for the friends to the players' table, under the names deployed
# databases recorded.
HISTORY = History(
    sqlite=(
        (
            # With the friends' tables.
            "0005_friends",
            [
                "ALTER TABLE players ADD COLUMN friend_code TEXT",
                "CREATE UNIQUE INDEX players_by_friend_code ON players (game_id, env, friend_code)"
                " WHERE friend_code IS NOT NULL",
            ],
        ),
        (
            "0007_friend_discovery",
            [
                # Suggestions: a bounded range of the most recently active players of a game.
                "CREATE INDEX players_recently_active ON players (game_id, env, last_active_at)"
                " WHERE last_active_at IS NOT NULL",
            ],
        ),
    ),
)

# The area's migrations, recorded as ``friends:<name>``. Before the friends had migrations of their own, the
# service's history built them (SQLite's ``0005_friends`` and ``0031_friendships_requested``, PostgreSQL's
# ``0001_core`` and ``0023_friendships_requested``).
MIGRATIONS = (
    AreaMigration.creating("0001_friends", SCHEMA, "friend_requests", "friendships", "blocks").recognised_by(
        sqlite=("0005_friends",), postgres=("0001_core",)
    ),
    # Who asked for a friendship, and when: a player's requests sent stay counted once accepted.
    AreaMigration.adding("0002_friendships_requested", SCHEMA).recognised_by(
        sqlite=("0031_friendships_requested",), postgres=("0023_friendships_requested",)
    ),
    # The players' friend codes and the suggestions' index (PostgreSQL's first migration had them).
    AreaMigration.taking_over("0003_friend_code", HISTORY, sqlite="0005_friends"),
    AreaMigration.taking_over("0004_friend_discovery", HISTORY, sqlite="0007_friend_discovery"),
)
