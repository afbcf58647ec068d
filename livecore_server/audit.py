"""The audit log's writes outside the operator routes, in the transaction of their effect
(docs/operators.md#the-audit-log): a player's registration (:func:`write`, from the players area's server
package) and a write of a studio's area's own admin action (:func:`audited`). The entry is the core's
(:mod:`livecore.operators.audit`); every server transaction opens the operators' audit port."""

from __future__ import annotations

from typing import Any, cast

import attrs

from livecore.commands import Runtime
from livecore.operators import audit
from livecore.operators.area_action import AreaAction
from livecore.operators.rules import AuditEntry
from livecore_server.http.endpoint import AnyCall, Binding, TxHandler
from livecore_server.storage.server_transaction import ServerTransaction


def write(
    tx: ServerTransaction,
    rt: Runtime,
    actor: dict[str, Any],
    action: str,
    target: str,
    *,
    studio_id: str,
    game_id: str | None = None,
    metadata: dict[str, Any] | None = None,
    ip: str | None = None,
) -> AuditEntry:
    """An audit entry of ``actor``'s ``action`` (:func:`livecore.operators.audit.write`)."""
    return audit.write(
        cast(audit.HasAudit, tx),
        rt,
        actor,
        action,
        target,
        studio_id=studio_id,
        game_id=game_id,
        metadata=metadata,
        ip=ip,
    )


def audited(binding: Binding) -> Binding:
    """``binding``, writing the audit entry of its route's action (an area's own,
    :class:`livecore.operators.area_action.AreaAction`, a write) in the transaction of its effect, as
    every operator action does: the area's handler cannot forget it, and a refusal writes none. Any other
    binding is returned as it is."""
    action = binding.route.action
    if not isinstance(action, AreaAction) or not action.is_write or not binding.transactional:
        return binding
    handler = cast(TxHandler, binding.handler)

    def run(call: AnyCall, tx: Any) -> Any:
        answer = handler(call, tx)
        target = call.params.get(action.target) if action.target is not None else None
        audit.record(
            tx,
            call,
            target or call.scope.game_id or call.scope.studio_id,
            metadata={"route": call.route.name},
        )
        return answer

    return attrs.evolve(binding, handler=run)
