"""The idempotency port. Idempotency records, keyed by (scope, key)."""

from __future__ import annotations

from typing import Protocol

from livecore.idempotency import StoredResponse


class IdempotencyStore(Protocol):
    def get(self, scope: str, key: str) -> StoredResponse | None: ...

    def put(self, stored: StoredResponse) -> None: ...


class HasIdempotency(Protocol):
    """A transaction that reaches the idempotency port."""

    @property
    def idempotency(self) -> IdempotencyStore: ...
