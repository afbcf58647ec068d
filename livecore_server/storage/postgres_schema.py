"""The PostgreSQL migrations of the tables no area owns, and the foundation (``0001_foundation``,
``0002_server``: the first tables of the service, several areas' among them, column for column as
SQLite's, in PostgreSQL's types).

Same conventions as SQLite so the row conversions are shared: timestamps are BIGINT milliseconds since
the epoch, JSON documents are read back as their text. Differences:

- every text column collates "C" (byte order, as SQLite's BINARY), so ``ORDER BY`` on ids and names and
  the purchases keyset give the same order as SQLite whatever the database's locale;
- flags are BOOLEAN; game settings are JSONB; the other JSON documents (player context, grant entries
  and metadata, ledger actors, item parameters, event data) are JSON, which keeps their text (and key
  order) exactly as written;
- insertion order, which SQLite gets from the rowid or an AUTOINCREMENT key, is a BIGSERIAL ``seq``
  (ledger, outbox, gifts);
- the name searches are ``ILIKE`` over pg_trgm GIN indexes (the optional indexes of the declared schema)
  instead of FTS5.

Each built-in area keeps the migrations of its own tables in its server package
(``livecore_server/<area>/schema.py``): its own (``AreaMigration``, recorded as ``<area>:<name>``, applied
after these), or, for the areas not moved to them yet, ones numbered in this dialect's sequence. Each is
applied once, recorded in ``_migrations``; never edit an applied one. A new table or column is an area's
migration, rendered from the declaration, and a test checks that the migrated database matches the
declared schema.
"""

from __future__ import annotations

from collections.abc import Sequence

from livecore_server.storage import schema
from livecore_server.storage.history import Recognised, Step

# Text in byte order (SQLite's BINARY collation), whatever the database's default collation.
T = 'TEXT COLLATE "C"'

MIGRATIONS: list[tuple[str, Sequence[Step]]] = [
    (
        # The first tables, as ``0001_core`` built them less those the areas now build in their own
        # migrations (the players', the economy's, the grants', the friends', the gifts', the player
        # tools' and the purchases'); a database built by ``0001_core`` holds them.
        "0001_shared",
        [
            Recognised(("0001_core",)),
            f"""CREATE TABLE games (
                id {T} PRIMARY KEY,
                studio_id {T} NOT NULL,
                key {T} NOT NULL,
                name {T} NOT NULL,
                settings JSONB NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                gifting_ever_enabled BOOLEAN NOT NULL DEFAULT FALSE,
                UNIQUE (studio_id, key)
            )""",
            f"""CREATE TABLE outbox (
                seq BIGSERIAL PRIMARY KEY,
                id {T} NOT NULL UNIQUE,
                studio_id {T} NOT NULL,
                game_id {T} NOT NULL,
                env {T} NOT NULL,
                kind {T} NOT NULL,
                occurred_at BIGINT NOT NULL,
                data JSON NOT NULL,
                debounce_key {T},
                not_before BIGINT,
                fanned_out BOOLEAN NOT NULL DEFAULT FALSE
            )""",
            "CREATE INDEX outbox_to_fan_out ON outbox (seq) WHERE NOT fanned_out",
            "CREATE UNIQUE INDEX outbox_debouncing ON outbox (debounce_key) WHERE NOT fanned_out",
            "CREATE INDEX outbox_fanned_by_time ON outbox (occurred_at) WHERE fanned_out",
            f"""CREATE TABLE idempotency (
                scope {T} NOT NULL,
                key {T} NOT NULL,
                fingerprint {T} NOT NULL,
                status INTEGER NOT NULL,
                body BYTEA NOT NULL,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (scope, key)
            )""",
            "CREATE INDEX idempotency_by_age ON idempotency (created_at)",
        ],
    ),
    (
        # The server's own tables (SQLite's 0001-0003 and 0011), and what several processes share.
        "0002_server",
        [
            f"""CREATE TABLE studios (
                id {T} PRIMARY KEY,
                key {T} NOT NULL UNIQUE,
                created_at BIGINT NOT NULL
            )""",
            f"""CREATE TABLE api_keys (
                id {T} PRIMARY KEY,
                game_id {T} NOT NULL REFERENCES games(id),
                name {T} NOT NULL,
                env {T} NOT NULL,
                permission {T} NOT NULL,
                secret_hash {T} NOT NULL UNIQUE,
                prefix {T} NOT NULL,
                rate_limits JSON NOT NULL,
                created_at BIGINT NOT NULL,
                revoked_at BIGINT,
                last_used_at BIGINT,
                last_operation {T},
                last_sdk {T}
            )""",
            "CREATE INDEX api_keys_by_game_name ON api_keys (game_id, name) WHERE revoked_at IS NULL",
            f"""CREATE TABLE webhook_endpoints (
                id {T} PRIMARY KEY,
                game_id {T} NOT NULL REFERENCES games(id),
                name {T} NOT NULL,
                env {T} NOT NULL,
                url {T} NOT NULL,
                events JSON NOT NULL,
                secret_enc BYTEA NOT NULL,
                status {T} NOT NULL DEFAULT 'active',
                consecutive_failures INTEGER NOT NULL DEFAULT 0,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                paused_at BIGINT,
                UNIQUE (game_id, name)
            )""",
            f"ALTER TABLE outbox ADD COLUMN target_endpoint {T}",
            f"""CREATE TABLE webhook_deliveries (
                id {T} PRIMARY KEY,
                event_seq BIGINT NOT NULL REFERENCES outbox(seq),
                endpoint_id {T} NOT NULL REFERENCES webhook_endpoints(id),
                status {T} NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt_at BIGINT NOT NULL,
                last_status INTEGER,
                last_error {T},
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                delivered_at BIGINT,
                claimed_until BIGINT
            )""",
            "CREATE INDEX deliveries_due ON webhook_deliveries (next_attempt_at, event_seq)"
            " WHERE status = 'pending'",
            "CREATE INDEX deliveries_by_endpoint ON webhook_deliveries (endpoint_id, created_at)",
            "CREATE INDEX deliveries_by_event ON webhook_deliveries (event_seq)",
            "CREATE INDEX deliveries_finished_by_time ON webhook_deliveries (updated_at)"
            " WHERE status != 'pending'",
            f"""CREATE TABLE scheduled_runs (
                job {T} PRIMARY KEY,
                due_at BIGINT NOT NULL,
                claimed_at BIGINT NOT NULL
            )""",
            # Rate-limit buckets shared by every process (docs/reference/conventions.md#rate-limits): one row
            # per key (or address) and bucket.
            f"""CREATE TABLE rate_buckets (
                subject {T} NOT NULL,
                bucket {T} NOT NULL,
                tokens DOUBLE PRECISION NOT NULL,
                updated_ms BIGINT NOT NULL,
                allowed BOOLEAN NOT NULL,
                PRIMARY KEY (subject, bucket)
            )""",
            "CREATE INDEX rate_buckets_by_age ON rate_buckets (updated_ms)",
        ],
    ),
    (
        # Rate-limit leases: a take may grant several tokens, and RETURNING sees only the
        # row's new values, so the number granted is stored to be returned. ``allowed`` stays, written
        # as ``granted >= 1``, for a process of the previous version during a rolling upgrade. Adding a
        # column with a constant default rewrites nothing (PostgreSQL 11 and later).
        "0003_rate_leases",
        ["ALTER TABLE rate_buckets ADD COLUMN granted INTEGER NOT NULL DEFAULT 0"],
    ),
    (
        # The check value of the server key, so that a process started with another key is refused
        # (livecore_server.crypto.check_server_key).
        "0005_server_meta",
        schema.SHARED.create_statements("server_meta", schema.POSTGRES),
    ),
    (
        # Answers kept under idempotency keys are sealed under the server key from now on. A register's
        # answer kept in clear holds the player's secret: dropped (a replay of it now answers 409
        # player_already_registered, as it would after 24 hours). Other answers in clear are read as they
        # are until they expire.
        "0006_no_player_secret_in_clear",
        ["DELETE FROM idempotency WHERE position(convert_to('\"playerSecret\"', 'UTF8') IN body) > 0"],
    ),
    (
        # A rotated API key keeps working until its grace period ends.
        "0013_api_key_retirement",
        ["ALTER TABLE api_keys ADD COLUMN retires_at BIGINT"],
    ),
    (
        # Operators: members, their sessions, sign-in links and personal keys, and the audit log.
        "0014_operators",
        [
            *schema.SHARED.create_statements("members", schema.POSTGRES),
            *schema.SHARED.create_statements("member_sessions", schema.POSTGRES),
            *schema.SHARED.create_statements("login_links", schema.POSTGRES),
            *schema.SHARED.create_statements("personal_keys", schema.POSTGRES),
            *schema.SHARED.create_statements("audit_log", schema.POSTGRES),
        ],
    ),
    (
        # Open event-board streams per process and API key (livecore_server/stream_slots.py).
        "0019_open_streams",
        schema.SHARED.create_statements("open_streams", schema.POSTGRES),
    ),
    (
        # A rotated webhook signing secret's predecessor signs beside it for the overlap the operator chose.
        "0022_webhook_secret_overlap",
        [
            schema.SHARED.add_column("webhook_endpoints", "previous_secret_enc", schema.POSTGRES),
            schema.SHARED.add_column("webhook_endpoints", "previous_secret_until", schema.POSTGRES),
        ],
    ),
    (
        # An answer kept under an idempotency key that shows a secret names whose, so that it is withdrawn
        # when that secret is replaced (livecore_server.shown_secrets).
        "0024_idempotency_showing_secrets",
        [
            schema.SHARED.add_column("idempotency", "shows_secret_of", schema.POSTGRES),
            schema.SHARED.create_index("idempotency_showing_secrets", schema.POSTGRES),
        ],
    ),
]
