"""The PostgreSQL store (issue #8, first step): the :mod:`livecore.store` port on PostgreSQL.

Concurrency model: the commands are synchronous functions over the port, so each transaction holds one
synchronous psycopg 3 connection from start to end (a worker thread per request, later). Transactions run
at SERIALIZABLE isolation: two transactions that would interleave into a result no serial order gives
(two sends racing past a daily limit, two debits of one balance) make one of them fail with a
serialization error instead, which :meth:`PostgresStore.run` retries.

Rows have the SQLite store's layout (timestamps in BIGINT milliseconds, JSON read back as its text), so
the row <-> record conversions are :mod:`livecore_server.storage.sqlite`'s own. The statements follow
SqliteTransaction's one for one, with the same ordering rules.

Not here yet: the server's own tables (API keys, webhook endpoints and deliveries), ``apply``, and the
server wiring; :meth:`PostgresStore.put_game` stands in for ``apply`` in tests.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date, datetime
from typing import Any, TypeVar

import orjson
import psycopg
from psycopg import errors, sql
from psycopg.abc import Buffer
from psycopg.adapt import Loader
from psycopg.pq import TransactionStatus

from livecore.clock import from_millis, to_millis
from livecore.economy import Holding, LedgerEntry
from livecore.erasure import ErasureReason, ErasureRecord
from livecore.events import DEBOUNCE, DomainEvent
from livecore.friends import Block, FriendRequest, Friendship
from livecore.games import Game, GameSettings
from livecore.gifts import Gift, GiftListing, SenderStats
from livecore.grants import Grant, GrantStatus
from livecore.idempotency import StoredResponse
from livecore.merge import MergeRecord
from livecore.migration import MigrationKind
from livecore.players import Player
from livecore.purchases import (
    DayRevenue,
    PlayerSpend,
    ProductRevenue,
    Purchase,
    RevenueSummary,
    Spender,
    ValidationStatus,
    Window,
    window_start,
)
from livecore.scope import Environment
from livecore.store import Transaction
from livecore_server.storage.postgres_schema import MIGRATIONS, TRGM_INDEX
from livecore_server.storage.records import settings_converter
from livecore_server.storage.rows import (
    GIFT_COLUMNS,
    GIFT_FROM,
    GRANT_COLUMNS,
    LEDGER_COLUMNS,
    P_COLUMNS,
    PLAYER_COLUMNS,
    PURCHASE_COLUMNS,
    PURCHASE_FROM,
    dt,
    gift_of,
    grant_of,
    grant_row,
    ledger_entry_of,
    ms,
    pair_key,
    player_of,
    player_row,
    purchase_of,
    request_of,
)
from livecore_server.storage.sqlite import GAME_CACHE_TTL

T = TypeVar("T")

# pg_advisory_xact_lock key for migrations ("livecore" in ASCII): one per database, so processes
# starting at once apply each migration once, and never race on CREATE EXTENSION.
MIGRATION_LOCK = 0x6C69_7665_636F_7265

# A transaction that lost a serialization race (or a deadlock) can be run again from the start.
RETRYABLE = (errors.SerializationFailure, errors.DeadlockDetected)


class _JsonText(Loader):
    """json/jsonb columns come back as their text (bytes), as SQLite's TEXT columns do: the shared
    conversions parse them with orjson."""

    def load(self, data: Buffer) -> bytes:
        return bytes(data)


def connect(dsn: str, schema: str | None = None) -> psycopg.Connection[Any]:
    conn = psycopg.connect(dsn, autocommit=True)
    if schema is not None:
        conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(schema)))
    conn.adapters.register_loader("json", _JsonText)
    conn.adapters.register_loader("jsonb", _JsonText)
    return conn


def migrate(conn: psycopg.Connection[Any], schema: str | None = None) -> list[str]:
    """Apply pending migrations in one transaction, under the migration lock; returns the names applied.

    Several processes may start at once: the first takes the lock and migrates, the others wait for it,
    then find every migration recorded and apply nothing."""
    applied: list[str] = []
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        if schema is not None:
            conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)"
        )
        done = {row[0] for row in conn.execute("SELECT name FROM _migrations")}
        for name, statements in MIGRATIONS:
            if name in done:
                continue
            for statement in statements:
                conn.execute(statement)
            conn.execute(
                "INSERT INTO _migrations (name, applied_at) VALUES (%s, %s)", (name, time.time_ns() // 10**6)
            )
            applied.append(name)
        _ensure_name_trigrams(conn)
    return applied


def _ensure_name_trigrams(conn: psycopg.Connection[Any]) -> bool:
    """Build the trigram index of player names if pg_trgm is (or can be made) available."""
    if conn.execute("SELECT to_regclass('players_name_trigrams')").fetchone() != (None,):
        return True
    try:
        with conn.transaction():  # a savepoint: a refusal (no privilege, no contrib) leaves the rest
            # In public, not the store's schema: an extension is one per database, and dropping a schema
            # must not take it (and other schemas' indexes) along.
            conn.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public")
    except psycopg.Error:
        pass
    row = conn.execute(
        "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace"
        " WHERE e.extname = 'pg_trgm'"
    ).fetchone()
    if row is None:
        return False
    ops = sql.SQL("{}.gin_trgm_ops").format(sql.Identifier(row[0]))
    conn.execute(sql.SQL(TRGM_INDEX).format(ops=ops))
    return True


class PostgresStore:
    """The port on one PostgreSQL database (and optionally one schema of it, which is created).

    Connections are opened on demand and kept idle for reuse (up to ``max_idle``); any thread may run a
    transaction, each on a connection of its own."""

    def __init__(self, dsn: str, *, schema: str | None = None, max_idle: int = 4) -> None:
        self.dsn = dsn
        self.schema = schema
        self.max_idle = max_idle
        self._idle: list[psycopg.Connection[Any]] = []
        self._lock = threading.Lock()
        self._closed = False
        # Game settings are read by most commands and change rarely: parsed once per GAME_CACHE_TTL.
        self.games: dict[str, tuple[float, Game]] = {}
        conn = connect(dsn, schema)
        try:
            self.applied = migrate(conn, schema)
            self.name_trigrams = conn.execute("SELECT to_regclass('players_name_trigrams')").fetchone() != (
                None,
            )
        except BaseException:
            conn.close()
            raise
        self._release(conn)

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()

    def clear_caches(self) -> None:
        self.games.clear()

    def _acquire(self) -> psycopg.Connection[Any]:
        with self._lock:
            if self._closed:
                raise RuntimeError("the store is closed")
            while self._idle:
                conn = self._idle.pop()
                if not conn.closed:
                    return conn
        return connect(self.dsn, self.schema)

    def _release(self, conn: psycopg.Connection[Any]) -> None:
        healthy = not conn.closed and conn.info.transaction_status is TransactionStatus.IDLE
        with self._lock:
            if healthy and not self._closed and len(self._idle) < self.max_idle:
                self._idle.append(conn)
                return
        conn.close()

    @contextmanager
    def transaction(self) -> Iterator[PostgresTransaction]:
        """One unit of work on one connection: BEGIN (SERIALIZABLE) ... COMMIT, or ROLLBACK when the
        block raises. A serialization failure surfaces from a statement or from the COMMIT."""
        conn = self._acquire()
        try:
            conn.execute("BEGIN ISOLATION LEVEL SERIALIZABLE")
            try:
                yield PostgresTransaction(conn, self)
            except BaseException:
                if not conn.closed:
                    # A lost connection fails the ROLLBACK too: the block's error is the one to raise.
                    with contextlib.suppress(psycopg.Error):
                        conn.execute("ROLLBACK")
                raise
            if conn.info.transaction_status is TransactionStatus.INERROR:
                # A statement failed and the block swallowed the error: PostgreSQL would turn the COMMIT
                # into a silent ROLLBACK. Say so instead.
                conn.execute("ROLLBACK")
                raise RuntimeError("a statement of the transaction failed; it was rolled back")
            conn.execute("COMMIT")
        finally:
            self._release(conn)

    def run(self, fn: Callable[[PostgresTransaction], T], *, attempts: int = 5) -> T:
        """Run ``fn`` in a transaction, again (from the start) when it loses a serialization race."""
        for attempt in range(attempts):
            try:
                with self.transaction() as tx:
                    return fn(tx)
            except RETRYABLE:
                if attempt == attempts - 1:
                    raise
                time.sleep(0.001 * 2**attempt)
        raise AssertionError("unreachable")

    def put_game(self, game: Game, studio_id: str | None = None) -> None:
        """Create or replace a game row (the manifest's ``apply`` comes later; tests use this). Like
        ``apply``, once gifting was enabled the game keeps ``gifting_ever_enabled``."""
        settings = orjson.dumps(settings_converter.unstructure(game.settings)).decode()
        now = time.time_ns() // 10**6
        ever = game.gifting_ever_enabled or game.settings.gifting.enabled
        with self.transaction() as tx:
            tx.conn.execute(
                "INSERT INTO games (id, studio_id, key, name, settings, created_at, updated_at,"
                " gifting_ever_enabled) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (id) DO UPDATE SET name = excluded.name, settings = excluded.settings,"
                " updated_at = excluded.updated_at,"
                " gifting_ever_enabled = games.gifting_ever_enabled OR excluded.gifting_ever_enabled",
                (game.id, studio_id or game.studio_id, game.key, game.name, settings, now, now, ever),
            )
        self.games.pop(game.id, None)


def _like_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


class PostgresTransaction:
    """The port on one PostgreSQL connection; valid only inside :meth:`PostgresStore.transaction`."""

    def __init__(self, conn: psycopg.Connection[Any], store: PostgresStore) -> None:
        self.conn = conn
        self.store = store
        # Set by emit (the dispatcher will be told once the events are durable, as with SQLite).
        self.emitted = False

    # --- Games ---------------------------------------------------------------------------------
    def get_game(self, game_id: str) -> Game | None:
        cached = self.store.games.get(game_id)
        now = time.monotonic()
        if cached is not None and now - cached[0] < GAME_CACHE_TTL:
            return cached[1]
        game = self._load_game(game_id)
        if game is not None:
            self.store.games[game_id] = (now, game)
        return game

    def _load_game(self, game_id: str) -> Game | None:
        row = self.conn.execute(
            "SELECT id, studio_id, key, name, settings, gifting_ever_enabled FROM games WHERE id = %s",
            (game_id,),
        ).fetchone()
        if row is None:
            return None
        settings = settings_converter.structure(orjson.loads(row[4]), GameSettings)
        return Game(
            id=row[0],
            studio_id=row[1],
            key=row[2],
            name=row[3],
            settings=settings,
            gifting_ever_enabled=bool(row[5]),
        )

    # --- Players -------------------------------------------------------------------------------
    def get_player(self, game_id: str, external_id: str) -> Player | None:
        row = self.conn.execute(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id = %s AND external_id = %s",
            (game_id, external_id),
        ).fetchone()
        return None if row is None else player_of(row)

    def insert_player(self, player: Player) -> None:
        self.conn.execute(
            f"INSERT INTO players ({PLAYER_COLUMNS}) VALUES ({', '.join(['%s'] * 31)})",
            player_row(player),
        )

    def update_player(self, player: Player) -> None:
        names = [c.strip() for c in PLAYER_COLUMNS.split(",")][1:]
        values = player_row(player)
        self.conn.execute(
            f"UPDATE players SET {', '.join(f'{n} = %s' for n in names)} WHERE id = %s",
            (*values[1:], values[0]),
        )

    def reset_missed_streaks(self, last_day_before: date) -> int:
        cur = self.conn.execute(
            "UPDATE players SET streak = 0 WHERE streak > 0 AND streak_day < %s",
            (last_day_before.isoformat(),),
        )
        return cur.rowcount

    def get_player_by_id(self, player_id: str) -> Player | None:
        row = self.conn.execute(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE id = %s", (player_id,)
        ).fetchone()
        return None if row is None else player_of(row)

    def find_by_friend_code(self, game_id: str, env: Environment, code: str) -> Player | None:
        row = self.conn.execute(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id = %s AND env = %s AND friend_code = %s",
            (game_id, env.value, code),
        ).fetchone()
        return None if row is None else player_of(row)

    # --- Friend graph --------------------------------------------------------------------------
    def get_request(self, game_id: str, request_id: str) -> FriendRequest | None:
        row = self.conn.execute(
            "SELECT id, game_id, from_player_id, to_player_id, created_at FROM friend_requests"
            " WHERE id = %s AND game_id = %s",
            (request_id, game_id),
        ).fetchone()
        return None if row is None else request_of(row)

    def request_between(self, a_id: str, b_id: str) -> FriendRequest | None:
        row = self.conn.execute(
            "SELECT id, game_id, from_player_id, to_player_id, created_at FROM friend_requests"
            " WHERE pair = %s",
            (pair_key(a_id, b_id),),
        ).fetchone()
        return None if row is None else request_of(row)

    def insert_request(self, request: FriendRequest) -> None:
        self.conn.execute(
            "INSERT INTO friend_requests (id, game_id, from_player_id, to_player_id, pair, created_at)"
            " VALUES (%s, %s, %s, %s, %s, %s)",
            (
                request.id,
                request.game_id,
                request.from_player_id,
                request.to_player_id,
                pair_key(request.from_player_id, request.to_player_id),
                to_millis(request.created_at),
            ),
        )

    def delete_request(self, request_id: str) -> None:
        self.conn.execute("DELETE FROM friend_requests WHERE id = %s", (request_id,))

    def get_friendship(self, player_id: str, friend_id: str) -> Friendship | None:
        row = self.conn.execute(
            "SELECT since FROM friendships WHERE player_id = %s AND friend_id = %s", (player_id, friend_id)
        ).fetchone()
        return None if row is None else Friendship(player_id, friend_id, from_millis(row[0]))

    def insert_friendship(self, a_id: str, b_id: str, since: datetime) -> None:
        ms = to_millis(since)
        self.conn.execute(
            "INSERT INTO friendships (player_id, friend_id, since) VALUES (%s, %s, %s), (%s, %s, %s)",
            (a_id, b_id, ms, b_id, a_id, ms),
        )

    def delete_friendship(self, a_id: str, b_id: str) -> None:
        self.conn.execute(
            "DELETE FROM friendships"
            " WHERE (player_id = %s AND friend_id = %s) OR (player_id = %s AND friend_id = %s)",
            (a_id, b_id, b_id, a_id),
        )

    def count_friends(self, player_id: str) -> int:
        row = self.conn.execute(
            "SELECT count(*) FROM friendships WHERE player_id = %s", (player_id,)
        ).fetchone()
        assert row is not None
        return int(row[0])

    def get_block(self, blocker_id: str, blocked_id: str) -> Block | None:
        row = self.conn.execute(
            "SELECT created_at FROM blocks WHERE blocker_id = %s AND blocked_id = %s",
            (blocker_id, blocked_id),
        ).fetchone()
        return None if row is None else Block(blocker_id, blocked_id, from_millis(row[0]))

    def insert_block(self, block: Block) -> None:
        self.conn.execute(
            "INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (%s, %s, %s)",
            (block.blocker_id, block.blocked_id, to_millis(block.created_at)),
        )

    def delete_block(self, blocker_id: str, blocked_id: str) -> None:
        self.conn.execute(
            "DELETE FROM blocks WHERE blocker_id = %s AND blocked_id = %s", (blocker_id, blocked_id)
        )

    def list_friends(self, player_id: str) -> list[tuple[Friendship, Player]]:
        rows = self.conn.execute(
            f"SELECT f.since, {P_COLUMNS} FROM friendships f JOIN players p ON p.id = f.friend_id"
            " WHERE f.player_id = %s ORDER BY f.since, f.friend_id",
            (player_id,),
        )
        return [(Friendship(player_id, r[1], from_millis(r[0])), player_of(r[1:])) for r in rows]

    def list_requests(self, player_id: str) -> list[tuple[FriendRequest, Player]]:
        rows = self.conn.execute(
            f"SELECT r.id, r.game_id, r.from_player_id, r.to_player_id, r.created_at, {P_COLUMNS}"
            " FROM friend_requests r JOIN players p ON p.id = r.from_player_id WHERE r.to_player_id = %s"
            f" UNION ALL SELECT r.id, r.game_id, r.from_player_id, r.to_player_id, r.created_at, {P_COLUMNS}"
            " FROM friend_requests r JOIN players p ON p.id = r.to_player_id WHERE r.from_player_id = %s"
            " ORDER BY 5, 1",
            (player_id, player_id),
        )
        return [(request_of(r[:5]), player_of(r[5:])) for r in rows]

    def list_blocks(self, player_id: str) -> list[tuple[Block, Player]]:
        rows = self.conn.execute(
            f"SELECT b.created_at, {P_COLUMNS} FROM blocks b JOIN players p ON p.id = b.blocked_id"
            " WHERE b.blocker_id = %s ORDER BY b.created_at, b.blocked_id",
            (player_id,),
        )
        return [(Block(player_id, r[1], from_millis(r[0])), player_of(r[1:])) for r in rows]

    def friend_ids(self, player_id: str) -> set[str]:
        rows = self.conn.execute("SELECT friend_id FROM friendships WHERE player_id = %s", (player_id,))
        return {r[0] for r in rows}

    def request_peers(self, player_id: str) -> dict[str, bool]:
        rows = self.conn.execute(
            "SELECT to_player_id, TRUE FROM friend_requests WHERE from_player_id = %s"
            " UNION ALL SELECT from_player_id, FALSE FROM friend_requests WHERE to_player_id = %s",
            (player_id, player_id),
        )
        return {peer: bool(sent) for peer, sent in rows}

    def blocked_either_way(self, player_id: str) -> set[str]:
        rows = self.conn.execute(
            "SELECT blocked_id FROM blocks WHERE blocker_id = %s"
            " UNION SELECT blocker_id FROM blocks WHERE blocked_id = %s",
            (player_id, player_id),
        )
        return {r[0] for r in rows}

    def recently_active(self, game_id: str, env: Environment, limit: int) -> list[Player]:
        rows = self.conn.execute(
            f"SELECT {PLAYER_COLUMNS} FROM players"
            " WHERE game_id = %s AND env = %s AND last_active_at IS NOT NULL"
            " ORDER BY last_active_at DESC LIMIT %s",
            (game_id, env.value, limit),
        )
        return [player_of(r) for r in rows]

    def search_by_name(self, game_id: str, env: Environment, text: str, limit: int) -> list[Player]:
        needle = text.lower()
        if len(needle) >= 3:
            # Any substring of three or more characters (through the trigram index when there is one).
            rows = self.conn.execute(
                f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id = %s AND env = %s"
                " AND search_name ILIKE %s ORDER BY search_name LIMIT %s",
                (game_id, env.value, f"%{_like_escape(needle)}%", limit),
            )
        else:
            # Too short for trigrams: names starting with the text, a range of the prefix index (the
            # column collates in byte order, so the range is SQLite's).
            rows = self.conn.execute(
                f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id = %s AND env = %s"
                " AND search_name >= %s AND search_name < %s ORDER BY search_name LIMIT %s",
                (game_id, env.value, needle, needle + "\U0010ffff", limit),
            )
        return [player_of(r) for r in rows]

    def holdings_of(self, player_ids: list[str], keys: list[str]) -> dict[str, dict[str, int]]:
        if not player_ids or not keys:
            return {}
        rows = self.conn.execute(
            "SELECT player_id, resource_key, amount FROM holdings"
            " WHERE player_id = ANY(%s) AND resource_key = ANY(%s)",
            (player_ids, keys),
        )
        out: dict[str, dict[str, int]] = {}
        for pid, key, amount in rows:
            out.setdefault(pid, {})[key] = amount
        return out

    # --- Ledger --------------------------------------------------------------------------------
    def get_holding(self, player_id: str, key: str) -> Holding:
        row = self.conn.execute(
            "SELECT amount, parameters FROM holdings WHERE player_id = %s AND resource_key = %s",
            (player_id, key),
        ).fetchone()
        return (
            Holding(key=key)
            if row is None
            else Holding(key=key, amount=row[0], parameters=orjson.loads(row[1]))
        )

    def get_holdings(self, player_id: str) -> dict[str, Holding]:
        rows = self.conn.execute(
            "SELECT resource_key, amount, parameters FROM holdings WHERE player_id = %s", (player_id,)
        )
        return {r[0]: Holding(key=r[0], amount=r[1], parameters=orjson.loads(r[2])) for r in rows}

    def append_ledger(self, entry: LedgerEntry, holding: Holding) -> None:
        self.conn.execute(
            "INSERT INTO ledger (id, player_id, game_id, resource_key, resource_type, delta, balance_after,"
            " reason, note, source_ref_id, actor, created_at)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (
                entry.id,
                entry.player_id,
                entry.game_id,
                entry.resource_key,
                entry.resource_type.value,
                entry.delta,
                entry.balance_after,
                entry.reason.value,
                entry.note,
                entry.source_ref_id,
                orjson.dumps(entry.actor).decode(),
                to_millis(entry.created_at),
            ),
        )
        self.conn.execute(
            "INSERT INTO holdings (player_id, resource_key, amount, parameters) VALUES (%s, %s, %s, %s)"
            " ON CONFLICT (player_id, resource_key) DO UPDATE SET amount = excluded.amount,"
            " parameters = excluded.parameters",
            (entry.player_id, entry.resource_key, holding.amount, orjson.dumps(holding.parameters).decode()),
        )

    def ledger(self, player_id: str, key: str | None = None) -> list[LedgerEntry]:
        query = f"SELECT {LEDGER_COLUMNS} FROM ledger WHERE player_id = %s"
        params: tuple[str, ...] = (player_id,)
        if key is not None:
            query += " AND resource_key = %s"
            params = (player_id, key)
        return [ledger_entry_of(r) for r in self.conn.execute(query + " ORDER BY seq", params)]

    # --- Grants --------------------------------------------------------------------------------
    def insert_grant(self, grant: Grant) -> None:
        self.conn.execute(
            f"INSERT INTO grants ({GRANT_COLUMNS}) VALUES ({', '.join(['%s'] * 14)})", grant_row(grant)
        )

    def get_grant(self, game_id: str, grant_id: str) -> Grant | None:
        row = self.conn.execute(
            f"SELECT {GRANT_COLUMNS} FROM grants WHERE id = %s AND game_id = %s", (grant_id, game_id)
        ).fetchone()
        return None if row is None else grant_of(row)

    def update_grant(self, grant: Grant) -> None:
        self.conn.execute(
            "UPDATE grants SET status = %s, claimed_at = %s, acked_by = %s WHERE id = %s",
            (
                grant.status.value,
                ms(grant.claimed_at),
                grant.acked_by.value if grant.acked_by else None,
                grant.id,
            ),
        )

    def pending_grants(self, player_id: str, now: datetime, limit: int) -> list[Grant]:
        rows = self.conn.execute(
            f"SELECT {GRANT_COLUMNS} FROM grants WHERE player_id = %s AND status = 'pending'"
            " AND (expires_at IS NULL OR expires_at > %s) ORDER BY created_at, id LIMIT %s",
            (player_id, to_millis(now), limit),
        )
        return [grant_of(r) for r in rows]

    def grants_past_expiry(self, now: datetime, limit: int) -> list[Grant]:
        rows = self.conn.execute(
            f"SELECT {GRANT_COLUMNS} FROM grants WHERE status = 'pending' AND expires_at IS NOT NULL"
            " AND expires_at <= %s ORDER BY expires_at LIMIT %s",
            (to_millis(now), limit),
        )
        return [grant_of(r) for r in rows]

    # --- Gifts ---------------------------------------------------------------------------------
    def insert_gift(self, gift: Gift) -> None:
        self.conn.execute(
            "INSERT INTO gifts (id, game_id, grant_id, sender_id, recipient_id, type, resource_key, amount,"
            " message, status, sent_at, expires_at, claimed_at, deducted, idempotency_key)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (
                gift.id,
                gift.game_id,
                gift.grant_id,
                gift.sender_id,
                gift.recipient_id,
                gift.type.value,
                gift.resource_key,
                gift.amount,
                gift.message,
                gift.status.value,
                to_millis(gift.sent_at),
                ms(gift.expires_at),
                ms(gift.claimed_at),
                gift.deducted_from_sender,
                gift.idempotency_key,
            ),
        )

    def get_gift(self, game_id: str, gift_id: str) -> Gift | None:
        row = self.conn.execute(
            f"SELECT {GIFT_COLUMNS} {GIFT_FROM} WHERE g.id = %s AND g.game_id = %s", (gift_id, game_id)
        ).fetchone()
        return None if row is None else gift_of(row)

    def update_gift(self, gift: Gift) -> None:
        self.conn.execute(
            "UPDATE gifts SET status = %s, claimed_at = %s WHERE id = %s",
            (gift.status.value, ms(gift.claimed_at), gift.id),
        )

    def gift_by_key(self, sender_id: str, idempotency_key: str) -> Gift | None:
        row = self.conn.execute(
            f"SELECT {GIFT_COLUMNS} {GIFT_FROM} WHERE g.sender_id = %s AND g.idempotency_key = %s",
            (sender_id, idempotency_key),
        ).fetchone()
        return None if row is None else gift_of(row)

    def gift_stats(
        self, sender_id: str, recipient_id: str | None, cooldown_since: datetime, day_start: datetime | None
    ) -> SenderStats:
        since = to_millis(cooldown_since)
        # Without a daily limit nothing is counted, so the read stays inside the cooldown window.
        day = since if day_start is None else to_millis(day_start)
        row = self.conn.execute(
            "SELECT MAX(CASE WHEN recipient_id = %s AND sent_at > %s THEN sent_at END),"
            " COUNT(CASE WHEN sent_at >= %s THEN 1 END)"
            " FROM gifts WHERE sender_id = %s AND sent_at >= %s",
            (recipient_id, since, day, sender_id, min(since, day)),
        ).fetchone()
        assert row is not None
        last, today = row
        return SenderStats(last_to_recipient=dt(last), sent_today=today if day_start is not None else 0)

    def gift_cooldowns(self, sender_id: str, since: datetime) -> dict[str, datetime]:
        rows = self.conn.execute(
            "SELECT recipient_id, MAX(sent_at) FROM gifts WHERE sender_id = %s AND sent_at > %s"
            " GROUP BY recipient_id",
            (sender_id, to_millis(since)),
        )
        return {r[0]: from_millis(r[1]) for r in rows}

    def list_gifts(
        self, player_id: str, *, sent: bool, claimable_at: datetime | None, limit: int
    ) -> list[GiftListing]:
        mine, other = ("g.sender_id", "r") if sent else ("g.recipient_id", "s")
        query = f"SELECT {GIFT_COLUMNS}, t.status, {P_COLUMNS} {GIFT_FROM}"
        query += f" JOIN grants t ON t.id = g.grant_id JOIN players p ON p.id = {other}.id WHERE {mine} = %s"
        params: list[Any] = [player_id]
        if claimable_at is not None:
            query += " AND g.status = 'pending' AND (g.expires_at IS NULL OR g.expires_at > %s)"
            params.append(to_millis(claimable_at))
        # seq is the insertion order: it breaks ties between gifts sent in the same millisecond.
        rows = self.conn.execute(
            query + " ORDER BY g.sent_at DESC, g.seq DESC LIMIT %s",
            (*params, limit),
        )
        return [GiftListing(gift_of(r[:17]), player_of(r[18:]), GrantStatus(r[17])) for r in rows]

    # --- Player tools --------------------------------------------------------------------------
    def recent_grants(self, player_id: str, limit: int) -> list[Grant]:
        rows = self.conn.execute(
            f"SELECT {GRANT_COLUMNS} FROM grants WHERE player_id = %s"
            " ORDER BY created_at DESC, id DESC LIMIT %s",
            (player_id, limit),
        )
        return [grant_of(r) for r in rows]

    def grant_counts(self, player_id: str) -> dict[GrantStatus, int]:
        counts = dict.fromkeys(GrantStatus, 0)
        for status, n in self.conn.execute(
            "SELECT status, COUNT(*) FROM grants WHERE player_id = %s GROUP BY status", (player_id,)
        ):
            counts[GrantStatus(status)] = n
        return counts

    def get_merge(self, game_id: str, env: Environment, from_external_id: str) -> MergeRecord | None:
        row = self.conn.execute(
            "SELECT game_id, env, from_external_id, from_player_id, to_player_id, placeholder, merged_at"
            " FROM merges WHERE game_id = %s AND env = %s AND from_external_id = %s"
            " ORDER BY merged_at DESC LIMIT 1",
            (game_id, env.value, from_external_id),
        ).fetchone()
        if row is None:
            return None
        return MergeRecord(row[0], Environment(row[1]), row[2], row[3], row[4], row[5], from_millis(row[6]))

    def insert_merge(self, record: MergeRecord) -> None:
        self.conn.execute(
            "INSERT INTO merges (game_id, env, from_external_id, from_player_id, to_player_id, placeholder,"
            " merged_at) VALUES (%s, %s, %s, %s, %s, %s, %s)",
            (
                record.game_id,
                record.env.value,
                record.from_external_id,
                record.from_player_id,
                record.to_player_id,
                record.placeholder,
                to_millis(record.merged_at),
            ),
        )

    def forget_merges_into(self, player_id: str) -> None:
        self.conn.execute("DELETE FROM merges WHERE to_player_id = %s", (player_id,))

    def reassign_records(self, from_id: str, to: Player) -> None:
        self.conn.execute(
            "UPDATE grants SET player_id = %s, external_player_id = %s WHERE player_id = %s",
            (to.id, to.external_id, from_id),
        )
        self.conn.execute("UPDATE gifts SET sender_id = %s WHERE sender_id = %s", (to.id, from_id))
        self.conn.execute("UPDATE gifts SET recipient_id = %s WHERE recipient_id = %s", (to.id, from_id))
        self.conn.execute("UPDATE purchases SET player_id = %s WHERE player_id = %s", (to.id, from_id))

    def move_ledger(self, from_id: str, to_id: str, holdings: dict[str, Holding]) -> None:
        self.conn.execute("UPDATE ledger SET player_id = %s WHERE player_id = %s", (to_id, from_id))
        self.conn.execute("DELETE FROM holdings WHERE player_id IN (%s, %s)", (from_id, to_id))
        if holdings:
            with self.conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO holdings (player_id, resource_key, amount, parameters)"
                    " VALUES (%s, %s, %s, %s)",
                    [
                        (to_id, h.key, h.amount, orjson.dumps(h.parameters).decode())
                        for h in holdings.values()
                    ],
                )

    def blocks_involving(self, player_id: str) -> list[Block]:
        rows = self.conn.execute(
            "SELECT blocker_id, blocked_id, created_at FROM blocks WHERE blocker_id = %s"
            " UNION ALL SELECT blocker_id, blocked_id, created_at FROM blocks WHERE blocked_id = %s",
            (player_id, player_id),
        )
        return [Block(r[0], r[1], from_millis(r[2])) for r in rows]

    def remove_from_graph(self, player_id: str) -> None:
        self.conn.execute("DELETE FROM friendships WHERE player_id = %s", (player_id,))
        self.conn.execute("DELETE FROM friendships WHERE friend_id = %s", (player_id,))
        self.conn.execute("DELETE FROM friend_requests WHERE from_player_id = %s", (player_id,))
        self.conn.execute("DELETE FROM friend_requests WHERE to_player_id = %s", (player_id,))
        self.conn.execute("DELETE FROM blocks WHERE blocker_id = %s", (player_id,))
        self.conn.execute("DELETE FROM blocks WHERE blocked_id = %s", (player_id,))

    def clear_gift_messages(self, player_id: str) -> None:
        self.conn.execute("UPDATE gifts SET message = NULL WHERE sender_id = %s", (player_id,))
        self.conn.execute("UPDATE gifts SET message = NULL WHERE recipient_id = %s", (player_id,))

    def get_erasure(self, game_id: str, external_id_hash: str) -> ErasureRecord | None:
        row = self.conn.execute(
            "SELECT game_id, external_id_hash, player_id, placeholder, reason, erased_at FROM erasures"
            " WHERE game_id = %s AND external_id_hash = %s ORDER BY erased_at DESC LIMIT 1",
            (game_id, external_id_hash),
        ).fetchone()
        if row is None:
            return None
        return ErasureRecord(row[0], row[1], row[2], row[3], ErasureReason(row[4]), from_millis(row[5]))

    def insert_erasure(self, record: ErasureRecord) -> None:
        self.conn.execute(
            "INSERT INTO erasures (game_id, external_id_hash, player_id, placeholder, reason, erased_at)"
            " VALUES (%s, %s, %s, %s, %s, %s)",
            (
                record.game_id,
                record.external_id_hash,
                record.player_id,
                record.placeholder,
                record.reason.value,
                to_millis(record.erased_at),
            ),
        )

    # --- Purchases -----------------------------------------------------------------------------
    def get_purchase(self, game_id: str, env: Environment, transaction_id: str) -> Purchase | None:
        row = self.conn.execute(
            f"SELECT {PURCHASE_COLUMNS} {PURCHASE_FROM}"
            " WHERE u.game_id = %s AND u.env = %s AND u.transaction_id = %s",
            (game_id, env.value, transaction_id),
        ).fetchone()
        return None if row is None else purchase_of(row)

    def insert_purchase(self, purchase: Purchase) -> None:
        self.conn.execute(
            "INSERT INTO purchases (id, game_id, env, player_id, transaction_id, store, product_id,"
            " product_type, amount_minor, currency, normalized_amount_minor, fx_rate, validation_status,"
            " purchased_at, tracked_at, metadata)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (
                purchase.id,
                purchase.game_id,
                purchase.env.value,
                purchase.player_id,
                purchase.transaction_id,
                purchase.store,
                purchase.product_id,
                purchase.product_type,
                purchase.amount_minor,
                purchase.currency,
                purchase.normalized_amount_minor,
                purchase.fx_rate,
                purchase.validation_status.value,
                to_millis(purchase.purchased_at),
                to_millis(purchase.tracked_at),
                orjson.dumps(purchase.metadata).decode(),
            ),
        )

    def set_purchase_validation(self, purchase_id: str, status: ValidationStatus) -> None:
        self.conn.execute(
            "UPDATE purchases SET validation_status = %s WHERE id = %s", (status.value, purchase_id)
        )

    def list_purchases(
        self, player_id: str, before: tuple[datetime, str] | None, limit: int
    ) -> list[Purchase]:
        query = f"SELECT {PURCHASE_COLUMNS} {PURCHASE_FROM} WHERE u.player_id = %s"
        params: list[Any] = [player_id]
        if before is not None:
            query += " AND (u.purchased_at, u.id) < (%s, %s)"
            params += [to_millis(before[0]), before[1]]
        rows = self.conn.execute(
            query + " ORDER BY u.purchased_at DESC, u.id DESC LIMIT %s",
            (*params, limit),
        )
        return [purchase_of(r) for r in rows]

    def player_spend(self, player_id: str, now: datetime, windows: tuple[int, ...]) -> PlayerSpend:
        # SUM over BIGINT is NUMERIC in PostgreSQL: cast back, so amounts come back as int.
        sums = "".join(
            f", COALESCE(SUM(normalized_amount_minor) FILTER (WHERE purchased_at > {since}), 0)::BIGINT,"
            f" COUNT(*) FILTER (WHERE purchased_at > {since})"
            for since in (to_millis(window_start(now, d)) for d in windows)
        )
        row = self.conn.execute(
            "SELECT COALESCE(SUM(normalized_amount_minor), 0)::BIGINT, COUNT(*), MIN(purchased_at),"
            f" MAX(purchased_at){sums} FROM purchases WHERE player_id = %s",
            (player_id,),
        ).fetchone()
        assert row is not None
        return PlayerSpend(
            lifetime_amount_minor=row[0],
            purchase_count=row[1],
            first_purchase_at=dt(row[2]),
            last_purchase_at=dt(row[3]),
            windows=tuple(Window(d, row[4 + 2 * i] or 0, row[5 + 2 * i] or 0) for i, d in enumerate(windows)),
        )

    def spenders(
        self,
        game_id: str,
        env: Environment,
        min_amount_minor: int,
        since: datetime | None,
        limit: int,
        offset: int,
    ) -> list[Spender]:
        rows = self.conn.execute(
            "SELECT u.player_id, p.external_id, SUM(u.normalized_amount_minor)::BIGINT AS total, COUNT(*),"
            " MAX(u.purchased_at) FROM purchases u JOIN players p ON p.id = u.player_id"
            " WHERE u.game_id = %s AND u.env = %s AND u.purchased_at > %s AND p.debug_at IS NULL"
            " GROUP BY u.player_id, p.external_id HAVING SUM(u.normalized_amount_minor) >= %s"
            " ORDER BY total DESC, p.external_id LIMIT %s OFFSET %s",
            (game_id, env.value, to_millis(since) if since else -(2**62), min_amount_minor, limit, offset),
        )
        return [Spender(r[0], r[1], r[2], r[3], from_millis(r[4])) for r in rows]

    def revenue(self, game_id: str, env: Environment, start: datetime, end: datetime) -> RevenueSummary:
        where = (
            " FROM purchases u JOIN players p ON p.id = u.player_id WHERE u.game_id = %s AND u.env = %s"
            " AND u.purchased_at >= %s AND u.purchased_at <= %s AND p.debug_at IS NULL"
        )
        params = (game_id, env.value, to_millis(start), to_millis(end))
        row = self.conn.execute(
            "SELECT COALESCE(SUM(u.normalized_amount_minor), 0)::BIGINT, COUNT(*),"
            f" COUNT(DISTINCT u.player_id){where}",
            params,
        ).fetchone()
        assert row is not None
        gross, count, paying = row
        products = self.conn.execute(
            f"SELECT u.product_id, SUM(u.normalized_amount_minor)::BIGINT AS total, COUNT(*){where}"
            " GROUP BY u.product_id ORDER BY total DESC, u.product_id",
            params,
        )
        days = self.conn.execute(
            "SELECT u.purchased_at / 86400000 AS day, SUM(u.normalized_amount_minor)::BIGINT,"
            f" COUNT(*){where} GROUP BY day ORDER BY day",
            params,
        )
        return RevenueSummary(
            gross_amount_minor=gross,
            purchase_count=count,
            paying_players=paying,
            per_product=tuple(ProductRevenue(*r) for r in products),
            per_day=tuple(DayRevenue(from_millis(r[0] * 86_400_000).date(), r[1], r[2]) for r in days),
        )

    def migration_keys(
        self, game_id: str, env: Environment, kind: MigrationKind, keys: list[str]
    ) -> dict[str, str]:
        if not keys:
            return {}
        rows = self.conn.execute(
            "SELECT key, fingerprint FROM migration_keys WHERE game_id = %s AND env = %s AND kind = %s"
            " AND key = ANY(%s)",
            (game_id, env.value, kind.value, keys),
        )
        return {r[0]: r[1] for r in rows}

    def put_migration_key(
        self, game_id: str, env: Environment, kind: MigrationKind, key: str, fingerprint: str, at: datetime
    ) -> None:
        self.conn.execute(
            "INSERT INTO migration_keys (game_id, env, kind, key, fingerprint, created_at)"
            " VALUES (%s, %s, %s, %s, %s, %s)",
            (game_id, env.value, kind.value, key, fingerprint, to_millis(at)),
        )

    # --- Outbox --------------------------------------------------------------------------------
    def emit(self, event: DomainEvent) -> None:
        self.emitted = True
        data = orjson.dumps(event.data).decode()
        not_before = None
        if event.debounce_key is not None:
            # Last state wins: a burst with one key is one event, sent DEBOUNCE after its first one.
            replaced = self.conn.execute(
                "UPDATE outbox SET data = %s, occurred_at = %s WHERE debounce_key = %s AND NOT fanned_out",
                (data, to_millis(event.occurred_at), event.debounce_key),
            ).rowcount
            if replaced:
                return
            not_before = to_millis(event.occurred_at + DEBOUNCE)
        self.conn.execute(
            "INSERT INTO outbox"
            " (id, studio_id, game_id, env, kind, occurred_at, data, debounce_key, not_before)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (
                event.id,
                event.studio_id,
                event.game_id,
                event.env.value,
                event.kind,
                to_millis(event.occurred_at),
                data,
                event.debounce_key,
                not_before,
            ),
        )

    # --- Idempotency ---------------------------------------------------------------------------
    def get_idempotent(self, scope: str, key: str) -> StoredResponse | None:
        row = self.conn.execute(
            "SELECT fingerprint, status, body, created_at FROM idempotency WHERE scope = %s AND key = %s",
            (scope, key),
        ).fetchone()
        if row is None:
            return None
        return StoredResponse(
            scope=scope,
            key=key,
            fingerprint=row[0],
            status=row[1],
            body=bytes(row[2]),
            created_at=from_millis(row[3]),
        )

    def put_idempotent(self, stored: StoredResponse) -> None:
        self.conn.execute(
            "INSERT INTO idempotency (scope, key, fingerprint, status, body, created_at)"
            " VALUES (%s, %s, %s, %s, %s, %s)"
            " ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint,"
            " status = excluded.status, body = excluded.body, created_at = excluded.created_at",
            (
                stored.scope,
                stored.key,
                stored.fingerprint,
                stored.status,
                stored.body,
                to_millis(stored.created_at),
            ),
        )


def _implements_the_port(tx: PostgresTransaction) -> Transaction:
    return tx  # mypy checks PostgresTransaction against the Protocol here
