"""The SQL both stores share: the :mod:`livecore.store` port written once, in SQLite's dialect.

:class:`SqlTransaction` holds every port method whose statement is the same on SQLite and PostgreSQL.
Statements use ``?`` placeholders and run through :meth:`SqlTransaction._execute` and
:meth:`SqlTransaction._executemany`: on SQLite these are the connection's own methods (nothing to
translate on the hot path), the PostgreSQL transaction translates ``?`` to ``%s`` first. The few spots where
the dialects differ are SQL fragments each subclass sets (:attr:`SqlTransaction.GIFT_TIEBREAK` and friends:
tie-break column, boolean flag, SUM cast, HAVING, the idempotency upsert) or small methods it overrides
(substring name search, ``IN`` lists, per-window sums).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import date, datetime
from typing import Any, ClassVar, Protocol

import orjson

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
from livecore_server.storage.records import ApiKey, settings_converter
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
    holding_of,
    ledger_entry_of,
    ms,
    outbox_event,
    pair_key,
    player_of,
    player_row,
    purchase_of,
    request_of,
    stored_response_of,
)

# The read behind a send's SenderStats, for one sender or (PostgreSQL's commit-group prefetch) for many
# at once: the latest gift to the recipient inside the cooldown window and the gifts counted since the
# day's start, read from the sender's gifts since the earlier of the two.
GIFT_STATS = (
    "SELECT MAX(CASE WHEN recipient_id = {recipient} AND sent_at > {since} THEN sent_at END),"
    " COUNT(CASE WHEN sent_at >= {day} THEN 1 END)"
    " FROM gifts WHERE sender_id = {sender} AND sent_at >= {lower}"
)
GIFT_STATS_OF_ONE = GIFT_STATS.format(recipient="?", since="?", day="?", sender="?", lower="?")


class Cursor(Protocol):
    """What the shared statements use of a DB-API cursor (sqlite3's and psycopg's alike)."""

    @property
    def rowcount(self) -> int: ...
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...
    def __iter__(self) -> Iterator[Any]: ...


GAME_CACHE_TTL = 1.0  # seconds; games change only through `apply`, which clears the cache in-process


def cached_game(games: dict[str, tuple[float, Game]], game_id: str) -> Game | None:
    """The game's settings from a store's cache when read within GAME_CACHE_TTL, else None."""
    cached = games.get(game_id)
    if cached is not None and time.monotonic() - cached[0] < GAME_CACHE_TTL:
        return cached[1]
    return None


class SqlTransaction:
    """The port's statements shared by both dialects; subclasses provide the connection and execution."""

    # Dialect fragments, set by each subclass.
    GIFT_TIEBREAK: ClassVar[str]  # orders gifts sent in the same millisecond by insertion
    NOT_FANNED_OUT: ClassVar[str]  # outbox rows not fanned out yet
    INT_SUM: ClassVar[str]  # appended to SUM(...) of BIGINT amounts, so they come back as int
    SPENDERS_GROUP: ClassVar[str]  # spenders' GROUP BY, and HAVING the total >= ?
    PUT_IDEMPOTENT: ClassVar[str]  # insert or replace one idempotency row (six values)
    MAX_IN_LIST: ClassVar[int]  # the most values one _in_list may hold
    FANNED_OUT: ClassVar[str]  # outbox rows already fanned out
    GREATEST: ClassVar[str]  # the larger of two values: SQLite's scalar max(), PostgreSQL's GREATEST()

    # Set by emit; the store tells its commit listeners (the dispatcher) once the events are durable.
    emitted: bool
    # Game settings are read by most commands and change rarely: parsed once per GAME_CACHE_TTL.
    games: dict[str, tuple[float, Game]]
    # Told the id of every player row this transaction writes (the store's on_player_written).
    player_listeners: list[Callable[[str], None]]
    # Run one statement (``?`` placeholders) and return its cursor; run one statement per parameter row.
    _execute: Callable[[str, Sequence[Any]], Cursor]
    _executemany: Callable[[str, Iterable[Sequence[Any]]], Any]
    # Run one statement whose result nobody reads (an insert, an update by key): PostgreSQL sends it
    # without waiting for its answer, which comes with the next statement's (or the COMMIT's), so a
    # command's writes cost one round trip together. An error it raises surfaces there too (the whole
    # transaction fails either way). SQLite runs it at once.
    _write: Callable[[str, Sequence[Any]], object]

    def skip_locked(self, of: str | None = None) -> str:
        """Appended to a SELECT that claims rows (of table alias ``of``): PostgreSQL locks them and skips
        rows another process holds; SQLite has one writer at a time, so it adds nothing."""
        raise NotImplementedError

    def for_update(self, of: str | None = None) -> str:
        """Appended to a SELECT whose rows (of table alias ``of``) the transaction will change:
        PostgreSQL locks them; SQLite has one writer at a time."""
        raise NotImplementedError

    def execute(self, statement: str, params: Sequence[Any] = ()) -> Cursor:
        """One statement with ``?`` placeholders, for the server's own tables (webhooks, keys, apply)."""
        return self._execute(statement, params)

    def executemany(self, statement: str, params: Iterable[Sequence[Any]]) -> None:
        self._executemany(statement, params)

    # --- Games ---------------------------------------------------------------------------------
    def get_game(self, game_id: str) -> Game | None:
        game = cached_game(self.games, game_id)
        if game is None:
            game = self._load_game(game_id)
            if game is not None:
                self.games[game_id] = (time.monotonic(), game)
        return game

    def _load_game(self, game_id: str) -> Game | None:
        row = self._execute(
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
        row = self._execute(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id = ? AND external_id = ?",
            (game_id, external_id),
        ).fetchone()
        return None if row is None else player_of(row)

    def insert_player(self, player: Player) -> None:
        self._write(
            f"INSERT INTO players ({PLAYER_COLUMNS}) VALUES ({', '.join('?' * 31)})", player_row(player)
        )

    def update_player(self, player: Player) -> None:
        names = [c.strip() for c in PLAYER_COLUMNS.split(",")][1:]
        values = player_row(player)
        self._write(
            f"UPDATE players SET {', '.join(f'{n} = ?' for n in names)} WHERE id = ?",
            (*values[1:], values[0]),
        )
        for listener in self.player_listeners:
            listener(player.id)

    def reset_missed_streaks(self, last_day_before: date) -> int:
        cur = self._execute(
            "UPDATE players SET streak = 0 WHERE streak > 0 AND streak_day < ?",
            (last_day_before.isoformat(),),
        )
        return cur.rowcount

    def get_player_by_id(self, player_id: str) -> Player | None:
        row = self._execute(f"SELECT {PLAYER_COLUMNS} FROM players WHERE id = ?", (player_id,)).fetchone()
        return None if row is None else player_of(row)

    def find_by_friend_code(self, game_id: str, env: Environment, code: str) -> Player | None:
        row = self._execute(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id = ? AND env = ? AND friend_code = ?",
            (game_id, env.value, code),
        ).fetchone()
        return None if row is None else player_of(row)

    # --- Friend graph --------------------------------------------------------------------------
    def get_request(self, game_id: str, request_id: str) -> FriendRequest | None:
        row = self._execute(
            "SELECT id, game_id, from_player_id, to_player_id, created_at FROM friend_requests"
            " WHERE id = ? AND game_id = ?",
            (request_id, game_id),
        ).fetchone()
        return None if row is None else request_of(row)

    def request_between(self, a_id: str, b_id: str) -> FriendRequest | None:
        row = self._execute(
            "SELECT id, game_id, from_player_id, to_player_id, created_at FROM friend_requests"
            " WHERE pair = ?",
            (pair_key(a_id, b_id),),
        ).fetchone()
        return None if row is None else request_of(row)

    def insert_request(self, request: FriendRequest) -> None:
        self._execute(
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
        self._execute("DELETE FROM friend_requests WHERE id = ?", (request_id,))

    def get_friendship(self, player_id: str, friend_id: str) -> Friendship | None:
        row = self._execute(
            "SELECT since FROM friendships WHERE player_id = ? AND friend_id = ?", (player_id, friend_id)
        ).fetchone()
        return None if row is None else Friendship(player_id, friend_id, from_millis(row[0]))

    def insert_friendship(self, a_id: str, b_id: str, since: datetime) -> None:
        ms = to_millis(since)
        self._executemany(
            "INSERT INTO friendships (player_id, friend_id, since) VALUES (?, ?, ?)",
            [(a_id, b_id, ms), (b_id, a_id, ms)],
        )

    def delete_friendship(self, a_id: str, b_id: str) -> None:
        self._execute(
            "DELETE FROM friendships"
            " WHERE (player_id = ? AND friend_id = ?) OR (player_id = ? AND friend_id = ?)",
            (a_id, b_id, b_id, a_id),
        )

    def count_friends(self, player_id: str) -> int:
        row = self._execute("SELECT count(*) FROM friendships WHERE player_id = ?", (player_id,)).fetchone()
        return int(row[0])

    def get_block(self, blocker_id: str, blocked_id: str) -> Block | None:
        row = self._execute(
            "SELECT created_at FROM blocks WHERE blocker_id = ? AND blocked_id = ?", (blocker_id, blocked_id)
        ).fetchone()
        return None if row is None else Block(blocker_id, blocked_id, from_millis(row[0]))

    def insert_block(self, block: Block) -> None:
        self._execute(
            "INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)",
            (block.blocker_id, block.blocked_id, to_millis(block.created_at)),
        )

    def delete_block(self, blocker_id: str, blocked_id: str) -> None:
        self._execute("DELETE FROM blocks WHERE blocker_id = ? AND blocked_id = ?", (blocker_id, blocked_id))

    def list_friends(self, player_id: str) -> list[tuple[Friendship, Player]]:
        rows = self._execute(
            f"SELECT f.since, {P_COLUMNS} FROM friendships f JOIN players p ON p.id = f.friend_id"
            " WHERE f.player_id = ? ORDER BY f.since, f.friend_id",
            (player_id,),
        )
        return [(Friendship(player_id, r[1], from_millis(r[0])), player_of(r[1:])) for r in rows]

    def list_requests(self, player_id: str) -> list[tuple[FriendRequest, Player]]:
        rows = self._execute(
            f"SELECT r.id, r.game_id, r.from_player_id, r.to_player_id, r.created_at, {P_COLUMNS}"
            " FROM friend_requests r JOIN players p ON p.id = r.from_player_id WHERE r.to_player_id = ?"
            f" UNION ALL SELECT r.id, r.game_id, r.from_player_id, r.to_player_id, r.created_at, {P_COLUMNS}"
            " FROM friend_requests r JOIN players p ON p.id = r.to_player_id WHERE r.from_player_id = ?"
            " ORDER BY 5, 1",
            (player_id, player_id),
        )
        return [(request_of(r[:5]), player_of(r[5:])) for r in rows]

    def list_blocks(self, player_id: str) -> list[tuple[Block, Player]]:
        rows = self._execute(
            f"SELECT b.created_at, {P_COLUMNS} FROM blocks b JOIN players p ON p.id = b.blocked_id"
            " WHERE b.blocker_id = ? ORDER BY b.created_at, b.blocked_id",
            (player_id,),
        )
        return [(Block(player_id, r[1], from_millis(r[0])), player_of(r[1:])) for r in rows]

    def friend_ids(self, player_id: str) -> set[str]:
        return {
            r[0] for r in self._execute("SELECT friend_id FROM friendships WHERE player_id = ?", (player_id,))
        }

    def request_peers(self, player_id: str) -> dict[str, bool]:
        rows = self._execute(
            "SELECT to_player_id, 1 FROM friend_requests WHERE from_player_id = ?"
            " UNION ALL SELECT from_player_id, 0 FROM friend_requests WHERE to_player_id = ?",
            (player_id, player_id),
        )
        return {peer: bool(sent) for peer, sent in rows}

    def blocked_either_way(self, player_id: str) -> set[str]:
        rows = self._execute(
            "SELECT blocked_id FROM blocks WHERE blocker_id = ?"
            " UNION SELECT blocker_id FROM blocks WHERE blocked_id = ?",
            (player_id, player_id),
        )
        return {r[0] for r in rows}

    def search_by_name(self, game_id: str, env: Environment, text: str, limit: int) -> list[Player]:
        needle = text.lower()
        if len(needle) >= 3:
            return self._names_containing(game_id, env, needle, limit)
        # Too short for trigrams: names starting with the text, a range of the prefix index (the column
        # collates in byte order on both databases).
        rows = self._execute(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id = ? AND env = ?"
            " AND search_name >= ? AND search_name < ? ORDER BY search_name LIMIT ?",
            (game_id, env.value, needle, needle + "\U0010ffff", limit),
        )
        return [player_of(r) for r in rows]

    def _names_containing(self, game_id: str, env: Environment, needle: str, limit: int) -> list[Player]:
        """Players whose lower-cased name contains ``needle`` (three characters or more)."""
        raise NotImplementedError

    def _in_list(self, column: str, values: Sequence[Any]) -> tuple[str, tuple[Any, ...]]:
        """A condition ``column`` is one of ``values`` (not empty), and its parameters."""
        raise NotImplementedError

    def _window_sums(self, since: int) -> str:
        """Two columns for player_spend: the amount and the count of purchases after ``since``."""
        raise NotImplementedError

    def holdings_of(self, player_ids: list[str], keys: list[str]) -> dict[str, dict[str, int]]:
        if not player_ids or not keys:
            return {}
        players, player_params = self._in_list("player_id", player_ids)
        resources, resource_params = self._in_list("resource_key", keys)
        rows = self._execute(
            f"SELECT player_id, resource_key, amount FROM holdings WHERE {players} AND {resources}",
            (*player_params, *resource_params),
        )
        out: dict[str, dict[str, int]] = {}
        for pid, key, amount in rows:
            out.setdefault(pid, {})[key] = amount
        return out

    def recently_active(self, game_id: str, env: Environment, limit: int) -> list[Player]:
        rows = self._execute(
            f"SELECT {PLAYER_COLUMNS} FROM players"
            " WHERE game_id = ? AND env = ? AND last_active_at IS NOT NULL"
            " ORDER BY last_active_at DESC LIMIT ?",
            (game_id, env.value, limit),
        )
        return [player_of(r) for r in rows]

    # --- Ledger --------------------------------------------------------------------------------
    def get_holding(self, player_id: str, key: str) -> Holding:
        row = self._execute(
            "SELECT amount, parameters FROM holdings WHERE player_id = ? AND resource_key = ?",
            (player_id, key),
        ).fetchone()
        return holding_of(key, row)

    def get_holdings(self, player_id: str) -> dict[str, Holding]:
        rows = self._execute(
            "SELECT resource_key, amount, parameters FROM holdings WHERE player_id = ?", (player_id,)
        )
        return {r[0]: Holding(key=r[0], amount=r[1], parameters=orjson.loads(r[2])) for r in rows}

    def append_ledger(self, entry: LedgerEntry, holding: Holding) -> None:
        self._write(
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
        self._write(
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
        return [ledger_entry_of(r) for r in self._execute(query + " ORDER BY seq", params)]

    # --- Grants --------------------------------------------------------------------------------
    def insert_grant(self, grant: Grant) -> None:
        self._write(f"INSERT INTO grants ({GRANT_COLUMNS}) VALUES ({', '.join('?' * 14)})", grant_row(grant))

    def get_grant(self, game_id: str, grant_id: str) -> Grant | None:
        row = self._execute(
            f"SELECT {GRANT_COLUMNS} FROM grants WHERE id = ? AND game_id = ?", (grant_id, game_id)
        ).fetchone()
        return None if row is None else grant_of(row)

    def update_grant(self, grant: Grant) -> None:
        self._write(
            "UPDATE grants SET status = ?, claimed_at = ?, acked_by = ? WHERE id = ?",
            (
                grant.status.value,
                ms(grant.claimed_at),
                grant.acked_by.value if grant.acked_by else None,
                grant.id,
            ),
        )

    def pending_grants(self, player_id: str, now: datetime, limit: int) -> list[Grant]:
        rows = self._execute(
            f"SELECT {GRANT_COLUMNS} FROM grants WHERE player_id = ? AND status = 'pending'"
            " AND (expires_at IS NULL OR expires_at > ?) ORDER BY created_at, id LIMIT ?",
            (player_id, to_millis(now), limit),
        )
        return [grant_of(r) for r in rows]

    def grants_past_expiry(self, now: datetime, limit: int) -> list[Grant]:
        rows = self._execute(
            f"SELECT {GRANT_COLUMNS} FROM grants WHERE status = 'pending' AND expires_at IS NOT NULL"
            " AND expires_at <= ? ORDER BY expires_at LIMIT ?",
            (to_millis(now), limit),
        )
        return [grant_of(r) for r in rows]

    # --- Gifts ---------------------------------------------------------------------------------
    def insert_gift(self, gift: Gift) -> None:
        self._write(
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
                gift.deducted_from_sender,  # a bool: 1/0 on SQLite, a boolean on PostgreSQL
                gift.idempotency_key,
            ),
        )

    def get_gift(self, game_id: str, gift_id: str) -> Gift | None:
        row = self._execute(
            f"SELECT {GIFT_COLUMNS} {GIFT_FROM} WHERE g.id = ? AND g.game_id = ?", (gift_id, game_id)
        ).fetchone()
        return None if row is None else gift_of(row)

    def update_gift(self, gift: Gift) -> None:
        self._write(
            "UPDATE gifts SET status = ?, claimed_at = ? WHERE id = ?",
            (gift.status.value, ms(gift.claimed_at), gift.id),
        )

    def gift_by_key(self, sender_id: str, idempotency_key: str) -> Gift | None:
        row = self._execute(
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
        last, today = self._execute(
            GIFT_STATS_OF_ONE, (recipient_id, since, day, sender_id, min(since, day))
        ).fetchone()
        return SenderStats(last_to_recipient=dt(last), sent_today=today if day_start is not None else 0)

    def gift_cooldowns(self, sender_id: str, since: datetime) -> dict[str, datetime]:
        rows = self._execute(
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
        rows = self._execute(
            query + f" ORDER BY g.sent_at DESC, {self.GIFT_TIEBREAK} DESC LIMIT ?", (*params, limit)
        )
        return [GiftListing(gift_of(r[:17]), player_of(r[18:]), GrantStatus(r[17])) for r in rows]

    # --- Player tools --------------------------------------------------------------------------
    def recent_grants(self, player_id: str, limit: int) -> list[Grant]:
        rows = self._execute(
            f"SELECT {GRANT_COLUMNS} FROM grants WHERE player_id = ?"
            " ORDER BY created_at DESC, id DESC LIMIT ?",
            (player_id, limit),
        )
        return [grant_of(r) for r in rows]

    def grant_counts(self, player_id: str) -> dict[GrantStatus, int]:
        counts = dict.fromkeys(GrantStatus, 0)
        for status, n in self._execute(
            "SELECT status, COUNT(*) FROM grants WHERE player_id = ? GROUP BY status", (player_id,)
        ):
            counts[GrantStatus(status)] = n
        return counts

    def get_merge(self, game_id: str, env: Environment, from_external_id: str) -> MergeRecord | None:
        row = self._execute(
            "SELECT game_id, env, from_external_id, from_player_id, to_player_id, placeholder, merged_at"
            " FROM merges WHERE game_id = ? AND env = ? AND from_external_id = ?"
            " ORDER BY merged_at DESC LIMIT 1",
            (game_id, env.value, from_external_id),
        ).fetchone()
        if row is None:
            return None
        return MergeRecord(row[0], Environment(row[1]), row[2], row[3], row[4], row[5], from_millis(row[6]))

    def insert_merge(self, record: MergeRecord) -> None:
        self._execute(
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
        self._execute("DELETE FROM merges WHERE to_player_id = ?", (player_id,))

    def reassign_records(self, from_id: str, to: Player) -> None:
        self._execute(
            "UPDATE grants SET player_id = ?, external_player_id = ? WHERE player_id = ?",
            (to.id, to.external_id, from_id),
        )
        self._execute("UPDATE gifts SET sender_id = ? WHERE sender_id = ?", (to.id, from_id))
        self._execute("UPDATE gifts SET recipient_id = ? WHERE recipient_id = ?", (to.id, from_id))
        self._execute("UPDATE purchases SET player_id = ? WHERE player_id = ?", (to.id, from_id))

    def move_ledger(self, from_id: str, to_id: str, holdings: dict[str, Holding]) -> None:
        self._execute("UPDATE ledger SET player_id = ? WHERE player_id = ?", (to_id, from_id))
        self._execute("DELETE FROM holdings WHERE player_id IN (?, ?)", (from_id, to_id))
        self._executemany(
            "INSERT INTO holdings (player_id, resource_key, amount, parameters) VALUES (?, ?, ?, ?)",
            [(to_id, h.key, h.amount, orjson.dumps(h.parameters).decode()) for h in holdings.values()],
        )

    def blocks_involving(self, player_id: str) -> list[Block]:
        rows = self._execute(
            "SELECT blocker_id, blocked_id, created_at FROM blocks WHERE blocker_id = ?"
            " UNION ALL SELECT blocker_id, blocked_id, created_at FROM blocks WHERE blocked_id = ?",
            (player_id, player_id),
        )
        return [Block(r[0], r[1], from_millis(r[2])) for r in rows]

    def remove_from_graph(self, player_id: str) -> None:
        self._execute("DELETE FROM friendships WHERE player_id = ?", (player_id,))
        self._execute("DELETE FROM friendships WHERE friend_id = ?", (player_id,))
        self._execute("DELETE FROM friend_requests WHERE from_player_id = ?", (player_id,))
        self._execute("DELETE FROM friend_requests WHERE to_player_id = ?", (player_id,))
        self._execute("DELETE FROM blocks WHERE blocker_id = ?", (player_id,))
        self._execute("DELETE FROM blocks WHERE blocked_id = ?", (player_id,))

    def clear_gift_messages(self, player_id: str) -> None:
        self._execute("UPDATE gifts SET message = NULL WHERE sender_id = ?", (player_id,))
        self._execute("UPDATE gifts SET message = NULL WHERE recipient_id = ?", (player_id,))

    def get_erasure(self, game_id: str, external_id_hash: str) -> ErasureRecord | None:
        row = self._execute(
            "SELECT game_id, external_id_hash, player_id, placeholder, reason, erased_at FROM erasures"
            " WHERE game_id = ? AND external_id_hash = ? ORDER BY erased_at DESC LIMIT 1",
            (game_id, external_id_hash),
        ).fetchone()
        if row is None:
            return None
        return ErasureRecord(row[0], row[1], row[2], row[3], ErasureReason(row[4]), from_millis(row[5]))

    def insert_erasure(self, record: ErasureRecord) -> None:
        self._execute(
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
        row = self._execute(
            f"SELECT {PURCHASE_COLUMNS} {PURCHASE_FROM}"
            " WHERE u.game_id = ? AND u.env = ? AND u.transaction_id = ?",
            (game_id, env.value, transaction_id),
        ).fetchone()
        return None if row is None else purchase_of(row)

    def insert_purchase(self, purchase: Purchase) -> None:
        self._execute(
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
        self._execute("UPDATE purchases SET validation_status = ? WHERE id = ?", (status.value, purchase_id))

    def list_purchases(
        self, player_id: str, before: tuple[datetime, str] | None, limit: int
    ) -> list[Purchase]:
        query = f"SELECT {PURCHASE_COLUMNS} {PURCHASE_FROM} WHERE u.player_id = ?"
        params: list[Any] = [player_id]
        if before is not None:
            query += " AND (u.purchased_at, u.id) < (?, ?)"
            params += [to_millis(before[0]), before[1]]
        rows = self._execute(query + " ORDER BY u.purchased_at DESC, u.id DESC LIMIT ?", (*params, limit))
        return [purchase_of(r) for r in rows]

    def player_spend(self, player_id: str, now: datetime, windows: tuple[int, ...]) -> PlayerSpend:
        sums = "".join(self._window_sums(to_millis(window_start(now, d))) for d in windows)
        row = self._execute(
            f"SELECT COALESCE(SUM(normalized_amount_minor), 0){self.INT_SUM}, COUNT(*), MIN(purchased_at),"
            f" MAX(purchased_at){sums} FROM purchases WHERE player_id = ?",
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
        rows = self._execute(
            f"SELECT u.player_id, p.external_id, SUM(u.normalized_amount_minor){self.INT_SUM} AS total,"
            " COUNT(*), MAX(u.purchased_at) FROM purchases u JOIN players p ON p.id = u.player_id"
            " WHERE u.game_id = ? AND u.env = ? AND u.purchased_at > ? AND p.debug_at IS NULL"
            f" {self.SPENDERS_GROUP} ORDER BY total DESC, p.external_id LIMIT ? OFFSET ?",
            (game_id, env.value, to_millis(since) if since else -(2**62), min_amount_minor, limit, offset),
        )
        return [Spender(r[0], r[1], r[2], r[3], from_millis(r[4])) for r in rows]

    def revenue(self, game_id: str, env: Environment, start: datetime, end: datetime) -> RevenueSummary:
        where = (
            " FROM purchases u JOIN players p ON p.id = u.player_id WHERE u.game_id = ? AND u.env = ?"
            " AND u.purchased_at >= ? AND u.purchased_at <= ? AND p.debug_at IS NULL"
        )
        params = (game_id, env.value, to_millis(start), to_millis(end))
        gross, count, paying = self._execute(
            f"SELECT COALESCE(SUM(u.normalized_amount_minor), 0){self.INT_SUM}, COUNT(*),"
            f" COUNT(DISTINCT u.player_id){where}",
            params,
        ).fetchone()
        products = self._execute(
            f"SELECT u.product_id, SUM(u.normalized_amount_minor){self.INT_SUM} AS total, COUNT(*){where}"
            " GROUP BY u.product_id ORDER BY total DESC, u.product_id",
            params,
        )
        days = self._execute(
            f"SELECT u.purchased_at / 86400000 AS day, SUM(u.normalized_amount_minor){self.INT_SUM},"
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
        found: dict[str, str] = {}
        for start in range(0, len(keys), self.MAX_IN_LIST):
            in_keys, key_params = self._in_list("key", keys[start : start + self.MAX_IN_LIST])
            rows = self._execute(
                f"SELECT key, fingerprint FROM migration_keys WHERE game_id = ? AND env = ? AND kind = ?"
                f" AND {in_keys}",
                (game_id, env.value, kind.value, *key_params),
            )
            found.update(dict(rows))
        return found

    def put_migration_key(
        self, game_id: str, env: Environment, kind: MigrationKind, key: str, fingerprint: str, at: datetime
    ) -> None:
        self._execute(
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
            replaced = self._execute(
                "UPDATE outbox SET data = ?, occurred_at = ?"
                f" WHERE debounce_key = ? AND {self.NOT_FANNED_OUT}",
                (data, to_millis(event.occurred_at), event.debounce_key),
            ).rowcount
            if replaced:
                return
            not_before = to_millis(event.occurred_at + DEBOUNCE)
        self._write(
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

    # --- Idempotency ---------------------------------------------------------------------------
    def get_idempotent(self, scope: str, key: str) -> StoredResponse | None:
        row = self._execute(
            "SELECT fingerprint, status, body, created_at FROM idempotency WHERE scope = ? AND key = ?",
            (scope, key),
        ).fetchone()
        return None if row is None else stored_response_of(scope, key, row)

    def put_idempotent(self, stored: StoredResponse) -> None:
        self._write(
            self.PUT_IDEMPOTENT,
            (
                stored.scope,
                stored.key,
                stored.fingerprint,
                stored.status,
                stored.body,
                to_millis(stored.created_at),
            ),
        )

    # --- Server-only: outbox listing, idempotency purge ----------------------------------------
    def outbox(self) -> list[DomainEvent]:
        rows = self._execute(f"SELECT {OUTBOX_COLUMNS} FROM outbox ORDER BY seq", ())
        return [outbox_event(r) for r in rows]

    def purge_idempotency(self, before_ms: int) -> int:
        return self._execute("DELETE FROM idempotency WHERE created_at < ?", (before_ms,)).rowcount

    # --- Configuration (server-only tables) ---------------------------------------------------
    def api_key_by_hash(self, secret_hash: str) -> ApiKey | None:
        row = self._execute(
            "SELECT k.id, k.game_id, g.studio_id, k.name, k.env, k.permission, k.prefix, k.rate_limits"
            " FROM api_keys k JOIN games g ON g.id = k.game_id"
            " WHERE k.secret_hash = ? AND k.revoked_at IS NULL",
            (secret_hash,),
        ).fetchone()
        return None if row is None else ApiKey.from_row(row)

    def record_key_usage(self, usage: dict[str, tuple[int, str, str | None]]) -> None:
        self._executemany(
            "UPDATE api_keys SET last_used_at = ?, last_operation = ?, last_sdk = COALESCE(?, last_sdk)"
            " WHERE id = ?",
            [(ms, op, sdk, key_id) for key_id, (ms, op, sdk) in usage.items()],
        )

    # --- Presence (written in batches by the presence board) ----------------------------------
    def record_presence(self, beats: list[tuple[str, int, str | None]]) -> None:
        """(player id, heartbeat time in ms, status) per player: presence and last activity, never
        moving either back (another process may have written a later heartbeat)."""
        self._executemany(
            "UPDATE players SET presence_status = CASE WHEN COALESCE(presence_at, 0) <= ? THEN ?"
            f" ELSE presence_status END, presence_at = {self.GREATEST}(COALESCE(presence_at, 0), ?),"
            f" last_active_at = {self.GREATEST}(COALESCE(last_active_at, 0), ?),"
            f" last_seen_at = {self.GREATEST}(last_seen_at, ?) WHERE id = ?",
            [(at, status, at, at, at, player_id) for player_id, at, status in beats],
        )

    # --- Scheduled work ----------------------------------------------------------------------
    def claim_scheduled_run(self, job: str, due_ms: int, now_ms: int) -> bool:
        """True for the one caller, across every process on this database, that claims ``job``'s run due
        at ``due_ms``; False when that run (or a later one) was already claimed."""
        claimed = self._execute(
            "INSERT INTO scheduled_runs (job, due_at, claimed_at) VALUES (?, ?, ?)"
            " ON CONFLICT (job) DO UPDATE SET due_at = excluded.due_at, claimed_at = excluded.claimed_at"
            " WHERE scheduled_runs.due_at < excluded.due_at",
            (job, due_ms, now_ms),
        ).rowcount
        return claimed == 1
