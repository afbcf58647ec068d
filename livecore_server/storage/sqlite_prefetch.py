"""Reads a write makes ahead of running, on SQLite (what stays exact and how: :mod:`.read_ahead`).

SQLite runs in-process, so a read costs no round trip; what it costs is the statement itself, and a
write's port reads one row each. A write's declared reads (:class:`livecore.commands.reads.Reads`) are
read here with joins instead: the caller and the other players it names together with its idempotency
record in one statement, a gift send's friendship, statistics, earlier gift of its key and balance in a
second, and a gift claim's gift with its grant, its sender and the recipient's holding in one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from livecore.clock import from_millis, to_millis
from livecore.commands.reads import GiftSendReads, PlayerKey, Reads
from livecore.friends.rules import Friendship
from livecore_server.economy.rows import HOLDING_COLUMNS
from livecore_server.gifts.rows import GIFT_COLUMNS, GIFT_FROM
from livecore_server.gifts.sql import GIFT_STATS_OF_ONE
from livecore_server.players.rows import PLAYER_COLUMNS
from livecore_server.storage.read_ahead import CLAIM_COLUMNS, CLAIM_JOINS, Prefetched, Stats, claim_found
from livecore_server.storage.rows import STORED_RESPONSE_COLUMNS
from livecore_server.storage.sqlport import SqlTransaction

_IDEMPOTENCY = f"SELECT {STORED_RESPONSE_COLUMNS.sql} FROM idempotency WHERE scope = ? AND key = ?"
_NO_RECORD = ", ".join("NULL" for _ in range(STORED_RESPONSE_COLUMNS.width))
_NO_PLAYER = ", ".join("NULL" for _ in range(PLAYER_COLUMNS.width))
_CLAIM = f"SELECT {CLAIM_COLUMNS} FROM gifts g{CLAIM_JOINS} WHERE g.id = ? AND g.game_id = ?"


def load(tx: SqlTransaction, reads: Reads) -> Prefetched:
    """Read everything ``reads`` names."""
    found = Prefetched()
    keys = sorted(
        {*reads.players, *(s.sender for s in reads.gift_sends), *(s.recipient for s in reads.gift_sends)}
    )
    records = sorted(set(reads.idempotency))
    if keys:
        # The write's idempotency record rides along with its players (a write has one at most).
        _players(tx, found, keys, records[0] if len(records) == 1 else None)
        if len(records) == 1:
            records = []
    for scope, key in records:
        row = tx.read(_IDEMPOTENCY, (scope, key)).fetchone()
        found.idempotency[scope, key] = None if row is None else STORED_RESPONSE_COLUMNS.of(row)
    for send in reads.gift_sends:
        _send(tx, found, send)
    for game_id, gift_id in reads.gift_claims:
        _claim(tx, found, game_id, gift_id)
    return found


def _players(
    tx: SqlTransaction, found: Prefetched, keys: Sequence[PlayerKey], record: tuple[str, str] | None
) -> None:
    """The players of ``keys`` and the idempotency ``record``, in one statement: each SELECT of the UNION
    finds its rows through its unique index, and fills the other's columns with NULLs."""
    games: dict[str, list[str]] = {}
    for game_id, external_id in keys:
        games.setdefault(game_id, []).append(external_id)
    selects: list[str] = []
    params: list[Any] = []
    for game_id, external_ids in games.items():
        found.players.update(dict.fromkeys((game_id, e) for e in external_ids))
        selects.append(
            f"SELECT {PLAYER_COLUMNS.sql}, {_NO_RECORD} FROM players"
            f" WHERE game_id = ? AND external_id IN ({', '.join('?' * len(external_ids))})"
        )
        params += (game_id, *external_ids)
    if record is not None:
        found.idempotency[record] = None
        selects.append(
            f"SELECT {_NO_PLAYER}, {STORED_RESPONSE_COLUMNS.sql} FROM idempotency WHERE scope = ? AND key = ?"
        )
        params += record
    width = PLAYER_COLUMNS.width
    for row in tx.read(" UNION ALL ".join(selects), params):
        if row[0] is not None:
            player = PLAYER_COLUMNS.of(row[:width])
            found.players[player.game_id, player.external_id] = player
        else:
            stored = STORED_RESPONSE_COLUMNS.of(row[width:])
            found.idempotency[stored.scope, stored.key] = stored


def _send(tx: SqlTransaction, found: Prefetched, send: GiftSendReads) -> None:
    """What a send checks once its players are known: their friendship, the sender's statistics, the
    gift its key named before and the balance it pays from, in one statement."""
    sender, recipient = found.players.get(send.sender), found.players.get(send.recipient)
    if sender is None or recipient is None or send.sender[0] != send.recipient[0]:
        return  # refused before it reads any of it
    since = to_millis(send.cooldown_since)
    day = None if send.day_start is None else to_millis(send.day_start)
    counted = since if day is None else day
    sql = "SELECT x.*, f.since"
    joins = (
        " FROM (" + GIFT_STATS_OF_ONE + ") x LEFT JOIN friendships f ON f.player_id = ? AND f.friend_id = ?"
    )
    params: list[Any] = [
        recipient.id,
        since,
        counted,
        sender.id,
        min(since, counted),
        sender.id,
        recipient.id,
    ]
    if send.cost_key is not None:
        sql += ", h.amount, h.parameters"
        joins += " LEFT JOIN holdings h ON h.player_id = ? AND h.resource_key = ?"
        params += (sender.id, send.cost_key)
    if send.idempotency_key is not None:
        sql += ", gk.*"
        joins += (
            f" LEFT JOIN (SELECT {GIFT_COLUMNS.sql} {GIFT_FROM}"
            " WHERE g.sender_id = ? AND g.idempotency_key = ?) gk ON 1"
        )
        params += (sender.id, send.idempotency_key)
    last, today, friends_since, *rest = tx.read(sql + joins, params).fetchone()
    found.stats[sender.id, recipient.id] = Stats(since, day, last, today)
    found.friendships[sender.id, recipient.id] = (
        None if friends_since is None else Friendship(sender.id, recipient.id, from_millis(friends_since))
    )
    if send.cost_key is not None:
        amount, parameters, *rest = rest
        found.holdings[sender.id, send.cost_key] = HOLDING_COLUMNS.of((send.cost_key, amount, parameters))
    if send.idempotency_key is not None:
        found.gift_keys[sender.id, send.idempotency_key] = None if rest[0] is None else GIFT_COLUMNS.of(rest)


def _claim(tx: SqlTransaction, found: Prefetched, game_id: str, gift_id: str) -> None:
    row = tx.read(_CLAIM, (gift_id, game_id)).fetchone()
    found.gifts[game_id, gift_id] = None
    if row is not None:
        claim_found(found, row)
