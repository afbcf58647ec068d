"""A route's simulated action is its client method: the typed client's builder (an area's ``calls.py``)
makes the :class:`~livecore.api.call.Call`, and a simulation hands it to the route's handler in memory,
where a client would send it over HTTP. No JSON, no HTTP, and nothing written per route: an area,
built-in or a studio's, that declares its routes' handlers (:attr:`livecore.area.Area.handlers`) and its
client's builders gets its simulated actions from one line each, as the sync and async clients get their
methods::

    class Quests(Actions, QuestCalls):          # ada.quests.check_in(), sdk.quests.check_in("ada")
        check_in = player_method(QuestCalls._check_in)

A call runs as the server runs a request (:mod:`livecore_server.http.endpoint`): the body and the query
read as the route's models (400 naming each offending field), the ids in its path checked, then in one
transaction the player authenticated and admitted (a banned player's write refused first) and the route's
handler run; a refusal is raised as the client's exception class (:mod:`livecore.exceptions`), and the
answer is the model the client's method answers. A simulation makes each call once, so no idempotency
record is kept: a route that requires a key gets :data:`SIMULATED_KEY`.

A call a builder made (an action, not a hand-made :class:`~livecore.api.call.Call`) is read through its
wire form only while the simulation is ``checked``, as it is unless a
:class:`~livecore.simulation.season.Season` plays it: the builder's typed body and query are the models
the route's handler reads, so a season's own calls skip the round trip; checked, the round trip must give
them back unchanged (a builder whose body the wire would read otherwise is a bug, raised as one).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from livecore.api.call import Call, idempotency_key_of, present, wire_body, wire_query
from livecore.api.convert import response_converter, unstructure
from livecore.api.request import Request, answer_of, structured
from livecore.api.route import Auth, Idempotency, Surface
from livecore.errors import LivecoreError
from livecore.exceptions import api_error

if TYPE_CHECKING:
    from livecore.memory.store import MemoryTransaction
    from livecore.simulation.handle import Handle, World

P = ParamSpec("P")
T = TypeVar("T")

#: The idempotency key a simulated call carries where the route requires one and the call names none: a
#: simulation makes each call once, so no replay is ever looked up.
SIMULATED_KEY = "simulated"


#: A call as the server reads its request before any transaction: the path's ids, the body and the query
#: as the route's models, and the write's idempotency key.
Read = tuple[dict[str, str], Any, Any, str | None]


def _simulated_key() -> str:
    return SIMULATED_KEY


def _no_key() -> None:
    return None


def read(sim: World, call: Call[Any], *, built: bool = False) -> Read:
    """``call`` read as the server reads its request (400 naming each offending field, raised as the
    client's exception class); ``built``: a builder made it, so unless the simulation is ``checked`` its
    own models are what the route reads."""
    route = call.route
    # A simulated player is its external id (a str subclass): the path holds plain ids, as a URL does.
    params = {name: str(value) for name, value in call.path.items()}
    new_key = _simulated_key if route.idempotency is Idempotency.REQUIRED else _no_key
    if built and not sim.checked and _as_built(call):
        return params, call.body, call.query, idempotency_key_of(call, None, new_key)
    try:
        payload, key = wire_body(call, new_key)
        errors = sim.paths.errors(route, params)
        body, query = structured(route, payload, {k: [v] for k, v in wire_query(call).items()}, errors)
    except LivecoreError as err:
        # Read before any transaction: translated here, as the transaction translates its refusals.
        raise api_error(err) from None
    if built and _as_built(call) and (body != call.body or (call.query is not None and query != call.query)):
        raise TypeError(f"{route.name}: the wire reads the builder's call differently ({call.body!r})")
    return params, body, query, key


def _as_built(call: Call[Any]) -> bool:
    """Whether the models a builder made are what the server reads of ``call``'s request: not where the
    route reads its idempotency key from its body, or gives a query the call left out its defaults."""
    route = call.route
    return not route.body_idempotency_field and (call.query is not None or route.query is None)


def send(sim: World, call: Call[T], player: Handle | None = None, *, built: bool = False) -> T:
    """Run ``call`` as the server runs its request, as ``player`` (its secret is the call's) or, for a
    route that takes no player, under the key of the route's surface. ``built``: a builder made it
    (:func:`read`)."""
    route = call.route
    handler = sim.handlers.get(route)
    if handler is None:
        raise TypeError(f"{route.name} has no handler a simulation runs (Area.handlers)")
    params, body, query, key = read(sim, call, built=built)
    scope = sim.server_scope if route.surface is Surface.SERVER else sim.scope
    # A builder's ids are those the service answered: only a checked simulation reads them again.
    check_records = not built or sim.checked

    def run(tx: MemoryTransaction, me: Any = None) -> tuple[Any, int]:
        if check_records:
            sim.paths.check_records(route, params)
        request = Request(route, sim.rt, scope, params, body, query, {}, me, key)
        return answer_of(handler(request, tx), route)

    as_player = route.auth is Auth.PLAYER or (route.auth is Auth.KEY_OR_PLAYER and call.player_secret)
    if as_player:
        if player is None:
            raise TypeError(f"{route.name} acts as a player: call it on a simulated player")
        value, status = player.act(run, route=route, secret=call.player_secret)
    else:
        value, status = sim.run(run)
    return _answer(call, value, status)


def _answer(call: Call[T], value: Any, status: int) -> T:
    """The answer as the client's method reads it from the wire: the model of its status, or the model of
    a success answered in the error envelope (202 ``lobby_forming``)."""
    if isinstance(value, LivecoreError):
        if call.accepted is None or value.code is not call.accepted[0]:
            raise api_error(value)
        return response_converter.structure(value.details or {}, call.accepted[1])
    model = call.model_of(status)
    if type(value) is model:
        return value
    return response_converter.structure(unstructure(value), model)


class Actions:
    """One area's calls for one simulated player: an ``/sdk/v1`` builder's ``_client`` (whose
    ``player_secret`` it sends) is the player."""

    def __init__(self, player: Handle) -> None:
        self._player = player
        self._client = player


class ServerActions:
    """One area's calls for the studio's backend (the server key's routes), or the client key's reads
    that name no player."""

    def __init__(self, sim: World) -> None:
        self._sim = sim


def player_method(
    build: Callable[Concatenate[Any, str, P], Call[T]],
) -> Callable[Concatenate[Actions, P], T]:
    """The simulated player's action for an ``/sdk/v1`` builder whose first parameter is the player's
    external id: the same parameters without it, the same answer and refusals."""

    def method(self: Actions, /, *args: P.args, **kwargs: P.kwargs) -> T:
        player = self._player
        return send(player.sim, build(self, player.external_id, *args, **kwargs), player, built=True)

    return present(method, build, drop=1)


def server_method(
    build: Callable[Concatenate[Any, P], Call[T]],
) -> Callable[Concatenate[ServerActions, P], T]:
    """The studio's action (or a client key's read) for a builder: the same parameters and answer."""

    def method(self: ServerActions, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return send(self._sim, build(self, *args, **kwargs), built=True)

    return present(method, build)
