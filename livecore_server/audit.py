"""The audit log's writes outside the operators' own routes, in the transaction of their effect
(docs/operators.md#the-audit-log): a player's registration (:func:`write`, from the players area's server
package) and a write of any other area's admin action (:func:`audited`). Both reach the log as the audit
trail every server transaction opens (``tx.audit``, :class:`livecore.api.admin.AuditTrail`; the operators
area keeps it, ``livecore_server.operators.sql.audit``), so no area's package is named here."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, cast

import attrs

from livecore.api.admin import AreaAction, Audited, AuditTrail, HasAuditTrail, with_env
from livecore.commands import Runtime
from livecore_server.http.endpoint import AnyCall, Binding, TxHandler


def trail(tx: object) -> AuditTrail:
    """The audit trail of a server transaction (every one opens it)."""
    return cast(HasAuditTrail, tx).audit


def write(
    tx: object,
    rt: Runtime,
    actor: Mapping[str, Any],
    action: str,
    target: str,
    *,
    studio_id: str,
    game_id: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    ip: str | None = None,
) -> None:
    """An audit entry of ``actor``'s ``action``, written with ``tx``."""
    trail(tx).write(rt, actor, action, target, studio_id=studio_id, game_id=game_id, metadata=metadata, ip=ip)


def audited(binding: Binding) -> Binding:
    """``binding``, writing the audit entry of its route's action (an area's,
    :class:`livecore.api.admin.AreaAction`, a write) in the transaction of its effect, as every operator
    action does: the area's handler cannot forget it, and a refusal writes none. A handler that answers
    :class:`~livecore.api.admin.Audited` says what the entry records (its target, metadata, before and
    after); any other answer is recorded with the target its action names and the route's name. Any other
    binding is returned as it is."""
    action = binding.route.action
    if not isinstance(action, AreaAction) or not action.is_write or not binding.transactional:
        return binding
    handler = cast(TxHandler, binding.handler)

    @functools.wraps(handler)
    def run(call: AnyCall, tx: Any) -> Any:
        answer = handler(call, tx)
        scope = call.scope
        if isinstance(answer, Audited):
            said: Audited[Any] = answer
        else:
            target = call.params.get(action.target) if action.target is not None else None
            said = Audited(answer, target or scope.game_id or scope.studio_id, {"route": call.route.name})
        member = call.operator
        assert member is not None, call.route.name
        trail(tx).write(
            call.rt,
            member.actor(),
            action.value,
            said.target,
            studio_id=scope.studio_id,
            game_id=scope.game_id or None,
            metadata=with_env(call.route, scope, said.metadata),
            before=said.before,
            after=said.after,
            ip=call.remote,
        )
        return said.answer

    return attrs.evolve(binding, handler=run)
