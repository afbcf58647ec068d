"""Who is asking: every request is scoped to one studio, game and environment, derived from the API key
(docs/reference/conventions.md#surfaces-and-credentials), and acts as an actor that webhooks and audit records
name."""

from __future__ import annotations

import enum
from typing import Any

import attrs


class Environment(enum.StrEnum):
    TEST = "test"
    LIVE = "live"


class Permission(enum.StrEnum):
    CLIENT_SDK = "client_sdk"
    SERVER_INTEGRATION = "server_integration"


@attrs.frozen
class Actor:
    """``{kind:'api_key', prefix}`` for keys, ``{kind:'member', memberId}`` for operators,
    ``{kind:'system'}`` for workers (docs/reference/webhooks.md#kinds)."""

    kind: str
    prefix: str | None = None
    member_id: str | None = None

    def to_wire(self) -> dict[str, Any]:
        if self.member_id is not None:
            return {"kind": self.kind, "memberId": self.member_id}
        return {"kind": self.kind, "prefix": self.prefix} if self.prefix else {"kind": self.kind}


def member_actor(member_id: str) -> Actor:
    return Actor(kind="member", member_id=member_id)


SYSTEM = Actor(kind="system")


@attrs.frozen
class Scope:
    studio_id: str
    game_id: str
    env: Environment
    actor: Actor = SYSTEM
