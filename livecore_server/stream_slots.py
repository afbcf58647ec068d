"""Open event-board streams per API key (docs/events.md#the-live-stream): at most
:data:`~livecore.ratelimit.OPEN_STREAMS_PER_KEY` at once across processes, or the key's manifest
``rate_limits.open_streams``; one more is answered 429 ``rate_limited`` before it starts.

Each process counts its own streams in memory, which is all there is on SQLite (one server process). On
PostgreSQL every process also writes its counts to table ``open_streams`` (one row per process and key)
and reads the other processes' sums, in the housekeeping pass (every second): a stream that opens costs no
database round trip, and a process admits at most what the others had open at the last pass plus its own.
So the cap holds across processes up to the streams other processes opened within the last second. Each
row carries a lease of :data:`LEASE_SECONDS` of wall-clock time that every pass renews: the streams of a
process that was killed stop counting once its lease runs out.
"""

from __future__ import annotations

import asyncio
import secrets
import time

from livecore.errors import RATE_LIMITED, LivecoreError
from livecore.ratelimit import OPEN_STREAMS_PER_KEY, BucketName
from livecore_server.storage.records import ApiKey
from livecore_server.storage.server_store import ServerStore, ServerTransaction

LEASE_SECONDS = 15.0
# A client refused for the cap may retry once a stream of its key has had time to end: a stream whose
# client went away is noticed at the next ping (15 s).
RETRY_AFTER_SECONDS = 15


def cap_of(key: ApiKey) -> int:
    return key.rate_limits.get(BucketName.OPEN_STREAMS) or OPEN_STREAMS_PER_KEY


class StreamSlots:
    """This process's open streams by key, and (PostgreSQL) the other processes' as last read."""

    def __init__(self, store: ServerStore, *, shared: bool) -> None:
        self._store = store
        self._shared = shared
        self.process_id = f"proc_{secrets.token_hex(8)}"
        self.open: dict[str, int] = {}
        self.others: dict[str, int] = {}
        self._written: set[str] = set()  # keys with a row of this process in the database
        # One sync at a time: a sync that read before another process wrote must not finish after a
        # later one and leave its older view of the others.
        self._syncing = asyncio.Lock()

    def take(self, key: ApiKey, headers: dict[str, str]) -> None:
        """One stream more for ``key``, or 429 when it holds its cap (``headers``: the answer's)."""
        held = self.open.get(key.id, 0)
        cap = cap_of(key)
        if held + self.others.get(key.id, 0) >= cap:
            headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
            raise LivecoreError(
                RATE_LIMITED,
                f"This API key holds {cap:,} open streams, its most; close one first.",
                {"openStreams": cap},
            )
        self.open[key.id] = held + 1

    def give_back(self, key: ApiKey) -> None:
        """A stream of ``key`` ended."""
        left = self.open[key.id] - 1
        if left:
            self.open[key.id] = left
        else:
            del self.open[key.id]

    def total(self) -> int:
        """The streams open in this process (the metrics)."""
        return sum(self.open.values())

    async def sync(self) -> None:
        """PostgreSQL: write this process's counts with a fresh lease and read the other processes'."""
        if not self._shared:
            return
        async with self._syncing:
            await self._sync()

    async def _sync(self) -> None:
        counts = dict(self.open)
        gone = self._written - counts.keys()
        now_ms = int(time.time() * 1000)
        until_ms = now_ms + int(LEASE_SECONDS * 1000)
        # A process holding no stream (and no row) only reads.
        self.others = await self._store.run_async(
            lambda tx: _sync(tx, self.process_id, counts, gone, now_ms, until_ms), write=bool(counts or gone)
        )
        self._written = set(counts)

    async def close(self) -> None:
        """The process stops: its rows go (else they count until their lease runs out)."""
        if self._shared and self._written:
            await self._store.run_async(lambda tx: tx.open_streams.forget(self.process_id))
            self._written = set()


def _sync(
    tx: ServerTransaction, process: str, counts: dict[str, int], gone: set[str], now_ms: int, until_ms: int
) -> dict[str, int]:
    if counts or gone:
        tx.open_streams.put(process, counts, gone, until_ms)
        tx.open_streams.expire(now_ms)
    return tx.open_streams.others(process, now_ms)
