"""Ids: a short type prefix plus a time-ordered random part (``plr_<id>``), and UUIDs where the contract
names a UUID (gifts, grants).

Both are UUIDv7-shaped: 48 bits of milliseconds then random bits, so ids created together sort together
and database inserts stay local to the end of an index. The prefixed form is the UUID's 32 hex digits
(hex rather than base32: the standard library's base32 is pure Python, and ids are minted on every write).
"""

from __future__ import annotations

import base64
import enum
import functools
import hashlib
import uuid
from datetime import datetime

from livecore.clock import to_millis
from livecore.rand import RandomSource


class Prefix(enum.StrEnum):
    """The prefixes of the records no area owns. Each area declares its own beside its rules
    (``livecore/players/rules.py`` ``PLAYER_ID_PREFIX``) and claims them in its declaration
    (:attr:`livecore.area.Area.id_prefixes`), so no two areas, a studio's included, mint alike ids."""

    STUDIO = "std"
    GAME = "gam"
    API_KEY = "key"
    WEBHOOK_ENDPOINT = "whe"
    EVENT = "evt"
    DELIVERY = "dlv"


_MS_MASK = (1 << 48) - 1
# The 17th hex digit holds the variant (0b10) and one random bit: taken from a random hex digit.
_VARIANT = {c: "89ab"[int(c, 16) & 3] for c in "0123456789abcdef"}


@functools.lru_cache(maxsize=64)
def _time_hex(now: datetime) -> str:
    return f"{to_millis(now) & _MS_MASK:012x}"


def _uuid7_hex(now: datetime, rng: RandomSource) -> str:
    """The 32 hex digits of a UUIDv7: 48 bits of milliseconds, version 7, 74 random bits, variant 0b10.

    Assembled as text from ``bytes.hex()`` rather than through ``int`` and ``uuid.UUID``: ids are minted
    several times per write, and this is about three times faster."""
    r = rng.token_bytes(10).hex()
    return f"{_time_hex(now)}7{r[:3]}{_VARIANT[r[3]]}{r[4:19]}"


def uuid7(now: datetime, rng: RandomSource) -> uuid.UUID:
    """RFC 9562 UUIDv7 from the given time and random source."""
    return uuid.UUID(_uuid7_hex(now, rng))


def new_id(prefix: str, now: datetime, rng: RandomSource) -> str:
    """``plr_0193...``: prefix, underscore, the 32 lowercase hex digits of a UUIDv7."""
    return f"{prefix}_{_uuid7_hex(now, rng)}"


def derived_id(prefix: str, at: datetime, *parts: str) -> str:
    """An id named by what it is rather than drawn: UUIDv7-shaped, its time bits ``at``, its other bits a
    hash of ``parts``. Every process (and a read that writes nothing) names an event, a window or a board
    alike without asking the database."""
    h = hashlib.sha256("\x1f".join(parts).encode()).hexdigest()
    return f"{prefix}_{_time_hex(at)}7{h[:3]}{_VARIANT[h[3]]}{h[4:19]}"


def new_uuid(now: datetime, rng: RandomSource) -> str:
    """The canonical 8-4-4-4-12 text of a UUIDv7."""
    h = _uuid7_hex(now, rng)
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def new_secret(rng: RandomSource, *, prefix: str = "") -> str:
    """A URL-safe secret with 256 bits of randomness (docs/reference/manifest-and-cli.md#secrets)."""
    body = base64.urlsafe_b64encode(rng.token_bytes(32)).decode("ascii").rstrip("=")
    return f"{prefix}{body}"
