"""Wire views more than one domain shows: a player's identity, the other player of a request or gift, and
the error envelope (declared for the OpenAPI documents; the server renders it directly).

snake_case here, camelCase on the wire (see :mod:`livecore.api.convert`).
"""

from __future__ import annotations

import enum
from typing import Any

import attrs

from livecore.api.convert import OMIT_IF_NONE
from livecore.players.identity import Identity
from livecore.players.rules import Player, PlayerCard


@attrs.frozen
class IdentityView:
    """``{name, avatar, country}`` (docs/reference/players-and-identity.md#identity)."""

    name: str
    avatar: str | None
    country: str | None

    @classmethod
    def of(cls, identity: Identity, country: str | None) -> IdentityView:
        return cls(name=identity.name, avatar=identity.avatar, country=country)


def display_view(player: Player | PlayerCard) -> IdentityView:
    """Always an object, the anonymized value when never set
    (docs/reference/players-and-identity.md#identity); a card holds the one to show."""
    if isinstance(player, PlayerCard):
        return IdentityView.of(player.identity, player.country)
    return IdentityView.of(player.display or player.anonymized, player.country)


def anonymized_view(player: Player) -> IdentityView:
    return IdentityView.of(player.anonymized, player.country)


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
