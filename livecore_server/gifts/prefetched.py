"""What a gift send or claim read ahead (``livecore_server/gifts/read_ahead.py``), as the gifts' SQL port
reads it back, and what the port's writes forget of it (:mod:`livecore_server.storage.read_ahead`)."""

from __future__ import annotations

from datetime import datetime

import attrs

from livecore.clock import to_millis
from livecore.gifts.rules import Gift, SenderStats
from livecore_server.storage.read_ahead import Prefetched
from livecore_server.storage.rows import dt

# The kinds of rows the gifts' read ahead finds (Prefetched.of), beside the grants', holdings' and
# friendships' whose ports read them back.
GIFTS = "gifts"  # (game id, gift id)
GIFT_KEYS = "gift_keys"  # (sender id, idempotency key): keyed by players, forgotten with a player row
STATS = "gift_stats"  # (sender id, recipient id)


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


def gift_stats(
    found: Prefetched,
    sender_id: str,
    recipient_id: str | None,
    cooldown_since: datetime,
    day_start: datetime | None,
) -> SenderStats | None:
    """The sender's statistics for the window, when what was read ahead tells them; None: read them."""
    stats = found.found.get(STATS, {}).get((sender_id, recipient_id or ""))
    return None if stats is None else stats_for(stats, cooldown_since, day_start)


def gift_written(found: Prefetched, gift: Gift) -> None:
    """A gift row was inserted or updated: forget what its sender's statistics and keys were, and it."""
    for kind in (STATS, GIFT_KEYS):
        rows = found.found.get(kind, {})
        for key in [k for k in rows if k[0] == gift.sender_id]:
            del rows[key]
    found.forget(GIFTS, (gift.game_id, gift.id))
