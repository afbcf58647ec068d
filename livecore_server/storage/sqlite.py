"""The SQLite store: the :mod:`livecore.store` port plus the server's configuration tables.

Concurrency model: one connection, used only from the event loop thread, and every command runs to the
end of its transaction without awaiting. Writes are therefore serialized inside the process (no
"database is locked" between our own requests) and a transaction can never interleave with another.
WAL mode lets a second process (``livecore-server apply`` against a running server) read and write
alongside, with ``busy_timeout`` covering the brief write overlap. SQLite statements on indexed rows take
microseconds, so running them on the loop is cheaper than hopping to a thread per query.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date, datetime
from pathlib import Path
from typing import Any, TypeVar

import attrs
import orjson
import sqlite_utils

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
from livecore_server.storage.migrations import MIGRATIONS
from livecore_server.storage.records import ApiKey, WebhookEndpoint, settings_converter
from livecore_server.storage.rows import (
    GIFT_COLUMNS,
    GIFT_FROM,
    GRANT_COLUMNS,
    LEDGER_COLUMNS,
    OUTBOX_COLUMNS,
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
    outbox_event,
    pair_key,
    player_of,
    player_row,
    purchase_of,
    request_of,
)

T = TypeVar("T")


def connect(path: str) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    # NORMAL in WAL mode: a commit is durable against process crashes; only an OS crash or power loss
    # can lose the last transactions, never corrupt the database.
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA busy_timeout=5000")
    conn.execute("PRAGMA foreign_keys=ON")
    # Keep hot pages in memory (64 MiB) and read the file through mmap instead of read() calls.
    conn.execute("PRAGMA cache_size=-65536")
    conn.execute("PRAGMA mmap_size=268435456")
    # After a checkpoint resets the WAL, shrink the file back to this size rather than keep its peak.
    conn.execute("PRAGMA journal_size_limit=67108864")
    return conn


def migrate(conn: sqlite3.Connection) -> list[str]:
    """Apply pending migrations; returns the names applied."""
    db = sqlite_utils.Database(conn)
    if "_migrations" not in db.table_names():
        conn.execute("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at INTEGER)")
    done = {row[0] for row in conn.execute("SELECT name FROM _migrations")}
    applied = []
    for name, statements in MIGRATIONS:
        if name in done:
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have applied it between our read and our lock.
            if conn.execute("SELECT 1 FROM _migrations WHERE name = ?", (name,)).fetchone():
                conn.execute("ROLLBACK")
                continue
            for statement in statements:
                conn.execute(statement)
            conn.execute(
                "INSERT INTO _migrations (name, applied_at) VALUES (?, strftime('%s','now') * 1000)", (name,)
            )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        applied.append(name)
    return applied


def sqlite_path(db: str) -> str:
    """``livecore.db`` or ``sqlite:///abs/path.db`` -> a filesystem path."""
    if db.startswith("sqlite:///"):
        return db.removeprefix("sqlite://")
    if db.startswith("sqlite://"):
        return db.removeprefix("sqlite://")
    return str(Path(db))


GAME_CACHE_TTL = 1.0  # seconds; games change only through `apply`, which clears the cache in-process


class SqliteStore:
    def __init__(self, path: str) -> None:
        self.path = path
        self.conn = connect(path)
        migrate(self.conn)
        self._tx = SqliteTransaction(self.conn)
        self._checkpointer: threading.Thread | None = None
        self._stop_checkpoints = threading.Event()
        self._closed = False
        self._commit_listeners: list[Callable[[], None]] = []
        self._group: _Group | None = None

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        self._closed = True
        self._stop_checkpoints.set()
        if self._checkpointer is not None:
            self._checkpointer.join()
        self.conn.close()

    def clear_caches(self) -> None:
        self._tx.games.clear()

    def start_checkpointer(self, every: float = 0.25) -> None:
        """Copy WAL pages into the database from a thread of its own, ahead of SQLite's own checkpoint.

        SQLite's automatic checkpoint runs in the commit that crosses 1,000 WAL pages and copies them
        (with an fsync) while that request waits. A background PASSIVE checkpoint alone cannot replace it:
        under sustained writes it never reaches the end of the WAL, so the WAL is never reset and grows
        without bound. Together they work: the thread has already copied almost every page when the
        automatic checkpoint runs, so the request pays little, and the automatic one completes and lets
        the WAL start over.
        """

        def run() -> None:
            conn = sqlite3.connect(self.path, timeout=5)
            try:
                while not self._stop_checkpoints.wait(every):
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            finally:
                conn.close()

        self._checkpointer = threading.Thread(target=run, name="sqlite-checkpoint", daemon=True)
        self._checkpointer.start()

    def on_events_committed(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` after every commit that wrote events to the outbox."""
        self._commit_listeners.append(listener)

    @contextmanager
    def transaction(self, *, write: bool = True) -> Iterator[SqliteTransaction]:
        """One unit of work, synchronously. Inside an open commit group it is a savepoint of the group's
        transaction (committed with the group); otherwise a transaction of its own."""
        if self._group is not None:
            with self._savepoint() as tx:
                yield tx
            return
        # IMMEDIATE takes the write lock up front, so a write never fails half-way on a lock upgrade.
        self.conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        tx = self._tx
        tx.emitted = False
        try:
            yield tx
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")
        if tx.emitted:
            self._events_committed()

    def run(self, fn: Callable[[SqliteTransaction], T], *, write: bool = True) -> T:
        with self.transaction(write=write) as tx:
            return fn(tx)

    # --- group commit -------------------------------------------------------------------------------
    #
    # Requests are served on one event loop, one after another. Giving each its own COMMIT makes the
    # commit (and the dispatcher pass it wakes) the most expensive part of a write. Instead, writes that
    # arrive in the same loop iteration share one transaction: each runs in its own SAVEPOINT (a refused
    # write rolls back only itself), and the group commits once, at the next turn of the loop. Every
    # response of the group waits for that COMMIT, so nothing is acknowledged before it is durable, and a
    # failed COMMIT fails every request of the group. Reads wait for an open group to commit, so they never
    # show data that could still roll back.

    async def run_async(self, fn: Callable[[SqliteTransaction], T], *, write: bool = True) -> T:
        if not write:
            await self.settled()
            return self.run(fn, write=False)
        if self._group is None:
            self.conn.execute("BEGIN IMMEDIATE")
            self._group = _Group(asyncio.get_running_loop().create_future())
            asyncio.get_running_loop().call_soon(self._commit_group)
        group = self._group
        with self._savepoint() as tx:
            result = fn(tx)
        await asyncio.shield(group.committed)
        return result

    @property
    def in_group(self) -> bool:
        """True while a commit group is open: what :meth:`peek` reads may still roll back."""
        return self._group is not None

    def peek(self, fn: Callable[[SqliteTransaction], T]) -> T:
        """Run read-only statements now, without a transaction of their own: inside an open group they
        see its uncommitted writes (check :attr:`in_group`), otherwise each statement reads committed
        data. For cheap lookups on a hot path."""
        return fn(self._tx)

    async def settled(self) -> None:
        """Wait until no commit group is open (its data is committed or rolled back)."""
        while self._group is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(self._group.committed)

    @contextmanager
    def _savepoint(self) -> Iterator[SqliteTransaction]:
        group = self._group
        assert group is not None
        tx = self._tx
        tx.emitted = False
        self.conn.execute("SAVEPOINT unit")
        try:
            yield tx
        except BaseException:
            self.conn.execute("ROLLBACK TO unit")
            self.conn.execute("RELEASE unit")
            raise
        self.conn.execute("RELEASE unit")
        group.emitted = group.emitted or tx.emitted

    def _commit_group(self) -> None:
        group, self._group = self._group, None
        assert group is not None
        try:
            self.conn.execute("COMMIT")
        except Exception as exc:  # disk full, I/O error: nothing of the group was applied
            self.conn.execute("ROLLBACK")
            group.committed.set_exception(exc)
            return
        group.committed.set_result(None)
        if group.emitted:
            self._events_committed()

    def _events_committed(self) -> None:
        for listener in self._commit_listeners:
            listener()


@attrs.define
class _Group:
    committed: asyncio.Future[None]
    emitted: bool = False


class SqliteTransaction:
    """The port on one SQLite connection; valid only inside :meth:`SqliteStore.transaction`."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        # Set by emit; the store tells its commit listeners (the dispatcher) once the events are durable.
        self.emitted = False
        # Game settings are read by most commands and change rarely: parsed once per GAME_CACHE_TTL.
        self.games: dict[str, tuple[float, Game]] = {}

    # --- Games ---------------------------------------------------------------------------------
    def get_game(self, game_id: str) -> Game | None:
        cached = self.games.get(game_id)
        now = time.monotonic()
        if cached is not None and now - cached[0] < GAME_CACHE_TTL:
            return cached[1]
        game = self._load_game(game_id)
        if game is not None:
            self.games[game_id] = (now, game)
        return game

    def _load_game(self, game_id: str) -> Game | None:
        row = self.conn.execute(
            "SELECT id, studio_id, key, name, settings, gifting_ever_enabled FROM games WHERE id = ?",
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
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id = ? AND external_id = ?",
            (game_id, external_id),
        ).fetchone()
        return None if row is None else player_of(row)

    def insert_player(self, player: Player) -> None:
        self.conn.execute(
            f"INSERT INTO players ({PLAYER_COLUMNS}) VALUES ({', '.join('?' * 31)})", player_row(player)
        )

    def update_player(self, player: Player) -> None:
        names = [c.strip() for c in PLAYER_COLUMNS.split(",")][1:]
        values = player_row(player)
        self.conn.execute(
            f"UPDATE players SET {', '.join(f'{n} = ?' for n in names)} WHERE id = ?",
            (*values[1:], values[0]),
        )

    def reset_missed_streaks(self, last_day_before: date) -> int:
        cur = self.conn.execute(
            "UPDATE players SET streak = 0 WHERE streak > 0 AND streak_day < ?",
            (last_day_before.isoformat(),),
        )
        return cur.rowcount

    def get_player_by_id(self, player_id: str) -> Player | None:
        row = self.conn.execute(f"SELECT {PLAYER_COLUMNS} FROM players WHERE id = ?", (player_id,)).fetchone()
        return None if row is None else player_of(row)

    def find_by_friend_code(self, game_id: str, env: Environment, code: str) -> Player | None:
        row = self.conn.execute(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id = ? AND env = ? AND friend_code = ?",
            (game_id, env.value, code),
        ).fetchone()
        return None if row is None else player_of(row)

    # --- Friend graph --------------------------------------------------------------------------
    def get_request(self, game_id: str, request_id: str) -> FriendRequest | None:
        row = self.conn.execute(
            "SELECT id, game_id, from_player_id, to_player_id, created_at FROM friend_requests"
            " WHERE id = ? AND game_id = ?",
            (request_id, game_id),
        ).fetchone()
        return None if row is None else request_of(row)

    def request_between(self, a_id: str, b_id: str) -> FriendRequest | None:
        row = self.conn.execute(
            "SELECT id, game_id, from_player_id, to_player_id, created_at FROM friend_requests"
            " WHERE pair = ?",
            (pair_key(a_id, b_id),),
        ).fetchone()
        return None if row is None else request_of(row)

    def insert_request(self, request: FriendRequest) -> None:
        self.conn.execute(
            "INSERT INTO friend_requests (id, game_id, from_player_id, to_player_id, pair, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
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
        self.conn.execute("DELETE FROM friend_requests WHERE id = ?", (request_id,))

    def get_friendship(self, player_id: str, friend_id: str) -> Friendship | None:
        row = self.conn.execute(
            "SELECT since FROM friendships WHERE player_id = ? AND friend_id = ?", (player_id, friend_id)
        ).fetchone()
        return None if row is None else Friendship(player_id, friend_id, from_millis(row[0]))

    def insert_friendship(self, a_id: str, b_id: str, since: datetime) -> None:
        ms = to_millis(since)
        self.conn.executemany(
            "INSERT INTO friendships (player_id, friend_id, since) VALUES (?, ?, ?)",
            [(a_id, b_id, ms), (b_id, a_id, ms)],
        )

    def delete_friendship(self, a_id: str, b_id: str) -> None:
        self.conn.execute(
            "DELETE FROM friendships"
            " WHERE (player_id = ? AND friend_id = ?) OR (player_id = ? AND friend_id = ?)",
            (a_id, b_id, b_id, a_id),
        )

    def count_friends(self, player_id: str) -> int:
        row = self.conn.execute(
            "SELECT count(*) FROM friendships WHERE player_id = ?", (player_id,)
        ).fetchone()
        return int(row[0])

    def get_block(self, blocker_id: str, blocked_id: str) -> Block | None:
        row = self.conn.execute(
            "SELECT created_at FROM blocks WHERE blocker_id = ? AND blocked_id = ?", (blocker_id, blocked_id)
        ).fetchone()
        return None if row is None else Block(blocker_id, blocked_id, from_millis(row[0]))

    def insert_block(self, block: Block) -> None:
        self.conn.execute(
            "INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)",
            (block.blocker_id, block.blocked_id, to_millis(block.created_at)),
        )

    def delete_block(self, blocker_id: str, blocked_id: str) -> None:
        self.conn.execute(
            "DELETE FROM blocks WHERE blocker_id = ? AND blocked_id = ?", (blocker_id, blocked_id)
        )

    def list_friends(self, player_id: str) -> list[tuple[Friendship, Player]]:
        rows = self.conn.execute(
            f"SELECT f.since, {P_COLUMNS} FROM friendships f JOIN players p ON p.id = f.friend_id"
            " WHERE f.player_id = ? ORDER BY f.since, f.friend_id",
            (player_id,),
        )
        return [(Friendship(player_id, r[1], from_millis(r[0])), player_of(r[1:])) for r in rows]

    def list_requests(self, player_id: str) -> list[tuple[FriendRequest, Player]]:
        rows = self.conn.execute(
            f"SELECT r.id, r.game_id, r.from_player_id, r.to_player_id, r.created_at, {P_COLUMNS}"
            " FROM friend_requests r JOIN players p ON p.id = r.from_player_id WHERE r.to_player_id = ?"
            f" UNION ALL SELECT r.id, r.game_id, r.from_player_id, r.to_player_id, r.created_at, {P_COLUMNS}"
            " FROM friend_requests r JOIN players p ON p.id = r.to_player_id WHERE r.from_player_id = ?"
            " ORDER BY 5, 1",
            (player_id, player_id),
        )
        return [(request_of(r[:5]), player_of(r[5:])) for r in rows]

    def list_blocks(self, player_id: str) -> list[tuple[Block, Player]]:
        rows = self.conn.execute(
            f"SELECT b.created_at, {P_COLUMNS} FROM blocks b JOIN players p ON p.id = b.blocked_id"
            " WHERE b.blocker_id = ? ORDER BY b.created_at, b.blocked_id",
            (player_id,),
        )
        return [(Block(player_id, r[1], from_millis(r[0])), player_of(r[1:])) for r in rows]

    def friend_ids(self, player_id: str) -> set[str]:
        return {
            r[0]
            for r in self.conn.execute("SELECT friend_id FROM friendships WHERE player_id = ?", (player_id,))
        }

    def request_peers(self, player_id: str) -> dict[str, bool]:
        rows = self.conn.execute(
            "SELECT to_player_id, 1 FROM friend_requests WHERE from_player_id = ?"
            " UNION ALL SELECT from_player_id, 0 FROM friend_requests WHERE to_player_id = ?",
            (player_id, player_id),
        )
        return {peer: bool(sent) for peer, sent in rows}

    def blocked_either_way(self, player_id: str) -> set[str]:
        rows = self.conn.execute(
            "SELECT blocked_id FROM blocks WHERE blocker_id = ?"
            " UNION SELECT blocker_id FROM blocks WHERE blocked_id = ?",
            (player_id, player_id),
        )
        return {r[0] for r in rows}

    def recently_active(self, game_id: str, env: Environment, limit: int) -> list[Player]:
        rows = self.conn.execute(
            f"SELECT {PLAYER_COLUMNS} FROM players"
            " WHERE game_id = ? AND env = ? AND last_active_at IS NOT NULL"
            " ORDER BY last_active_at DESC LIMIT ?",
            (game_id, env.value, limit),
        )
        return [player_of(r) for r in rows]

    def search_by_name(self, game_id: str, env: Environment, text: str, limit: int) -> list[Player]:
        needle = text.lower()
        if len(needle) >= 3:
            # Trigram index: any substring of three or more characters.
            phrase = '"' + needle.replace('"', '""') + '"'
            rows = self.conn.execute(
                f"SELECT {P_COLUMNS} FROM player_names n JOIN players p ON p.rowid = n.rowid"
                " WHERE player_names MATCH ? AND p.game_id = ? AND p.env = ? ORDER BY p.search_name LIMIT ?",
                (phrase, game_id, env.value, limit),
            )
        else:
            # Too short for trigrams: names starting with the text, a range of the prefix index.
            rows = self.conn.execute(
                f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id = ? AND env = ?"
                " AND search_name >= ? AND search_name < ? ORDER BY search_name LIMIT ?",
                (game_id, env.value, needle, needle + "\U0010ffff", limit),
            )
        return [player_of(r) for r in rows]

    def holdings_of(self, player_ids: list[str], keys: list[str]) -> dict[str, dict[str, int]]:
        if not player_ids or not keys:
            return {}
        players, resources = ", ".join("?" * len(player_ids)), ", ".join("?" * len(keys))
        rows = self.conn.execute(
            "SELECT player_id, resource_key, amount FROM holdings"
            f" WHERE player_id IN ({players}) AND resource_key IN ({resources})",
            (*player_ids, *keys),
        )
        out: dict[str, dict[str, int]] = {}
        for pid, key, amount in rows:
            out.setdefault(pid, {})[key] = amount
        return out

    # --- Ledger --------------------------------------------------------------------------------
    def get_holding(self, player_id: str, key: str) -> Holding:
        row = self.conn.execute(
            "SELECT amount, parameters FROM holdings WHERE player_id = ? AND resource_key = ?",
            (player_id, key),
        ).fetchone()
        return (
            Holding(key=key)
            if row is None
            else Holding(key=key, amount=row[0], parameters=orjson.loads(row[1]))
        )

    def get_holdings(self, player_id: str) -> dict[str, Holding]:
        rows = self.conn.execute(
            "SELECT resource_key, amount, parameters FROM holdings WHERE player_id = ?", (player_id,)
        )
        return {r[0]: Holding(key=r[0], amount=r[1], parameters=orjson.loads(r[2])) for r in rows}

    def append_ledger(self, entry: LedgerEntry, holding: Holding) -> None:
        self.conn.execute(
            "INSERT INTO ledger (id, player_id, game_id, resource_key, resource_type, delta, balance_after,"
            " reason, note, source_ref_id, actor, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
            "INSERT INTO holdings (player_id, resource_key, amount, parameters) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (player_id, resource_key) DO UPDATE SET amount = excluded.amount,"
            " parameters = excluded.parameters",
            (entry.player_id, entry.resource_key, holding.amount, orjson.dumps(holding.parameters).decode()),
        )

    def ledger(self, player_id: str, key: str | None = None) -> list[LedgerEntry]:
        query = f"SELECT {LEDGER_COLUMNS} FROM ledger WHERE player_id = ?"
        params: tuple[str, ...] = (player_id,)
        if key is not None:
            query += " AND resource_key = ?"
            params = (player_id, key)
        return [ledger_entry_of(r) for r in self.conn.execute(query + " ORDER BY seq", params)]

    # --- Grants --------------------------------------------------------------------------------
    def insert_grant(self, grant: Grant) -> None:
        self.conn.execute(
            f"INSERT INTO grants ({GRANT_COLUMNS}) VALUES ({', '.join('?' * 14)})", grant_row(grant)
        )

    def get_grant(self, game_id: str, grant_id: str) -> Grant | None:
        row = self.conn.execute(
            f"SELECT {GRANT_COLUMNS} FROM grants WHERE id = ? AND game_id = ?", (grant_id, game_id)
        ).fetchone()
        return None if row is None else grant_of(row)

    def update_grant(self, grant: Grant) -> None:
        self.conn.execute(
            "UPDATE grants SET status = ?, claimed_at = ?, acked_by = ? WHERE id = ?",
            (
                grant.status.value,
                ms(grant.claimed_at),
                grant.acked_by.value if grant.acked_by else None,
                grant.id,
            ),
        )

    def pending_grants(self, player_id: str, now: datetime, limit: int) -> list[Grant]:
        rows = self.conn.execute(
            f"SELECT {GRANT_COLUMNS} FROM grants WHERE player_id = ? AND status = 'pending'"
            " AND (expires_at IS NULL OR expires_at > ?) ORDER BY created_at, id LIMIT ?",
            (player_id, to_millis(now), limit),
        )
        return [grant_of(r) for r in rows]

    def grants_past_expiry(self, now: datetime, limit: int) -> list[Grant]:
        rows = self.conn.execute(
            f"SELECT {GRANT_COLUMNS} FROM grants WHERE status = 'pending' AND expires_at IS NOT NULL"
            " AND expires_at <= ? ORDER BY expires_at LIMIT ?",
            (to_millis(now), limit),
        )
        return [grant_of(r) for r in rows]

    # --- Gifts ---------------------------------------------------------------------------------
    def insert_gift(self, gift: Gift) -> None:
        self.conn.execute(
            "INSERT INTO gifts (id, game_id, grant_id, sender_id, recipient_id, type, resource_key, amount,"
            " message, status, sent_at, expires_at, claimed_at, deducted, idempotency_key)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                int(gift.deducted_from_sender),
                gift.idempotency_key,
            ),
        )

    def get_gift(self, game_id: str, gift_id: str) -> Gift | None:
        row = self.conn.execute(
            f"SELECT {GIFT_COLUMNS} {GIFT_FROM} WHERE g.id = ? AND g.game_id = ?", (gift_id, game_id)
        ).fetchone()
        return None if row is None else gift_of(row)

    def update_gift(self, gift: Gift) -> None:
        self.conn.execute(
            "UPDATE gifts SET status = ?, claimed_at = ? WHERE id = ?",
            (gift.status.value, ms(gift.claimed_at), gift.id),
        )

    def gift_by_key(self, sender_id: str, idempotency_key: str) -> Gift | None:
        row = self.conn.execute(
            f"SELECT {GIFT_COLUMNS} {GIFT_FROM} WHERE g.sender_id = ? AND g.idempotency_key = ?",
            (sender_id, idempotency_key),
        ).fetchone()
        return None if row is None else gift_of(row)

    def gift_stats(
        self, sender_id: str, recipient_id: str | None, cooldown_since: datetime, day_start: datetime | None
    ) -> SenderStats:
        since = to_millis(cooldown_since)
        # Without a daily limit nothing is counted, so the read stays inside the cooldown window (which
        # holds at most about one gift per friend).
        day = since if day_start is None else to_millis(day_start)
        last, today = self.conn.execute(
            "SELECT MAX(CASE WHEN recipient_id = ? AND sent_at > ? THEN sent_at END),"
            " COUNT(CASE WHEN sent_at >= ? THEN 1 END)"
            " FROM gifts WHERE sender_id = ? AND sent_at >= ?",
            (recipient_id, since, day, sender_id, min(since, day)),
        ).fetchone()
        return SenderStats(last_to_recipient=dt(last), sent_today=today if day_start is not None else 0)

    def gift_cooldowns(self, sender_id: str, since: datetime) -> dict[str, datetime]:
        rows = self.conn.execute(
            "SELECT recipient_id, MAX(sent_at) FROM gifts WHERE sender_id = ? AND sent_at > ?"
            " GROUP BY recipient_id",
            (sender_id, to_millis(since)),
        )
        return {r[0]: from_millis(r[1]) for r in rows}

    def list_gifts(
        self, player_id: str, *, sent: bool, claimable_at: datetime | None, limit: int
    ) -> list[GiftListing]:
        mine, other = ("g.sender_id", "r") if sent else ("g.recipient_id", "s")
        query = f"SELECT {GIFT_COLUMNS}, t.status, {P_COLUMNS} {GIFT_FROM}"
        query += f" JOIN grants t ON t.id = g.grant_id JOIN players p ON p.id = {other}.id WHERE {mine} = ?"
        params: list[Any] = [player_id]
        if claimable_at is not None:
            query += " AND g.status = 'pending' AND (g.expires_at IS NULL OR g.expires_at > ?)"
            params.append(to_millis(claimable_at))
        rows = self.conn.execute(query + " ORDER BY g.sent_at DESC, g.rowid DESC LIMIT ?", (*params, limit))
        return [GiftListing(gift_of(r[:17]), player_of(r[18:]), GrantStatus(r[17])) for r in rows]

    # --- Player tools --------------------------------------------------------------------------
    def recent_grants(self, player_id: str, limit: int) -> list[Grant]:
        rows = self.conn.execute(
            f"SELECT {GRANT_COLUMNS} FROM grants WHERE player_id = ?"
            " ORDER BY created_at DESC, id DESC LIMIT ?",
            (player_id, limit),
        )
        return [grant_of(r) for r in rows]

    def grant_counts(self, player_id: str) -> dict[GrantStatus, int]:
        counts = dict.fromkeys(GrantStatus, 0)
        for status, n in self.conn.execute(
            "SELECT status, COUNT(*) FROM grants WHERE player_id = ? GROUP BY status", (player_id,)
        ):
            counts[GrantStatus(status)] = n
        return counts

    def get_merge(self, game_id: str, env: Environment, from_external_id: str) -> MergeRecord | None:
        row = self.conn.execute(
            "SELECT game_id, env, from_external_id, from_player_id, to_player_id, placeholder, merged_at"
            " FROM merges WHERE game_id = ? AND env = ? AND from_external_id = ?"
            " ORDER BY merged_at DESC LIMIT 1",
            (game_id, env.value, from_external_id),
        ).fetchone()
        if row is None:
            return None
        return MergeRecord(row[0], Environment(row[1]), row[2], row[3], row[4], row[5], from_millis(row[6]))

    def insert_merge(self, record: MergeRecord) -> None:
        self.conn.execute(
            "INSERT INTO merges (game_id, env, from_external_id, from_player_id, to_player_id, placeholder,"
            " merged_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
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
        self.conn.execute("DELETE FROM merges WHERE to_player_id = ?", (player_id,))

    def reassign_records(self, from_id: str, to: Player) -> None:
        self.conn.execute(
            "UPDATE grants SET player_id = ?, external_player_id = ? WHERE player_id = ?",
            (to.id, to.external_id, from_id),
        )
        self.conn.execute("UPDATE gifts SET sender_id = ? WHERE sender_id = ?", (to.id, from_id))
        self.conn.execute("UPDATE gifts SET recipient_id = ? WHERE recipient_id = ?", (to.id, from_id))
        self.conn.execute("UPDATE purchases SET player_id = ? WHERE player_id = ?", (to.id, from_id))

    def move_ledger(self, from_id: str, to_id: str, holdings: dict[str, Holding]) -> None:
        self.conn.execute("UPDATE ledger SET player_id = ? WHERE player_id = ?", (to_id, from_id))
        self.conn.execute("DELETE FROM holdings WHERE player_id IN (?, ?)", (from_id, to_id))
        self.conn.executemany(
            "INSERT INTO holdings (player_id, resource_key, amount, parameters) VALUES (?, ?, ?, ?)",
            [(to_id, h.key, h.amount, orjson.dumps(h.parameters).decode()) for h in holdings.values()],
        )

    def blocks_involving(self, player_id: str) -> list[Block]:
        rows = self.conn.execute(
            "SELECT blocker_id, blocked_id, created_at FROM blocks WHERE blocker_id = ?"
            " UNION ALL SELECT blocker_id, blocked_id, created_at FROM blocks WHERE blocked_id = ?",
            (player_id, player_id),
        )
        return [Block(r[0], r[1], from_millis(r[2])) for r in rows]

    def remove_from_graph(self, player_id: str) -> None:
        self.conn.execute("DELETE FROM friendships WHERE player_id = ?", (player_id,))
        self.conn.execute("DELETE FROM friendships WHERE friend_id = ?", (player_id,))
        self.conn.execute("DELETE FROM friend_requests WHERE from_player_id = ?", (player_id,))
        self.conn.execute("DELETE FROM friend_requests WHERE to_player_id = ?", (player_id,))
        self.conn.execute("DELETE FROM blocks WHERE blocker_id = ?", (player_id,))
        self.conn.execute("DELETE FROM blocks WHERE blocked_id = ?", (player_id,))

    def clear_gift_messages(self, player_id: str) -> None:
        self.conn.execute("UPDATE gifts SET message = NULL WHERE sender_id = ?", (player_id,))
        self.conn.execute("UPDATE gifts SET message = NULL WHERE recipient_id = ?", (player_id,))

    def get_erasure(self, game_id: str, external_id_hash: str) -> ErasureRecord | None:
        row = self.conn.execute(
            "SELECT game_id, external_id_hash, player_id, placeholder, reason, erased_at FROM erasures"
            " WHERE game_id = ? AND external_id_hash = ? ORDER BY erased_at DESC LIMIT 1",
            (game_id, external_id_hash),
        ).fetchone()
        if row is None:
            return None
        return ErasureRecord(row[0], row[1], row[2], row[3], ErasureReason(row[4]), from_millis(row[5]))

    def insert_erasure(self, record: ErasureRecord) -> None:
        self.conn.execute(
            "INSERT INTO erasures (game_id, external_id_hash, player_id, placeholder, reason, erased_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
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
            " WHERE u.game_id = ? AND u.env = ? AND u.transaction_id = ?",
            (game_id, env.value, transaction_id),
        ).fetchone()
        return None if row is None else purchase_of(row)

    def insert_purchase(self, purchase: Purchase) -> None:
        self.conn.execute(
            "INSERT INTO purchases (id, game_id, env, player_id, transaction_id, store, product_id,"
            " product_type, amount_minor, currency, normalized_amount_minor, fx_rate, validation_status,"
            " purchased_at, tracked_at, metadata) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
            "UPDATE purchases SET validation_status = ? WHERE id = ?", (status.value, purchase_id)
        )

    def list_purchases(
        self, player_id: str, before: tuple[datetime, str] | None, limit: int
    ) -> list[Purchase]:
        query = f"SELECT {PURCHASE_COLUMNS} {PURCHASE_FROM} WHERE u.player_id = ?"
        params: list[Any] = [player_id]
        if before is not None:
            query += " AND (u.purchased_at, u.id) < (?, ?)"
            params += [to_millis(before[0]), before[1]]
        rows = self.conn.execute(query + " ORDER BY u.purchased_at DESC, u.id DESC LIMIT ?", (*params, limit))
        return [purchase_of(r) for r in rows]

    def player_spend(self, player_id: str, now: datetime, windows: tuple[int, ...]) -> PlayerSpend:
        sums = "".join(
            f", SUM(CASE WHEN purchased_at > {to_millis(window_start(now, d))} THEN normalized_amount_minor"
            f" ELSE 0 END), SUM(purchased_at > {to_millis(window_start(now, d))})"
            for d in windows
        )
        row = self.conn.execute(
            "SELECT COALESCE(SUM(normalized_amount_minor), 0), COUNT(*), MIN(purchased_at), MAX(purchased_at)"
            f"{sums} FROM purchases WHERE player_id = ?",
            (player_id,),
        ).fetchone()
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
            "SELECT u.player_id, p.external_id, SUM(u.normalized_amount_minor) AS total, COUNT(*),"
            " MAX(u.purchased_at) FROM purchases u JOIN players p ON p.id = u.player_id"
            " WHERE u.game_id = ? AND u.env = ? AND u.purchased_at > ? AND p.debug_at IS NULL"
            " GROUP BY u.player_id HAVING total >= ? ORDER BY total DESC, p.external_id LIMIT ? OFFSET ?",
            (game_id, env.value, to_millis(since) if since else -(2**62), min_amount_minor, limit, offset),
        )
        return [Spender(r[0], r[1], r[2], r[3], from_millis(r[4])) for r in rows]

    def revenue(self, game_id: str, env: Environment, start: datetime, end: datetime) -> RevenueSummary:
        where = (
            " FROM purchases u JOIN players p ON p.id = u.player_id WHERE u.game_id = ? AND u.env = ?"
            " AND u.purchased_at >= ? AND u.purchased_at <= ? AND p.debug_at IS NULL"
        )
        params = (game_id, env.value, to_millis(start), to_millis(end))
        gross, count, paying = self.conn.execute(
            "SELECT COALESCE(SUM(u.normalized_amount_minor), 0), COUNT(*),"
            f" COUNT(DISTINCT u.player_id){where}",
            params,
        ).fetchone()
        products = self.conn.execute(
            f"SELECT u.product_id, SUM(u.normalized_amount_minor) AS total, COUNT(*){where}"
            " GROUP BY u.product_id ORDER BY total DESC, u.product_id",
            params,
        )
        days = self.conn.execute(
            f"SELECT u.purchased_at / 86400000 AS day, SUM(u.normalized_amount_minor), COUNT(*){where}"
            " GROUP BY day ORDER BY day",
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
        found: dict[str, str] = {}
        for start in range(0, len(keys), 500):  # SQLite's bound-parameter limit
            chunk = keys[start : start + 500]
            rows = self.conn.execute(
                "SELECT key, fingerprint FROM migration_keys WHERE game_id = ? AND env = ? AND kind = ?"
                f" AND key IN ({', '.join('?' * len(chunk))})",
                (game_id, env.value, kind.value, *chunk),
            )
            found.update(dict(rows))
        return found

    def put_migration_key(
        self, game_id: str, env: Environment, kind: MigrationKind, key: str, fingerprint: str, at: datetime
    ) -> None:
        self.conn.execute(
            "INSERT INTO migration_keys (game_id, env, kind, key, fingerprint, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
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
                "UPDATE outbox SET data = ?, occurred_at = ? WHERE debounce_key = ? AND fanned_out = 0",
                (data, to_millis(event.occurred_at), event.debounce_key),
            ).rowcount
            if replaced:
                return
            not_before = to_millis(event.occurred_at + DEBOUNCE)
        self.conn.execute(
            "INSERT INTO outbox"
            " (id, studio_id, game_id, env, kind, occurred_at, data, debounce_key, not_before)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
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

    def outbox(self) -> list[DomainEvent]:
        rows = self.conn.execute(f"SELECT {OUTBOX_COLUMNS} FROM outbox ORDER BY seq").fetchall()
        return [outbox_event(r) for r in rows]

    # --- Idempotency ---------------------------------------------------------------------------
    def get_idempotent(self, scope: str, key: str) -> StoredResponse | None:
        row = self.conn.execute(
            "SELECT fingerprint, status, body, created_at FROM idempotency WHERE scope = ? AND key = ?",
            (scope, key),
        ).fetchone()
        if row is None:
            return None
        return StoredResponse(
            scope=scope,
            key=key,
            fingerprint=row[0],
            status=row[1],
            body=row[2],
            created_at=from_millis(row[3]),
        )

    def put_idempotent(self, stored: StoredResponse) -> None:
        self.conn.execute(
            "INSERT OR REPLACE INTO idempotency (scope, key, fingerprint, status, body, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (
                stored.scope,
                stored.key,
                stored.fingerprint,
                stored.status,
                stored.body,
                to_millis(stored.created_at),
            ),
        )

    def purge_idempotency(self, before_ms: int) -> int:
        return self.conn.execute("DELETE FROM idempotency WHERE created_at < ?", (before_ms,)).rowcount

    # --- Configuration (server-only tables) ----------------------------------------------------
    def api_key_by_hash(self, secret_hash: str) -> ApiKey | None:
        row = self.conn.execute(
            "SELECT k.id, k.game_id, g.studio_id, k.name, k.env, k.permission, k.prefix, k.rate_limits"
            " FROM api_keys k JOIN games g ON g.id = k.game_id"
            " WHERE k.secret_hash = ? AND k.revoked_at IS NULL",
            (secret_hash,),
        ).fetchone()
        return None if row is None else ApiKey.from_row(row)

    def record_key_usage(self, usage: dict[str, tuple[int, str, str | None]]) -> None:
        self.conn.executemany(
            "UPDATE api_keys SET last_used_at = ?, last_operation = ?, last_sdk = COALESCE(?, last_sdk)"
            " WHERE id = ?",
            [(ms, op, sdk, key_id) for key_id, (ms, op, sdk) in usage.items()],
        )

    def webhook_endpoints(self, game_id: str) -> list[WebhookEndpoint]:
        rows = self.conn.execute(
            "SELECT id, game_id, name, env, url, events, secret_enc, status FROM webhook_endpoints"
            " WHERE game_id = ? ORDER BY name",
            (game_id,),
        ).fetchall()
        return [WebhookEndpoint.from_row(r) for r in rows]
