"""Schema migrations, applied in order on start (docs/reference/manifest-and-cli.md: no separate migrate
step).

Each migration is a list of SQL statements, applied once in its own transaction and recorded in
``_migrations``. Append new migrations; never edit an applied one. The schema they build is declared in
:mod:`livecore_server.storage.schema`: a new migration is rendered from that declaration
(``schema.create_statements(table, schema.SQLITE)``), and a test checks that the migrated database
matches it.

Timestamps are stored as integer milliseconds since the epoch (exact to the wire format, sortable).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from livecore.guilds.rules import name_key
from livecore.names import fold
from livecore_server.storage import schema

# A migration's step: SQL, or where SQL cannot say it (a Unicode fold), a function of the open connection
# (sqlite3 or psycopg: both ``execute``) and the dialect's parameter mark (``?`` or ``%s``).
Step = str | Callable[[Any, str], None]

# Event team ids are derived from their window and key, so a roster PUT names a team by computing its id:
# teams stored under the old prefix ``tm_`` take the pinned ``team_`` (the rest of the id unchanged), with
# what refers to them. A new row, then the references, then the old row: every step keeps the foreign keys.
# The same SQL on both dialects.
_OLD_TEAM = "substr({column}, 1, 3) = 'tm_'"
_NEW_TEAM = "'team_' || substr({column}, 4)"
_TEAM_COLUMNS = (
    "game_id, env, event_key, event_id, window_id, key, name, formation, goal, created_at, attributes, "
    "member_count, score, rank_key, completed_at, milestones, final_rank, finalized_at"
)


def _team_reference(table: str, column: str, also: str = "TRUE") -> str:
    return (
        f"UPDATE {table} SET {column} = {_NEW_TEAM.format(column=column)} "
        f"WHERE {also} AND {_OLD_TEAM.format(column=column)}"
    )


TEAM_ID_PREFIX = [
    f"INSERT INTO teams (id, {_TEAM_COLUMNS}) SELECT {_NEW_TEAM.format(column='id')}, {_TEAM_COLUMNS} "
    f"FROM teams WHERE {_OLD_TEAM.format(column='id')}",
    _team_reference("team_members", "team_id"),
    _team_reference("partner_invites", "team_id"),
    _team_reference("grants", "source_ref_id", "source_kind IN ('event_team_milestone', 'event_team_rank')"),
    f"DELETE FROM teams WHERE {_OLD_TEAM.format(column='id')}",
]


def refold_guild_names(conn: Any, mark: str) -> None:
    """Guild name keys as names now compare (:mod:`livecore.names`), oldest guild first. Two guilds not
    disbanded whose names only looked different keep the younger one's old key: both keep their names, and
    neither can be renamed to the other's."""
    rows = conn.execute(
        "SELECT id, game_id, env, name, name_key, disbanded_at FROM guilds ORDER BY created_at, id"
    )
    taken: set[tuple[str, str, str]] = set()
    changed: list[tuple[str, str]] = []
    for guild_id, game_id, env, name, old, disbanded_at in rows.fetchall():
        new = name_key(name)
        if disbanded_at is None:
            if (game_id, env, new) in taken:
                new = old
            taken.add((game_id, env, new))
        if new != old:
            changed.append((new, guild_id))
    for new, guild_id in changed:
        conn.execute(f"UPDATE guilds SET name_key = {mark} WHERE id = {mark}", (new, guild_id))


def refold_player_names(conn: Any, mark: str) -> None:
    """The players' search names as names now compare: the fold of what was kept (the name lower-cased,
    which folds as the name does)."""
    rows = conn.execute("SELECT id, search_name FROM players WHERE search_name IS NOT NULL").fetchall()
    for player_id, old in rows:
        new = fold(old)
        if new != old:
            conn.execute(f"UPDATE players SET search_name = {mark} WHERE id = {mark}", (new, player_id))


MIGRATIONS: list[tuple[str, Sequence[Step]]] = [
    (
        "0001_foundation",
        [
            """CREATE TABLE studios (
                id TEXT PRIMARY KEY,
                key TEXT NOT NULL UNIQUE,
                created_at INTEGER NOT NULL
            )""",
            """CREATE TABLE games (
                id TEXT PRIMARY KEY,
                studio_id TEXT NOT NULL REFERENCES studios(id),
                key TEXT NOT NULL,
                name TEXT NOT NULL,
                settings TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                UNIQUE (studio_id, key)
            )""",
            """CREATE TABLE api_keys (
                id TEXT PRIMARY KEY,
                game_id TEXT NOT NULL REFERENCES games(id),
                name TEXT NOT NULL,
                env TEXT NOT NULL,
                permission TEXT NOT NULL,
                secret_hash TEXT NOT NULL UNIQUE,
                prefix TEXT NOT NULL,
                rate_limits TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                revoked_at INTEGER,
                last_used_at INTEGER,
                last_operation TEXT,
                last_sdk TEXT
            )""",
            "CREATE INDEX api_keys_by_game_name ON api_keys (game_id, name) WHERE revoked_at IS NULL",
            """CREATE TABLE webhook_endpoints (
                id TEXT PRIMARY KEY,
                game_id TEXT NOT NULL REFERENCES games(id),
                name TEXT NOT NULL,
                env TEXT NOT NULL,
                url TEXT NOT NULL,
                events TEXT NOT NULL,
                secret_enc BLOB NOT NULL,
                status TEXT NOT NULL DEFAULT 'active',
                consecutive_failures INTEGER NOT NULL DEFAULT 0,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                UNIQUE (game_id, name)
            )""",
            """CREATE TABLE players (
                id TEXT PRIMARY KEY,
                game_id TEXT NOT NULL REFERENCES games(id),
                env TEXT NOT NULL,
                external_id TEXT NOT NULL,
                first_seen_at INTEGER NOT NULL,
                last_seen_at INTEGER NOT NULL,
                anon_name TEXT NOT NULL,
                anon_avatar TEXT,
                display_name TEXT,
                display_avatar TEXT,
                country TEXT,
                secret_hash TEXT,
                secret_prefix TEXT,
                registered_at INTEGER,
                secret_rotated_at INTEGER,
                ban_reason TEXT,
                banned_at INTEGER,
                sessions INTEGER NOT NULL DEFAULT 0,
                last_active_at INTEGER,
                streak INTEGER NOT NULL DEFAULT 0,
                best_streak INTEGER NOT NULL DEFAULT 0,
                streak_day TEXT,
                context TEXT NOT NULL DEFAULT '{}',
                UNIQUE (game_id, external_id)
            )""",
            # The streak sweep touches only players with a running streak.
            "CREATE INDEX players_running_streak ON players (streak_day) WHERE streak > 0",
            """CREATE TABLE outbox (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                id TEXT NOT NULL UNIQUE,
                studio_id TEXT NOT NULL,
                game_id TEXT NOT NULL,
                env TEXT NOT NULL,
                kind TEXT NOT NULL,
                occurred_at INTEGER NOT NULL,
                data TEXT NOT NULL
            )""",
            """CREATE TABLE idempotency (
                scope TEXT NOT NULL,
                key TEXT NOT NULL,
                fingerprint TEXT NOT NULL,
                status INTEGER NOT NULL,
                body BLOB NOT NULL,
                created_at INTEGER NOT NULL,
                PRIMARY KEY (scope, key)
            ) WITHOUT ROWID""",
            "CREATE INDEX idempotency_by_age ON idempotency (created_at)",
        ],
    ),
    (
        "0002_webhook_delivery",
        [
            # The dispatcher fans committed events out to deliveries; an index on what is left to do.
            "ALTER TABLE outbox ADD COLUMN fanned_out INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE outbox ADD COLUMN not_before INTEGER",
            "ALTER TABLE outbox ADD COLUMN debounce_key TEXT",
            "ALTER TABLE outbox ADD COLUMN target_endpoint TEXT",
            "CREATE INDEX outbox_to_fan_out ON outbox (seq) WHERE fanned_out = 0",
            "CREATE UNIQUE INDEX outbox_debouncing ON outbox (debounce_key) WHERE fanned_out = 0",
            "ALTER TABLE webhook_endpoints ADD COLUMN paused_at INTEGER",
            """CREATE TABLE webhook_deliveries (
                id TEXT PRIMARY KEY,
                event_seq INTEGER NOT NULL REFERENCES outbox(seq),
                endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id),
                status TEXT NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt_at INTEGER NOT NULL,
                last_status INTEGER,
                last_error TEXT,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                delivered_at INTEGER
            )""",
            "CREATE INDEX deliveries_due ON webhook_deliveries (next_attempt_at, event_seq)"
            " WHERE status = 'pending'",
            "CREATE INDEX deliveries_by_endpoint ON webhook_deliveries (endpoint_id, created_at)",
        ],
    ),
    (
        "0003_webhook_retention",
        [
            "CREATE INDEX outbox_fanned_by_time ON outbox (occurred_at) WHERE fanned_out = 1",
            "CREATE INDEX deliveries_finished_by_time ON webhook_deliveries (updated_at)"
            " WHERE status != 'pending'",
        ],
    ),
    (
        "0004_economy_and_grants",
        [
            """CREATE TABLE ledger (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                id TEXT NOT NULL UNIQUE,
                player_id TEXT NOT NULL REFERENCES players(id),
                game_id TEXT NOT NULL,
                resource_key TEXT NOT NULL,
                resource_type TEXT NOT NULL,
                delta INTEGER NOT NULL,
                balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
                reason TEXT NOT NULL,
                note TEXT,
                source_ref_id TEXT,
                actor TEXT NOT NULL,
                created_at INTEGER NOT NULL
            )""",
            "CREATE INDEX ledger_by_player ON ledger (player_id, resource_key, seq)",
            # The balance each ledger entry leaves, kept beside the ledger for one-row reads; the database
            # refuses a negative amount even if a rule were bypassed.
            """CREATE TABLE holdings (
                player_id TEXT NOT NULL REFERENCES players(id),
                resource_key TEXT NOT NULL,
                amount INTEGER NOT NULL CHECK (amount >= 0),
                parameters TEXT NOT NULL DEFAULT '{}',
                PRIMARY KEY (player_id, resource_key)
            ) WITHOUT ROWID""",
            """CREATE TABLE grants (
                id TEXT PRIMARY KEY,
                game_id TEXT NOT NULL,
                player_id TEXT NOT NULL REFERENCES players(id),
                external_player_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                status TEXT NOT NULL,
                entries TEXT NOT NULL,
                source_kind TEXT NOT NULL,
                source_ref_id TEXT,
                metadata TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                expires_at INTEGER,
                claimed_at INTEGER,
                acked_by TEXT
            ) WITHOUT ROWID""",
            "CREATE INDEX grants_pending_by_player ON grants (player_id, created_at)"
            " WHERE status = 'pending'",
            "CREATE INDEX grants_to_expire ON grants (expires_at)"
            " WHERE status = 'pending' AND expires_at IS NOT NULL",
        ],
    ),
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
        "0006_presence",
        [
            "ALTER TABLE players ADD COLUMN presence_at INTEGER",
            "ALTER TABLE players ADD COLUMN presence_status TEXT",
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
        "0008_player_search",
        [
            # The name search matches on: the display name, else the anonymized one, lower-cased.
            "ALTER TABLE players ADD COLUMN search_name TEXT",
            "UPDATE players SET search_name = lower(COALESCE(display_name, anon_name))",
            # Short text (1-2 characters) matches name prefixes through this index.
            "CREATE INDEX players_by_search_name ON players (game_id, env, search_name)",
            # Longer text matches anywhere in the name through a trigram index kept by triggers, which
            # fire only when the name changes (a heartbeat rewrites the row, not the name).
            "CREATE VIRTUAL TABLE player_names USING fts5("
            "search_name, content='players', content_rowid='rowid', tokenize='trigram')",
            "INSERT INTO player_names (player_names) VALUES ('rebuild')",
            "CREATE TRIGGER player_names_insert AFTER INSERT ON players BEGIN"
            " INSERT INTO player_names (rowid, search_name) VALUES (new.rowid, new.search_name); END",
            "CREATE TRIGGER player_names_delete AFTER DELETE ON players BEGIN"
            " INSERT INTO player_names (player_names, rowid, search_name)"
            " VALUES ('delete', old.rowid, old.search_name); END",
            "CREATE TRIGGER player_names_update AFTER UPDATE OF search_name ON players"
            " WHEN old.search_name IS NOT new.search_name BEGIN"
            " INSERT INTO player_names (player_names, rowid, search_name)"
            " VALUES ('delete', old.rowid, old.search_name);"
            " INSERT INTO player_names (rowid, search_name) VALUES (new.rowid, new.search_name); END",
        ],
    ),
    (
        "0009_gifts",
        [
            # Set by `apply` once a manifest enables gifting; never cleared (the gift history,
            # docs/reference/gifts.md#lists).
            "ALTER TABLE games ADD COLUMN gifting_ever_enabled INTEGER NOT NULL DEFAULT 0",
            """CREATE TABLE gifts (
                id TEXT PRIMARY KEY,
                game_id TEXT NOT NULL,
                grant_id TEXT NOT NULL UNIQUE,
                sender_id TEXT NOT NULL REFERENCES players(id),
                recipient_id TEXT NOT NULL REFERENCES players(id),
                type TEXT NOT NULL,
                resource_key TEXT NOT NULL,
                amount INTEGER NOT NULL CHECK (amount > 0),
                message TEXT,
                status TEXT NOT NULL,
                sent_at INTEGER NOT NULL,
                expires_at INTEGER,
                claimed_at INTEGER,
                deducted INTEGER NOT NULL,
                idempotency_key TEXT
            )""",
            # A rowid table: the rowid is the insertion order, which breaks ties between gifts sent in the
            # same millisecond ("newest first" stays exact).
            # The sender's recent gifts (cooldown per friend, daily count, friend rows), covering.
            "CREATE INDEX gifts_sent ON gifts (sender_id, sent_at, recipient_id)",
            "CREATE INDEX gifts_received ON gifts (recipient_id, sent_at)",
            # A repeated idempotency key answers the gift it made, however long ago
            # (docs/reference/gifts.md#sending).
            "CREATE UNIQUE INDEX gifts_by_key ON gifts (sender_id, idempotency_key)"
            " WHERE idempotency_key IS NOT NULL",
        ],
    ),
    (
        "0010_player_tools",
        [
            "ALTER TABLE players ADD COLUMN debug_reason TEXT",
            "ALTER TABLE players ADD COLUMN debug_at INTEGER",
            "ALTER TABLE players ADD COLUMN lifecycle TEXT NOT NULL DEFAULT 'active'",
            "ALTER TABLE players ADD COLUMN merged_into TEXT",
            "CREATE INDEX grants_by_player ON grants (player_id, created_at)",
            "CREATE INDEX gifts_by_recipient ON gifts (recipient_id)",
            # A merge is remembered by the source's original external id (replays answer no_op).
            # An id can be merged again once a new player took it: one row per merged player.
            """CREATE TABLE merges (
                game_id TEXT NOT NULL,
                env TEXT NOT NULL,
                from_external_id TEXT NOT NULL,
                from_player_id TEXT NOT NULL,
                to_player_id TEXT NOT NULL,
                placeholder TEXT NOT NULL,
                merged_at INTEGER NOT NULL,
                PRIMARY KEY (game_id, env, from_external_id, from_player_id)
            ) WITHOUT ROWID""",
            "CREATE INDEX merges_into ON merges (to_player_id)",
            # An erasure is remembered by a keyed hash of the original external id, never the id.
            """CREATE TABLE erasures (
                game_id TEXT NOT NULL,
                external_id_hash TEXT NOT NULL,
                player_id TEXT NOT NULL,
                placeholder TEXT NOT NULL,
                reason TEXT NOT NULL,
                erased_at INTEGER NOT NULL,
                PRIMARY KEY (game_id, external_id_hash, player_id)
            ) WITHOUT ROWID""",
            """CREATE TABLE purchases (
                id TEXT PRIMARY KEY,
                game_id TEXT NOT NULL,
                env TEXT NOT NULL,
                player_id TEXT NOT NULL REFERENCES players(id),
                transaction_id TEXT NOT NULL,
                store TEXT NOT NULL,
                product_id TEXT NOT NULL,
                product_type TEXT NOT NULL,
                amount_minor INTEGER NOT NULL,
                currency TEXT NOT NULL,
                normalized_amount_minor INTEGER NOT NULL,
                fx_rate REAL NOT NULL,
                validation_status TEXT NOT NULL,
                purchased_at INTEGER NOT NULL,
                tracked_at INTEGER NOT NULL,
                metadata TEXT NOT NULL,
                UNIQUE (game_id, env, transaction_id)
            ) WITHOUT ROWID""",
            "CREATE INDEX purchases_by_player ON purchases (player_id, purchased_at, id)",
            # Revenue reads: a game's purchases in a time range.
            "CREATE INDEX purchases_by_time ON purchases (game_id, env, purchased_at)",
            """CREATE TABLE migration_keys (
                game_id TEXT NOT NULL,
                env TEXT NOT NULL,
                kind TEXT NOT NULL,
                key TEXT NOT NULL,
                fingerprint TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                PRIMARY KEY (game_id, env, kind, key)
            ) WITHOUT ROWID""",
        ],
    ),
    (
        "0011_scale_out",
        [
            # A delivery being attempted is claimed until this wall-clock time (ms): another dispatcher
            # leaves it alone meanwhile, and takes it over if the claimer died (docs/webhooks.md).
            "ALTER TABLE webhook_deliveries ADD COLUMN claimed_until INTEGER",
            "CREATE INDEX deliveries_by_event ON webhook_deliveries (event_seq)",
            # Scheduled work runs once per due time across processes (one process on SQLite, but the
            # same claim as on PostgreSQL).
            """CREATE TABLE scheduled_runs (
                job TEXT PRIMARY KEY,
                due_at INTEGER NOT NULL,
                claimed_at INTEGER NOT NULL
            )""",
        ],
    ),
    (
        # gifts_received (recipient_id, sent_at) serves every look-up by recipient, as it does on
        # PostgreSQL, which never had this index; dropping it saves a write on every gift.
        "0012_drop_gifts_by_recipient",
        ["DROP INDEX gifts_by_recipient"],
    ),
    (
        # The check value of the server key, so that a process started with another key is refused
        # (livecore_server.crypto.check_server_key).
        "0013_server_meta",
        schema.create_statements("server_meta", schema.SQLITE),
    ),
    (
        # Answers kept under idempotency keys are sealed under the server key from now on. A register's
        # answer kept in clear holds the player's secret: dropped (a replay of it now answers 409
        # player_already_registered, as it would after 24 hours). Other answers in clear are read as they
        # are until they expire.
        "0014_no_player_secret_in_clear",
        ["DELETE FROM idempotency WHERE instr(CAST(body AS TEXT), '\"playerSecret\"') > 0"],
    ),
    (
        # Live events: windows, their boards, attempts and board entries.
        "0015_live_events",
        [
            *schema.create_statements("windows", schema.SQLITE),
            *schema.create_statements("boards", schema.SQLITE),
            *schema.create_statements("attempts", schema.SQLITE),
            *schema.create_statements("board_entries", schema.SQLITE),
        ],
    ),
    (
        # Shared leaderboards: periods, their divisions and entries, and each player's tier.
        "0016_shared_leaderboards",
        [
            *schema.create_statements("board_periods", schema.SQLITE),
            *schema.create_statements("divisions", schema.SQLITE),
            *schema.create_statements("shared_entries", schema.SQLITE),
            *schema.create_statements("league_tiers", schema.SQLITE),
        ],
    ),
    (
        # Lobbies and their seats.
        "0017_lobbies",
        [
            *schema.create_statements("lobbies", schema.SQLITE),
            *schema.create_statements("lobby_seats", schema.SQLITE),
        ],
    ),
    (
        # An attempt frozen by its lobby's sudden death.
        "0018_attempts_frozen",
        [
            schema.add_column("attempts", "frozen_at", schema.SQLITE),
            schema.create_index("attempts_in_lobby", schema.SQLITE),
        ],
    ),
    (
        # Event teams, their members' seats and partner invites.
        "0019_teams",
        [
            *schema.create_statements("teams", schema.SQLITE),
            *schema.create_statements("team_members", schema.SQLITE),
            *schema.create_statements("partner_invites", schema.SQLITE),
        ],
    ),
    (
        # Guilds, their members' stints, join requests, help requests and donations.
        "0020_guilds",
        [
            *schema.create_statements("guilds", schema.SQLITE),
            *schema.create_statements("guild_stints", schema.SQLITE),
            *schema.create_statements("guild_join_requests", schema.SQLITE),
            *schema.create_statements("guild_help_requests", schema.SQLITE),
            *schema.create_statements("guild_donations", schema.SQLITE),
        ],
    ),
    (
        # A rotated API key keeps working until its grace period ends.
        "0021_api_key_retirement",
        ["ALTER TABLE api_keys ADD COLUMN retires_at INTEGER"],
    ),
    (
        # Operators: members, their sessions, sign-in links and personal keys, and the audit log.
        "0022_operators",
        [
            *schema.create_statements("members", schema.SQLITE),
            *schema.create_statements("member_sessions", schema.SQLITE),
            *schema.create_statements("login_links", schema.SQLITE),
            *schema.create_statements("personal_keys", schema.SQLITE),
            *schema.create_statements("audit_log", schema.SQLITE),
        ],
    ),
    (
        # Event teams take the pinned id prefix ``team_`` (lobbies' ``lob_`` needs nothing: their ids are
        # drawn, not derived, and stored ones keep working).
        "0023_team_id_prefix",
        TEAM_ID_PREFIX,
    ),
    (
        # Names compare by their fold (NFKC, case folding, white space): guild keys and player search names
        # are recomputed.
        "0024_name_fold",
        [refold_guild_names, refold_player_names],
    ),
    (
        # The platform and app version the SDK last reported for each player.
        "0025_player_build",
        [
            schema.add_column("players", "platform", schema.SQLITE),
            schema.add_column("players", "app_version", schema.SQLITE),
        ],
    ),
    (
        # An operator's override of a player's country.
        "0026_player_country_override",
        [schema.add_column("players", "country_override", schema.SQLITE)],
    ),
    (
        # Failed authentications per client address, which the CLI lifts (livecore_server/lockouts.py).
        "0027_rate_buckets",
        schema.create_statements("rate_buckets", schema.SQLITE),
    ),
]
