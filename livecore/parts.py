"""The key naming what one area holds in another's record: its settings in a game's (``[guilds]``), the
fields it adds to a resource's table (a gift's ``giftable``), to an event's (its ``lobby``) or to a wire
record (a friend row's ``giftCooldownUntil``). The record holds each area's part by its key and reads it
with ``record.of(KEY)``, so the record's area names none of the areas that add to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, TypeVar

import attrs

T_co = TypeVar("T_co", covariant=True)


@attrs.frozen(cache_hash=True)  # read on every record.of(KEY): the hash is worked out once
class PartKey(Generic[T_co]):
    """Names one area's part of another's record: ``name`` the part's name (a settings section's key,
    under which the part is stored as JSON), ``kind`` the type it is read back into (a record, or
    ``dict[str, <record>]`` for a table of named entries), ``default`` its value in a record without it
    (shared: never mutate it). Keys are equal by name, so records copied or unpickled still find theirs."""

    name: str
    kind: Any = attrs.field(eq=False)
    default: T_co = attrs.field(eq=False)


def by_key(given: Mapping[PartKey[Any], Any]) -> dict[PartKey[Any], Any]:
    """The parts a record holds, leaving out those at their default: a record whose part is at its default
    is the same record as one without it (the same settings, the same wire fields)."""
    return {key: value for key, value in given.items() if value != key.default}


__all__ = ["PartKey", "by_key"]
