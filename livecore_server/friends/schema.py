"""The friends area's tables, declared (:data:`SCHEMA`), and the SQLite migrations that built them
(:data:`HISTORY`, under the names deployed databases recorded: they also gave the players' table its friend
code and activity index); on PostgreSQL the foundation migration created them. The area declares them
(``ServerArea``), and its store adds them to the shared ones.

:data:`SQL_PORTS`: the area's SQL ports, by the transaction attribute that reaches each (``tx.<name>``)."""

from __future__ import annotations

from livecore_server.friends.sql import SqlFriendGraph
from livecore_server.storage.history import History
from livecore_server.storage.schema import (
    MS,
    PLAYER,
    POSTGRES,
    SQLITE,
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
            Column("requested_at", MS, null=True, since="0031_friendships_requested (PostgreSQL: 0023)"),
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

HISTORY = History(
    sqlite=(
        (
            "0005_friends",
            [
                "ALTER TABLE players ADD COLUMN friend_code TEXT",
                "CREATE UNIQUE INDEX players_by_friend_code ON players (game_id, env, friend_code)"
                " WHERE friend_code IS NOT NULL",
                """CREATE TABLE friend_requests (
                id TEXT PRIMARY KEY,
                game_id TEXT NOT NULL,
                from_player_id TEXT NOT NULL REFERENCES players(id),
                to_player_id TEXT NOT NULL REFERENCES players(id),
                -- the unordered pair: at most one pending request between two players
                pair TEXT NOT NULL UNIQUE,
                created_at INTEGER NOT NULL
            ) WITHOUT ROWID""",
                "CREATE INDEX friend_requests_incoming ON friend_requests (to_player_id, created_at)",
                "CREATE INDEX friend_requests_outgoing ON friend_requests (from_player_id, created_at)",
                # One row per direction: a player's friends are one index range.
                """CREATE TABLE friendships (
                player_id TEXT NOT NULL REFERENCES players(id),
                friend_id TEXT NOT NULL REFERENCES players(id),
                since INTEGER NOT NULL,
                PRIMARY KEY (player_id, friend_id),
                CHECK (player_id != friend_id)
            ) WITHOUT ROWID""",
                """CREATE TABLE blocks (
                blocker_id TEXT NOT NULL REFERENCES players(id),
                blocked_id TEXT NOT NULL REFERENCES players(id),
                created_at INTEGER NOT NULL,
                PRIMARY KEY (blocker_id, blocked_id)
            ) WITHOUT ROWID""",
                "CREATE INDEX blocks_by_blocked ON blocks (blocked_id, blocker_id)",
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
        (
            # Who asked for a friendship, and when: a player's requests sent stay counted once accepted.
            "0031_friendships_requested",
            [SCHEMA.add_column("friendships", "requested_at", SQLITE)],
        ),
    ),
    postgres=(
        (
            # Who asked for a friendship, and when: a player's requests sent stay counted once accepted.
            "0023_friendships_requested",
            [SCHEMA.add_column("friendships", "requested_at", POSTGRES)],
        ),
    ),
)

SQL_PORTS = {"friends": SqlFriendGraph}
