"""The gifts port. Gifts, by (game_id, gift id). A gift's grant has the gift id as its ``source_ref_id``."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from livecore.gifts.rules import Gift, GiftListing, SenderStats, SentGifts
from livecore.players.rules import Player


class GiftStore(Protocol):
    def insert(self, gift: Gift) -> None: ...

    def get(self, game_id: str, gift_id: str) -> Gift | None: ...

    def update(self, gift: Gift) -> None: ...

    def by_key(self, sender_id: str, idempotency_key: str) -> Gift | None: ...

    def sender_stats(
        self, sender_id: str, recipient_id: str | None, cooldown_since: datetime, day_start: datetime | None
    ) -> SenderStats:
        """The latest gift to ``recipient_id`` sent after ``cooldown_since`` and the count sent since
        ``day_start`` (0 when None: nothing to count against), in one read."""
        ...

    def cooldowns(self, sender_id: str, since: datetime) -> dict[str, datetime]:
        """Recipient id -> the latest gift sent to them after ``since`` (friend rows' cooldowns)."""
        ...

    def page(
        self, player_id: str, *, sent: bool, claimable_at: datetime | None, limit: int
    ) -> list[GiftListing]:
        """Gifts the player received (or sent), newest first; with ``claimable_at``, only those still
        pending and not expired then."""
        ...

    def sent(self, game_id: str, since: datetime, until: datetime) -> dict[str, dict[str, SentGifts]]:
        """Sender id -> resource key -> the gifts of it the sender sent in a game from ``since`` to before
        ``until``, in one read."""
        ...

    def clear_messages(self, player_id: str) -> None: ...

    def reassign(self, from_id: str, to: Player) -> None:
        """Every gift ``from_id`` sent or received becomes ``to``'s (a merge)."""
        ...


class HasGifts(Protocol):
    """A transaction that reaches the gifts port."""

    @property
    def gifts(self) -> GiftStore: ...
