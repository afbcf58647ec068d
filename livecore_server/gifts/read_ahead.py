"""What the gifts area reads ahead of a send or a claim (:data:`READ_AHEAD`, its ``ServerArea``'s), once
the players are read (:mod:`livecore_server.storage.read_ahead`): a send's friendship, the sender's
statistics, the gift its key named before and the balance it pays from; a claim's gift with its grant,
its sender and the recipient's holding of it. SQLite reads each write's in one statement
(:func:`_sqlite`); PostgreSQL a group's, in the one round trip of its reads ahead (:func:`_postgres`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from livecore.clock import from_millis, to_millis
from livecore.friends.rules import Friendship
from livecore.gifts.reads import GiftClaimReads, GiftSendReads
from livecore_server.economy.read_ahead import HOLDINGS, HOLDINGS_OF, holdings_found
from livecore_server.economy.rows import HOLDING_COLUMNS
from livecore_server.gifts.prefetched import GIFT_KEYS, GIFTS, STATS, Stats
from livecore_server.gifts.rows import GIFT_COLUMNS, GIFT_FROM
from livecore_server.gifts.sql import GIFT_STATS, GIFT_STATS_OF_ONE
from livecore_server.grants.rows import GRANT_COLUMNS
from livecore_server.players.rows import PLAYER_COLUMNS
from livecore_server.storage.postgres_prefetch import key_read, maybe, one
from livecore_server.storage.read_ahead import Prefetched, ReadAhead
from livecore_server.storage.sqlport import SqlTransaction

# The kinds of rows of the areas a gift reads, as their ports read them back.
FRIENDSHIPS, GRANTS = "friendships", "grants"

# A claim's read ahead, on both stores: its gift (``g``, with the players ``s`` and ``r`` of the gift's
# columns), the gift's grant, its sender (for the answer) and the recipient's holding of the gift.
CLAIM_COLUMNS = (
    f"{GIFT_COLUMNS.sql}, {GRANT_COLUMNS.qualified('t')}, {PLAYER_COLUMNS.qualified('s')},"
    " h.amount, h.parameters"
)
CLAIM_JOINS = (
    " JOIN players s ON s.id = g.sender_id JOIN players r ON r.id = g.recipient_id"
    " LEFT JOIN grants t ON t.id = g.grant_id AND t.game_id = g.game_id"
    " LEFT JOIN holdings h ON h.player_id = g.recipient_id AND h.resource_key = g.resource_key"
)


def claim_found(found: Prefetched, row: Sequence[Any]) -> None:
    """What a row of :data:`CLAIM_COLUMNS` tells."""
    gift, rest = GIFT_COLUMNS.split(row)
    grant_row, rest = rest[: GRANT_COLUMNS.width], rest[GRANT_COLUMNS.width :]
    sender_row, (amount, parameters) = rest[: PLAYER_COLUMNS.width], rest[PLAYER_COLUMNS.width :]
    found.of(GIFTS)[gift.game_id, gift.id] = gift
    found.of(GRANTS)[gift.game_id, gift.grant_id] = (
        None if grant_row[0] is None else GRANT_COLUMNS.of(grant_row)
    )
    sender = PLAYER_COLUMNS.of(sender_row)
    found.players.setdefault((sender.game_id, sender.external_id), sender)
    found.of(HOLDINGS)[gift.recipient_id, gift.resource_key] = HOLDING_COLUMNS.of(
        (gift.resource_key, amount, parameters)
    )


# --- SQLite: each write's --------------------------------------------------------------------------
_CLAIM = f"SELECT {CLAIM_COLUMNS} FROM gifts g{CLAIM_JOINS} WHERE g.id = ? AND g.game_id = ?"


def _sqlite(tx: SqlTransaction, found: Prefetched, declared: Sequence[Any]) -> None:
    for send in declared:
        if isinstance(send, GiftSendReads):
            _send(tx, found, send)
    for claim in declared:
        if isinstance(claim, GiftClaimReads):
            _claim(tx, found, claim)


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
    found.of(STATS)[sender.id, recipient.id] = Stats(since, day, last, today)
    found.of(FRIENDSHIPS)[sender.id, recipient.id] = (
        None if friends_since is None else Friendship(sender.id, recipient.id, from_millis(friends_since))
    )
    if send.cost_key is not None:
        amount, parameters, *rest = rest
        found.of(HOLDINGS)[sender.id, send.cost_key] = HOLDING_COLUMNS.of((send.cost_key, amount, parameters))
    if send.idempotency_key is not None:
        found.of(GIFT_KEYS)[sender.id, send.idempotency_key] = (
            None if rest[0] is None else GIFT_COLUMNS.of(rest)
        )


def _claim(tx: SqlTransaction, found: Prefetched, claim: GiftClaimReads) -> None:
    row = tx.read(_CLAIM, (claim.gift_id, claim.game_id)).fetchone()
    found.of(GIFTS)[claim.game_id, claim.gift_id] = None
    if row is not None:
        claim_found(found, row)


# --- PostgreSQL: a group's, set-based --------------------------------------------------------------
# A gift send's reads name its players by external id and join them here, so that they travel in the
# same round trip as the players themselves.
_SENDER = one("s", "id, external_id", "players", "game_id = k.game AND external_id = k.sender")
_RECIPIENT = one("r", "id", "players", "game_id = k.game AND external_id = k.recipient")
KEYS = key_read(
    "game text, sender text, key text",
    f"SELECT {GIFT_COLUMNS.sql} FROM {{keys}} {_SENDER} "
    + one("g", "*", "gifts", "sender_id = s.id AND idempotency_key = k.key")
    + " "
    + one("r", "external_id", "players", "id = g.recipient_id"),
)
# The friendship of a sender and recipient, and the sender's gift statistics for the pair's window.
PAIRS = key_read(
    "game text, sender text, recipient text, since bigint, day bigint",
    f"SELECT s.id, r.id, f.since, x.* FROM {{keys}} {_SENDER} {_RECIPIENT} "
    + maybe("f", "since", "friendships", "player_id = s.id AND friend_id = r.id")
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
COSTS = HOLDINGS_OF  # every sender found, with or without a holding of the key
CLAIMS = key_read(
    "game text, gift text",
    f"SELECT {CLAIM_COLUMNS} FROM {{keys}} "
    + one("g", "*", "gifts", "id = k.gift AND game_id = k.game")
    + CLAIM_JOINS,
)


def _postgres(
    declared: Sequence[Any],
) -> tuple[list[tuple[str, Sequence[Any]]], Callable[[Prefetched, Iterator[list[Any]]], None]]:
    sends = [r for r in declared if isinstance(r, GiftSendReads)]
    keys = sorted({(*s.sender, s.idempotency_key) for s in sends if s.idempotency_key is not None})
    costs = sorted({(*s.sender, s.cost_key) for s in sends if s.cost_key is not None})
    claims = sorted({(r.game_id, r.gift_id) for r in declared if isinstance(r, GiftClaimReads)})
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
    pairs = [(*k, since, since if day is None else day) for k, (since, day) in sorted(windows.items())]
    statements: list[tuple[str, Sequence[Any]]] = [
        (read.sql, read.keys(rows))
        for read, rows in ((KEYS, keys), (PAIRS, pairs), (COSTS, costs), (CLAIMS, claims))
        if rows
    ]

    def found_by(found: Prefetched, results: Iterator[list[Any]]) -> None:
        ids = {key: p.id for key, p in found.players.items() if p is not None}
        if keys:
            gift_keys = found.of(GIFT_KEYS)
            gift_keys.update({(ids[g, a], key): None for g, a, key in keys if (g, a) in ids})
            for row in next(results):
                gift = GIFT_COLUMNS.of(row)
                gift_keys[gift.sender_id, gift.idempotency_key or ""] = gift
        if windows:
            by_ids = {
                (ids[g, a], ids[g, b]): w
                for (g, a, b), w in windows.items()
                if (g, a) in ids and (g, b) in ids
            }
            for sender_id, recipient_id, friends_since, last, today in next(results):
                since, day = by_ids[sender_id, recipient_id]
                found.of(STATS)[sender_id, recipient_id] = Stats(since, day, last, today)
                found.of(FRIENDSHIPS)[sender_id, recipient_id] = (
                    None
                    if friends_since is None
                    else Friendship(sender_id, recipient_id, from_millis(friends_since))
                )
        if costs:
            holdings_found(found, next(results))
        if claims:
            found.of(GIFTS).update(dict.fromkeys(claims))
            for row in next(results):
                claim_found(found, row)

    return statements, found_by


#: The gifts area's reads ahead (its ``ServerArea.read_ahead``).
READ_AHEAD = ReadAhead(
    reads=(GiftSendReads, GiftClaimReads),
    tables=frozenset({"gifts", "grants", "holdings", "friendships"}),
    sqlite=_sqlite,
    postgres=_postgres,
    with_players=frozenset({GIFT_KEYS}),
)
