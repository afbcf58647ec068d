"""Wire views more than one domain shows: a player's identity, the other player of a request or gift, and
the error envelope (declared for the OpenAPI documents; the server renders it directly). Which identity a
player shows is the players area's rule (:mod:`livecore.players.views`).

snake_case here, camelCase on the wire (see :mod:`livecore.api.convert`).
"""

from __future__ import annotations

import enum
from typing import Any, Protocol

import attrs

from livecore.api.convert import OMIT_IF_NONE


class Named(Protocol):
    """A name and an avatar to show: a player's identity, a bot's."""

    @property
    def name(self) -> str: ...

    @property
    def avatar(self) -> str | None: ...


@attrs.frozen
class IdentityView:
    """``{name, avatar, country}`` (docs/reference/players-and-identity.md#identity)."""

    name: str
    avatar: str | None
    country: str | None

    @classmethod
    def of(cls, identity: Named, country: str | None) -> IdentityView:
        return cls(name=identity.name, avatar=identity.avatar, country=country)


@attrs.frozen
class Counterparty:
    external_player_id: str
    display_identity: IdentityView


class Direction(enum.StrEnum):
    INCOMING = "incoming"
    OUTGOING = "outgoing"


@attrs.frozen
class ErrorBody:
    code: str
    message: str
    details: dict[str, Any] | None = attrs.field(default=None, metadata=OMIT_IF_NONE)


@attrs.frozen
class ErrorEnvelope:
    error: ErrorBody
