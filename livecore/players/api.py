"""Players and identity: register (the player's secret) and the display identity."""

from __future__ import annotations

from typing import Any

import attrs

from livecore.api.route import Auth, Idempotency, Route, Surface
from livecore.api.views import IdentityView
from livecore.errors import PERMISSION_DENIED
from livecore.limits import FREE_FORM, limited
from livecore.players.errors import (
    PLAYER_ALREADY_REGISTERED,
    PLAYER_BANNED,
    PLAYER_NOT_FOUND,
    PLAYER_SECRET_INVALID,
)
from livecore.players.identity import AVATAR, NAME


@attrs.frozen
class RegisterRequest:
    """Optional body of register. ``playerContext.country`` overrides the geo-resolved country."""

    player_context: dict[str, Any] | None = attrs.field(default=None, metadata=limited(FREE_FORM))


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
    name: str = attrs.field(metadata=limited(NAME))
    avatar: str | None = attrs.field(default=None, metadata=limited(AVATAR))


@attrs.frozen
class IdentityResponse:
    display_identity: IdentityView


REGISTER = Route(
    name="players.register",
    surface=Surface.SDK,
    method="POST",
    path="/players/{externalId}/register",
    summary="Register a player and mint its secret (force=true rotates it, test keys only).",
    status=201,
    request=RegisterRequest,
    request_optional=True,
    response=RegisterResponse,
    query=RegisterQuery,
    idempotency=Idempotency.OPTIONAL,
    errors=(
        PLAYER_ALREADY_REGISTERED,
        PLAYER_BANNED,
        PLAYER_NOT_FOUND,
        PERMISSION_DENIED,
    ),
)


SDK_SET_IDENTITY = Route(
    name="players.set_identity",
    surface=Surface.SDK,
    method="PUT",
    path="/players/{externalId}/identity",
    summary="Set the player's own display identity.",
    auth=Auth.PLAYER,
    request=SetIdentityRequest,
    response=IdentityResponse,
    idempotency=Idempotency.OPTIONAL,
    errors=(PLAYER_SECRET_INVALID, PLAYER_BANNED, PLAYER_NOT_FOUND),
)


SERVER_SET_IDENTITY = Route(
    name="server.players.set_identity",
    surface=Surface.SERVER,
    method="PUT",
    path="/players/{externalId}/identity",
    summary="Set a player's display identity from the studio backend.",
    request=SetIdentityRequest,
    response=IdentityResponse,
    idempotency=Idempotency.REQUIRED,
    errors=(PLAYER_NOT_FOUND,),
)

ROUTES = (REGISTER, SDK_SET_IDENTITY, SERVER_SET_IDENTITY)
