"""API key authentication with a short-lived in-process cache, and key usage recording (SPEC 5 rule 9).

Every request names its key; looking it up in the database each time would be the most expensive part
of a read. Known keys are cached for ``ttl`` seconds (and unknown ones too, so a flood of bad keys does
not reach the database): a key revoked by another process stops working within that time.

Usage (last-used time, operation and ``X-Svc-SDK``) is kept in memory and written in one batch every few
seconds rather than as a write per request.
"""

from __future__ import annotations

import time

from livecore.hashing import KeyedHasher
from livecore_server.storage.records import ApiKey
from livecore_server.storage.sqlite import SqliteStore


class KeyCache:
    def __init__(self, store: SqliteStore, hasher: KeyedHasher, ttl: float = 1.0) -> None:
        self._store = store
        self._hasher = hasher
        self._ttl = ttl
        self._entries: dict[str, tuple[float, ApiKey | None]] = {}

    def lookup(self, secret: str) -> ApiKey | None:
        now = time.monotonic()
        hit = self._entries.get(secret)
        if hit is not None and now - hit[0] < self._ttl:
            return hit[1]
        digest = self._hasher.hash(secret)
        key = self._store.run(lambda tx: tx.api_key_by_hash(digest), write=False)
        if len(self._entries) > 10_000:
            self._entries.clear()
        self._entries[secret] = (now, key)
        return key

    def clear(self) -> None:
        self._entries.clear()


class UsageRecorder:
    def __init__(self) -> None:
        self._pending: dict[str, tuple[int, str, str | None]] = {}

    def record(self, key_id: str, now_ms: int, operation: str, sdk: str | None) -> None:
        self._pending[key_id] = (now_ms, operation, sdk[:200] if sdk else None)

    def flush(self, store: SqliteStore) -> int:
        if not self._pending:
            return 0
        batch, self._pending = self._pending, {}
        store.run(lambda tx: tx.record_key_usage(batch))
        return len(batch)
