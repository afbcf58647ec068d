"""Wire models: request bodies and the objects inside ``data`` of responses.

snake_case here, camelCase on the wire (see :mod:`livecore.api.convert`). Field names and shapes follow
SPEC 2 and DECISIONS 2 and 7 exactly; fields beyond those are additive (SPEC 9 rule 2).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import attrs

from livecore.api.convert import OMIT_IF_NONE
from livecore.identity import Identity
from livecore.players import Player

# --- Shared shapes --------------------------------------------------------------------------------


@attrs.frozen
class IdentityView:
    """``{name, avatar, country}`` (SPEC 2.2)."""

    name: str
    avatar: str | None
    country: str | None

    @classmethod
    def of(cls, identity: Identity, country: str | None) -> IdentityView:
        return cls(name=identity.name, avatar=identity.avatar, country=country)


def display_view(player: Player) -> IdentityView:
    """DECISIONS 7: always an object, the anonymized value when never set."""
    return IdentityView.of(player.display or player.anonymized, player.country)


def anonymized_view(player: Player) -> IdentityView:
    return IdentityView.of(player.anonymized, player.country)


# --- Admin ----------------------------------------------------------------------------------------


@attrs.frozen
class HealthResponse:
    status: str
    version: str
    time: datetime


# --- Server: ping and dev clock -------------------------------------------------------------------


@attrs.frozen
class ServerPingResponse:
    ok: bool
    studio_id: str
    game_id: str
    environment: str
    key_prefix: str
    time: datetime


@attrs.frozen
class ClockAdvanceRequest:
    seconds: float


@attrs.frozen
class ClockAdvanceResponse:
    now: datetime


# --- Players: register and identity ---------------------------------------------------------------


@attrs.frozen
class RegisterRequest:
    """Optional body of register. ``playerContext.country`` overrides the geo-resolved country."""

    player_context: dict[str, Any] | None = None


@attrs.frozen
class RegisterQuery:
    force: bool = False


@attrs.frozen
class RegisterResponse:
    player_id: str
    external_player_id: str
    player_secret: str
    country: str | None
    synthetic_identity: IdentityView
    display_identity: IdentityView
    anonymized_identity: IdentityView


@attrs.frozen
class SetIdentityRequest:
    name: str
    avatar: str | None = None


@attrs.frozen
class IdentityResponse:
    display_identity: IdentityView


# --- Errors (OpenAPI only: the server renders the envelope directly) ------------------------------


@attrs.frozen
class ErrorBody:
    code: str
    message: str
    details: dict[str, Any] | None = attrs.field(default=None, metadata=OMIT_IF_NONE)


@attrs.frozen
class ErrorEnvelope:
    error: ErrorBody
