"""What a route declaration is: :class:`Route`, its surface, auth and idempotency, and the builders and
error lists the domain modules share.

A :class:`Route` says everything both ends need: method and path, the auth it takes, its rate-limit
bucket, how idempotency applies, the request and response models and the success status. The server
binds a handler to each route by name; the clients call routes by these declarations; the OpenAPI
documents are generated from them.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from datetime import date
from typing import Any

import attrs

from livecore.contributions import Point, served
from livecore.errors import Code
from livecore.ratelimit import BucketName
from livecore.roles import OperatorAction
from livecore.scope import Permission


class Surface(enum.StrEnum):
    SDK = "/sdk/v1"
    SERVER = "/server/v1"
    ADMIN = "/admin/v1"


class Auth(enum.Enum):
    PUBLIC = "public"
    KEY = "key"  # API key of the surface's permission
    PLAYER = "player"  # client key plus the player's secret for ``{externalId}``
    # The client key; the player's secret for ``{externalId}`` when the request sends one (then checked
    # as for PLAYER, and the answer says more).
    KEY_OR_PLAYER = "key_or_player"
    # A member: a portal session (its cookie, and ``X-CSRF-Token`` on writes) or a personal key
    # (``Authorization: Bearer svc_pk_...``), allowed the route's operator action (docs/operators.md).
    MEMBER = "member"


class Idempotency(enum.Enum):
    NONE = "none"  # reads
    OPTIONAL = "optional"  # SDK writes: applied when the client sends a key (our SDKs always do)
    REQUIRED = "required"  # server writes (docs/reference/conventions.md): a missing key is a 400


def bucket_for(surface: Surface, method: str) -> BucketName:
    """docs/reference/conventions.md#limits: SDK reads and writes are limited apart; server and admin have one
    bucket each."""
    if surface is Surface.SDK:
        return BucketName.SDK_READ if method in ("GET", "HEAD") else BucketName.SDK_WRITE
    return BucketName.SERVER_API if surface is Surface.SERVER else BucketName.ADMIN


def permission_for(surface: Surface) -> Permission:
    return Permission.CLIENT_SDK if surface is Surface.SDK else Permission.SERVER_INTEGRATION


@attrs.frozen
class Deprecation:
    """docs/reference/conventions.md#versioning-and-deprecation: ``Deprecation: true``, then ``Sunset``,
    successor ``Link`` and a reason."""

    reason: str
    sunset: date | None = None
    successor: str | None = None


# The hash is kept: a route is a key of the handler tables every simulated call looks up, and hashing its
# every field (its errors' codes among them) each time showed in a season's profile.
@attrs.frozen(cache_hash=True)
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
    response: Any = None  # an attrs model, or list[model] where the contract answers a bare array
    query: type | None = None  # attrs model of the query parameters
    idempotency: Idempotency = Idempotency.NONE
    # The route's body has an ``idempotencyKey`` field (else only the header is read).
    body_idempotency_field: bool = False
    # The body field the command itself keys the write on (a replay answers 200 with the record it made):
    # the route then takes no idempotency key (``Idempotency.NONE``), an ``Idempotency-Key`` header is
    # ignored.
    idempotent_on: str | None = None
    test_only: bool = False  # test-environment key only; a live key gets 403
    deprecated: Deprecation | None = None
    # The refusals the route declares; what other areas add to it is read with :func:`refusals`.
    errors: tuple[Code, ...] = ()
    # Record ids of the path whose not-found code is the route's own rather than the one the server gives
    # that name (``requestId`` names a friend request, a guild's join request or a help request).
    record_ids: tuple[tuple[str, Code], ...] = ()
    # A server-sent events route: each event's name and the model of its JSON ``data``. Its answer is
    # ``text/event-stream``, not the JSON envelope (errors before the stream starts still are).
    stream: tuple[tuple[str, type], ...] = ()
    # An admin route's operator action (``Auth.MEMBER``): the service's own, or a studio's area's, each
    # admitted by role (livecore.operators.area_action).
    action: OperatorAction | None = None

    def __attrs_post_init__(self) -> None:
        if self.idempotent_on is not None and self.idempotency is not Idempotency.NONE:
            raise ValueError(f"{self.name}: a route keyed on a body field takes no idempotency key")

    @property
    def full_path(self) -> str:
        return f"{self.surface.value}{self.path}"

    @property
    def permission(self) -> Permission | None:
        return None if self.auth in (Auth.PUBLIC, Auth.MEMBER) else permission_for(self.surface)

    @property
    def bucket(self) -> BucketName:
        return bucket_for(self.surface, self.method)

    @property
    def is_write(self) -> bool:
        return self.method not in ("GET", "HEAD", "OPTIONS")


@attrs.frozen
class Refusals:
    """Codes an area adds to routes of an area it builds on, whose rule these routes run (a kind of grant
    that refuses a claim or an ack, a delivered record's claim rule): ``REFUSALS(Refusals(routes, codes))``
    in its declaration."""

    routes: tuple[Route, ...]
    codes: tuple[Code, ...]


REFUSALS: Point[Refusals] = Point("routes.refusals")


def refusals(route: Route) -> tuple[Code, ...]:
    """The codes ``route`` may answer besides the generic ones: those it declares, then those the served
    areas add to it (:data:`REFUSALS`) ordered by value, so that the documents do not depend on the areas'
    order."""
    added = {
        code
        for more in served().of(REFUSALS)
        if route.name in {r.name for r in more.routes}
        for code in more.codes
    } - set(route.errors)
    return (*route.errors, *sorted(added, key=lambda code: code.value))


_PARAM = re.compile(r"^\{(\w+)\}$")


def literal_rivals(path: str, paths: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Each path parameter of ``path`` with the literal segments that other ``paths`` (of the same surface)
    have in its place after the same segments: ``{friendExternalId}`` of ``/friends/{friendExternalId}``
    and ``code`` of ``/friends/code``. The literal path wins (as in OpenAPI 3.1), so the parameter never
    takes those values: the server's router leaves them out, the documents publish them."""
    segments = path.split("/")
    shape = [_PARAM.sub("{}", s) for s in segments]
    rivals: dict[str, tuple[str, ...]] = {}
    for i, segment in enumerate(segments):
        param = _PARAM.match(segment)
        if param is None:
            continue
        literals = {
            other[i]
            for other in (p.split("/") for p in paths)
            if len(other) > i
            and not _PARAM.match(other[i])
            and [_PARAM.sub("{}", s) for s in other[:i]] == shape[:i]
        }
        if literals:
            rivals[param.group(1)] = tuple(sorted(literals))
    return rivals


def server_route(name: str, method: str, path: str, summary: str, response: Any, **kw: Any) -> Route:
    """A server route; writes need an idempotency key (docs/reference/conventions.md)."""
    write = method != "GET"
    return Route(
        name=name,
        surface=Surface.SERVER,
        method=method,
        path=path,
        summary=summary,
        response=response,
        idempotency=Idempotency.REQUIRED if write else Idempotency.NONE,
        **kw,
    )
