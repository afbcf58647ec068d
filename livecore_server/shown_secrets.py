"""Answers kept under idempotency keys that show a secret (docs/reference/conventions.md#idempotency).

An answer that shows a secret (a register's or a rotation's player secret, a webhook endpoint's signing
secret) is kept sealed for 24 hours so that a client that lost it gets it back. It is kept only while
that secret is the one in force: the write that replaces the secret (a later rotation, an erasure or a
merge of the player) withdraws every kept answer that shows one of its holder's, in its own transaction,
and the WAL is emptied once it commits (docs/server.md#secrets-at-rest). A replay of a withdrawn answer
is 409 ``idempotency_conflict`` (``livecore.idempotency.check_replay``): the write is not applied again,
and the secret is not shown twice.

An answer is marked with its secret's holder by the handler that mints the secret
(:func:`shown`), and stored marked by the route's idempotency step; the mark is a column of its own, so
that finding a holder's answers depends neither on the record's scope nor on its sealed body.
"""

from __future__ import annotations

from livecore_server.storage.server_store import ServerStore, ServerTransaction


def webhook_endpoint(endpoint_id: str) -> str:
    """The holder of an endpoint's signing secrets."""
    return f"webhook:{endpoint_id}"


def player(game_id: str, external_id: str) -> str:
    """The holder of a player's secret."""
    return f"player:{game_id}:{external_id}"


def shown(tx: ServerTransaction, idempotency_key: str | None, holder: str) -> None:
    """The running write's answer shows a secret of ``holder``: its kept answer (if it is kept under a
    key) is withdrawn when that secret is replaced."""
    tx.idempotency.shows_secret(idempotency_key, holder)


def replaced(tx: ServerTransaction, store: ServerStore, holder: str, *, dropped: bool = False) -> None:
    """``holder``'s secret in force was replaced by the running write: the kept answers that show one of
    its earlier secrets are withdrawn. When anything secret left the database (answers withdrawn, or
    ``dropped``: a secret's ciphertext deleted), the store's journal is emptied once this commits, so the
    pages' earlier versions do not keep it."""
    if tx.idempotency.withdraw(holder) or dropped:
        store.scrub_journal()
