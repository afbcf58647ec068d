"""The outbox port in memory."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

import attrs

from livecore.events import DEBOUNCE, DomainEvent
from livecore.memory.journal import MemoryPort


class _Outbox(Protocol):
    outbox: list[DomainEvent]
    bursts: dict[str, tuple[int, datetime]]  # debounce key -> (outbox index, first time)


class MemoryOutbox(MemoryPort[_Outbox]):
    __slots__ = ()

    def emit(self, event: DomainEvent) -> None:
        outbox = self._s.outbox
        bursts = self._s.bursts
        key = event.debounce_key
        if key is not None and key in bursts:
            index, started = bursts[key]
            # Same rule as the server's outbox: within DEBOUNCE of the burst's first event, the burst's
            # one event takes the latest state (and time), keeping the first event's id.
            if event.occurred_at < started + DEBOUNCE:
                previous = outbox[index]
                outbox[index] = attrs.evolve(previous, payload=event.payload, occurred_at=event.occurred_at)
                self._tx.undo.append(lambda: outbox.__setitem__(index, previous))
                return
        if key is not None:
            self._tx.put(bursts, key, (len(outbox), event.occurred_at))
        outbox.append(event)
        self._tx.undo.append(outbox.pop)
