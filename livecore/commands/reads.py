"""What a write will read, declared by its command before it runs.

A store may read all of it ahead for several writes at once (PostgreSQL reads a commit group's reads in
one round trip: docs/architecture.md, "Reads ahead of a group"); a store that does not simply ignores
it. A declaration only names keys: the command still reads through its ports, and gets the same
answer either way.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

import attrs

PlayerKey = tuple[str, str]  # (game id, external id)


@attrs.frozen
class GiftSendReads:
    """What a gift send reads once its two players are known (:func:`livecore.gifts.commands.send`)."""

    sender: PlayerKey
    recipient: PlayerKey
    idempotency_key: str | None
    cost_key: str | None  # the resource the sender pays with, when the gift costs them
    cooldown_since: datetime
    day_start: datetime | None


@attrs.frozen
class Reads:
    """The reads one write declares; a group of writes reads the union of theirs."""

    players: tuple[PlayerKey, ...] = ()
    idempotency: tuple[tuple[str, str], ...] = ()  # (scope, key)
    gift_sends: tuple[GiftSendReads, ...] = ()
    # (game id, gift id): a claim's gift, its grant, its sender and the recipient's holding of it.
    gift_claims: tuple[tuple[str, str], ...] = ()

    def __add__(self, other: Reads) -> Reads:
        return Reads(
            self.players + other.players,
            self.idempotency + other.idempotency,
            self.gift_sends + other.gift_sends,
            self.gift_claims + other.gift_claims,
        )


def union(reads: Iterable[Reads]) -> Reads:
    total = Reads()
    for one in reads:
        total += one
    return total
