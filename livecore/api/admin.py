"""How an area declares its admin routes (``/admin/v1``, docs/extending.md#admin-routes), a built-in one and
a studio's alike: each route names the :class:`AreaAction` an operator takes on it, made by
:func:`game_admin_route` (or :func:`admin_route`, for a path of the studio's); a write answers
:class:`Audited` to say what its audit entry records, and the server writes that entry in the transaction
of its effect (``livecore_server.audit.audited``) through the audit trail every server transaction opens
(:class:`AuditTrail`).

Who may take an action, and how an operator is admitted, is the operators area's
(:mod:`livecore.operators.area_action`); this module names no area.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import attrs

from livecore.api.convert import DEFAULT_IN_WORDS
from livecore.api.route import Auth, Idempotency, Route, Surface
from livecore.errors import INVALID_API_KEY, NOT_FOUND, PERMISSION_DENIED, RATE_LIMITED, Code
from livecore.roles import Member, Role
from livecore.scope import Environment, Scope

if TYPE_CHECKING:
    from livecore.commands import Runtime

#: A studio's path segment, and a game's below it (each a key or an ``std_``/``gam_`` id).
STUDIO_PATH = "/studios/{studio}"
GAME_PATH = f"{STUDIO_PATH}/games/{{game}}"

CSRF_INVALID = Code("csrf_invalid", 403, "A portal session's write without its CSRF token (`X-CSRF-Token`).")
#: What an admin route can fail with before its handler runs: the member's credential and its rate limit,
#: and a portal session's write without its CSRF token.
CREDENTIAL_ERRORS = (INVALID_API_KEY, PERMISSION_DENIED, RATE_LIMITED)
WRITE_ERRORS = (*CREDENTIAL_ERRORS, CSRF_INVALID)

#: Who may take every action, every area's included.
STUDIO_ADMINS = frozenset({Role.OWNER, Role.ADMIN})


@attrs.frozen
class AreaAction:
    """An area's operator action: ``value``, its audit name, prefixed with what it acts on
    (``player.ban``, ``quests.reset_streak``); ``roles``, the roles that may take it besides owners and
    admins; ``write``, False for a read (every role reads; a read-only personal key too); ``target``, the
    path parameter that names the record it acts on, written as its audit entry's target when the handler
    answers no :class:`Audited` (else the game's id, or the studio's). No two areas name one action (the
    registry refuses it)."""

    value: str
    roles: frozenset[Role] = frozenset()
    write: bool = True
    target: str | None = None

    @property
    def is_write(self) -> bool:
        return self.write

    @property
    def allowed(self) -> frozenset[Role]:
        return frozenset(Role) if not self.write else STUDIO_ADMINS | self.roles


def admin_route(
    name: str, method: str, path: str, summary: str, response: Any, action: Any, **kw: Any
) -> Route:
    """An admin route: a member's credential allowed ``action``; a write takes an optional
    ``Idempotency-Key`` and refuses a portal session's write without its CSRF token."""
    write = method != "GET"
    errors = (*(WRITE_ERRORS if write else CREDENTIAL_ERRORS), *kw.pop("errors", ()))
    return Route(
        name=name,
        surface=Surface.ADMIN,
        method=method,
        path=path,
        summary=summary,
        auth=Auth.MEMBER,
        response=response,
        action=action,
        idempotency=Idempotency.OPTIONAL if write else Idempotency.NONE,
        errors=errors,
        **kw,
    )


def game_admin_route(
    name: str, method: str, path: str, summary: str, response: Any, action: AreaAction, **kw: Any
) -> Route:
    """An area's admin route of one game (``path`` under :data:`GAME_PATH`; 404 ``not_found`` for a game
    the studio does not have), a member allowed ``action`` (docs/extending.md#admin-routes)."""
    write = method != "GET"
    if write != action.is_write:
        raise ValueError(f"{name}: a {method} route takes a {'write' if write else 'read'} action")
    errors = (NOT_FOUND, *kw.pop("errors", ()))
    return admin_route(name, method, f"{GAME_PATH}{path}", summary, response, action, errors=errors, **kw)


# The environment a route that names a player, a grant or an attempt acts in; left out, the one the game
# has API keys in, live when it has both or none (docs/operators.md#environments).
@attrs.frozen
class EnvQuery:
    env: Environment | None = attrs.field(
        default=None,
        metadata={DEFAULT_IN_WORDS: "the environment the game has API keys in; live when both"},
    )


BodyT = TypeVar("BodyT", covariant=True)
QueryT = TypeVar("QueryT", covariant=True)


class AdminRequest(Protocol[BodyT, QueryT]):
    """An admin route's request as an area's handler sees it: the core's request
    (:class:`livecore.api.request.Request`) with the member acting, admitted before the handler runs.
    ``AdminRequest[ManualGrantRequest, EnvQuery]`` for a route whose body is a ``ManualGrantRequest`` and
    whose query an ``EnvQuery`` (``tests/server/test_bindings.py`` checks the declarations)."""

    @property
    def route(self) -> Route: ...
    @property
    def rt(self) -> Runtime: ...
    @property
    def scope(self) -> Scope: ...
    @property
    def params(self) -> Mapping[str, str]: ...
    @property
    def body(self) -> BodyT: ...
    @property
    def query(self) -> QueryT: ...
    @property
    def external_id(self) -> str: ...
    @property
    def operator(self) -> Member | None: ...


def member_of(request: AdminRequest[Any, Any]) -> Member:
    """The member acting on an admin route (every one admits one before its handler runs)."""
    member = request.operator
    assert member is not None, request.route.name
    return member


AnswerT = TypeVar("AnswerT", covariant=True)


@attrs.frozen
class Audited(Generic[AnswerT]):
    """A write's ``answer``, with what its audit entry records beyond who took the route's action, where
    and from which address: ``target``, what it acted on (``player:<externalId>``, ``grant:<id>``, ...),
    and ``metadata``, ``before`` and ``after``. Where the route names an environment (``?env=``), the
    metadata starts with it."""

    answer: AnswerT
    target: str
    metadata: Mapping[str, Any] | None = None
    before: Mapping[str, Any] | None = None
    after: Mapping[str, Any] | None = None


def with_env(route: Route, scope: Scope, metadata: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """An admin write's audit metadata: the environment first where the route names one (``?env=``)."""
    if route.query is not None and "env" in attrs.fields_dict(route.query):
        return {"env": scope.env.value, **(metadata or {})}
    return None if metadata is None else dict(metadata)


def player_target(external_id: str) -> str:
    """How audit entries name a player."""
    return f"player:{external_id}"


class AuditTrail(Protocol):
    """The audit log as every server transaction opens it (``tx.audit``): an entry of ``actor``'s
    ``action``, written with the transaction."""

    def write(
        self,
        rt: Runtime,
        actor: Mapping[str, Any],
        action: str,
        target: str,
        *,
        studio_id: str,
        game_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        before: Mapping[str, Any] | None = None,
        after: Mapping[str, Any] | None = None,
        ip: str | None = None,
    ) -> None: ...


class HasAuditTrail(Protocol):
    @property
    def audit(self) -> AuditTrail: ...
