"""The audit port in SQL (server-only): operator actions, written in the transaction of their effect and
read newest first by keyset (docs/operators.md#the-audit-log)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

from livecore.clock import from_millis, to_millis
from livecore.commands import Runtime
from livecore.operators import audit
from livecore.operators.rules import AuditEntry
from livecore.operators.store import AuditFilter
from livecore_server.storage.columns import Columns
from livecore_server.storage.sqlport import SqlPort


def _json(value: Any) -> Any:
    """A nullable JSON column (text on SQLite, its bytes on PostgreSQL)."""
    return None if value is None else orjson.loads(value)


def _dumps(value: Any) -> str | None:
    return None if value is None else orjson.dumps(value).decode()


def _entry(
    seq: Any,
    id: Any,
    studio_id: Any,
    game_id: Any,
    at: Any,
    actor: Any,
    action: Any,
    target: Any,
    metadata: Any,
    before: Any,
    after: Any,
    ip: Any,
) -> tuple[int, AuditEntry]:
    """An entry with its keyset position."""
    return int(seq), AuditEntry(
        id=id,
        studio_id=studio_id,
        game_id=game_id,
        at=from_millis(at),
        actor=_json(actor),
        action=action,
        target=target,
        metadata=_json(metadata),
        before=_json(before),
        after=_json(after),
        ip=ip,
    )


_ENTRY_COLUMNS = Columns(_entry)


class SqlAudit(SqlPort):
    """The audit log, and the audit trail every server transaction opens
    (:class:`livecore.api.admin.AuditTrail`)."""

    __slots__ = ()

    def write(
        self,
        rt: Runtime,
        actor: Mapping[str, Any],
        action: str,
        target: str,
        *,
        studio_id: str,
        game_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        before: Mapping[str, Any] | None = None,
        after: Mapping[str, Any] | None = None,
        ip: str | None = None,
    ) -> None:
        self.insert(
            audit.entry(
                rt,
                actor,
                action,
                target,
                studio_id=studio_id,
                game_id=game_id,
                metadata=metadata,
                before=before,
                after=after,
                ip=ip,
            )
        )

    def insert(self, entry: AuditEntry) -> None:
        # Nobody reads its answer: on PostgreSQL it travels with the next statement that waits.
        self.db.write(
            "audit_log",
            "INSERT INTO audit_log"
            " (id, studio_id, game_id, at, actor, member_id, action, target, metadata, before, after, ip)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                entry.id,
                entry.studio_id,
                entry.game_id,
                to_millis(entry.at),
                _dumps(entry.actor),
                entry.actor.get("memberId"),
                entry.action,
                entry.target,
                _dumps(entry.metadata),
                _dumps(entry.before),
                _dumps(entry.after),
                entry.ip,
            ),
        )

    def page(self, studio_id: str, where: AuditFilter, limit: int) -> list[tuple[int, AuditEntry]]:
        """The studio's entries matching ``where``, newest first, at most ``limit``; each with its keyset
        position (pass the last one's as ``before_seq`` for the next page)."""
        clauses = ["studio_id = ?"]
        params: list[Any] = [studio_id]
        for column, value in (
            ("game_id", where.game_id),
            ("action", where.action),
            ("target", where.target),
            ("member_id", where.member_id),
        ):
            if value is not None:
                clauses.append(f"{column} = ?")
                params.append(value)
        if where.before_seq is not None:
            clauses.append("seq < ?")
            params.append(where.before_seq)
        params.append(limit)
        rows = self.db.read(
            f"SELECT {_ENTRY_COLUMNS.sql} FROM audit_log WHERE {' AND '.join(clauses)}"
            " ORDER BY seq DESC LIMIT ?",
            params,
        ).fetchall()
        return [_ENTRY_COLUMNS.of(r) for r in rows]
