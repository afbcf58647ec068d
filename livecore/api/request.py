"""A request as a route's handler sees it, and how any caller of a route reads one before the handler
runs: the body and the query as the route's models (400 naming every offending field), and the ids in its
path.

A route's handler (an area's ``handlers.py``) takes a :class:`Request` and a store transaction and answers
the route's model. The server (:mod:`livecore_server.http.endpoint`) runs it for an HTTP request, and an
embedded :class:`livecore.Simulation` for a typed call (:mod:`livecore.simulation.calls`): the same
reading, the same handler, the same answer.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import attrs

from livecore.api.convert import structure, structure_query
from livecore.api.route import Route
from livecore.errors import INVALID_REQUEST, Code, LivecoreError, invalid_request
from livecore.limits import ID

if TYPE_CHECKING:
    from livecore.commands import Runtime
    from livecore.platforms import ClientBuild
    from livecore.scope import Scope

BodyT = TypeVar("BodyT", covariant=True)
QueryT = TypeVar("QueryT", covariant=True)


@attrs.frozen
class Request(Generic[BodyT, QueryT]):
    """One request, as a handler sees it: ``Request[SendGiftRequest, None]`` for a route whose body is a
    ``SendGiftRequest`` and that takes no query. The body is ``None`` when the route takes none (and may be
    when its body is optional); the query is ``None`` when the route declares no query model.
    ``tests/server/test_bindings.py`` checks every handler's declaration against its route's."""

    route: Route
    rt: Runtime
    scope: Scope
    params: Mapping[str, str]
    body: BodyT
    query: QueryT
    headers: Mapping[str, str]
    # The player a player route acts for, authenticated and admitted before the handler runs: the players
    # area's record, which its handlers read typed (livecore.players.actor.player_of).
    player: object | None = None
    # The write's idempotency key (body field or header), for commands that keep it on their record.
    idempotency_key: str | None = None
    # The platform and app version an SDK request reported (livecore.platforms), if it sent either.
    build: ClientBuild | None = None

    @property
    def external_id(self) -> str:
        return self.params["externalId"]


AnyRequest = Request[Any, Any]
#: A route's handler: the request and a transaction reaching what the route's area reads and writes.
Handler = Callable[[Any, Any], Any]


@attrs.frozen
class Reply:
    """A handler's answer when the status differs from the route's declared one. ``replayed``: the
    handler answered an earlier write it found by its own record of the key (``Idempotent-Replay``).
    A ``value`` that is a LivecoreError is a success answered in the error envelope (202
    ``lobby_forming``, docs/reference/errors.md): the write it made commits."""

    value: Any
    status: int
    replayed: bool = False


def answer_of(result: Any, route: Route) -> tuple[Any, int]:
    """A handler's answer and its status: a :class:`Reply`'s own, else the route's."""
    return (result.value, result.status) if isinstance(result, Reply) else (result, route.status)


def structured(
    route: Route, raw_body: dict[str, Any] | None, params: Mapping[str, list[str]], errors: dict[str, str]
) -> tuple[Any, Any]:
    """The body and the query (``params``: each parameter's values) as the route's models; a 400 naming
    every offending field, those already in ``errors`` (path parameters, idempotency key) included, so a
    client learns all of them at once. The portal and ``/mcp`` parse an operator route's input here too."""
    body: Any = None
    query: Any = None
    if route.request is not None and raw_body is not None:
        try:
            body = structure(raw_body, route.request)
        except LivecoreError as exc:
            errors.update(fields_of(exc))
    if route.query is not None or params:
        try:
            query = _parse_query(params, route)
        except LivecoreError as exc:
            errors.update(fields_of(exc))
    if errors:
        raise invalid_request(f"The request is invalid: {', '.join(sorted(errors))}.", errors)
    return body, query


def fields_of(exc: LivecoreError) -> dict[str, str]:
    """The offending fields of a 400 (``details.fields``); any other refusal is raised again."""
    if exc.code is not INVALID_REQUEST:
        raise exc
    fields: dict[str, str] = (exc.details or {}).get("fields") or {"body": exc.message}
    return fields


def _parse_query(params: Mapping[str, list[str]], route: Route) -> Any:
    if not params:
        return structure_query({}, route.query) if route.query is not None else None
    if route.query is None:
        raise invalid_request(
            "This route takes no query parameters.", {n: "is not a known parameter" for n in params}
        )
    return structure_query(params, route.query)


# The same few ids (the players', the games' keys) are in most paths: their verdicts are kept.
_id_problem = functools.lru_cache(maxsize=1 << 14)(ID.problem)


@attrs.frozen
class PathIds:
    """The ids in a route's path (docs/reference/conventions.md#requests). ``record_ids``: the path
    parameters that name a record, with their area's not-found code (:attr:`livecore.area.Area.record_ids`).
    One that names nothing the caller may see is a 404 whatever its form, answered once the caller is
    known, as the command would answer it; a malformed one never reaches the store (PostgreSQL text holds
    no NUL). Every other parameter is a player id or a key, checked as one."""

    record_ids: Mapping[str, Code]

    def _record_code(self, route: Route, name: str) -> Code | None:
        for param, code in route.record_ids:  # the route's own first
            if param == name:
                return code
        return self.record_ids.get(name)

    def errors(self, route: Route, params: Mapping[str, str]) -> dict[str, str]:
        """What is wrong with each player id or key, for the 400 (record ids: :meth:`check_records`)."""
        return {
            name: problem
            for name, value in params.items()
            if self._record_code(route, name) is None and (problem := _id_problem(value)) is not None
        }

    def check_records(self, route: Route, params: Mapping[str, str]) -> None:
        """Refuse a malformed record id with its not-found code."""
        for name, value in params.items():
            code = self._record_code(route, name)
            if code is not None and _id_problem(value) is not None:
                raise LivecoreError(code, f"No such {name.removesuffix('Id')}.")
