"""The audit log's write for an action outside the operator routes (a player's registration, from the
players area's server package): the core's (:func:`livecore.operators.audit.write`)."""

from __future__ import annotations

from livecore.operators.audit import write

__all__ = ["write"]
