"""What a typed client's method asks for, written once per route as a builder, and what every caller of a
route does with it before it sends it.

A builder (an area's ``calls.py``) returns a :class:`Call`: the route, the typed body and query, the path
parameters and the player's secret. The typed clients (:mod:`livecore_client`) send it over HTTP, sync or
async; an embedded :class:`livecore.Simulation` hands it to the route's handler in memory
(:mod:`livecore.simulation.calls`). So a route's client method and its simulated action are one
declaration, and they cannot take different parameters or read the answer differently.
"""

from __future__ import annotations

import inspect
import secrets
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import attrs

from livecore.api.convert import unstructure, unstructure_query
from livecore.api.route import Idempotency, Route
from livecore.errors import Code
from livecore.idempotency import BODY_FIELD

T = TypeVar("T")


@attrs.frozen
class Call(Generic[T]):
    """What a client method asks for. ``response`` repeats ``route.response`` so the method's return
    type is checked statically; the two are compared at construction so they cannot disagree."""

    route: Route
    response: type[T]
    path: Mapping[str, str] = attrs.field(factory=dict)
    query: object | None = None
    body: object | None = None
    idempotency_key: str | None = None
    player_secret: str | None = None
    # A 2xx answer in the error envelope that is a success of its own (202 ``lobby_forming``): its code
    # and the model its ``details`` read into. Any other 2xx envelope still raises.
    accepted: tuple[Code, type[T]] | None = None
    # A route whose one wire model holds one of two answers told apart by status (a guild join: 200 the
    # seat, 201 the join request): the other answer's status and the model its ``data`` reads into;
    # ``response`` then reads every other status. Both models are made of the route model's fields.
    variant: tuple[int, type[T]] | None = None
    # Seconds the answer may take beyond the client's read timeout: the work the service does before it
    # answers, where that grows with the request (an advance of the manual clock).
    work_time: float = 0.0

    def __attrs_post_init__(self) -> None:
        if self.response is self.route.response and self.variant is None and self.accepted is None:
            return  # the route's own model: what almost every call reads
        expected = self.route.response if self.route.response is not None else type(None)
        models = [self.response] if self.variant is None else [self.response, self.variant[1]]
        for model in models:
            if not _reads(model, expected):
                raise TypeError(f"{self.route.name} answers {expected.__name__}, not {model.__name__}")
        if self.accepted is not None and self.accepted[0] not in self.route.errors:
            raise TypeError(f"{self.route.name} never answers {self.accepted[0]}")

    def model_of(self, status: int) -> type[T]:
        """The model an answer of ``status`` reads into: the variant's for its status, else ``response``."""
        return self.variant[1] if self.variant is not None and status == self.variant[0] else self.response


def _reads(model: Any, wire: Any) -> bool:
    """Whether ``model`` reads answers of the route model ``wire``: it is ``wire`` (== so that list[Model]
    matches the route's list[Model]), or a typed shape of one of its answers, made of some of its fields."""
    if model == wire:
        return True
    if not (attrs.has(model) and attrs.has(wire)):
        return False
    return {f.name for f in attrs.fields(model)} <= {f.name for f in attrs.fields(wire)}


def new_idempotency_key() -> str:
    """SDKs stamp writes (docs/reference/conventions.md#idempotency) with a random 16-byte key."""
    return secrets.token_hex(16)


def wire_query(call: Call[Any]) -> dict[str, str]:
    """The call's query parameters as the query string carries them."""
    if call.query is None:
        return {}
    if call.route.query is None or not isinstance(call.query, call.route.query):
        raise TypeError(f"{call.route.name} does not take query {type(call.query).__name__}")
    return unstructure_query(call.query)


def wire_body(call: Call[Any], new_key: Callable[[], str | None]) -> tuple[dict[str, Any] | None, str | None]:
    """The call's body as the wire carries it, and its idempotency key: the call's own, else the body's,
    else a new one from ``new_key`` for every keyable write (our SDKs key them all, so their retries are
    always safe). Where the route reads the key from its body, the body carries it."""
    route = call.route
    payload: dict[str, Any] | None = None
    if call.body is None:
        if route.request is not None and not route.request_optional:
            raise ValueError(f"{route.name} needs a {route.request.__name__} body")
    elif route.request is None or not isinstance(call.body, route.request):
        raise TypeError(f"{route.name} does not take a {type(call.body).__name__} body")
    else:
        payload = unstructure(call.body)
    key = idempotency_key_of(call, payload, new_key)
    if key is not None and route.body_idempotency_field:
        # The body field wins where the route has one (docs/reference/conventions.md#idempotency); sending
        # the same value in both places keeps the header useful to proxies and logs without ever disagreeing.
        payload = {**(payload or {}), BODY_FIELD: key}
    return payload, key


def idempotency_key_of(
    call: Call[Any], payload: dict[str, Any] | None, new_key: Callable[[], str | None]
) -> str | None:
    """The key :func:`wire_body` sends for ``call`` whose body reads as ``payload`` on the wire (None: no
    body, or one read as the builder made it)."""
    route = call.route
    given = call.idempotency_key
    if given is not None and not given:
        raise ValueError("idempotency_key must not be empty")
    if route.idempotency is Idempotency.NONE:
        if given is not None:
            raise ValueError(f"{route.name} does not take an idempotency key")
        return None
    in_body = payload.get(BODY_FIELD) if payload and route.body_idempotency_field else None
    if given is not None and in_body is not None and given != in_body:
        raise ValueError("idempotency_key and the body's idempotency key differ")
    return given or in_body or new_key()


_F = TypeVar("_F", bound=Callable[..., Any])


def present(method: _F, build: Callable[..., Any], *, drop: int = 0) -> _F:
    """A builder's adapter (a client's method, a simulated action) shown with the builder's name,
    docstring and parameters (without the ``drop`` first after ``self``: the external id a simulated
    player holds) in help() and IDEs rather than the adapter's ``*args, **kwargs``; the return annotation
    is dropped because it names the builder's Call."""
    signature = inspect.signature(build)
    params = list(signature.parameters.values())
    signature = signature.replace(
        parameters=[params[0], *params[1 + drop :]], return_annotation=inspect.Signature.empty
    )
    name = build.__name__.lstrip("_")
    for attribute, value in (
        ("__name__", name),
        ("__qualname__", name),
        ("__doc__", build.__doc__),
        ("__module__", build.__module__),
        ("__signature__", signature),
    ):
        setattr(method, attribute, value)
    return method


class HoldsSecret(Protocol):
    """What an ``/sdk/v1`` builder reads from whatever sends its calls: the player secret a player-scoped
    call sends when it names none (a client's ``player_secret``, a simulated player's own)."""

    @property
    def player_secret(self) -> str | None: ...


class SdkCalls:
    """Base of the ``/sdk/v1`` builders: the player secret defaults to the sender's ``player_secret``."""

    if TYPE_CHECKING:
        # For the type checker only: a resource's _client is its constructor's argument, and a property
        # here would hide it at run time.
        @property
        def _client(self) -> HoldsSecret: ...

    def _secret(self, player_secret: str | None) -> str | None:
        """The call's own secret, else the sender's."""
        return player_secret if player_secret is not None else self._client.player_secret


class ServerCalls:
    """Base of the ``/server/v1`` builders, which need nothing from the sender but its transport."""
