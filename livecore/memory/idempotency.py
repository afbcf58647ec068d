"""The idempotency port in memory."""

from __future__ import annotations

from typing import Protocol

from livecore.idempotency import StoredResponse
from livecore.memory.journal import MemoryPort


class _Responses(Protocol):
    idempotency: dict[tuple[str, str], StoredResponse]


class MemoryIdempotency(MemoryPort[_Responses]):
    __slots__ = ()

    def get(self, scope: str, key: str) -> StoredResponse | None:
        return self._s.idempotency.get((scope, key))

    def put(self, stored: StoredResponse) -> None:
        self._tx.put(self._s.idempotency, (stored.scope, stored.key), stored)
