"""Ids: a short type prefix plus a time-ordered random part (SPEC: ``plr_<id>``), and UUIDs where SPEC
names a UUID (gifts, grants).

Both are UUIDv7-shaped: 48 bits of milliseconds then random bits, so ids created together sort together
and database inserts stay local to the end of an index. The prefixed form is the UUID's 32 hex digits
(hex rather than base32: the standard library's base32 is pure Python, and ids are minted on every write).
"""

from __future__ import annotations

import base64
import enum
import uuid
from datetime import datetime

from livecore.clock import to_millis
from livecore.rand import RandomSource


class Prefix(enum.StrEnum):
    PLAYER = "plr"
    STUDIO = "std"
    GAME = "gam"
    API_KEY = "key"
    WEBHOOK_ENDPOINT = "whe"
    EVENT = "evt"
    DELIVERY = "dlv"
    FRIEND_REQUEST = "frq"
    LEDGER_ENTRY = "led"


def _uuid7_int(now: datetime, rng: RandomSource) -> int:
    ms = to_millis(now) & ((1 << 48) - 1)
    rand = int.from_bytes(rng.token_bytes(10), "big")
    rand_a = rand >> 68 & 0xFFF
    rand_b = rand & ((1 << 62) - 1)
    return ms << 80 | 0x7 << 76 | rand_a << 64 | 0b10 << 62 | rand_b


def uuid7(now: datetime, rng: RandomSource) -> uuid.UUID:
    """RFC 9562 UUIDv7 from the given time and random source."""
    return uuid.UUID(int=_uuid7_int(now, rng))


def new_id(prefix: Prefix, now: datetime, rng: RandomSource) -> str:
    """``plr_0193...``: prefix, underscore, the 32 lowercase hex digits of a UUIDv7."""
    return f"{prefix.value}_{_uuid7_int(now, rng):032x}"


def new_uuid(now: datetime, rng: RandomSource) -> str:
    return str(uuid7(now, rng))


def new_secret(rng: RandomSource, *, prefix: str = "") -> str:
    """A URL-safe secret with 256 bits of randomness (DECISIONS 6)."""
    body = base64.urlsafe_b64encode(rng.token_bytes(32)).decode("ascii").rstrip("=")
    return f"{prefix}{body}"
