"""Which server processes hold the database, and with which key ring (docs/server.md#rotating-the-server-key).

A rotation re-encrypts under its key every value the servers read: a server whose ring lacks that key
answers what it can no longer open with errors until it restarts. So each ``serve`` (and ``demo``)
process keeps a mark in table ``server_meta`` while it runs, naming the ids of its ring's keys, and
``rotate-server-key`` refuses while a live mark lacks the key it rotates to. A mark carries a lease of
:data:`LEASE_SECONDS` of wall-clock time (a manual clock's service time does not move on its own), which
the process's housekeeping renews every :data:`RENEW_SECONDS`; it is deleted as the process stops, and
the mark of a process that was killed stops counting when its lease runs out. It is the same on both
stores: the database is what every process and the command share.
"""

from __future__ import annotations

import os
import secrets
import socket
import time

import attrs
import orjson

from livecore_server.crypto import KEY_CHECK, ServerKeyError, ServerKeys
from livecore_server.storage.server_store import ServerStore
from livecore_server.storage.server_transaction import ServerTransaction

PREFIX = "serving:"
LEASE_SECONDS = 30.0
RENEW_SECONDS = 10.0


def wall_ms() -> int:
    return int(time.time() * 1000)


@attrs.frozen
class Mark:
    """A serving process as its mark names it."""

    process: str
    pid: int
    host: str
    ring: tuple[str, ...]  # its ring's key ids (hex)
    until_ms: int

    def __str__(self) -> str:
        return f"pid {self.pid} on {self.host}"


class ServersRunning(RuntimeError):
    """Servers hold the database with rings that lack the key a rotation is to re-encrypt under."""

    def __init__(self, key_id: str, marks: list[Mark]) -> None:
        which = ", ".join(str(mark) for mark in marks)
        one = len(marks) == 1
        super().__init__(
            f"{len(marks)} server process{'' if one else 'es'} ({which}) {'holds' if one else 'hold'} this"
            f" database with a key ring that lacks key {key_id}, and would no longer read what the rotation"
            f" re-encrypts: stop {'it' if one else 'them'} (or restart {'it' if one else 'them'} with that"
            " key in the ring) and run the command again; nothing was changed. A server killed without"
            f" stopping counts for up to {LEASE_SECONDS:.0f} s."
        )


def _marks(tx: ServerTransaction) -> list[Mark]:
    marks = []
    for name, value in sorted(tx.meta.starting_with(PREFIX).items()):
        held = orjson.loads(value)
        marks.append(
            Mark(name.removeprefix(PREFIX), held["pid"], held["host"], tuple(held["ring"]), held["until"])
        )
    return marks


def refuse_lacking(tx: ServerTransaction, key_id: str) -> None:
    """Raise :class:`ServersRunning` if a live mark's ring lacks the key ``key_id`` (hex)."""
    now_ms = wall_ms()
    lacking = [mark for mark in _marks(tx) if mark.until_ms > now_ms and key_id not in mark.ring]
    if lacking:
        raise ServersRunning(key_id, lacking)


class ServingMark:
    """This process's mark: put as it starts serving, renewed by its housekeeping, deleted as it stops."""

    def __init__(self, store: ServerStore, keys: ServerKeys) -> None:
        self._store = store
        self._keys = keys
        self._name = f"{PREFIX}proc_{secrets.token_hex(8)}"
        self._held = {"pid": os.getpid(), "host": socket.gethostname(), "ring": list(keys.ring_ids)}
        self._renewed_ms = 0

    def _value(self, now_ms: int) -> str:
        return orjson.dumps({**self._held, "until": now_ms + int(LEASE_SECONDS * 1000)}).decode()

    def put(self) -> None:
        """The mark of this process, and the marks of processes whose lease ran out deleted."""
        now_ms = wall_ms()
        value = self._value(now_ms)

        def run(tx: ServerTransaction) -> None:
            for mark in _marks(tx):
                if mark.until_ms <= now_ms:
                    tx.meta.delete(PREFIX + mark.process)
            tx.meta.put(self._name, value, now_ms)

        self._store.run(run)
        self._renewed_ms = now_ms
        # Read after the mark is committed: a rotation that read the marks before it did had already made
        # its key the database's, and is seen here.
        stored = self._store.run(lambda tx: tx.meta.get(KEY_CHECK), write=False)
        if stored is not None and not self._keys.holds(stored):
            self.remove()
            raise ServerKeyError(
                "the server key was rotated as this server started, to a key its ring lacks: start it with"
                " the database's new key (docs/server.md#rotating-the-server-key)"
            )

    async def renew(self) -> None:
        """A fresh lease, once :data:`RENEW_SECONDS` have passed since the last."""
        now_ms = wall_ms()
        if now_ms - self._renewed_ms < RENEW_SECONDS * 1000:
            return
        value = self._value(now_ms)
        await self._store.run_async(lambda tx: tx.meta.put(self._name, value, now_ms))
        self._renewed_ms = now_ms

    def remove(self) -> None:
        self._store.run(lambda tx: tx.meta.delete(self._name))
