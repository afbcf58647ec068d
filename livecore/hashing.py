"""Keyed hashing of secrets (docs/reference/manifest-and-cli.md#secrets): API keys and player secrets are
stored only as HMAC-SHA256 under a server key that lives outside the database, and compared in constant time.

A plain salted slow hash is not needed: every secret the service mints carries 256 bits of randomness,
so a fast keyed hash is safe and lets an API key be found by its hash in one indexed lookup.

A hash is never remade (the secret is not kept), so after the server key rotates, hashes made under
earlier keys stay as they were: a hasher holds the current key, which makes every new hash, and the
earlier ones, which are tried only when the current one does not match
(docs/server.md#rotating-the-server-key). With one key, a check costs one HMAC, as before any rotation.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Iterator
from typing import TypeVar

T = TypeVar("T")


class KeyedHasher:
    def __init__(self, key: bytes, *earlier: bytes) -> None:
        if any(len(k) < 32 for k in (key, *earlier)):
            raise ValueError("the hashing key needs at least 32 bytes")
        self._key = key
        self._earlier = tuple(dict.fromkeys(k for k in earlier if k != key))

    @property
    def keys(self) -> int:
        """How many keys a check may try."""
        return 1 + len(self._earlier)

    def hash(self, secret: str) -> str:
        # The one-shot digest: a third of the time of an hmac.new object, on every heartbeat.
        return hmac.digest(self._key, secret.encode("utf-8"), "sha256").hex()

    def digests(self, secret: str) -> Iterator[str]:
        """``secret``'s hash under each key, the current one first (computed as they are taken)."""
        yield self.hash(secret)
        for key in self._earlier:
            yield hmac.digest(key, secret.encode("utf-8"), "sha256").hex()

    def verify(self, secret: str, stored: str | None) -> bool:
        if stored is None:
            return False
        if hmac.compare_digest(self.hash(secret), stored):
            return True  # no generator on the path every heartbeat takes
        encoded = secret.encode("utf-8")
        return any(
            hmac.compare_digest(hmac.digest(k, encoded, "sha256").hex(), stored) for k in self._earlier
        )

    def find(self, secret: str, lookup: Callable[[str], T | None]) -> T | None:
        """What ``lookup`` finds by ``secret``'s hash, trying each key's in turn until one is found."""
        for digest in self.digests(secret):
            found = lookup(digest)
            if found is not None:
                return found
        return None
