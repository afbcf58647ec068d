"""``livecore-server rotate-server-key`` (docs/server.md#rotating-the-server-key): every encrypted value
re-encrypted under the ring's current key, in batches.

:data:`ENCRYPTED` names every encrypted column, and the command re-encrypts exactly those: a new one is
a line there. Each batch is a transaction of its own that replaces a value only if it is still the one
read (a process that wrote the row meanwhile wrote it under its own ring's current key), and a value
already under the current key is left as it is; so the command can be stopped at any point and run
again, and a second run changes nothing.

Keyed hashes are not remade (the secrets are not kept): :func:`start` keeps the hash keys of the earlier
server keys in the database, sealed under the current one (``crypto.RETIRED_HASH_KEYS``), so every API
key, player secret, session and erasure made before still works once the earlier key is dropped.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import attrs
from cryptography.exceptions import InvalidTag

from livecore.idempotency import WITHDRAWN
from livecore_server.crypto import (
    KEY_CHECK,
    RETIRED_HASH_KEYS,
    ROTATING,
    Purpose,
    ServerKeyError,
    ServerKeys,
)
from livecore_server.http.endpoint import answer_context
from livecore_server.serving import refuse_lacking
from livecore_server.storage.server_store import ServerStore
from livecore_server.storage.server_transaction import ServerTransaction

BATCH = 500

#: The server_meta row that keeps what the demo printed (livecore_server.demo), sealed, and what the seal
#: is bound to.
DEMO_SECRETS = "demo_secrets"


@attrs.frozen
class Encrypted:
    """An encrypted column: where it is and what each value is bound to."""

    what: str  # as the command's report names it
    table: str
    keys: tuple[str, ...]  # the table's primary key, which the batches walk in order
    column: str
    context: Callable[[tuple[Any, ...]], str]  # the context a row's value is bound to, from its key
    purpose: Purpose
    hex_text: bool = False  # kept as hex in a text column
    where: str = ""  # which rows of the table hold such values (SQL)


ENCRYPTED: tuple[Encrypted, ...] = (
    Encrypted(
        "webhook signing secrets",
        "webhook_endpoints",
        ("id",),
        "secret_enc",
        lambda k: str(k[0]),
        Purpose.SECRET,
    ),
    Encrypted(
        "previous webhook signing secrets",  # a rotated secret's predecessor, during its overlap
        "webhook_endpoints",
        ("id",),
        "previous_secret_enc",
        lambda k: str(k[0]),
        Purpose.SECRET,
        where="previous_secret_enc IS NOT NULL",
    ),
    Encrypted(
        "idempotent answers",
        "idempotency",
        ("scope", "key"),
        "body",
        lambda k: answer_context(str(k[0]), str(k[1])),
        Purpose.ANSWER,
        where=f"fingerprint <> '{WITHDRAWN}'",  # a withdrawn answer's body is empty: nothing to seal
    ),
    Encrypted(
        "the demo's secrets",
        "server_meta",
        ("name",),
        "value",
        lambda k: DEMO_SECRETS,
        Purpose.ANSWER,
        hex_text=True,
        where=f"name = '{DEMO_SECRETS}'",
    ),
)


@attrs.define
class Tally:
    """What a pass over one column did."""

    reencrypted: int = 0
    current: int = 0  # already under the current key
    unreadable: int = 0  # under no key of the ring, or damaged: left as they are


def start(store: ServerStore, keys: ServerKeys, now_ms: int) -> None:
    """Make ``keys``' current key the database's, in one transaction: its check value (a process whose
    ring lacks it is refused from now on), the earlier keys' hash keys sealed under it, and the mark of
    a rotation under way. Refused (:class:`~livecore_server.serving.ServersRunning`) while a server
    whose ring lacks that key holds the database."""

    def run(tx: ServerTransaction) -> None:
        stored = tx.meta.get(KEY_CHECK)
        if stored is not None and not keys.holds(stored):
            raise ServerKeyError("the key ring does not hold the database's key")
        refuse_lacking(tx, keys.key_id.hex())
        retired = keys.earlier_hash_keys(tx.meta.get(RETIRED_HASH_KEYS))
        if retired:
            tx.meta.put(RETIRED_HASH_KEYS, keys.seal_retired(retired), now_ms)
        tx.meta.put(KEY_CHECK, keys.check_value, now_ms)
        tx.meta.put(ROTATING, keys.key_id.hex(), now_ms)

    store.run(run)


def reencrypt(
    store: ServerStore,
    keys: ServerKeys,
    column: Encrypted,
    *,
    batch: int = BATCH,
    after_batch: Callable[[Tally], None] | None = None,
) -> Tally:
    """Every value of ``column`` not under the current key, re-encrypted under it, ``batch`` rows a
    transaction; ``after_batch`` is called after each commits."""
    tally = Tally()
    after: tuple[Any, ...] | None = None

    def one(tx: ServerTransaction) -> tuple[tuple[Any, ...] | None, Tally]:
        done = Tally()
        rows = tx.sealed.page(column.table, column.keys, column.column, after, batch, column.where)
        for key, stored in rows:
            blob = bytes.fromhex(stored) if column.hex_text else bytes(stored)
            context = column.context(key)
            if keys.under_current(blob, context=context, purpose=column.purpose):
                done.current += 1
                continue
            try:
                plain = keys.open(blob, context=context, purpose=column.purpose)
            except (InvalidTag, ServerKeyError):
                done.unreadable += 1
                continue
            sealed = keys.seal(plain, context=context, purpose=column.purpose)
            new = sealed.hex() if column.hex_text else sealed
            if tx.sealed.replace(column.table, column.keys, column.column, key, stored, new):
                done.reencrypted += 1
            else:
                done.current += 1  # written meanwhile, under the writer's current key
        return (rows[-1][0] if len(rows) == batch else None), done

    while True:
        after, done = store.run(one)
        tally.reencrypted += done.reencrypted
        tally.current += done.current
        tally.unreadable += done.unreadable
        if after_batch is not None:
            after_batch(tally)
        if after is None:
            return tally


def finish(store: ServerStore, keys: ServerKeys) -> None:
    """The rotation to ``keys``' current key is done: no value is left under an earlier one."""

    def run(tx: ServerTransaction) -> None:
        if tx.meta.get(ROTATING) == keys.key_id.hex():
            tx.meta.delete(ROTATING)

    store.run(run)


def rotating_to(store: ServerStore) -> str | None:
    """The id (hex) of the key a rotation that has not finished re-encrypts under, if any."""
    return store.run(lambda tx: tx.meta.get(ROTATING), write=False)


def rotate(
    store: ServerStore,
    keys: ServerKeys,
    now_ms: int,
    *,
    batch: int = BATCH,
    after_batch: Callable[[Encrypted, Tally], None] | None = None,
) -> dict[str, Tally]:
    """The whole rotation: :func:`start`, every column of :data:`ENCRYPTED`, and :func:`finish` when
    every value was read (one that was not stays under its key, and the rotation is not done)."""
    start(store, keys, now_ms)
    # A server that checked the database's key just before start committed, and put its mark after it
    # read the marks, is seen now; it has not missed a value yet.
    store.run(lambda tx: refuse_lacking(tx, keys.key_id.hex()), write=False)
    tallies: dict[str, Tally] = {}
    for column in ENCRYPTED:
        told = None if after_batch is None else functools.partial(after_batch, column)
        tallies[column.what] = reencrypt(store, keys, column, batch=batch, after_batch=told)
    if not any(tally.unreadable for tally in tallies.values()):
        finish(store, keys)
    return tallies
