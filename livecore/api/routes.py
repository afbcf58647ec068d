"""Route declarations: every route of the service, once.

A :class:`Route` says everything both ends need: method and path, the auth it takes, its rate-limit
bucket, how idempotency applies, the request and response models and the success status. The server
binds a handler to each route by name; the clients call routes by these declarations; the OpenAPI
documents are generated from them.
"""

from __future__ import annotations

import enum
from datetime import date

import attrs

from livecore.api import models as m
from livecore.errors import ErrorCode
from livecore.ratelimit import BucketName
from livecore.scope import Permission


class Surface(enum.StrEnum):
    SDK = "/sdk/v1"
    SERVER = "/server/v1"
    ADMIN = "/admin/v1"


class Auth(enum.Enum):
    PUBLIC = "public"
    KEY = "key"  # API key of the surface's permission
    PLAYER = "player"  # client key plus the player's secret for ``{externalId}``


class Idempotency(enum.Enum):
    NONE = "none"  # reads
    OPTIONAL = "optional"  # SDK writes: applied when the client sends a key (our SDKs always do)
    REQUIRED = "required"  # server writes (DECISIONS 7): a missing key is a 400


def bucket_for(surface: Surface, method: str) -> BucketName:
    """SPEC 8: SDK reads and writes are limited apart; server and admin have one bucket each."""
    if surface is Surface.SDK:
        return BucketName.SDK_READ if method in ("GET", "HEAD") else BucketName.SDK_WRITE
    return BucketName.SERVER_API if surface is Surface.SERVER else BucketName.ADMIN


def permission_for(surface: Surface) -> Permission:
    return Permission.CLIENT_SDK if surface is Surface.SDK else Permission.SERVER_INTEGRATION


@attrs.frozen
class Deprecation:
    """SPEC 9 rule 3: ``Deprecation: true``, then ``Sunset``, successor ``Link`` and a reason."""

    reason: str
    sunset: date | None = None
    successor: str | None = None


@attrs.frozen
class Route:
    name: str
    surface: Surface
    method: str
    path: str
    summary: str
    auth: Auth = Auth.KEY
    status: int = 200
    request: type | None = None
    request_optional: bool = False
    response: type | None = None
    query: type | None = None  # attrs model of the query parameters
    idempotency: Idempotency = Idempotency.NONE
    # SPEC names an ``idempotencyKey`` body field for this route (else only the header is read).
    body_idempotency_field: bool = False
    test_only: bool = False  # test-environment key only; a live key gets 403
    deprecated: Deprecation | None = None
    errors: tuple[ErrorCode, ...] = ()

    @property
    def full_path(self) -> str:
        return f"{self.surface.value}{self.path}"

    @property
    def permission(self) -> Permission | None:
        return None if self.auth is Auth.PUBLIC else permission_for(self.surface)

    @property
    def bucket(self) -> BucketName:
        return bucket_for(self.surface, self.method)

    @property
    def is_write(self) -> bool:
        return self.method not in ("GET", "HEAD", "OPTIONS")


HEALTH = Route(
    name="health",
    surface=Surface.ADMIN,
    method="GET",
    path="/health",
    summary="Public liveness probe.",
    auth=Auth.PUBLIC,
    response=m.HealthResponse,
)

PING = Route(
    name="ping",
    surface=Surface.SERVER,
    method="GET",
    path="/ping",
    summary="Connectivity and key probe.",
    response=m.ServerPingResponse,
)

CLOCK_ADVANCE = Route(
    name="dev.clock_advance",
    surface=Surface.SERVER,
    method="POST",
    path="/dev/clock/advance",
    summary="Move the manual clock forward and run the work that came due (serve --clock manual only).",
    request=m.ClockAdvanceRequest,
    response=m.ClockAdvanceResponse,
    test_only=True,
    errors=(ErrorCode.NOT_FOUND,),
)

REGISTER = Route(
    name="players.register",
    surface=Surface.SDK,
    method="POST",
    path="/players/{externalId}/register",
    summary="Register a player and mint its secret (force=true rotates it, test keys only).",
    status=201,
    request=m.RegisterRequest,
    request_optional=True,
    response=m.RegisterResponse,
    query=m.RegisterQuery,
    idempotency=Idempotency.OPTIONAL,
    errors=(
        ErrorCode.PLAYER_ALREADY_REGISTERED,
        ErrorCode.PLAYER_BANNED,
        ErrorCode.PLAYER_NOT_FOUND,
        ErrorCode.PERMISSION_DENIED,
    ),
)

SDK_SET_IDENTITY = Route(
    name="players.set_identity",
    surface=Surface.SDK,
    method="PUT",
    path="/players/{externalId}/identity",
    summary="Set the player's own display identity.",
    auth=Auth.PLAYER,
    request=m.SetIdentityRequest,
    response=m.IdentityResponse,
    idempotency=Idempotency.OPTIONAL,
    errors=(ErrorCode.PLAYER_SECRET_INVALID, ErrorCode.PLAYER_BANNED, ErrorCode.PLAYER_NOT_FOUND),
)

SERVER_SET_IDENTITY = Route(
    name="server.players.set_identity",
    surface=Surface.SERVER,
    method="PUT",
    path="/players/{externalId}/identity",
    summary="Set a player's display identity from the studio backend.",
    request=m.SetIdentityRequest,
    response=m.IdentityResponse,
    idempotency=Idempotency.REQUIRED,
    errors=(ErrorCode.PLAYER_NOT_FOUND,),
)

ALL: tuple[Route, ...] = (HEALTH, PING, CLOCK_ADVANCE, REGISTER, SDK_SET_IDENTITY, SERVER_SET_IDENTITY)
BY_NAME: dict[str, Route] = {r.name: r for r in ALL}
