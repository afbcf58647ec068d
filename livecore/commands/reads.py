"""What a write will read, declared by its command before it runs.

A store may read all of it ahead for several writes at once (PostgreSQL reads a commit group's reads in
one round trip: docs/architecture.md, "Reads ahead of a write"); a store that does not simply ignores
it. A declaration only names keys: the command still reads through its ports, and gets the same
answer either way.

Every write names its players and its idempotency record (:class:`Reads`); what an area's command reads
beyond them it declares in its own terms (:class:`AreaReads`, in ``areas``), and the area's server side
reads it ahead (``ServerArea.read_ahead``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

import attrs

PlayerKey = tuple[str, str]  # (game id, external id)


class AreaReads(Protocol):
    """What one write of an area reads beyond its caller, declared by the area's command: the players it
    names (read ahead with the caller), and keys of the area's own, read by the area's read ahead."""

    @property
    def players(self) -> tuple[PlayerKey, ...]: ...


@attrs.frozen
class Reads:
    """The reads one write declares; a group of writes reads the union of theirs.

    - ``rows``: rows other players' writes change too that the write decides on, each a (kind, id) (a
      guild's help request, whose total every donor's write adds to): a store running writes beside each
      other holds each of them, as it holds a player, before the write reads anything.
    - ``alone``: the write changes rows of its game that other players' writes change too (a team's score,
      a lobby) and that it cannot name before it runs, so a write that otherwise runs beside its game's
      others holds its game alone."""

    players: tuple[PlayerKey, ...] = ()
    idempotency: tuple[tuple[str, str], ...] = ()  # (scope, key)
    areas: tuple[AreaReads, ...] = ()
    alone: bool = False
    rows: tuple[tuple[str, str], ...] = ()

    def __add__(self, other: Reads) -> Reads:
        return Reads(
            self.players + other.players,
            self.idempotency + other.idempotency,
            self.areas + other.areas,
            self.alone or other.alone,
            self.rows + other.rows,
        )


def union(reads: Iterable[Reads]) -> Reads:
    total = Reads()
    for one in reads:
        total += one
    return total
