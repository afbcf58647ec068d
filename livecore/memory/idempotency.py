"""The idempotency port in memory."""

from __future__ import annotations

from livecore.idempotency import StoredResponse
from livecore.memory.journal import MemoryPort


class MemoryIdempotency(MemoryPort):
    __slots__ = ()

    def get(self, scope: str, key: str) -> StoredResponse | None:
        return self._s.idempotency.get((scope, key))

    def put(self, stored: StoredResponse) -> None:
        self._tx.put(self._s.idempotency, (stored.scope, stored.key), stored)
