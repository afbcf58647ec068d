"""The operators' ports in SQL, for SQLite and PostgreSQL: the studio's members with their sessions and
personal keys (``tx.members``), and the audit log (``tx.audit``); a transaction of a server serving the
operators area reaches them (:class:`OperatorsTransaction`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, cast

from livecore_server.operators.sql.audit import SqlAudit
from livecore_server.operators.sql.members import SqlMembers
from livecore_server.storage.server_transaction import ServerTransaction
from livecore_server.storage.sqlport import Dialects, SqlPort

SQL_PORTS: Mapping[str, type[SqlPort] | Dialects] = {"members": SqlMembers, "audit": SqlAudit}


class OperatorsTransaction(ServerTransaction, Protocol):
    """A server transaction with the operators' own ports."""

    @property
    def members(self) -> SqlMembers: ...
    @property
    def audit(self) -> SqlAudit: ...


def operators_tx(tx: ServerTransaction) -> OperatorsTransaction:
    """``tx``, with the operators' ports: every server serves the operators area, so every transaction
    of its store opens them."""
    return cast(OperatorsTransaction, tx)
