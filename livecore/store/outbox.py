"""The outbox port. The outbox: events commit with the change that caused them."""

from __future__ import annotations

from typing import Protocol

from livecore.events import DomainEvent


class Outbox(Protocol):
    def emit(self, event: DomainEvent) -> None: ...


class HasOutbox(Protocol):
    """A transaction that reaches the outbox port."""

    @property
    def outbox(self) -> Outbox: ...
