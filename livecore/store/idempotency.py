"""The idempotency port. Idempotency records, keyed by (scope, key).

A record's body is kept as given: the server seals it under its server key before it puts it, and opens
it when it replays it (docs/server.md#secrets-at-rest), so no store holds an answer, a register's player
secret included, in clear."""

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
