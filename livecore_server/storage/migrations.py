"""The SQLite migrations of the tables no area owns, and the foundation (``0001_foundation``: the first
tables of the service, several areas' among them), applied in order on start
(docs/reference/manifest-and-cli.md: no separate migrate step).

Each built-in area keeps the migrations of its own tables in its server package
(``livecore_server/<area>/schema.py``): its own (``AreaMigration``, recorded as ``<area>:<name>``), or,
for the areas not moved to them yet, the service's numbered ones it added.
:func:`livecore_server.registry.storage` assembles the one history the store applies
(:func:`livecore_server.storage.area_storage.served`): these, in the order of the names
(:mod:`livecore_server.storage.history`), then each area's own. Each migration is a
list of SQL statements, applied once in its own transaction and recorded in ``_migrations``; never edit an
applied one. A new table or column is an area's migration, rendered from the declaration; a test checks that
the migrated database matches the declared schema.

Timestamps are stored as integer milliseconds since the epoch (exact to the wire format, sortable).
"""

from __future__ import annotations

from collections.abc import Sequence

from livecore_server.storage import schema
from livecore_server.storage.history import Recognised, Step

MIGRATIONS: list[tuple[str, Sequence[Step]]] = [
    (
        # The first tables, as ``0001_foundation`` built them less the players', which the players area now
        # builds in its own migrations; a database built by ``0001_foundation`` holds them.
        "0001_shared",
        [
            Recognised(("0001_foundation",)),
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
        # Set by `apply` once a manifest enables gifting; never cleared (the gift history,
        # docs/reference/gifts.md#lists). ``0009_gifts`` added it, with the gifts table, which the gifts
        # area now builds in its own migrations.
        "0009_gifting_ever_enabled",
        [
            Recognised(("0009_gifts",)),
            schema.SHARED.add_column("games", "gifting_ever_enabled", schema.SQLITE),
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
        # The check value of the server key, so that a process started with another key is refused
        # (livecore_server.crypto.check_server_key).
        "0013_server_meta",
        schema.SHARED.create_statements("server_meta", schema.SQLITE),
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
        # A rotated API key keeps working until its grace period ends.
        "0021_api_key_retirement",
        ["ALTER TABLE api_keys ADD COLUMN retires_at INTEGER"],
    ),
    (
        # Operators: members, their sessions, sign-in links and personal keys, and the audit log.
        "0022_operators",
        [
            *schema.SHARED.create_statements("members", schema.SQLITE),
            *schema.SHARED.create_statements("member_sessions", schema.SQLITE),
            *schema.SHARED.create_statements("login_links", schema.SQLITE),
            *schema.SHARED.create_statements("personal_keys", schema.SQLITE),
            *schema.SHARED.create_statements("audit_log", schema.SQLITE),
        ],
    ),
    (
        # Failed authentications per client address, which the CLI lifts (livecore_server/lockouts.py).
        "0027_rate_buckets",
        schema.SHARED.create_statements("rate_buckets", schema.SQLITE),
    ),
    (
        # A rotated webhook signing secret's predecessor signs beside it for the overlap the operator chose.
        "0030_webhook_secret_overlap",
        [
            schema.SHARED.add_column("webhook_endpoints", "previous_secret_enc", schema.SQLITE),
            schema.SHARED.add_column("webhook_endpoints", "previous_secret_until", schema.SQLITE),
        ],
    ),
    (
        # An answer kept under an idempotency key that shows a secret names whose, so that it is withdrawn
        # when that secret is replaced (livecore_server.shown_secrets).
        "0032_idempotency_showing_secrets",
        [
            schema.SHARED.add_column("idempotency", "shows_secret_of", schema.SQLITE),
            schema.SHARED.create_index("idempotency_showing_secrets", schema.SQLITE),
        ],
    ),
]
