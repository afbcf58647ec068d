"""Domain events: what a command tells the studio through webhooks (SPEC 6).

A command emits events into its transaction; the store writes them to the outbox in the same
transaction as the change (issue #3 delivers them). ``data`` is the per-kind payload exactly as SPEC 6.2
names its fields (camelCase), built by the rule that caused it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import attrs

from livecore.scope import Environment


@attrs.frozen
class DomainEvent:
    id: str
    kind: str
    studio_id: str
    game_id: str
    env: Environment
    occurred_at: datetime
    data: dict[str, Any]
