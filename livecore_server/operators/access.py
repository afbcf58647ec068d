"""Who may call an operator route, and running one for the portal, ``/mcp`` and the CLI
(docs/operators.md).

A request to ``/admin/v1/studios/...`` (and ``/admin/v1/me``) is admitted in this order, each step
answering before the next runs:

1. the credential: a personal key (``Authorization: Bearer svc_pk_...``) or a portal session (its
   cookie); without a valid one, 401 ``invalid_api_key``;
2. the ``admin`` rate-limit bucket, counted per session or per personal key (429);
3. CSRF: a session's writes send the session's token as ``X-CSRF-Token`` (403 ``csrf_invalid``); a
   personal key is not an ambient credential, so it needs none;
4. the studio and game of the path (403 ``permission_denied`` for another studio's, 404 ``not_found``
   for a game the studio does not have) and the route's action (``livecore.operators.rules.authorize``).

The portal and ``/mcp`` run the same routes, through :func:`run_route`, with the same steps 4 and the
handler; so an operator may do exactly the same things in all three places. The CLI's
``members personal-key`` runs the portal's route the same way (:func:`run_route_now`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping
from typing import Any, cast

from aiohttp import web

from livecore.api.admin import CSRF_INVALID
from livecore.api.route import Route
from livecore.clock import to_millis
from livecore.errors import INVALID_API_KEY, NOT_FOUND, PERMISSION_DENIED, RATE_LIMITED, LivecoreError
from livecore.operators.area_action import AnyAction, action_of, authorize_action
from livecore.operators.audit import game_ref
from livecore.operators.members import csrf_message
from livecore.operators.rules import (
    CSRF_HEADER,
    PERSONAL_KEY_PREFIX,
    SESSION_COOKIE,
    Action,
    Operator,
    Via,
    default_environment,
)
from livecore.ratelimit import BucketName
from livecore.scope import Environment, Scope, member_actor
from livecore_server.http.endpoint import (
    ADMIN_SCOPE,
    OPERATOR,
    Binding,
    Call,
    TxHandler,
    authorization_problem,
    bearer_token,
    structured,
)
from livecore_server.http.envelope import check_built
from livecore_server.operators.sql import operators_tx
from livecore_server.operators.sql.members import Member
from livecore_server.services import Services
from livecore_server.storage.server_store import ServerTransaction

# A personal key's last use is written at most this often (seconds): the column says roughly when.
_TOUCH_EVERY = 60.0


_PERSONAL_KEY = re.compile(f"{re.escape(PERSONAL_KEY_PREFIX)}[A-Za-z0-9_-]{{43}}")


def personal_key_shaped(secret: str) -> bool:
    """Whether ``secret`` could be a personal key the service minted: anything else is refused without
    hashing it or asking the database."""
    return _PERSONAL_KEY.fullmatch(secret) is not None


def session_operator(member: Member, session_id: str) -> Operator:
    return Operator(
        member_id=member.id,
        studio_id=member.studio_id,
        role=member.role,
        via=Via.PORTAL,
        session_id=session_id,
    )


# When each personal key's last use was last written, in this process (monotonic seconds).
_touched: dict[str, float] = {}


async def credential_of(
    services: Services, request: web.Request, *, via: Via = Via.API, cookie: bool = True
) -> Operator | None:
    """The request's credential: a personal key (``Authorization: Bearer``), else, when ``cookie``, a
    portal session's cookie; None when neither is valid now."""
    now_ms = to_millis(services.clock.now())
    bearer = bearer_token(request)
    if bearer is not None:
        return await _personal_key(services, bearer, now_ms, via)
    token = request.cookies.get(SESSION_COOKIE) if cookie else None
    if not token or len(token) > 100:
        return None
    hasher = services.runtime.hasher
    found = await services.store.read(
        lambda tx: hasher.find(token, lambda d: operators_tx(tx).members.session(d, now_ms))
    )
    if found is None:
        return None
    return session_operator(found[1], found[0])


async def _personal_key(services: Services, secret: str, now_ms: int, via: Via) -> Operator | None:
    if not personal_key_shaped(secret):
        return None
    hasher = services.runtime.hasher
    found = await services.store.read(
        lambda tx: hasher.find(secret, lambda d: operators_tx(tx).members.key_by_hash(d, now_ms))
    )
    if found is None:
        return None
    key, member = found
    if time.monotonic() - _touched.get(key.id, -_TOUCH_EVERY) >= _TOUCH_EVERY:
        _touched[key.id] = time.monotonic()
        await services.store.run_async(lambda tx: operators_tx(tx).members.touch_key(key.id, now_ms))
    return Operator(
        member_id=member.id,
        studio_id=member.studio_id,
        role=member.role,
        via=via,
        key_id=key.id,
        key_role=key.role,
        read_only=key.read_only,
    )


def sent_operator_credential(request: web.Request, *, cookie: bool = True) -> bool:
    """Whether the request sent a credential (which :func:`credential_of` found not valid: a failed
    authentication, livecore_server/lockouts.py), rather than none at all."""
    return "Authorization" in request.headers or (cookie and SESSION_COOKIE in request.cookies)


def no_credential(request: web.Request, *, portal: bool) -> str:
    """The 401's message when :func:`credential_of` found no valid credential: what to send, or what is
    wrong with the ``Authorization`` header that was sent."""
    if "Authorization" not in request.headers:
        if portal:
            return "Sign in to the portal, or send a personal key as 'Authorization: Bearer svc_pk_...'."
        return "Send a personal key as 'Authorization: Bearer svc_pk_...'."
    return authorization_problem(request) or "The personal key is unknown, expired or revoked."


def check_csrf(services: Services, operator: Operator, sent: str | None) -> None:
    session_id = operator.session_id
    if session_id is None:
        return
    # verify: a token made under a server key before a rotation still holds for its session.
    if not sent or not services.runtime.hasher.verify(csrf_message(session_id), sent):
        raise LivecoreError(
            CSRF_INVALID, f"Send the session's CSRF token as {CSRF_HEADER} (GET /admin/v1/me)."
        )


async def take_admin_token(services: Services, operator: Operator, headers: dict[str, str]) -> None:
    """One token of the ``admin`` bucket, per session or per personal key: each
    has its own budget (``serve --admin-requests-per-minute``)."""
    subject = f"session:{operator.session_id}" if operator.session_id else f"pk:{operator.key_id}"
    limit = {BucketName.ADMIN: services.config.admin_requests_per_minute}
    decision = await services.ratelimiter.take(
        subject, BucketName.ADMIN, to_millis(services.clock.now()), limit
    )
    headers.update(decision.headers())
    if not decision.allowed:
        raise LivecoreError(RATE_LIMITED, "Too many requests; retry after the Retry-After delay.")


async def admit(request: web.Request, route: Route, services: Services, headers: dict[str, str]) -> None:
    """Steps 1 to 4 of the module docstring for an operator route of the admin API; the handler then
    finds the member and the scope on the request (``OPERATOR``, ``ADMIN_SCOPE``)."""
    operator = await credential_of(services, request)
    if operator is None:
        raise LivecoreError(INVALID_API_KEY, no_credential(request, portal=True))
    await take_admin_token(services, operator, headers)
    if route.is_write:
        check_csrf(services, operator, request.headers.get(CSRF_HEADER))
    env = env_of(request.query)
    action = action_of(route) or Action.READ
    request[ADMIN_SCOPE] = await services.store.read(
        lambda tx: resolve_scope(tx, operator, request.match_info, env, action)
    )
    request[OPERATOR] = operator


# --- the studio and game of a path ------------------------------------------------------------------------


def _studio_id(tx: ServerTransaction, ref: str) -> str | None:
    if ref.startswith("std_"):
        return ref if tx.manifest.studio_key(ref) is not None else None
    return tx.manifest.studio_id(ref)


def resolve_scope(
    tx: ServerTransaction,
    operator: Operator,
    params: Mapping[str, str],
    env: Environment | None,
    action: AnyAction,
) -> Scope:
    """Step 4 of the module docstring: the scope the route acts in, the operator allowed its action."""
    studio_id = operator.studio_id
    if "studio" in params:
        found = _studio_id(tx, params["studio"])
        if found != operator.studio_id:
            # Another studio's (or none): the same answer, so a credential learns nothing of other studios.
            raise LivecoreError(PERMISSION_DENIED, "This credential belongs to another studio.")
    game_id = ""
    if "game" in params:
        game_id = game_ref(tx.manifest, studio_id, params["game"]) or ""
        if not game_id:
            raise LivecoreError(NOT_FOUND, "The studio has no such game.", {"game": params["game"]})
    authorize_action(operator, studio_id, action)
    if env is None:
        env = game_environment(tx, game_id) if game_id else Environment.LIVE
    return Scope(studio_id=studio_id, game_id=game_id, env=env, actor=member_actor(operator.member_id))


def game_environment(tx: ServerTransaction, game_id: str) -> Environment:
    """The environment of the game an operator acts in when the request names none: the one it has API
    keys in (:func:`livecore.operators.rules.default_environment`)."""
    return default_environment(k.env for k in tx.keys.of_game(game_id) if k.revoked_at is None)


def env_of(query: Mapping[str, str]) -> Environment | None:
    """The environment a request names (``?env=``), or None for the game's default (:func:`resolve_scope`).
    An invalid one is refused by the route's query model, so the default stands in until then."""
    try:
        return Environment(query["env"]) if "env" in query else None
    except ValueError:
        return None


# --- running a route for the portal, /mcp and the CLI -------------------------------------------------------


async def run_route(
    services: Services,
    binding: Binding,
    operator: Operator,
    params: Mapping[str, str],
    *,
    body: Mapping[str, Any] | None = None,
    query: Mapping[str, str] | None = None,
    remote: str | None = None,
) -> Any:
    """Run an operator route's handler as its route would, for a member already signed in: the same
    scope, authorization, validation (the body's nesting as a parsed one's, then 400 naming the fields)
    and one transaction. Returns the response model."""
    run = _route_transaction(services, binding, operator, params, body, query, remote)
    return _model(await services.store.run_async(run, write=binding.route.is_write))


def run_route_now(
    services: Services,
    binding: Binding,
    operator: Operator,
    params: Mapping[str, str],
    *,
    body: Mapping[str, Any] | None = None,
) -> Any:
    """:func:`run_route` on the calling thread, for a command that serves nothing (``livecore-server
    members personal-key``, the embedded demo): no client address."""
    run = _route_transaction(services, binding, operator, params, body, None, None)
    return _model(services.store.run(run, write=binding.route.is_write))


def _route_transaction(
    services: Services,
    binding: Binding,
    operator: Operator,
    params: Mapping[str, str],
    body: Mapping[str, Any] | None,
    query: Mapping[str, str] | None,
    remote: str | None,
) -> Callable[[ServerTransaction], Any]:
    """The route's request validated now, and its transaction to run."""
    route = binding.route
    assert route.action is not None, route.name
    raw_body = dict(body or {}) if body or not route.request_optional else None
    if raw_body is not None:
        check_built(raw_body)
    query_params = {k: [v] for k, v in (query or {}).items()}
    parsed_body, parsed_query = structured(route, raw_body, query_params, {})
    env = env_of(query or {})
    handler = cast(TxHandler, binding.handler)

    def run(tx: ServerTransaction) -> Any:
        scope = resolve_scope(tx, operator, params, env, action_of(route) or Action.READ)
        call = Call(
            route=route,
            rt=services.runtime,
            services=services,
            scope=scope,
            params=params,
            body=parsed_body,
            query=parsed_query,
            headers={},
            remote=remote,
            operator=operator,
        )
        return handler(call, tx)

    return run


def _model(result: Any) -> Any:
    return getattr(result, "value", result)
