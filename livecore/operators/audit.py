"""The audit log (docs/operators.md#the-audit-log): every operator action writes an entry in the
transaction of its effect, built by :func:`entry`: the operators' own through :func:`record`, every other
area's by the server from its handler's answer (``livecore_server.audit.audited``, through the audit
trail every server transaction opens). ``GET /admin/v1/studios/{studio}/games/{game}/audit`` reads a
game's entries and ``GET /admin/v1/studios/{studio}/audit`` the whole studio's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from livecore.api.admin import with_env
from livecore.commands import Runtime
from livecore.errors import NOT_FOUND, LivecoreError
from livecore.ids import new_id
from livecore.operators import api
from livecore.operators.request import AnyOperatorRequest, OperatorRequest, operator_of
from livecore.operators.rules import AUDIT_ENTRY_ID_PREFIX, AuditEntry
from livecore.operators.store import AuditFilter, AuditLog, OperatorsTx, Studios


class HasAudit(Protocol):
    @property
    def audit(self) -> AuditLog: ...


def record(
    tx: HasAudit,
    request: AnyOperatorRequest,
    target: str,
    *,
    metadata: dict[str, Any] | None = None,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> AuditEntry:
    """The audit entry of the operators' own action ``request`` is taking, written with its effect (every
    other area's is written by the server from its handler's answer, ``livecore_server.audit.audited``)."""
    action = request.route.action
    assert action is not None, request.route.name
    scope = request.scope
    return write(
        tx,
        request.rt,
        operator_of(request).actor(),
        action.value,
        target,
        studio_id=scope.studio_id,
        game_id=scope.game_id or None,
        metadata=with_env(request.route, scope, metadata),
        before=before,
        after=after,
        ip=request.remote,
    )


def entry(
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
) -> AuditEntry:
    """A new audit entry of ``actor``'s ``action``, now."""
    now = rt.clock.now()
    return AuditEntry(
        id=new_id(AUDIT_ENTRY_ID_PREFIX, now, rt.rng),
        studio_id=studio_id,
        game_id=game_id,
        at=now,
        actor=dict(actor),
        action=action,
        target=target,
        metadata=dict(metadata or {}),
        before=None if before is None else dict(before),
        after=None if after is None else dict(after),
        ip=ip,
    )


def write(
    tx: HasAudit,
    rt: Runtime,
    actor: dict[str, Any],
    action: str,
    target: str,
    *,
    studio_id: str,
    game_id: str | None = None,
    metadata: dict[str, Any] | None = None,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    ip: str | None = None,
) -> AuditEntry:
    """An audit entry of ``actor``'s ``action`` (sign-in and sign-out write theirs here directly)."""
    written = entry(
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
    tx.audit.insert(written)
    return written


def view(entry: AuditEntry) -> api.AuditEntryView:
    return api.AuditEntryView(
        id=entry.id,
        at=entry.at,
        game_id=entry.game_id,
        actor=entry.actor,
        action=entry.action,
        target=entry.target,
        metadata=entry.metadata,
        before=entry.before,
        after=entry.after,
        ip=entry.ip,
    )


def game_ref(studios: Studios, studio_id: str, ref: str) -> str | None:
    """The id of the studio's game named by key or id, or None."""
    if ref.startswith("gam_"):
        return ref if any(game_id == ref for game_id, _, _ in studios.games_of(studio_id)) else None
    return studios.game_id(studio_id, ref)


def audit_log(request: OperatorRequest[None, api.AuditQuery], tx: OperatorsTx) -> api.AuditResponse:
    """The studio's log: every game's entries and the studio's own, or one game's when ``game`` names it."""
    game_id = None
    if request.query.game is not None:
        game_id = game_ref(tx.manifest, request.scope.studio_id, request.query.game)
        if game_id is None:
            raise LivecoreError(NOT_FOUND, "The studio has no such game.", {"game": request.query.game})
    return _page(tx, request.scope.studio_id, game_id, request.query)


def game_audit_log(request: OperatorRequest[None, api.GameAuditQuery], tx: OperatorsTx) -> api.AuditResponse:
    """The path's game's log (its admission resolved the game: 404 for one the studio does not have)."""
    return _page(tx, request.scope.studio_id, request.scope.game_id, request.query)


def _page(tx: HasAudit, studio_id: str, game_id: str | None, q: api.GameAuditQuery) -> api.AuditResponse:
    rows = tx.audit.page(
        studio_id,
        AuditFilter(
            game_id=game_id, action=q.action, target=q.target, member_id=q.member, before_seq=q.before
        ),
        q.limit + 1,
    )
    page = rows[: q.limit]
    return api.AuditResponse(
        entries=[view(e) for _, e in page], next_before=page[-1][0] if len(rows) > q.limit else None
    )
