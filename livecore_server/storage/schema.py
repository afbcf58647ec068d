"""The schema, declared once: every table, column, key, constraint and index of both stores, and the
DDL of each dialect derived from it.

The migrations (:mod:`~livecore_server.storage.migrations` for SQLite,
:mod:`~livecore_server.storage.postgres_schema` for PostgreSQL) were applied to deployed databases and
stay as written; ``tests/server/test_schema_declared.py`` migrates a fresh database of each dialect and
checks that it holds exactly what is declared here. A new table or index is declared here and its
migration, in both files, is rendered from it (:func:`create_statements`, :func:`create_index`,
:func:`add_column`).

Conventions (the rows have one layout, so the row conversions are shared):

- timestamps are milliseconds since the epoch (:data:`MS`): INTEGER on SQLite, BIGINT on PostgreSQL;
- text collates "C" on PostgreSQL (byte order, as SQLite's BINARY), so every ``ORDER BY`` and keyset
  gives the same order whatever the database's locale;
- flags are BOOLEAN on PostgreSQL, 0/1 INTEGER on SQLite; game settings are JSONB, the other JSON
  documents JSON (which keeps their text and key order as written), TEXT on SQLite;
- insertion order is a :data:`SEQ` column: INTEGER PRIMARY KEY AUTOINCREMENT on SQLite, BIGSERIAL on
  PostgreSQL (or SQLite's own rowid, where the order is not the key).

What exists in one dialect only says so (:class:`Only`) with the reason. Column order is not part of the
schema: every statement names its columns.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

import attrs

Dialect = Literal["sqlite", "postgres"]
SQLITE: Dialect = "sqlite"
POSTGRES: Dialect = "postgres"
DIALECTS: tuple[Dialect, ...] = (SQLITE, POSTGRES)


@attrs.frozen
class Kind:
    """A logical column type, and how each dialect spells it."""

    name: str
    sqlite: str
    postgres: str

    def sql(self, dialect: Dialect) -> str:
        return self.sqlite if dialect == SQLITE else self.postgres


TEXT = Kind("text", "TEXT", 'TEXT COLLATE "C"')
INT = Kind("int", "INTEGER", "INTEGER")  # counters and HTTP statuses, far below 2^31
BIGINT = Kind("bigint", "INTEGER", "BIGINT")  # amounts and sequence numbers
MS = Kind("ms", "INTEGER", "BIGINT")  # a time, in milliseconds since the epoch
BOOL = Kind("bool", "INTEGER", "BOOLEAN")
JSON = Kind("json", "TEXT", "JSON")
JSONB = Kind("jsonb", "TEXT", "JSONB")
BYTES = Kind("bytes", "BLOB", "BYTEA")
REAL = Kind("real", "REAL", "DOUBLE PRECISION")
SEQ = Kind("seq", "INTEGER", "BIGSERIAL")  # insertion order, assigned by the database
KINDS = (TEXT, INT, BIGINT, MS, BOOL, JSON, JSONB, BYTES, REAL, SEQ)


@attrs.frozen
class Only:
    """Exists in this dialect only, for this reason."""

    dialect: Dialect
    why: str


@attrs.frozen
class Ref:
    """A foreign key to ``table(column)``."""

    table: str
    column: str = "id"
    only: Only | None = None


@attrs.frozen
class Column:
    name: str
    kind: Kind = TEXT
    null: bool = False
    default: str | int | bool | None = None
    unique: bool = False
    references: Ref | None = None
    check: str | None = None
    only: Only | None = None
    # Added after its table was created, by the migration named here (with :func:`add_column` or
    # :func:`create_index`): the table's creating migration, rendered again on a new database, leaves it
    # out. Only for tables whose creating migration is rendered from this declaration.
    since: str | None = None


@attrs.frozen
class Table:
    name: str
    columns: tuple[Column, ...]
    primary_key: tuple[str, ...]
    unique: tuple[tuple[str, ...], ...] = ()
    checks: tuple[str, ...] = ()
    # SQLite stores the table by its primary key (WITHOUT ROWID) when nothing needs a rowid.
    rowid: bool = True
    only: Only | None = None

    def column(self, name: str) -> Column:
        for column in self.columns:
            if column.name == name:
                return column
        raise KeyError(f"{self.name}.{name}")

    def columns_in(self, dialect: Dialect) -> tuple[Column, ...]:
        return tuple(c for c in self.columns if in_dialect(c.only, dialect))


@attrs.frozen
class Where:
    """A partial index's condition where the dialects differ (None: not partial in that dialect)."""

    sqlite: str | None
    postgres: str | None
    why: str

    def sql(self, dialect: Dialect) -> str | None:
        return self.sqlite if dialect == SQLITE else self.postgres


@attrs.frozen
class Index:
    name: str
    table: str
    columns: tuple[str, ...]
    unique: bool = False
    where: str | Where | None = None
    using: str | None = None  # the access method when not a B-tree
    # Built when the database can (an extension may be missing), outside the migrations; its statement
    # may hold ``{ops}``, the extension's operator class, filled in then.
    optional: bool = False
    only: Only | None = None
    since: str | None = None  # as a column's

    def where_in(self, dialect: Dialect) -> str | None:
        return self.where.sql(dialect) if isinstance(self.where, Where) else self.where


@attrs.frozen
class Raw:
    """A dialect's own object, kept as its statement (SQLite's full-text table and its triggers)."""

    name: str
    type: Literal["table", "trigger"]  # as sqlite_master names it
    table: str  # the table it serves
    sql: str
    only: Only


def in_dialect(only: Only | None, dialect: Dialect) -> bool:
    return only is None or only.dialect == dialect


def _t(
    name: str,
    *columns: Column,
    primary_key: tuple[str, ...] = ("id",),
    unique: tuple[tuple[str, ...], ...] = (),
    checks: tuple[str, ...] = (),
    rowid: bool = True,
    only: Only | None = None,
) -> Table:
    return Table(name, columns, primary_key, unique, checks, rowid, only)


def _null(name: str, kind: Kind = TEXT) -> Column:
    return Column(name, kind, null=True)


PLAYER = Ref("players")

TABLES: tuple[Table, ...] = (
    _t("studios", Column("id"), Column("key", unique=True), Column("created_at", MS)),
    _t(
        "games",
        Column("id"),
        Column(
            "studio_id",
            references=Ref(
                "studios",
                only=Only(
                    SQLITE,
                    "the PostgreSQL store also serves the port alone (a game stored without its studio, as"
                    " tests and benchmarks do); its core tables came before the server's own",
                ),
            ),
        ),
        Column("key"),
        Column("name"),
        Column("settings", JSONB),
        Column("created_at", MS),
        Column("updated_at", MS),
        # Set by `apply` once a manifest enables gifting; never cleared (the gift history stays readable).
        Column("gifting_ever_enabled", BOOL, default=False),
        unique=(("studio_id", "key"),),
    ),
    _t(
        "api_keys",
        Column("id"),
        Column("game_id", references=Ref("games")),
        Column("name"),
        Column("env"),
        Column("permission"),
        Column("secret_hash", unique=True),
        Column("prefix"),
        Column("rate_limits", JSON),
        Column("created_at", MS),
        _null("revoked_at", MS),
        _null("last_used_at", MS),
        _null("last_operation"),
        _null("last_sdk"),
        # Set when the key was rotated: it keeps working until then, and is no longer the active key.
        _null("retires_at", MS),
    ),
    _t(
        "webhook_endpoints",
        Column("id"),
        Column("game_id", references=Ref("games")),
        Column("name"),
        Column("env"),
        Column("url"),
        Column("events", JSON),
        Column("secret_enc", BYTES),
        Column("status", default="active"),
        Column("consecutive_failures", INT, default=0),
        Column("created_at", MS),
        Column("updated_at", MS),
        _null("paused_at", MS),
        unique=(("game_id", "name"),),
    ),
    _t(
        "players",
        Column("id"),
        Column("game_id", references=Ref("games")),
        Column("env"),
        Column("external_id"),
        Column("first_seen_at", MS),
        Column("last_seen_at", MS),
        Column("anon_name"),
        _null("anon_avatar"),
        _null("display_name"),
        _null("display_avatar"),
        _null("country"),
        _null("secret_hash"),
        _null("secret_prefix"),
        _null("registered_at", MS),
        _null("secret_rotated_at", MS),
        _null("ban_reason"),
        _null("banned_at", MS),
        Column("sessions", INT, default=0),
        _null("last_active_at", MS),
        Column("streak", INT, default=0),
        Column("best_streak", INT, default=0),
        _null("streak_day"),
        Column("context", JSON, default="{}"),
        _null("friend_code"),
        _null("presence_at", MS),
        _null("presence_status"),
        # What the name search matches: the display name, else the anonymized one, lower-cased.
        _null("search_name"),
        _null("debug_reason"),
        _null("debug_at", MS),
        Column("lifecycle", default="active"),
        _null("merged_into"),
        # The platform key and app version the SDK last reported (livecore.players.platforms).
        _null("platform"),
        _null("app_version"),
        # An operator's country override; ``country`` is the resolved one.
        _null("country_override"),
        unique=(("game_id", "external_id"),),
    ),
    _t(
        "outbox",
        Column("seq", SEQ),
        Column("id", unique=True),
        Column("studio_id"),
        Column("game_id"),
        Column("env"),
        Column("kind"),
        Column("occurred_at", MS),
        Column("data", JSON),
        Column("fanned_out", BOOL, default=False),
        _null("not_before", MS),
        _null("debounce_key"),
        _null("target_endpoint"),
        primary_key=("seq",),
    ),
    _t(
        "idempotency",
        Column("scope"),
        Column("key"),
        Column("fingerprint"),
        Column("status", INT),
        Column("body", BYTES),
        Column("created_at", MS),
        primary_key=("scope", "key"),
        rowid=False,
    ),
    _t(
        "webhook_deliveries",
        Column("id"),
        Column("event_seq", BIGINT, references=Ref("outbox", "seq")),
        Column("endpoint_id", references=Ref("webhook_endpoints")),
        Column("status"),
        Column("attempts", INT, default=0),
        Column("next_attempt_at", MS),
        _null("last_status", INT),
        _null("last_error"),
        Column("created_at", MS),
        Column("updated_at", MS),
        _null("delivered_at", MS),
        # Claimed by a dispatcher until this wall-clock time; another takes it over after.
        _null("claimed_until", MS),
    ),
    _t(
        "ledger",
        Column("seq", SEQ),
        Column("id", unique=True),
        Column("player_id", references=PLAYER),
        Column("game_id"),
        Column("resource_key"),
        Column("resource_type"),
        Column("delta", BIGINT),
        Column("balance_after", BIGINT, check="balance_after >= 0"),
        Column("reason"),
        _null("note"),
        _null("source_ref_id"),
        Column("actor", JSON),
        Column("created_at", MS),
        primary_key=("seq",),
    ),
    # The balance each ledger entry leaves, beside the ledger for one-row reads; the database refuses a
    # negative amount even if a rule were bypassed.
    _t(
        "holdings",
        Column("player_id", references=PLAYER),
        Column("resource_key"),
        Column("amount", BIGINT, check="amount >= 0"),
        Column("parameters", JSON, default="{}"),
        primary_key=("player_id", "resource_key"),
        rowid=False,
    ),
    _t(
        "grants",
        Column("id"),
        Column("game_id"),
        Column("player_id", references=PLAYER),
        Column("external_player_id"),
        Column("kind"),
        Column("status"),
        Column("entries", JSON),
        Column("source_kind"),
        _null("source_ref_id"),
        Column("metadata", JSON),
        Column("created_at", MS),
        _null("expires_at", MS),
        _null("claimed_at", MS),
        _null("acked_by"),
        rowid=False,
    ),
    _t(
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
    _t(
        "friendships",
        Column("player_id", references=PLAYER),
        Column("friend_id", references=PLAYER),
        Column("since", MS),
        primary_key=("player_id", "friend_id"),
        checks=("player_id != friend_id",),
        rowid=False,
    ),
    _t(
        "blocks",
        Column("blocker_id", references=PLAYER),
        Column("blocked_id", references=PLAYER),
        Column("created_at", MS),
        primary_key=("blocker_id", "blocked_id"),
        rowid=False,
    ),
    # Gifts sent in one millisecond are told apart by insertion order ("newest first" stays exact).
    _t(
        "gifts",
        Column(
            "seq",
            SEQ,
            only=Only(POSTGRES, "SQLite's rowid is the insertion order (gifts is a rowid table there)"),
        ),
        Column("id"),
        Column("game_id"),
        Column("grant_id", unique=True),
        Column("sender_id", references=PLAYER),
        Column("recipient_id", references=PLAYER),
        Column("type"),
        Column("resource_key"),
        Column("amount", BIGINT, check="amount > 0"),
        _null("message"),
        Column("status"),
        Column("sent_at", MS),
        _null("expires_at", MS),
        _null("claimed_at", MS),
        Column("deducted", BOOL),
        _null("idempotency_key"),
    ),
    # A merge is remembered by the source's original external id (replays answer no_op). An id can be
    # merged again once a new player took it: one row per merged player.
    _t(
        "merges",
        Column("game_id"),
        Column("env"),
        Column("from_external_id"),
        Column("from_player_id"),
        Column("to_player_id"),
        Column("placeholder"),
        Column("merged_at", MS),
        primary_key=("game_id", "env", "from_external_id", "from_player_id"),
        rowid=False,
    ),
    # An erasure is remembered by a keyed hash of the original external id, never the id.
    _t(
        "erasures",
        Column("game_id"),
        Column("external_id_hash"),
        Column("player_id"),
        Column("placeholder"),
        Column("reason"),
        Column("erased_at", MS),
        primary_key=("game_id", "external_id_hash", "player_id"),
        rowid=False,
    ),
    _t(
        "purchases",
        Column("id"),
        Column("game_id"),
        Column("env"),
        Column("player_id", references=PLAYER),
        Column("transaction_id"),
        Column("store"),
        Column("product_id"),
        Column("product_type"),
        Column("amount_minor", BIGINT),
        Column("currency"),
        Column("normalized_amount_minor", BIGINT),
        Column("fx_rate", REAL),
        Column("validation_status"),
        Column("purchased_at", MS),
        Column("tracked_at", MS),
        Column("metadata", JSON),
        unique=(("game_id", "env", "transaction_id"),),
        rowid=False,
    ),
    _t(
        "migration_keys",
        Column("game_id"),
        Column("env"),
        Column("kind"),
        Column("key"),
        Column("fingerprint"),
        Column("created_at", MS),
        primary_key=("game_id", "env", "kind", "key"),
        rowid=False,
    ),
    # Scheduled work runs once per due time across processes: one row per job, its last claimed due time.
    _t("scheduled_runs", Column("job"), Column("due_at", MS), Column("claimed_at", MS), primary_key=("job",)),
    # Facts about the database itself, by name: the check value of its server key (livecore_server.crypto).
    _t("server_meta", Column("name"), Column("value"), Column("created_at", MS), primary_key=("name",)),
    # Event windows as they opened, with the event's settings they opened with (JSON, as game settings
    # are written: a window closes on those even after the manifest changed or dropped the event).
    _t(
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
        _null("closed_at", MS),
        rowid=False,
    ),
    # One event leaderboard per window and segment values; ``version`` counts its changes (the stream's
    # event ids). "order" is a keyword of both dialects: the column is ``sort_order``.
    _t(
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
        _null("lobby_id"),
        _null("finalized_at", MS),
        rowid=False,
    ),
    _t(
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
        _null("score", REAL),
        _null("score_at", MS),
        _null("completed_at", MS),
        Column("milestones", JSON),
        Column("flagged", BOOL),
        _null("lobby_id"),
        Column("frozen_at", MS, null=True, since="0018_attempts_frozen (PostgreSQL: 0010)"),
        rowid=False,
    ),
    # A player's best score on a board. ``rank_key`` is the score in board order (negated on a ``desc``
    # board), so one ascending index serves both orders: pages, keysets and ranks.
    _t(
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
    # Shared leaderboards: one row per period of a board in an environment, with the board's settings it
    # opened with (JSON, as windows keep theirs). ``finalized_through`` counts the divisions a rollover has
    # paid and moved.
    _t(
        "board_periods",
        Column("id"),
        Column("game_id", references=Ref("games")),
        Column("env"),
        Column("board_key"),
        _null("starts_at", MS),  # none: the all-time period
        _null("ends_at", MS),
        Column("status"),
        Column("settings", JSON),
        Column("finalized_through", INT),
        _null("finalized_at", MS),
        rowid=False,
    ),
    # A period's divisions, by tier (0: the lowest) and number in the order they opened.
    _t(
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
    _t(
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
    # The tier each player plays on a board with divisions.
    _t(
        "league_tiers",
        Column("game_id", references=Ref("games")),
        Column("env"),
        Column("board_key"),
        Column("player_id", references=PLAYER),
        Column("tier", INT),
        primary_key=("game_id", "env", "board_key", "player_id"),
        rowid=False,
    ),
    # Lobbies: small rooms of one window that fill, start and close, each with its own event board
    # (``board_id``, a derived id: the board may be written after its lobby). ``segment_key`` is the
    # canonical text of ``segment_values``; ``push_key`` the key a studio's server pushed it with.
    _t(
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
        _null("fill_by", MS),
        Column("participant_count", INT),
        Column("bot_count", INT),
        _null("started_at", MS),
        _null("closed_at", MS),
        _null("promotion_reason"),
        _null("metadata", JSON),
        _null("push_key"),
        _null("terminated_by"),
        rowid=False,
    ),
    # A lobby's seats, players' and bots' (a bot's ``seat_id`` is a bot id: no player row, so no foreign
    # key). Unique (window_id, seat_id): a player holds one seat per window, whatever two processes race.
    _t(
        "lobby_seats",
        Column("lobby_id", references=Ref("lobbies")),
        Column("window_id", references=Ref("windows")),
        Column("seat_id"),
        Column("joined_at", MS),
        Column("source"),
        _null("external_player_id"),
        _null("identity_name"),
        _null("identity_avatar"),
        _null("final_score", REAL),
        Column("seat_position", INT),
        primary_key=("lobby_id", "seat_id"),
        unique=(("window_id", "seat_id"),),
        rowid=False,
    ),
    # Event teams, one per window and key (the id is derived from the two). No foreign key to windows: a
    # roster PUT may name the next scheduled window before it opens. ``rank_key`` is the score negated, so
    # one ascending index gives the team board's order (best first), as board_entries' does.
    _t(
        "teams",
        Column("id"),
        Column("game_id", references=Ref("games")),
        Column("env"),
        Column("event_key"),
        Column("event_id"),
        Column("window_id"),
        Column("key"),
        _null("name"),
        Column("formation"),
        _null("goal", REAL),
        Column("created_at", MS),
        _null("attributes", JSON),
        Column("member_count", INT),
        Column("score", REAL),
        Column("rank_key", REAL),
        _null("completed_at", MS),
        Column("milestones", JSON),
        _null("final_rank", INT),
        _null("finalized_at", MS),
        rowid=False,
    ),
    # A player's seats on teams, those left included (a left seat keeps its contribution for the team's
    # score). The unique index ``team_members_seated`` holds a player to one seat not left per window.
    _t(
        "team_members",
        Column("seat_id"),
        Column("team_id", references=Ref("teams")),
        Column("window_id"),
        Column("player_id", references=PLAYER),
        Column("external_player_id"),
        Column("joined_at", MS),
        Column("contribution", REAL),
        _null("left_at", MS),
        _null("left_reason"),
        primary_key=("seat_id",),
        rowid=False,
    ),
    # Invitations to pair up for a window; ``team_id`` is the team an accepted one formed.
    _t(
        "partner_invites",
        Column("id"),
        Column("game_id", references=Ref("games")),
        Column("env"),
        Column("event_key"),
        Column("window_id"),
        Column("from_player_id", references=PLAYER),
        Column("from_external_id"),
        Column("to_player_id", references=PLAYER),
        Column("to_external_id"),
        Column("created_at", MS),
        Column("expires_at", MS),
        _null("accepted_at", MS),
        Column("team_id", null=True, references=Ref("teams")),
        rowid=False,
    ),
    # Guilds. ``name_key`` is the name casefolded: what the unique index ``guilds_by_name`` compares among
    # the guilds not disbanded, and what the name search matches. A rowid table: SQLite's full-text table
    # ``guild_names`` indexes it by rowid.
    _t(
        "guilds",
        Column("id"),
        Column("game_id", references=Ref("games")),
        Column("env"),
        Column("name"),
        Column("name_key"),
        Column("join_type"),
        Column("created_at", MS),
        _null("description"),
        _null("badge"),
        _null("country"),
        _null("metadata", JSON),
        Column("member_count", INT),
        _null("disbanded_at", MS),
        _null("disband_reason"),
    ),
    # Each membership of a guild, from joining to leaving, kept after it ends (the guild's history, the
    # player's stints). ``joined_by`` and ``left_by`` are who made it start and end, as the webhooks' ``by``
    # (JSON). The unique index ``guild_stints_current`` holds a player to one stint not ended.
    _t(
        "guild_stints",
        Column("id"),
        Column("guild_id", references=Ref("guilds")),
        Column("game_id"),
        Column("env"),
        Column("player_id", references=PLAYER),
        Column("external_player_id"),
        Column("role"),
        Column("via"),
        Column("joined_at", MS),
        Column("joined_by", JSON),
        _null("left_at", MS),
        _null("left_reason"),
        _null("left_by", JSON),
        rowid=False,
    ),
    _t(
        "guild_join_requests",
        Column("id"),
        Column("guild_id", references=Ref("guilds")),
        Column("game_id"),
        Column("player_id", references=PLAYER),
        Column("external_player_id"),
        _null("message"),
        Column("created_at", MS),
        Column("status"),
        _null("resolved_at", MS),
        rowid=False,
    ),
    # ``status`` as stored is never ``expired``: an open request past ``expires_at`` reads so.
    _t(
        "guild_help_requests",
        Column("id"),
        Column("guild_id", references=Ref("guilds")),
        Column("game_id"),
        Column("player_id", references=PLAYER),
        Column("external_player_id"),
        Column("type"),
        Column("resource_key"),
        Column("amount", BIGINT),
        Column("created_at", MS),
        Column("expires_at", MS),
        Column("donated", BIGINT),
        Column("status"),
        _null("closed_at", MS),
        rowid=False,
    ),
    # The grants a donation made are named, not referenced: PostgreSQL may send a grant's insert after the
    # donation's (postgres_batches).
    _t(
        "guild_donations",
        Column("id"),
        Column("request_id", references=Ref("guild_help_requests")),
        Column("guild_id"),
        Column("game_id"),
        Column("donor_player_id", references=PLAYER),
        Column("donor_external_player_id"),
        Column("amount", BIGINT),
        Column("grant_id"),
        _null("reward_grant_id"),
        Column("donated_at", MS),
        rowid=False,
    ),
    # Operators (docs/operators.md): a studio's members as its manifest declares them (``removed_at`` once
    # a manifest leaves one out), their portal sessions and one-time sign-in links, their personal keys,
    # and the audit log. Secrets are kept as keyed hashes only.
    _t(
        "members",
        Column("id"),
        Column("studio_id", references=Ref("studios")),
        Column("key"),
        Column("email"),
        Column("role"),
        Column("created_at", MS),
        Column("updated_at", MS),
        _null("removed_at", MS),
        unique=(("studio_id", "key"),),
        rowid=False,
    ),
    _t(
        "member_sessions",
        Column("id"),
        Column("token_hash", unique=True),
        Column("member_id", references=Ref("members")),
        Column("via"),
        Column("created_at", MS),
        Column("expires_at", MS),
        _null("ended_at", MS),
        _null("ip"),
        rowid=False,
    ),
    _t(
        "login_links",
        Column("token_hash"),
        Column("member_id", references=Ref("members")),
        Column("created_at", MS),
        Column("expires_at", MS),
        _null("used_at", MS),
        primary_key=("token_hash",),
        rowid=False,
    ),
    _t(
        "personal_keys",
        Column("id"),
        Column("member_id", references=Ref("members")),
        Column("secret_hash", unique=True),
        Column("prefix"),
        _null("role"),
        Column("read_only", BOOL, default=False),
        Column("created_at", MS),
        Column("expires_at", MS),
        _null("revoked_at", MS),
        _null("last_used_at", MS),
        rowid=False,
    ),
    _t(
        "audit_log",
        Column("seq", SEQ),
        Column("id", unique=True),
        Column("studio_id", references=Ref("studios")),
        _null("game_id"),
        Column("at", MS),
        Column("actor", JSON),
        _null("member_id"),  # the acting member's, from ``actor``: the log filtered by member
        Column("action"),
        Column("target"),
        Column("metadata", JSON),
        _null("before", JSON),
        _null("after", JSON),
        _null("ip"),
        primary_key=("seq",),
    ),
    # One row per key (or address) and bucket. ``allowed`` is still written (as ``granted >= 1``) for a
    # process of an earlier version during a rolling upgrade. On PostgreSQL every bucket shared by the
    # processes of a deployment; on SQLite (one server process, whose keys' buckets are in its memory)
    # only the failed authentications of client addresses, so that the CLI can lift a lock-out
    # (livecore_server/lockouts.py).
    _t(
        "rate_buckets",
        Column("subject"),
        Column("bucket"),
        Column("tokens", REAL),
        Column("updated_ms", MS),
        Column("allowed", BOOL),
        # A take may grant several tokens; RETURNING sees only the row's new values.
        Column("granted", INT, default=0),
        primary_key=("subject", "bucket"),
    ),
    # Each process's open event-board streams by API key, under a lease it renews every second
    # (livecore_server/stream_slots.py).
    _t(
        "open_streams",
        Column("process_id"),
        Column("key_id"),
        Column("streams", INT),
        Column("lease_until_ms", MS),
        primary_key=("process_id", "key_id"),
        only=Only(
            POSTGRES, "the streams of several processes; a SQLite server is one process, which counts its own"
        ),
    ),
)

_SEARCH_NAME_WHERE = Where(
    sqlite=None,
    postgres="search_name IS NOT NULL",
    why="PostgreSQL's planner, before the table is analyzed, could take this index for a look-up by"
    " external id (it also starts with game_id); partial on a condition every name search implies, it"
    " serves name searches only. search_name is never NULL, so the index loses no row",
)

_FLAG = "a flag is 0/1 on SQLite, BOOLEAN on PostgreSQL"
_NOT_FANNED_OUT = Where("fanned_out = 0", "NOT fanned_out", _FLAG)

INDEXES: tuple[Index, ...] = (
    Index("api_keys_by_game_name", "api_keys", ("game_id", "name"), where="revoked_at IS NULL"),
    # The streak sweep touches only players with a running streak.
    Index("players_running_streak", "players", ("streak_day",), where="streak > 0"),
    Index(
        "players_by_friend_code",
        "players",
        ("game_id", "env", "friend_code"),
        unique=True,
        where="friend_code IS NOT NULL",
    ),
    # Suggestions: a bounded range of the most recently active players of a game.
    Index(
        "players_recently_active",
        "players",
        ("game_id", "env", "last_active_at"),
        where="last_active_at IS NOT NULL",
    ),
    # Short search text (1-2 characters) matches name prefixes through this index.
    Index("players_by_search_name", "players", ("game_id", "env", "search_name"), where=_SEARCH_NAME_WHERE),
    # Longer search text: ``search_name ILIKE '%text%'`` (SQLite has its full-text table, below).
    Index(
        "players_name_trigrams",
        "players",
        ("search_name {ops}",),
        using="GIN",
        optional=True,
        only=Only(POSTGRES, "pg_trgm's index of the name search; SQLite searches its FTS5 table"),
    ),
    # The dispatcher fans committed events out to deliveries: what is left to do.
    Index("outbox_to_fan_out", "outbox", ("seq",), where=_NOT_FANNED_OUT),
    Index(
        "outbox_debouncing",
        "outbox",
        ("debounce_key",),
        unique=True,
        where=_NOT_FANNED_OUT,
    ),
    Index(
        "outbox_fanned_by_time",
        "outbox",
        ("occurred_at",),
        where=Where("fanned_out = 1", "fanned_out", _FLAG),
    ),
    Index("idempotency_by_age", "idempotency", ("created_at",)),
    Index(
        "deliveries_due",
        "webhook_deliveries",
        ("next_attempt_at", "event_seq"),
        where="status = 'pending'",
    ),
    Index("deliveries_by_endpoint", "webhook_deliveries", ("endpoint_id", "created_at")),
    Index("deliveries_by_event", "webhook_deliveries", ("event_seq",)),
    Index("deliveries_finished_by_time", "webhook_deliveries", ("updated_at",), where="status != 'pending'"),
    Index("ledger_by_player", "ledger", ("player_id", "resource_key", "seq")),
    Index("grants_pending_by_player", "grants", ("player_id", "created_at"), where="status = 'pending'"),
    Index(
        "grants_to_expire",
        "grants",
        ("expires_at",),
        where="status = 'pending' AND expires_at IS NOT NULL",
    ),
    Index("grants_by_player", "grants", ("player_id", "created_at")),
    Index("friend_requests_incoming", "friend_requests", ("to_player_id", "created_at")),
    Index("friend_requests_outgoing", "friend_requests", ("from_player_id", "created_at")),
    Index("blocks_by_blocked", "blocks", ("blocked_id", "blocker_id")),
    # The sender's recent gifts (cooldown per friend, daily count, friend rows), covering.
    Index("gifts_sent", "gifts", ("sender_id", "sent_at", "recipient_id")),
    # Also a recipient's gifts rewritten by a merge or an erasure.
    Index("gifts_received", "gifts", ("recipient_id", "sent_at")),
    # A repeated idempotency key answers the gift it made, however long ago.
    Index(
        "gifts_by_key",
        "gifts",
        ("sender_id", "idempotency_key"),
        unique=True,
        where="idempotency_key IS NOT NULL",
    ),
    Index("merges_into", "merges", ("to_player_id",)),
    Index("purchases_by_player", "purchases", ("player_id", "purchased_at", "id")),
    # Revenue reads: a game's purchases in a time range.
    Index("purchases_by_time", "purchases", ("game_id", "env", "purchased_at")),
    Index("rate_buckets_by_age", "rate_buckets", ("updated_ms",)),
    # Live events: the scheduler's and the commands' look-ups, each a range of one index.
    Index(
        "windows_open", "windows", ("game_id", "env", "event_key", "starts_at", "id"), where="status = 'open'"
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
    # Shared leaderboards. A board's periods by status and start (its open one, its latest finalized).
    Index(
        "board_periods_of_board",
        "board_periods",
        ("game_id", "env", "board_key", "status", "starts_at", "id"),
    ),
    # The rollover's look-up: periods finalizing, and open ones whose end has come.
    Index("board_periods_due", "board_periods", ("status", "ends_at", "id")),
    Index("divisions_in_order", "divisions", ("period_id", "tier", "number")),
    # Board order in a whole period and in one division, each covering: a page is cut from the index alone.
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
    # Lobbies. Matchmaking's look-up: a window's oldest forming lobby of a segment.
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
    # Teams. A window's teams in the team board's order.
    Index("teams_by_rank", "teams", ("window_id", "rank_key", "created_at", "id")),
    Index("team_members_in_order", "team_members", ("team_id", "joined_at", "seat_id")),
    # One seat not left per player and window, whatever two processes race: what refuses a player a second
    # team of a window (a left seat stays, and frees the window).
    Index(
        "team_members_seated",
        "team_members",
        ("window_id", "player_id"),
        unique=True,
        where="left_at IS NULL",
    ),
    # A merge's and an erasure's look-up of a player's seats.
    Index("team_members_by_player", "team_members", ("player_id", "window_id")),
    # Invites between two players in a window, looked up each way; by the sender for a merge or an
    # erasure, and by the invitee below.
    Index("partner_invites_between", "partner_invites", ("from_player_id", "to_player_id", "window_id")),
    Index("partner_invites_to", "partner_invites", ("to_player_id", "from_player_id", "window_id")),
    # Guilds. One guild not disbanded per name (casefolded) in a game and environment, whatever two
    # processes race: what refuses a second live name; a disbanded guild frees its name.
    Index(
        "guilds_by_name",
        "guilds",
        ("game_id", "env", "name_key"),
        unique=True,
        where="disbanded_at IS NULL",
    ),
    # The search and the server's list, newest first: the guilds not disbanded, and all of them.
    Index(
        "guilds_live_newest", "guilds", ("game_id", "env", "created_at", "id"), where="disbanded_at IS NULL"
    ),
    Index("guilds_newest", "guilds", ("game_id", "env", "created_at", "id")),
    # Search text of three or more characters: ``name_key LIKE '%text%'`` (SQLite has its full-text table).
    Index(
        "guilds_name_trigrams",
        "guilds",
        ("name_key {ops}",),
        using="GIN",
        optional=True,
        only=Only(POSTGRES, "pg_trgm's index of the guild name search; SQLite searches its FTS5 table"),
    ),
    # One stint not ended per player, whatever two processes race: what refuses a second guild.
    Index("guild_stints_current", "guild_stints", ("player_id",), unique=True, where="left_at IS NULL"),
    Index("guild_stints_members", "guild_stints", ("guild_id", "joined_at", "id"), where="left_at IS NULL"),
    Index("guild_stints_history", "guild_stints", ("guild_id", "joined_at", "id")),
    # A player's stints (newest first), the guilds it was ever in, and a merge's or erasure's look-up.
    Index("guild_stints_by_player", "guild_stints", ("player_id", "joined_at", "id")),
    # The hourly sweep's look-up of a game's leaders, before their players' last_seen_at.
    Index(
        "guild_stints_leaders",
        "guild_stints",
        ("game_id", "id"),
        where="left_at IS NULL AND role = 'leader'",
    ),
    Index(
        "guild_join_requests_pending",
        "guild_join_requests",
        ("guild_id", "created_at", "id"),
        where="status = 'pending'",
    ),
    # A player's pending requests; its requests of any status for a merge or an erasure.
    Index(
        "guild_join_requests_by_player", "guild_join_requests", ("player_id", "status", "created_at", "id")
    ),
    # A guild's open help requests newest first, their expiry read from the index.
    Index(
        "guild_help_open",
        "guild_help_requests",
        ("guild_id", "created_at", "id", "expires_at"),
        where="status = 'open'",
    ),
    Index(
        "guild_help_open_of",
        "guild_help_requests",
        ("player_id", "created_at", "id"),
        where="status = 'open'",
    ),
    # A player's latest request to a guild (the cooldown); a merge's or erasure's look-up.
    Index("guild_help_by_player", "guild_help_requests", ("player_id", "guild_id", "created_at", "id")),
    Index("guild_donations_of_request", "guild_donations", ("request_id", "donated_at", "id")),
    Index("guild_donations_by_donor", "guild_donations", ("donor_player_id",)),
    Index("member_sessions_of_member", "member_sessions", ("member_id",), where="ended_at IS NULL"),
    # A member's key that works (one at most: making one revokes the one before).
    Index("personal_keys_of_member", "personal_keys", ("member_id",), where="revoked_at IS NULL"),
    # The audit log newest first, per studio and per game, by keyset on seq.
    Index("audit_by_studio", "audit_log", ("studio_id", "seq")),
    Index("audit_by_game", "audit_log", ("game_id", "seq")),
)

_FTS = Only(SQLITE, "SQLite's name search of three or more characters (PostgreSQL has its trigram index)")
_GUILD_FTS = Only(
    SQLITE, "SQLite's guild name search of three or more characters (PostgreSQL has its trigram index)"
)

# The name search's trigram index on SQLite, kept by triggers that fire only when the name changes (a
# heartbeat rewrites the row, not the name).
RAW: tuple[Raw, ...] = (
    Raw(
        "player_names",
        "table",
        "players",
        "CREATE VIRTUAL TABLE player_names USING fts5("
        "search_name, content='players', content_rowid='rowid', tokenize='trigram')",
        _FTS,
    ),
    Raw(
        "player_names_insert",
        "trigger",
        "players",
        "CREATE TRIGGER player_names_insert AFTER INSERT ON players BEGIN"
        " INSERT INTO player_names (rowid, search_name) VALUES (new.rowid, new.search_name); END",
        _FTS,
    ),
    Raw(
        "player_names_delete",
        "trigger",
        "players",
        "CREATE TRIGGER player_names_delete AFTER DELETE ON players BEGIN"
        " INSERT INTO player_names (player_names, rowid, search_name)"
        " VALUES ('delete', old.rowid, old.search_name); END",
        _FTS,
    ),
    Raw(
        "player_names_update",
        "trigger",
        "players",
        "CREATE TRIGGER player_names_update AFTER UPDATE OF search_name ON players"
        " WHEN old.search_name IS NOT new.search_name BEGIN"
        " INSERT INTO player_names (player_names, rowid, search_name)"
        " VALUES ('delete', old.rowid, old.search_name);"
        " INSERT INTO player_names (rowid, search_name) VALUES (new.rowid, new.search_name); END",
        _FTS,
    ),
    # The guild name search's, as the players' (a guild's name key changes only when it is renamed).
    Raw(
        "guild_names",
        "table",
        "guilds",
        "CREATE VIRTUAL TABLE guild_names USING fts5("
        "name_key, content='guilds', content_rowid='rowid', tokenize='trigram')",
        _GUILD_FTS,
    ),
    Raw(
        "guild_names_insert",
        "trigger",
        "guilds",
        "CREATE TRIGGER guild_names_insert AFTER INSERT ON guilds BEGIN"
        " INSERT INTO guild_names (rowid, name_key) VALUES (new.rowid, new.name_key); END",
        _GUILD_FTS,
    ),
    Raw(
        "guild_names_delete",
        "trigger",
        "guilds",
        "CREATE TRIGGER guild_names_delete AFTER DELETE ON guilds BEGIN"
        " INSERT INTO guild_names (guild_names, rowid, name_key) VALUES ('delete', old.rowid, old.name_key);"
        " END",
        _GUILD_FTS,
    ),
    Raw(
        "guild_names_update",
        "trigger",
        "guilds",
        "CREATE TRIGGER guild_names_update AFTER UPDATE OF name_key ON guilds"
        " WHEN old.name_key IS NOT new.name_key BEGIN"
        " INSERT INTO guild_names (guild_names, rowid, name_key) VALUES ('delete', old.rowid, old.name_key);"
        " INSERT INTO guild_names (rowid, name_key) VALUES (new.rowid, new.name_key); END",
        _GUILD_FTS,
    ),
)


# --- Reading the declaration ---


def table(name: str) -> Table:
    for declared in TABLES:
        if declared.name == name:
            return declared
    raise KeyError(name)


def index(name: str) -> Index:
    for declared in INDEXES:
        if declared.name == name:
            return declared
    raise KeyError(name)


def tables(dialect: Dialect) -> Iterator[Table]:
    return (t for t in TABLES if in_dialect(t.only, dialect))


def indexes(dialect: Dialect, table_name: str | None = None) -> Iterator[Index]:
    return (i for i in INDEXES if in_dialect(i.only, dialect) and table_name in (None, i.table))


def raw(dialect: Dialect, table_name: str | None = None) -> Iterator[Raw]:
    return (r for r in RAW if r.only.dialect == dialect and table_name in (None, r.table))


# --- Rendering ---


def default_sql(value: str | int | bool, dialect: Dialect) -> str:
    """A default value as the dialect writes it."""
    if isinstance(value, bool):
        if dialect == POSTGRES:
            return "TRUE" if value else "FALSE"
        return "1" if value else "0"
    if isinstance(value, int):
        return str(value)
    return "'" + value.replace("'", "''") + "'"


def column_sql(declared: Table, column: Column, dialect: Dialect) -> str:
    """A column's definition in CREATE TABLE or ALTER TABLE ADD COLUMN."""
    parts = [column.name, column.kind.sql(dialect)]
    if declared.primary_key == (column.name,):
        # NOT NULL is not written: SQLite's INTEGER PRIMARY KEY is the rowid (never NULL), and the
        # migrations wrote a text key of a rowid table without it.
        parts.append("PRIMARY KEY")
        if column.kind == SEQ and dialect == SQLITE:
            parts.append("AUTOINCREMENT")
    elif not column.null:
        parts.append("NOT NULL")
    if column.default is not None:
        parts.append(f"DEFAULT {default_sql(column.default, dialect)}")
    if column.unique:
        parts.append("UNIQUE")
    if column.check is not None:
        parts.append(f"CHECK ({column.check})")
    ref = column.references
    if ref is not None and in_dialect(ref.only, dialect):
        parts.append(f"REFERENCES {ref.table}({ref.column})")
    return " ".join(parts)


def create_table(name: str, dialect: Dialect, *, complete: bool = True) -> str:
    """CREATE TABLE with every declared column, or (``complete=False``) those it was created with."""
    declared = table(name)
    _require(declared.only, dialect, name)
    kept = [c for c in declared.columns_in(dialect) if complete or c.since is None]
    lines = [column_sql(declared, column, dialect) for column in kept]
    if len(declared.primary_key) > 1:
        lines.append(f"PRIMARY KEY ({', '.join(declared.primary_key)})")
    lines += [f"UNIQUE ({', '.join(columns)})" for columns in declared.unique]
    lines += [f"CHECK ({check})" for check in declared.checks]
    body = ",\n    ".join(lines)
    tail = " WITHOUT ROWID" if dialect == SQLITE and not declared.rowid else ""
    return f"CREATE TABLE {name} (\n    {body}\n){tail}"


def create_index(name: str, dialect: Dialect) -> str:
    declared = index(name)
    _require(declared.only, dialect, name)
    head = "CREATE UNIQUE INDEX" if declared.unique else "CREATE INDEX"
    if declared.optional:
        head += " IF NOT EXISTS"
    using = f" USING {declared.using}" if declared.using else ""
    statement = f"{head} {name} ON {declared.table}{using} ({', '.join(declared.columns)})"
    where = declared.where_in(dialect)
    return statement if where is None else f"{statement} WHERE {where}"


def add_column(table_name: str, column_name: str, dialect: Dialect) -> str:
    """ALTER TABLE ... ADD COLUMN for a column added to a declared table."""
    declared = table(table_name)
    column = declared.column(column_name)
    _require(column.only, dialect, f"{table_name}.{column_name}")
    return f"ALTER TABLE {table_name} ADD COLUMN {column_sql(declared, column, dialect)}"


def create_statements(table_name: str, dialect: Dialect) -> list[str]:
    """A new table's migration in ``dialect``: the table, its indexes and the dialect's own objects
    serving it, as first created (what a later migration adds, ``since``, is left out; so are the
    optional indexes, built outside the migrations)."""
    return _table_statements(table_name, dialect, complete=False)


def statements(dialect: Dialect) -> list[str]:
    """The whole schema of ``dialect``, as it is now, for an empty database (tables in dependency
    order; the optional indexes left out)."""
    return [s for t in tables(dialect) for s in _table_statements(t.name, dialect, complete=True)]


def _table_statements(table_name: str, dialect: Dialect, *, complete: bool) -> list[str]:
    return [
        create_table(table_name, dialect, complete=complete),
        *(
            create_index(i.name, dialect)
            for i in indexes(dialect, table_name)
            if not i.optional and (complete or i.since is None)
        ),
        *(r.sql for r in raw(dialect, table_name)),
    ]


def _require(only: Only | None, dialect: Dialect, what: str) -> None:
    if not in_dialect(only, dialect):
        raise ValueError(f"{what} exists on {only.dialect if only else '?'} only")
