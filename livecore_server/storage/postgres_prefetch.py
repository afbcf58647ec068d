"""Reads a commit group makes ahead of its writes, on PostgreSQL (docs/architecture.md, "Reads ahead of
a group"; what stays exact and how: :mod:`.read_ahead`).

The writes of one game's queue run one after another in one transaction (:mod:`.postgres_groups`), so
every read they make is a round trip inside the queue, where nothing else of that game can run: a gift
send read the sender, its idempotency record, the recipient, the gift key, the friendship, the sender's
recent gifts and the balance, one round trip each. Instead the group reads what each of its writes
declares for all of them in one round trip of set-based statements before the first write runs.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import attrs
import orjson

from livecore.clock import from_millis, to_millis
from livecore.commands.reads import Reads
from livecore.friends.rules import Friendship
from livecore_server.economy.rows import HOLDING_COLUMNS
from livecore_server.gifts.rows import GIFT_COLUMNS
from livecore_server.gifts.sql import GIFT_STATS
from livecore_server.players.rows import PLAYER_COLUMNS
from livecore_server.storage.read_ahead import CLAIM_COLUMNS, CLAIM_JOINS, Prefetched, Stats, claim_found
from livecore_server.storage.rows import STORED_RESPONSE_COLUMNS

if TYPE_CHECKING:
    from livecore_server.storage.postgres_transaction import PostgresTransaction


@attrs.frozen
class _Read:
    """A read ahead: ``sql`` looks up the rows of a set of keys, given as one parameter (:meth:`keys`)."""

    sql: str
    names: tuple[str, ...]  # the fields of a key, in the order of the rows given to ``keys``

    def keys(self, rows: Iterable[tuple[Any, ...]]) -> tuple[str]:
        return (orjson.dumps([dict(zip(self.names, row, strict=True)) for row in rows]).decode(),)


# The keys arrive as one JSON array of objects, ``jsonb_to_recordset(?::jsonb) AS k(...)``, rather than
# one array per column through ``unnest``: PostgreSQL estimates an unnest of a known array at its real
# length and of a parameter at 10, so a custom plan always looked cheaper than the generic one and every
# run was planned anew (planning cost about as much as running), where a recordset counts 100 rows either
# way and the generic plan is kept after PostgreSQL's first five custom ones. And psycopg builds array
# parameters in Python, where the JSON is one string (measured in docs/architecture.md).
def _read(columns: str, sql: str) -> _Read:
    """``columns``: ``"name type, ..."`` of a key; ``sql`` takes them from ``{keys}`` (alias ``k``)."""
    names = tuple(column.split()[0] for column in columns.split(","))
    return _Read(sql.replace("{keys}", f"jsonb_to_recordset(?::jsonb) AS k({columns})"), names)


# Every row is found by its key through a LATERAL subquery with LIMIT 1 (a unique key: one row at most),
# which PostgreSQL runs once per key as an index look-up. Joined plainly, the plan depends on the
# statistics of when the server prepared the statement: on a new database, tables that were nearly empty
# got a hash join over a sequential scan of every player (or idempotency record), cached for the life of
# the connection and growing with the table (docs/architecture.md, "Reads ahead of a group"); a
# subquery with LIMIT is never flattened into such a join.
def _one(alias: str, columns: str, table: str, where: str) -> str:
    """Join the row of ``table`` that ``where`` names (there is one)."""
    return f"CROSS JOIN LATERAL (SELECT {columns} FROM {table} WHERE {where} LIMIT 1) {alias}"


def _maybe(alias: str, columns: str, table: str, where: str) -> str:
    """Join the row of ``table`` that ``where`` names, or NULLs when there is none."""
    return f"LEFT JOIN LATERAL (SELECT {columns} FROM {table} WHERE {where} LIMIT 1) {alias} ON TRUE"


PLAYERS = _read(
    "game_id text, external_id text",
    "SELECT p.* FROM {keys} "
    + _one("p", PLAYER_COLUMNS.sql, "players", "game_id = k.game_id AND external_id = k.external_id"),
)
IDEMPOTENCY = _read(
    "scope text, key text",
    "SELECT i.* FROM {keys} "
    + _one(
        "i",
        STORED_RESPONSE_COLUMNS.sql,
        "idempotency",
        "scope = k.scope AND key = k.key",
    ),
)
# A gift send's reads name its players by external id and join them here, so that they travel in the
# same round trip as the players themselves.
_SENDER = _one("s", "id, external_id", "players", "game_id = k.game AND external_id = k.sender")
_RECIPIENT = _one("r", "id", "players", "game_id = k.game AND external_id = k.recipient")
GIFT_KEYS = _read(
    "game text, sender text, key text",
    f"SELECT {GIFT_COLUMNS.sql} FROM {{keys}} {_SENDER} "
    + _one("g", "*", "gifts", "sender_id = s.id AND idempotency_key = k.key")
    + " "
    + _one("r", "external_id", "players", "id = g.recipient_id"),
)
# The friendship of a sender and recipient, and the sender's gift statistics for the pair's window.
PAIRS = _read(
    "game text, sender text, recipient text, since bigint, day bigint",
    f"SELECT s.id, r.id, f.since, x.* FROM {{keys}} {_SENDER} {_RECIPIENT} "
    + _maybe("f", "since", "friendships", "player_id = s.id AND friend_id = r.id")
    + " CROSS JOIN LATERAL ("
    + GIFT_STATS.format(
        recipient="r.id",
        since="k.since",
        day="k.day",
        sender="s.id",
        lower="LEAST(k.since, k.day)",
    )
    + ") x",
)
HOLDINGS = _read(  # every sender found, with or without a holding of the key
    "game text, sender text, key text",
    f"SELECT s.id, {HOLDING_COLUMNS.qualified('h', resource_key='k.key')} FROM {{keys}} {_SENDER} "
    + _maybe("h", HOLDING_COLUMNS.sql, "holdings", "player_id = s.id AND resource_key = k.key"),
)


CLAIMS = _read(
    "game text, gift text",
    f"SELECT {CLAIM_COLUMNS} FROM {{keys}} "
    + _one("g", "*", "gifts", "id = k.gift AND game_id = k.game")
    + CLAIM_JOINS,
)


def load(tx: PostgresTransaction, reads: Reads) -> Prefetched:
    """Read everything ``reads`` names, in one round trip."""
    found = Prefetched()
    sends = reads.gift_sends
    player_keys = sorted({*reads.players, *(s.sender for s in sends), *(s.recipient for s in sends)})
    idempotency_keys = sorted(set(reads.idempotency))
    keys = sorted({(*s.sender, s.idempotency_key) for s in sends if s.idempotency_key is not None})
    costs = sorted({(*s.sender, s.cost_key) for s in sends if s.cost_key is not None})
    claims = sorted(set(reads.gift_claims))
    # The pairs of players of one game, each with its window of gift statistics. Without a daily limit
    # nothing is counted: the read stays inside the cooldown window, as gift_stats'.
    windows = {
        (*s.sender, s.recipient[1]): (
            to_millis(s.cooldown_since),
            None if s.day_start is None else to_millis(s.day_start),
        )
        for s in sends
        if s.sender[0] == s.recipient[0]
    }
    statements = [
        (read.sql, read.keys(rows))
        for read, rows in (
            (PLAYERS, player_keys),
            (IDEMPOTENCY, idempotency_keys),
            (GIFT_KEYS, keys),
            (
                PAIRS,
                [(*k, since, since if day is None else day) for k, (since, day) in sorted(windows.items())],
            ),
            (HOLDINGS, costs),
            (CLAIMS, claims),
        )
        if rows
    ]
    results = iter(tx.execute_together(statements))
    if player_keys:
        found.players = dict.fromkeys(player_keys)
        for row in next(results):
            player = PLAYER_COLUMNS.of(row)
            found.players[player.game_id, player.external_id] = player
    if idempotency_keys:
        found.idempotency = dict.fromkeys(idempotency_keys)
        for row in next(results):
            response = STORED_RESPONSE_COLUMNS.of(row)
            found.idempotency[response.scope, response.key] = response
    ids = {key: p.id for key, p in found.players.items() if p is not None}
    if keys:
        found.gift_keys = {(ids[g, a], key): None for g, a, key in keys if (g, a) in ids}
        for row in next(results):
            gift = GIFT_COLUMNS.of(row)
            found.gift_keys[gift.sender_id, gift.idempotency_key or ""] = gift
    if windows:
        by_ids = {
            (ids[g, a], ids[g, b]): w for (g, a, b), w in windows.items() if (g, a) in ids and (g, b) in ids
        }
        for sender_id, recipient_id, friends_since, last, today in next(results):
            since, day = by_ids[sender_id, recipient_id]
            found.stats[sender_id, recipient_id] = Stats(since, day, last, today)
            found.friendships[sender_id, recipient_id] = (
                None
                if friends_since is None
                else Friendship(sender_id, recipient_id, from_millis(friends_since))
            )
    if costs:
        for player_id, *holding_row in next(results):
            holding = HOLDING_COLUMNS.of(holding_row)
            found.holdings[player_id, holding.key] = holding
    if claims:
        found.gifts = dict.fromkeys(claims)
        for row in next(results):
            claim_found(found, row)
    return found
