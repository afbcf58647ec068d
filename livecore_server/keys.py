"""API key authentication with a short-lived in-process cache, and key usage recording
(docs/reference/conventions.md#surfaces-and-credentials).

Every request names its key; looking it up in the database each time would be the most expensive part
of a read. Known keys are cached for ``ttl`` seconds (and unknown ones too, so a flood of bad keys does
not reach the database). Whatever creates, revokes, rotates or re-limits a key drops every cached key
(:meth:`~livecore_server.storage.sqlport.SqlTransaction.config_changed`): in its own process before it
is answered, in every other process of a PostgreSQL deployment as its notification arrives, and a
cached key is trusted only once what has arrived is applied (``heard_now``). So a request that begins
after a revocation was answered is refused in any process
(docs/decisions/0026-configuration-caches-dropped-by-the-write.md).
Where no notification comes, ``ttl`` bounds how long a change goes unseen: on PostgreSQL while a process
does not listen (its watch reconnects), on SQLite for an operator command run in another process. A
rotated key works until the end of its grace period (:data:`livecore.operators.keys.ROTATION_GRACE` of
service time), checked on every request, cached or not. A string that does not have the shape of a key
(:func:`api_key_shaped`) is refused before it is hashed, cached or looked up; so is a player secret of
the wrong shape (:func:`livecore_server.players.secrets.player_secret_shaped`, checked by the namespace's
guard before the player is read).

Usage (last-used time, operation and ``X-Svc-SDK``) is kept in memory and written in one batch every few
seconds rather than as a write per request.
"""

from __future__ import annotations

import re
import time

from livecore.hashing import KeyedHasher
from livecore.scope import Environment
from livecore_server.storage.records import ApiKey
from livecore_server.storage.server_store import ServerStore
from livecore_server.storage.sqlport import KEYS_CHANGED

# What livecore.ids.new_secret mints after its prefix: 32 random bytes, URL-safe base64 without padding.
SECRET_BODY = "[A-Za-z0-9_-]{43}"
_API_KEY = re.compile(f"lc_(?:{'|'.join(env.value for env in Environment)})_{SECRET_BODY}")


def api_key_shaped(secret: str) -> bool:
    """Whether ``secret`` could be an API key the service minted (``lc_<env>_`` and 43 URL-safe
    characters): anything else is refused without asking the database."""
    return _API_KEY.fullmatch(secret) is not None


class KeyCache:
    def __init__(self, store: ServerStore, hasher: KeyedHasher, ttl: float = 1.0) -> None:
        self._store = store
        self._hasher = hasher
        self._ttl = ttl
        self._entries: dict[str, tuple[float, ApiKey | None]] = {}

    def changed(self, what: str) -> None:
        """A store's config listener: a key changed somewhere, forget them all."""
        if what == KEYS_CHANGED:
            self._entries.clear()

    async def lookup(self, secret: str, service_ms: int) -> ApiKey | None:
        """The key ``secret`` names, if it works at ``service_ms`` (the request's service time, which its
        caller has read already: the clock is read once a request)."""
        if not api_key_shaped(secret):
            return None
        now = time.monotonic()
        self._store.heard_now()
        hit = self._entries.get(secret)
        if hit is not None and now - hit[0] < self._ttl:
            key = hit[1]
            retired = key is not None and key.retires_at_ms is not None and key.retires_at_ms <= service_ms
            return None if retired else key
        hasher = self._hasher
        # One hash and one lookup with a single server key; after a rotation, a key made under an earlier
        # one is looked up by its hash under each (livecore.hashing).
        key = await self._store.read(lambda tx: hasher.find(secret, lambda d: tx.keys.by_hash(d, service_ms)))
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

    def flush(self, store: ServerStore) -> int:
        """Write what is pending now, on this thread (at shutdown)."""
        batch = self._take()
        if batch:
            store.run(lambda tx: tx.keys.record_usage(batch))
        return len(batch)

    async def flush_async(self, store: ServerStore) -> int:
        batch = self._take()
        if batch:
            try:
                await store.run_async(lambda tx: tx.keys.record_usage(batch))
            except BaseException:
                # Written next time, unless newer usage of the key replaced it meanwhile.
                self._pending = {**batch, **self._pending}
                raise
        return len(batch)

    def _take(self) -> dict[str, tuple[int, str, str | None]]:
        batch, self._pending = self._pending, {}
        return batch
