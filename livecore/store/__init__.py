"""The store port: what commands need from storage, one ``typing.Protocol`` per aggregate.

Commands run inside one transaction; everything they write, including the events they emit, commits
together or not at all. A transaction reaches each aggregate's port by an attribute (``tx.players``,
``tx.gifts``, ...), and a command is typed against only the ports it uses: its own protocol combines the
``Has...`` holders it needs, each imported from the module that declares it: the shared ports here
(:mod:`livecore.store.games`, :mod:`livecore.store.outbox`, :mod:`livecore.store.idempotency`), an area's
in its own ``store`` module (``livecore.gifts.store.HasGifts``). The protocol of every port at once,
:class:`livecore.transaction.Transaction`, is the assembly's (docs/architecture.md, "The assembly"):
it names every area, so no area's code is typed against it.
``livecore.memory`` implements every port in memory (simulation and tests); ``livecore_server.storage``
implements them on SQLite and PostgreSQL, so the same command code runs embedded and in the server.

Records go in and out whole (frozen attrs values); a store never applies a rule of its own.
"""

from __future__ import annotations

from livecore.store.games import GameStore, HasGames
from livecore.store.idempotency import HasIdempotency, IdempotencyStore
from livecore.store.outbox import HasOutbox, Outbox

__all__ = ["GameStore", "HasGames", "HasIdempotency", "HasOutbox", "IdempotencyStore", "Outbox"]
