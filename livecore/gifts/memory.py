"""The gifts port in memory."""

from __future__ import annotations

import bisect
from datetime import datetime

import attrs

from livecore.gifts.rules import Gift, GiftListing, SenderStats, SentGifts, is_claimable
from livecore.gifts.store import GiftStore
from livecore.grants.memory import GrantTables
from livecore.memory.journal import AreaPort
from livecore.players.memory import PlayerTables
from livecore.players.rules import Player, PlayerCard


@attrs.define
class GiftTables:
    """The gifts area's tables in memory."""

    gifts: dict[str, Gift] = attrs.field(factory=dict)
    gift_keys: dict[tuple[str, str], str] = attrs.field(factory=dict)  # (sender id, idempotency key) -> id
    # sender id -> (sent_at, recipient id, gift id), in time order: the daily count by bisect.
    gifts_sent: dict[str, list[tuple[datetime, str, str]]] = attrs.field(factory=dict)
    last_gift: dict[tuple[str, str], datetime] = attrs.field(factory=dict)  # (sender, recipient) -> sent_at


class MemoryGifts(AreaPort[GiftTables]):
    __slots__ = ()
    TABLES = GiftTables

    def insert(self, gift: Gift) -> None:
        self._tx.put(self._t.gifts, gift.id, gift)
        if gift.idempotency_key is not None:
            self._tx.put(self._t.gift_keys, (gift.sender_id, gift.idempotency_key), gift.id)
        sent = self._t.gifts_sent.setdefault(gift.sender_id, [])
        row = (gift.sent_at, gift.recipient_id, gift.id)
        if sent and row < sent[-1]:
            bisect.insort(sent, row)  # only when a simulation moved its clock back
        else:
            sent.append(row)
        self._tx.undo.append(lambda: sent.remove(row))
        pair = (gift.sender_id, gift.recipient_id)
        if gift.sent_at >= self._t.last_gift.get(pair, gift.sent_at):
            self._tx.put(self._t.last_gift, pair, gift.sent_at)

    def get(self, game_id: str, gift_id: str) -> Gift | None:
        found = self._t.gifts.get(gift_id)
        return found if found is not None and found.game_id == game_id else None

    def update(self, gift: Gift) -> None:
        self._tx.put(self._t.gifts, gift.id, gift)

    def by_key(self, sender_id: str, idempotency_key: str) -> Gift | None:
        gift_id = self._t.gift_keys.get((sender_id, idempotency_key))
        return None if gift_id is None else self._t.gifts[gift_id]

    def sender_stats(
        self, sender_id: str, recipient_id: str | None, cooldown_since: datetime, day_start: datetime | None
    ) -> SenderStats:
        last = self._t.last_gift.get((sender_id, recipient_id or ""))
        today = 0
        if day_start is not None:
            sent = self._t.gifts_sent.get(sender_id, [])
            today = len(sent) - bisect.bisect_left(sent, day_start, key=lambda row: row[0])
        return SenderStats(last if last is not None and last > cooldown_since else None, today)

    def cooldowns(self, sender_id: str, since: datetime) -> dict[str, datetime]:
        return {r: t for t, r, _ in self._sent_after(sender_id, since)}

    def sent(self, game_id: str, since: datetime, until: datetime) -> dict[str, dict[str, SentGifts]]:
        found: dict[str, dict[str, SentGifts]] = {}
        for gift in self._t.gifts.values():
            if gift.game_id == game_id and since <= gift.sent_at < until:
                of = found.setdefault(gift.sender_id, {})
                before = of.get(gift.resource_key, SentGifts(0, 0))
                of[gift.resource_key] = SentGifts(before.gifts + 1, before.amount + gift.amount)
        return found

    def page(
        self, player_id: str, *, sent: bool, claimable_at: datetime | None, limit: int
    ) -> list[GiftListing]:
        mine = [
            g
            for g in self._t.gifts.values()
            if (g.sender_id if sent else g.recipient_id) == player_id
            and (claimable_at is None or is_claimable(g, claimable_at))
        ]
        out = []
        players, grants = self._s.tables_of(PlayerTables), self._s.tables_of(GrantTables).grants
        # Newest first; at the same instant, the latest inserted first (dicts keep insertion order).
        for g in sorted(reversed(mine), key=lambda g: g.sent_at, reverse=True)[:limit]:
            other = players.by_id(g.recipient_id if sent else g.sender_id)
            grant = grants.get((g.game_id, g.grant_id))
            if other is not None and grant is not None:
                out.append(GiftListing(g, PlayerCard.of(other), grant.status))
        return out

    def clear_messages(self, player_id: str) -> None:
        for gift_id, gift in list(self._t.gifts.items()):
            if player_id in (gift.sender_id, gift.recipient_id) and gift.message is not None:
                self._tx.put(self._t.gifts, gift_id, attrs.evolve(gift, message=None))

    def _sent_after(self, sender_id: str, since: datetime) -> list[tuple[datetime, str, str]]:
        """The sender's gifts sent after ``since``, oldest first."""
        sent = self._t.gifts_sent.get(sender_id, [])
        return sent[bisect.bisect_right(sent, since, key=lambda row: row[0]) :]

    def reassign(self, from_id: str, to: Player) -> None:
        for gift_id, gift in list(self._t.gifts.items()):
            if from_id in (gift.sender_id, gift.recipient_id):
                moved = gift
                if gift.sender_id == from_id:
                    moved = attrs.evolve(moved, sender_id=to.id, sender_external_id=to.external_id)
                if gift.recipient_id == from_id:
                    moved = attrs.evolve(moved, recipient_id=to.id, recipient_external_id=to.external_id)
                self._tx.put(self._t.gifts, gift_id, moved)


def _implements_the_port(port: MemoryGifts) -> GiftStore:
    return port  # mypy checks the class against the area's port here
