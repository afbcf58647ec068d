"""The gifts port in SQL, for SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, ClassVar, cast

from livecore.clock import from_millis, to_millis
from livecore.gifts.rules import Gift, GiftListing, SenderStats, SentGifts
from livecore.grants.rules import GrantStatus
from livecore.players.rules import Player
from livecore_server.gifts.prefetched import gift_stats, gift_written
from livecore_server.gifts.rows import GIFT, GIFT_COLUMNS, GIFT_FROM
from livecore_server.players.rows import CARD_COLUMNS
from livecore_server.storage.read_ahead import MISSING
from livecore_server.storage.rows import dt, ms
from livecore_server.storage.sqlport import Dialects, SqlPort

# The read behind a send's SenderStats, for one sender or (PostgreSQL's commit-group prefetch) for many
# at once: the latest gift to the recipient inside the cooldown window and the gifts counted since the
# day's start, read from the sender's gifts since the earlier of the two.
GIFT_STATS = (
    "SELECT MAX(CASE WHEN recipient_id = {recipient} AND sent_at > {since} THEN sent_at END),"
    " COUNT(CASE WHEN sent_at >= {day} THEN 1 END)"
    " FROM gifts WHERE sender_id = {sender} AND sent_at >= {lower}"
)
GIFT_STATS_OF_ONE = GIFT_STATS.format(recipient="?", since="?", day="?", sender="?", lower="?")


class SqlGifts(SqlPort):
    __slots__ = ()

    TIEBREAK: ClassVar[str]  # orders gifts sent in the same millisecond by insertion, in each dialect

    def insert(self, gift: Gift) -> None:
        with self.db.exactly(lambda p: gift_written(p, gift)):
            self.db.insert(GIFT.insert, GIFT.params(gift))

    def get(self, game_id: str, gift_id: str) -> Gift | None:
        ahead = self.db.ahead("gifts", (game_id, gift_id))
        if ahead is not MISSING:
            return cast(Gift | None, ahead)
        row = self.db.read(
            f"SELECT {GIFT_COLUMNS.sql} {GIFT_FROM} WHERE g.id = ? AND g.game_id = ?", (gift_id, game_id)
        ).fetchone()
        return None if row is None else GIFT_COLUMNS.of(row)

    def update(self, gift: Gift) -> None:
        with self.db.exactly(lambda p: gift_written(p, gift)):
            self.db.write(
                "gifts",
                "UPDATE gifts SET status = ?, claimed_at = ? WHERE id = ?",
                (gift.status.value, ms(gift.claimed_at), gift.id),
            )

    def by_key(self, sender_id: str, idempotency_key: str) -> Gift | None:
        ahead = self.db.ahead("gift_keys", (sender_id, idempotency_key))
        if ahead is not MISSING:
            return cast(Gift | None, ahead)
        row = self.db.read(
            f"SELECT {GIFT_COLUMNS.sql} {GIFT_FROM} WHERE g.sender_id = ? AND g.idempotency_key = ?",
            (sender_id, idempotency_key),
        ).fetchone()
        return None if row is None else GIFT_COLUMNS.of(row)

    def sender_stats(
        self, sender_id: str, recipient_id: str | None, cooldown_since: datetime, day_start: datetime | None
    ) -> SenderStats:
        if self.db.prefetched is not None:
            ahead = gift_stats(self.db.prefetched, sender_id, recipient_id, cooldown_since, day_start)
            if ahead is not None:
                return ahead
        since = to_millis(cooldown_since)
        # Without a daily limit nothing is counted, so the read stays inside the cooldown window (which
        # holds at most about one gift per friend).
        day = since if day_start is None else to_millis(day_start)
        last, today = self.db.read(
            GIFT_STATS_OF_ONE, (recipient_id, since, day, sender_id, min(since, day))
        ).fetchone()
        return SenderStats(last_to_recipient=dt(last), sent_today=today if day_start is not None else 0)

    def cooldowns(self, sender_id: str, since: datetime) -> dict[str, datetime]:
        rows = self.db.read(
            "SELECT recipient_id, MAX(sent_at) FROM gifts WHERE sender_id = ? AND sent_at > ?"
            " GROUP BY recipient_id",
            (sender_id, to_millis(since)),
        )
        return {recipient_id: from_millis(last) for recipient_id, last in rows}

    def sent(self, game_id: str, since: datetime, until: datetime) -> dict[str, dict[str, SentGifts]]:
        rows = self.db.read(
            "SELECT sender_id, resource_key, COUNT(*), SUM(amount) FROM gifts"
            " WHERE game_id = ? AND sent_at >= ? AND sent_at < ? GROUP BY sender_id, resource_key",
            (game_id, to_millis(since), to_millis(until)),
        )
        found: dict[str, dict[str, SentGifts]] = {}
        for sender, resource_key, gifts, amount in rows:
            # PostgreSQL sums a bigint as a numeric.
            found.setdefault(sender, {})[resource_key] = SentGifts(gifts, int(amount))
        return found

    def page(
        self, player_id: str, *, sent: bool, claimable_at: datetime | None, limit: int
    ) -> list[GiftListing]:
        mine, other = ("g.sender_id", "r") if sent else ("g.recipient_id", "s")
        query = f"SELECT t.status, {GIFT_COLUMNS.sql}, {CARD_COLUMNS.sql} {GIFT_FROM}"
        query += f" JOIN grants t ON t.id = g.grant_id JOIN players p ON p.id = {other}.id WHERE {mine} = ?"
        params: list[Any] = [player_id]
        if claimable_at is not None:
            query += " AND g.status = 'pending' AND (g.expires_at IS NULL OR g.expires_at > ?)"
            params.append(to_millis(claimable_at))
        rows = self.db.read(
            query + f" ORDER BY g.sent_at DESC, {self.TIEBREAK} DESC LIMIT ?", (*params, limit)
        )
        return [_listing(grant_status, gift_and_card) for grant_status, *gift_and_card in rows]

    def clear_messages(self, player_id: str) -> None:
        self.db.change("gifts", "UPDATE gifts SET message = NULL WHERE sender_id = ?", (player_id,))
        self.db.change("gifts", "UPDATE gifts SET message = NULL WHERE recipient_id = ?", (player_id,))

    def reassign(self, from_id: str, to: Player) -> None:
        self.db.change("gifts", "UPDATE gifts SET sender_id = ? WHERE sender_id = ?", (to.id, from_id))
        self.db.change("gifts", "UPDATE gifts SET recipient_id = ? WHERE recipient_id = ?", (to.id, from_id))


class SqliteGifts(SqlGifts):
    __slots__ = ()

    TIEBREAK = "g.rowid"  # gifts is a rowid table: the rowid is the insertion order


class PostgresGifts(SqlGifts):
    __slots__ = ()

    TIEBREAK = "g.seq"  # seq is the insertion order


def _listing(grant_status: str, row: Sequence[Any]) -> GiftListing:
    """A gift listing from its grant's status and a row of the gift's columns, then the other player's."""
    gift, card = GIFT_COLUMNS.split(row)
    return GiftListing(gift, CARD_COLUMNS.of(card), GrantStatus(grant_status))


#: The area's SQL ports, by the transaction attribute that reaches each (``tx.<name>``).
SQL_PORTS = {"gifts": Dialects(SqlGifts, sqlite=SqliteGifts, postgres=PostgresGifts)}
