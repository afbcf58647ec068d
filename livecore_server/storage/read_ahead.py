"""What a write reads ahead of running, and how it stays exact (docs/architecture.md, "Reads ahead of a
group").

A write declares what it will read (:class:`livecore.commands.reads.Reads`, from the request alone); its
store reads all of it before the write runs, in as few statements as its database allows: PostgreSQL for
a whole commit group in one round trip (:mod:`.postgres_prefetch`), SQLite for each write in one or two
statements that join what separate port reads would read one by one (:mod:`.sqlite_prefetch`). The write
then runs unchanged: its transaction answers a port's read from what was read ahead when it can
(:meth:`.sqlport.SqlTransaction.ahead`), and from the database otherwise.

What makes that exact: the reads ahead read the transaction's own snapshot, so a row read ahead is what
the write would have read, unless a write changed it first. Every statement that could change a row read
ahead therefore forgets it: the writes of a send or a claim forget precisely the rows they change
(:meth:`Prefetched.gift_written` and the others, through :meth:`.sqlport.SqlTransaction.exactly`), and any
other statement that changes a table the reads ahead read (:data:`READ_AHEAD_TABLES`: each statement names
the table it changes) forgets everything. A write rolled back to its savepoint leaves forgotten rows
forgotten (they are read again), and changed nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Final

import attrs

from livecore.clock import to_millis
from livecore.commands.reads import PlayerKey
from livecore.economy.rules import Holding
from livecore.friends.rules import Friendship
from livecore.gifts.rules import Gift, SenderStats
from livecore.grants.rules import Grant
from livecore.idempotency import StoredResponse
from livecore.players.rules import Player
from livecore_server.economy.rows import HOLDING_COLUMNS
from livecore_server.gifts.rows import GIFT_COLUMNS
from livecore_server.grants.rows import GRANT_COLUMNS
from livecore_server.players.rows import PLAYER_COLUMNS
from livecore_server.storage.rows import dt


class Missing:
    pass


MISSING: Final = Missing()  # not read ahead (or forgotten): read the database


@attrs.frozen
class Stats:
    """A sender's gift statistics as prefetched for one window; other windows derive from it."""

    cooldown_since: int
    day_start: int | None
    last_to_recipient: int | None
    sent_today: int


def stats_for(stats: Stats, cooldown_since: datetime, day_start: datetime | None) -> SenderStats | None:
    """The statistics of a later window of the same sender and recipient, when the prefetched one tells
    them: same counted day, a cooldown window starting no earlier (a later read in the same transaction
    has a later clock). The latest gift inside the later window is the prefetched latest if it is still
    inside it, else there is none (the later window is a part of the earlier one). None: read again."""
    since = to_millis(cooldown_since)
    day = None if day_start is None else to_millis(day_start)
    if day != stats.day_start or since < stats.cooldown_since:
        return None
    last = stats.last_to_recipient
    return SenderStats(
        last_to_recipient=dt(last) if last is not None and last > since else None,
        sent_today=stats.sent_today if day is not None else 0,
    )


# The tables the reads ahead read. A statement that changes one of them forgets what was read ahead,
# unless it forgets exactly the rows it changes (SqlTransaction.exactly, Prefetched's *_written);
# statements that change other tables (the outbox, the ledger) leave it exact.
READ_AHEAD_TABLES = frozenset({"players", "idempotency", "friendships", "gifts", "grants", "holdings"})


@attrs.define
class Prefetched:
    """The rows a group read ahead, by the arguments of the port method that reads them."""

    players: dict[PlayerKey, Player | None] = attrs.Factory(dict)
    idempotency: dict[tuple[str, str], StoredResponse | None] = attrs.Factory(dict)
    friendships: dict[tuple[str, str], Friendship | None] = attrs.Factory(dict)
    gift_keys: dict[tuple[str, str], Gift | None] = attrs.Factory(dict)
    stats: dict[tuple[str, str], Stats] = attrs.Factory(dict)  # (sender id, recipient id)
    holdings: dict[tuple[str, str], Holding] = attrs.Factory(dict)
    gifts: dict[tuple[str, str], Gift | None] = attrs.Factory(dict)  # (game id, gift id)
    grants: dict[tuple[str, str], Grant | None] = attrs.Factory(dict)  # (game id, grant id)

    def player_by_id(self, player_id: str) -> Player | Missing:
        """A player read ahead by its key, found by its id."""
        for player in self.players.values():
            if player is not None and player.id == player_id:
                return player
        return MISSING

    def gift_stats(
        self, sender_id: str, recipient_id: str | None, cooldown_since: datetime, day_start: datetime | None
    ) -> SenderStats | None:
        stats = self.stats.get((sender_id, recipient_id or ""))
        return None if stats is None else stats_for(stats, cooldown_since, day_start)

    # --- What the writes of a send forget -------------------------------------------------------
    def player_written(self, player: Player) -> None:
        """A player row was inserted or updated: forget it, and whatever was read by its key."""
        for key, value in list(self.players.items()):
            if key == (player.game_id, player.external_id) or (value is not None and value.id == player.id):
                del self.players[key]
        self.gift_keys.clear()  # they carry players' external ids

    def gift_written(self, gift: Gift) -> None:
        for key in [k for k in self.stats if k[0] == gift.sender_id]:
            del self.stats[key]
        for key in [k for k in self.gift_keys if k[0] == gift.sender_id]:
            del self.gift_keys[key]
        self.gifts.pop((gift.game_id, gift.id), None)

    def grant_written(self, grant: Grant) -> None:
        self.grants.pop((grant.game_id, grant.id), None)

    def holding_written(self, player_id: str, key: str) -> None:
        self.holdings.pop((player_id, key), None)

    def idempotency_written(self, scope: str, key: str) -> None:
        self.idempotency.pop((scope, key), None)


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
    found.gifts[gift.game_id, gift.id] = gift
    found.grants[gift.game_id, gift.grant_id] = None if grant_row[0] is None else GRANT_COLUMNS.of(grant_row)
    sender = PLAYER_COLUMNS.of(sender_row)
    found.players.setdefault((sender.game_id, sender.external_id), sender)
    found.holdings[gift.recipient_id, gift.resource_key] = HOLDING_COLUMNS.of(
        (gift.resource_key, amount, parameters)
    )
