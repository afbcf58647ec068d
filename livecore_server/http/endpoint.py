"""Binding route declarations to handlers: the one place a request becomes a command call.

For every route: read and validate the body and query (400 naming the fields), pick the idempotency key
(docs/reference/conventions.md#idempotency), then in ONE store transaction: authenticate the player when the
route is player-scoped, answer a replay from the idempotency record, or run the handler and store its response
under the key. The handler's writes, its webhook events and the idempotency record commit together or not at
all.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar, cast
from urllib.parse import quote

import attrs
from aiohttp import web
from aiohttp.web_protocol import RequestPayloadError

from livecore.api.auth import authentication
from livecore.api.request import Reply as Reply  # re-exported: a studio's handlers import them from here
from livecore.api.request import Request, answer_of, fields_of
from livecore.api.request import structured as structured
from livecore.api.route import Auth, Idempotency, Route, Surface
from livecore.commands.reads import Reads
from livecore.errors import (
    INVALID_REQUEST,
    PERMISSION_DENIED,
    UNSUPPORTED_MEDIA_TYPE,
    LivecoreError,
    invalid_request,
)
from livecore.idempotency import (
    BODY_FIELD,
    HEADER,
    StoredResponse,
    check_replay,
    choose_key,
    fingerprint,
    replay_status,
)
from livecore.platforms import APP_VERSION_HEADER, PLATFORM_HEADER, ClientBuild, sent_build
from livecore.roles import Member
from livecore.scope import Environment, Scope
from livecore_server.http.envelope import JSON, data_body, error_body, json_response, loads
from livecore_server.services import SERVICES, Services
from livecore_server.storage.concurrency import Concurrency
from livecore_server.storage.records import ApiKey
from livecore_server.storage.server_store import ServerTransaction, game_queue

API_KEY = web.RequestKey("api_key", ApiKey)
# An operator route's member and the scope its path names (livecore_server.operators.access).
OPERATOR = web.RequestKey("operator", Member)
ADMIN_SCOPE = web.RequestKey("admin_scope", Scope)
# The headers the namespace's guard adds to the answer (request id, rate limit): a stream sends its
# headers before the guard sees the answer, so it adds them itself.
RESPONSE_HEADERS = web.RequestKey("response_headers", dict[str, str])


BodyT = TypeVar("BodyT", covariant=True)
QueryT = TypeVar("QueryT", covariant=True)


@attrs.frozen
class Call(Request[BodyT, QueryT]):
    """One request, as a server handler sees it: the core's :class:`~livecore.api.request.Request` (what
    every area's handler of an SDK or server route takes, run embedded too) with what only the server
    has, for the handlers that need it (presence, the stream, the portal's and the operators' routes)."""

    services: Services = attrs.field(kw_only=True)
    # The client's address: the connection's peer, or the header a proxy in front sets when the
    # deployment names one (livecore_server.lockouts.client_address).
    remote: str | None = attrs.field(default=None, kw_only=True)
    # The member acting, on an operator route.
    operator: Member | None = attrs.field(default=None, kw_only=True)
    # The API key's id, for an audit entry's actor (``{kind: "api_key", keyId, prefix}``).
    api_key_id: str | None = attrs.field(default=None, kw_only=True)


def answer_body(value: Any) -> bytes:
    return error_body(value) if isinstance(value, LivecoreError) else data_body(value)


AnyCall = Call[Any, Any]
TxHandler = Callable[[AnyCall, ServerTransaction], Any]
DirectHandler = Callable[[AnyCall], Awaitable[Any]]
# A stream's handler answers the request itself (a prepared ``StreamResponse``).
StreamHandler = Callable[[AnyCall, web.Request], Awaitable[web.StreamResponse]]
# What a write's handler will read beyond the caller and the idempotency record (postgres_prefetch).
DeclaredReads = Callable[[AnyCall, ServerTransaction], Reads]


@attrs.frozen
class Binding:
    route: Route
    handler: TxHandler | DirectHandler | StreamHandler
    # False for handlers that open no transaction of their own (health, ping, clock advance, streams).
    transactional: bool = True
    # A read route whose handler may write once (the friend code made on a player's first friends call):
    # it runs in a write transaction, though for everything else (bans, idempotency) it is a read.
    may_write: bool = False
    reads: DeclaredReads | None = None
    # What else of its game the write waits for on PostgreSQL (docs/architecture.md, "Concurrency").
    concurrency: Concurrency = Concurrency.QUEUED


def path_player(call: AnyCall) -> Reads:
    """The reads of a route that acts on the player its path names (``{externalId}``) without
    authenticating it (a registration, the server's writes)."""
    return Reads(players=((call.scope.game_id, call.external_id),))


def bind(
    route: Route,
    handler: TxHandler,
    *,
    may_write: bool = False,
    reads: DeclaredReads | None = None,
    concurrency: Concurrency = Concurrency.QUEUED,
) -> Binding:
    # A route whose path names its player declares it (``_reads``); a write of other players too
    # declares them.
    if concurrency is Concurrency.PLAYERS and reads is None and "{externalId}" not in route.path:
        raise ValueError(f"{route.name}: a write of its players declares them (reads=...)")
    return Binding(route, handler, may_write=may_write, reads=reads, concurrency=concurrency)


def bind_direct(route: Route, handler: DirectHandler) -> Binding:
    return Binding(route, handler, transactional=False)


def bind_stream(route: Route, handler: StreamHandler) -> Binding:
    """A route whose answer is a stream (``route.stream``): the handler reads what it needs itself and
    answers the request; what it raises before the stream starts is answered in the envelope."""
    if not route.stream:
        raise ValueError(f"{route.name} declares no stream")
    return Binding(route, handler, transactional=False)


def bearer_token(request: web.Request) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None."""
    header = request.headers.get("Authorization")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def authorization_problem(request: web.Request) -> str | None:
    """What is wrong with the request's ``Authorization`` header when it carries no Bearer token (None when
    it does: then only the key itself can be wrong). The 401 stays ``invalid_api_key`` whatever the
    reason; the message tells a newcomer which part to fix, and never repeats what was sent."""
    header = request.headers.get("Authorization")
    if header is None:
        return "No Authorization header: send the key as 'Authorization: Bearer <key>'."
    scheme, space, token = header.strip().partition(" ")
    if scheme.lower() != "bearer":
        if not space:
            return "The Authorization header has no scheme: send the key as 'Authorization: Bearer <key>'."
        return (
            "The Authorization header's scheme is not Bearer: send the key as 'Authorization: Bearer <key>'."
        )
    if not token.strip():
        return "The Authorization header's Bearer token is empty: send 'Authorization: Bearer <key>'."
    return None


def takes_player(route: Route, headers: Mapping[str, str]) -> bool:
    """Whether the request authenticates a player: a player route always, a key-or-player route when
    it sends a player secret (docs/reference/conventions.md#authentication)."""
    return route.auth is Auth.PLAYER or (route.auth is Auth.KEY_OR_PLAYER and "X-Player-Secret" in headers)


_REPLAY_HEADERS = {"Idempotent-Replay": "true"}

# Public routes act for nobody: no game, no environment.
NO_SCOPE = Scope(studio_id="", game_id="", env=Environment.LIVE)


async def _read_json(request: web.Request, route: Route) -> dict[str, Any] | None:
    try:
        raw = await request.read() if request.body_exists else b""
    except RequestPayloadError:
        # Its Content-Encoding did not decode (a broken gzip stream). What is left of it is unreadable:
        # the answer closes the connection (``Connection: close``) instead of reading the rest.
        request.content.feed_eof()
        raise LivecoreError(
            INVALID_REQUEST,
            "The body does not decode as its Content-Encoding says.",
            {"fields": {"body": "does not decode as its Content-Encoding says"}},
            headers={"Connection": "close"},
        ) from None
    if not raw.strip():
        if route.request is not None and not route.request_optional:
            raise invalid_request("A JSON body is required.", {"body": "is required"})
        return None
    if request.content_type != JSON:
        raise LivecoreError(UNSUPPORTED_MEDIA_TYPE, "Send the body as application/json.")
    value = loads(raw)
    if route.request is None and value:
        raise invalid_request("This route takes no body.", {"body": "must be empty"})
    return value


#: The headers the service reads (docs/reference/conventions.md#headers-every-caller-sends).
READ_HEADERS = ("Authorization", "X-Player-Secret", HEADER, "X-Svc-SDK", PLATFORM_HEADER, APP_VERSION_HEADER)
_READ_RAW = {name.lower().encode(): name for name in READ_HEADERS}

#: The longest request line or header line the service takes (docs/reference/conventions.md#requests).
#: aiohttp's parser takes longer ones (``PARSER_LINE_MAX``), so that these are refused here, in the
#: envelope and counted by the rate limiter like any bad request.
MAX_LINE = 8190
PARSER_LINE_MAX = 65536


def unreadable_headers(request: web.Request) -> LivecoreError | None:
    """A 400 naming a request line or header line over :data:`MAX_LINE` bytes, and each header the
    service reads that is not UTF-8 text, or ``None``. One pass over the raw header bytes: every request
    takes it."""
    fields: dict[str, str] = {}
    if len(request.raw_path) + len(request.method) > MAX_LINE:
        fields["path"] = f"makes the request line longer than {MAX_LINE:,} bytes"
    for name, value in request.raw_headers:
        if len(name) + len(value) + 2 > MAX_LINE:
            # Named, never echoed: a name of its own is cut short.
            fields[name[:64].decode("latin-1")] = f"is longer than {MAX_LINE:,} bytes"
        elif not value.isascii() and (read := _READ_RAW.get(name.lower())) and not _utf8(value):
            fields[read] = "must be UTF-8 text"
    return invalid_request(f"The request is invalid: {', '.join(fields)}.", fields) if fields else None


def _utf8(value: bytes) -> bool:
    try:
        value.decode()
    except UnicodeDecodeError:
        return False
    return True


# Record ids in a path, with their area's not-found code.


def _idempotency_key(
    request: web.Request, route: Route, raw_body: dict[str, Any] | None, errors: dict[str, str]
) -> str | None:
    """The write's key; what is wrong with it goes into ``errors``, to be answered with the rest."""
    if route.idempotency is Idempotency.NONE:
        return None
    body_key = raw_body.get(BODY_FIELD) if route.body_idempotency_field and raw_body else None
    try:
        key = choose_key(body_key, request.headers.get(HEADER))
    except LivecoreError as exc:
        errors.update(fields_of(exc))
        return None
    if key is None and route.idempotency is Idempotency.REQUIRED:
        # Name the place the route documents: its body field where it has one, else the header.
        errors[BODY_FIELD if route.body_idempotency_field else HEADER] = "is required"
    return key


def _sent_build(route: Route, headers: Mapping[str, str], errors: dict[str, str]) -> ClientBuild | None:
    """What an SDK request reports of its build; what is wrong with its headers goes into ``errors``, to
    be answered with the rest. Other surfaces' requests report nothing."""
    if route.surface is not Surface.SDK:
        return None
    try:
        return sent_build(headers)
    except LivecoreError as exc:
        errors.update(fields_of(exc))
        return None


def _query_params(request: web.Request) -> dict[str, list[str]]:
    return {name: request.query.getall(name) for name in request.query} if request.query_string else {}


@attrs.frozen
class _Outcome:
    status: int
    body: bytes
    replayed: bool


def _idempotency_scope(call: AnyCall) -> str:
    """Where a key's record lives: the game, the environment and the concrete path (method and path with
    its ids), so that one key sent on two players' paths makes two records, each replayed to its own. The
    ids are percent-encoded as on the wire: a hostile one (a NUL, a slash) is still a text PostgreSQL
    stores, and names no other path."""
    path = call.route.full_path
    for name, value in call.params.items():
        path = path.replace(f"{{{name}}}", quote(value, safe=""))
    return f"{call.scope.game_id}:{call.scope.env.value}:{call.route.method} {path}"


def _principal(route: Route, request: web.Request, api_key: ApiKey | None) -> str:
    """The credential a request is made with, as its idempotency fingerprint names it: the player on a
    request that authenticates one (its path names it; its secret is checked before any replay), else
    the operator's personal key or signed-in member, else the API key. Another credential sending the
    same key gets a 409, never the stored answer (docs/reference/conventions.md#idempotency)."""
    if takes_player(route, request.headers):
        return f"player:{request.match_info.get('externalId', '')}"
    operator = request.get(OPERATOR)
    if operator is not None:
        return (
            f"personal_key:{operator.key_id}"
            if operator.key_id is not None
            else f"member:{operator.member_id}"
        )
    return f"api_key:{api_key.id}" if api_key is not None else "anonymous"


def answer_context(scope: str, key: str) -> str:
    """What a sealed answer is bound to: a sealed answer copied onto another record does not open."""
    return f"{scope}\x00{key}"


def _authenticated(tx: ServerTransaction, call: AnyCall) -> AnyCall:
    if not takes_player(call.route, call.headers):
        return call
    # Declared by the players area (livecore.api.auth): the secret checked, then the ban on its own writes.
    declared = authentication(call.route.auth, call.rt.contributions)
    assert declared is not None, f"{call.route.name}: no area authenticates its caller"
    secret = call.headers.get("X-Player-Secret")
    player = declared.authenticate(tx, call.rt, call.scope, call.external_id, secret)
    for service in call.services.area_services:
        service.saw(player, call.rt.clock.now(), call.build)
    # Here, whichever area declares the route, so the ban wins over what a handler resolves before its
    # command runs and over a stored replay.
    return attrs.evolve(call, player=declared.admit(call.route, player))


def _replay(tx: ServerTransaction, call: AnyCall, key: str, fp: str) -> _Outcome | None:
    """The stored answer to this request, if any. Player-scoped routes answer it only to the player's
    secret (a replay must not leak); the secret is checked only when there is something to answer."""
    record = tx.idempotency.get(_idempotency_scope(call), key)
    if record is None:
        return None
    if call.player is None:
        _authenticated(tx, call)
    stored = check_replay(record, fp, call.rt.clock.now())
    if stored is None:
        return None
    body = call.services.keys.open_answer(stored.body, context=answer_context(stored.scope, key))
    return _Outcome(replay_status(stored.status), body, replayed=True)


def _execute(
    tx: ServerTransaction, binding: Binding, call: AnyCall, key: str | None, fp: str | None
) -> _Outcome:
    call = _authenticated(tx, call)
    call.services.paths.check_records(call.route, call.params)
    if key is not None and fp is not None:
        # Checked again inside the write: a duplicate may have committed since the read outside it.
        replay = _replay(tx, call, key, fp)
        if replay is not None:
            return replay
    result = cast(TxHandler, binding.handler)(call, tx)
    value, status = answer_of(result, call.route)
    body = answer_body(value)
    if key is not None and fp is not None:
        scope = _idempotency_scope(call)
        # Sealed, every route's answer alike: a register's holds the player's secret, and no route can
        # forget to say that its answer is secret (docs/server.md#secrets-at-rest).
        sealed = call.services.keys.seal_answer(body, context=answer_context(scope, key))
        tx.idempotency.put(StoredResponse(scope, key, fp, status, sealed, call.rt.clock.now()))
    return _Outcome(status, body, replayed=isinstance(result, Reply) and result.replayed)


def _reads(binding: Binding, call: AnyCall, key: str | None) -> Callable[[ServerTransaction], Reads]:
    """What a write will read, for the store to read ahead: the player its path names (player-scoped
    routes authenticate it; a write of its players holds its lock whoever calls), the idempotency
    record of its key, and what its handler declares."""

    def reads(tx: ServerTransaction) -> Reads:
        scope = call.scope
        named = takes_player(call.route, call.headers) or "externalId" in call.params
        own = Reads(
            players=((scope.game_id, call.external_id),) if named else (),
            idempotency=((_idempotency_scope(call), key),) if key is not None else (),
        )
        return own if binding.reads is None else own + binding.reads(call, tx)

    return reads


def write_queue(call: AnyCall) -> str | None:
    """The game whose lock a write takes (docs/architecture.md, "Concurrency"): a concurrent write
    shares it, any other holds it alone. Reads that may write (rarely) take none: they are retried if
    they lose a race."""
    if not call.route.is_write or not call.scope.game_id:
        return None
    return game_queue(call.scope.game_id)


def make_handler(
    binding: Binding, app: web.Application
) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """The aiohttp handler of ``binding``, using the services ``app`` (the root app) runs with."""
    route = binding.route
    reads_body = route.method not in ("GET", "HEAD")

    async def handle(request: web.Request) -> web.StreamResponse:
        services = app[SERVICES]
        api_key = request.get(API_KEY)
        if route.test_only and api_key is not None and api_key.env is not Environment.TEST:
            raise LivecoreError(PERMISSION_DENIED, "This route accepts test-environment keys only.")
        raw_body = await _read_json(request, route) if reads_body else None
        errors = services.paths.errors(route, request.match_info)
        key = _idempotency_key(request, route, raw_body, errors)
        build = _sent_build(route, request.headers, errors)
        if errors:
            structured(route, raw_body, _query_params(request), errors)
        scope = api_key.scope if api_key is not None else request.get(ADMIN_SCOPE, NO_SCOPE)

        def call_with(body: Any = None, query: Any = None) -> AnyCall:
            return Call(
                route=route,
                rt=services.runtime,
                services=services,
                scope=scope,
                params=request.match_info,
                body=body,
                query=query,
                headers=request.headers,
                idempotency_key=key,
                remote=services.auth_throttle.address(request),
                operator=request.get(OPERATOR),
                api_key_id=api_key.id if api_key is not None else None,
                build=build,
            )

        fp = (
            fingerprint(
                _principal(route, request, api_key),
                request.method,
                request.path,
                request.query_string,
                raw_body,
            )
            if key
            else None
        )
        if key is not None and fp is not None:
            # A replay is answered before parsing the body or joining a write, and only from committed
            # data: a record still inside an open commit group is waited for and read again.
            unparsed = call_with()
            replay = await services.store.lookup(lambda tx: _replay(tx, unparsed, key, fp))
            if replay is not None:
                return json_response(replay.body, replay.status, _REPLAY_HEADERS)
        # One Call, built once the body and query are parsed: copying it per request shows in a heartbeat.
        call = call_with(*structured(route, raw_body, _query_params(request), errors))
        if route.stream:
            services.paths.check_records(call.route, call.params)
            return await cast(StreamHandler, binding.handler)(call, request)
        if not binding.transactional:
            result = await cast(DirectHandler, binding.handler)(call)
            value, status = answer_of(result, route)
            return json_response(answer_body(value), status)
        queue = write_queue(call)
        outcome = await services.store.run_async(
            lambda tx: _execute(tx, binding, call, key, fp),
            write=route.is_write or binding.may_write,
            queue=queue,
            reads=_reads(binding, call, key),
            concurrency=binding.concurrency,
        )
        return json_response(outcome.body, outcome.status, _REPLAY_HEADERS if outcome.replayed else None)

    return handle
