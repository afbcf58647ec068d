"""What an area is: one declaration of everything it brings to the service.

An area (friends, gifts, guilds, a studio's own quests) is one package in the core
(``livecore/<area>/``: its rules, commands, wire declarations, webhook payloads, store port and memory
store) and, where it has a server side, one in the server (``livecore_server/<area>/``: its handlers and
its SQL store). Its ``area.py`` declares it once, as an :class:`Area`; everything shared is built from the
registered areas (:mod:`livecore.registry`): the route table and the OpenAPI documents, the generated
reference, the list of webhook kinds, the error table, the scheduled jobs, the tables and ports of the
in-memory store, the manifest's parser (:mod:`livecore.manifest`, from each area's sections). Django's
applications are the model: each brings its own parts, and the project lists them once.

A studio's own area is declared the same way, in its own package, and registered by name
(docs/extending.md).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, Literal, Protocol, TypeVar, cast

import attrs

from livecore.api.request import Handler
from livecore.api.route import Route
from livecore.contributions import Contribution
from livecore.errors import Code
from livecore.schedule import Job
from livecore.section import Section
from livecore.simulation.part import SeasonPart
from livecore.webhooks.payload import WebhookPayload

P = TypeVar("P")

#: Builds an area's in-memory port for one transaction: ``(memory store, its undo journal) -> port``, over
#: the area's tables (``store.tables[<area name>]``).
MemoryPort = Callable[[Any, Any], object]
#: What an area does with a player's records when the player merges into another (``source`` into
#: ``target``, in the merge's transaction) or is erased (its records move to the anonymized row ``kept``).
MergeStep = Callable[[Any, Any, Any, Any, Any], None]  # (tx, rt, scope, source, target)
EraseStep = Callable[[Any, Any, Any, Any, Any], None]  # (tx, rt, scope, player, kept)
#: Checks a studio's area's manifest section (``[games.<key>.areas.<name>]``) with its whole game beside
#: it, ``(section, game) -> problems``: ``game`` is the game's table as written, read-only, as a built-in
#: section's check sees it (:attr:`livecore.section.Section.check`), for what the section names in the rest
#: of its game (``livecore.section.resource_refusal(key, game)``: a declared resource). The problems are
#: by the path of the field below the section (``"daily.reward"``), empty when it is fine.
SettingsCheck = Callable[[Mapping[str, Any], Mapping[str, Any]], Mapping[str, str]]


def _takes_a_game(area: Area, _: attrs.Attribute[Any], check: SettingsCheck | None) -> None:
    """Refuse, as the area is declared, a settings check that cannot take ``(section, game)``: a check
    written for one argument would otherwise fail only when a manifest configures the area."""
    if check is None:
        return
    try:
        inspect.signature(check).bind({}, {})
    except TypeError:
        raise TypeError(
            f"area {area.name}: its settings check must take (section, game), the game's table beside the "
            "section (docs/extending.md)"
        ) from None
    except ValueError:  # a callable whose signature cannot be read (a builtin): taken on trust
        return


def _handles_its_routes(area: Area, _: attrs.Attribute[Any], handlers: Mapping[Route, Handler]) -> None:
    for route in handlers:
        if route not in area.routes:
            raise ValueError(f"area {area.name}: a handler of {route.name}, which is not one of its routes")


@attrs.frozen
class PortKey(Generic[P]):
    """A studio's area's port, typed: ``QUESTS: PortKey[QuestStore] = PortKey("quests")``, declared beside
    its protocol and read ``tx.ports.of(QUESTS)`` (a ``QuestStore`` to a type checker), as a built-in area's
    port is ``tx.gifts``. ``name`` is the port's name in ``Area.ports``."""

    name: str


class Ports:
    """The ports the registered areas add to one transaction: typed by their keys, ``tx.ports.of(QUESTS)``,
    or by name, ``tx.ports.quests``."""

    __slots__ = ("_ports",)

    def __init__(self, ports: Mapping[str, object]) -> None:
        self._ports = ports

    def of(self, key: PortKey[P]) -> P:
        return cast(P, self._port(key.name))

    def __getattr__(self, name: str) -> Any:
        return self._port(name)

    def _port(self, name: str) -> object:
        try:
            return self._ports[name]
        except KeyError:
            raise AttributeError(f"no area port {name!r} on this store") from None


class HasPorts(Protocol):
    """A transaction that reaches the ports of the registered areas (a studio's area's commands)."""

    @property
    def ports(self) -> Ports: ...


#: The typed clients an area adds a resource to: ``SdkClient``, ``ServerClient`` and ``AdminClient``.
Facade = Literal["sdk", "server", "admin"]


@attrs.frozen
class ClientPart:
    """An area's resource in one typed client: ``facade``'s client (``"sdk"``: ``SdkClient``) holds
    ``attribute`` (``sdk.wallet``) bound to the class ``cls`` of the module ``module`` (a dotted path,
    ``"livecore_client.resources.economy"``, ``"studio_quests.client"``); its asyncio twin, bound on the
    async client, is the class ``Async<cls>`` of the same module. Named rather than imported, so the core's
    declaration imports no client.

    ``simulated``: a built-in area's part that a simulated player (an ``sdk`` part) or the simulated
    studio's backend (a ``server`` part) holds too, as the class of the same name in the area's
    ``livecore/<area>/simulation.py``. A studio's area's simulated actions are its ``player_actions`` and
    ``server_actions``, reached by the area's name, so it leaves this as it is."""

    facade: Facade
    attribute: str
    module: str
    cls: str
    simulated: bool = True


@attrs.frozen(repr=False)
class Area:
    """One area, as it declares itself.

    - ``routes``: its routes, mounted and listed in this order, after the areas before it;
    - ``webhooks``: the payload classes of the kinds it emits;
    - ``handlers``: the handler of each of its routes that runs on a store transaction alone (an area's
      ``handlers.py``, :mod:`livecore.api.request`): the server runs it for an HTTP request, an embedded
      simulation for a typed call (:mod:`livecore.simulation.calls`), so a route's simulated action is
      its client method, not code of its own;
    - ``errors``: the error codes it adds to the table, each a :class:`~livecore.errors.Code` with its
      HTTP status and meaning, declared in its package (``livecore/<area>/errors.py`` for a built-in
      area, beside the exception each raises);
    - ``jobs``: its scheduled work (:mod:`livecore.schedule`);
    - ``tables``: builds its tables in the in-memory store, once per store (``store.tables[<name>]``; a
      built-in area's, typed, ``store.tables_of(GuildTables)``);
    - ``ports``: the ports it adds to a transaction of the in-memory store (its server side declares the
      SQL ones): a built-in area's are the transaction's attributes, as
      :class:`livecore.transaction.Transaction` types them (``tx.guilds``); a studio's area's are reached
      as ``tx.ports.<name>``;
    - ``hooks``: an object of hook implementations (:mod:`livecore.hooks`), checks that run before and
      after built-in commands, in their transactions;
    - ``hookspecs``: the specifications of the checks other areas may add to its own commands (a class of
      ``@hookspec`` methods, in its ``hooks.py``);
    - ``manifest``: its typed sections of a game in the manifest (:class:`livecore.section.Section`: its
      key, its record and rules, and how it becomes the game's settings), read by the parser
      (:mod:`livecore.manifest`) without naming it, a studio's area's as a built-in one's;
    - ``settings``: its check of a free-form section of a game, ``[games.<key>.areas.<name>]`` (the game's
      settings hold it as it is written), with the whole game table beside it (:data:`SettingsCheck`);
    - ``merge``, ``erase``: what a merge and an erasure do to its records, in the areas' order (the
      built-in areas', then the studio's areas served);
    - ``record_ids``: the path parameters that name its records, and their not-found codes;
    - ``id_prefixes``: the prefixes of the ids it mints (``gld`` for ``gld_0193...``), which no other area
      may mint;
    - ``page``: the reference page that lists its routes;
    - ``builds_on``: the areas it builds on (``("grants",)``), whose packages it may import and which
      import nothing of its own: the areas' dependencies form one graph without a cycle, each area
      registered after those it builds on;
    - ``samples``: a placeholder payload of each of its kinds, for sample deliveries (a kind without one
      samples as an empty object);
    - ``limits``: the limits it declares, as (what, value) rows of the reference's limits table, by the
      reference page that describes them;
    - ``season``: its part of a simulated season (:class:`livecore.simulation.part.SeasonPart`: the
      fields it adds to a segment of the population and what a player does in it in a session);
    - ``contributes``: what it adds to the tables of the areas it builds on, each at the
      :class:`~livecore.contributions.Point` the owning area declares (``FINISH(feed)``): resolved for
      the areas a runtime registers, never as a module is imported;
    - ``client``: its resources in the typed clients, one :class:`ClientPart` each (``sdk.wallet``,
      ``server.wallet``), in the order the client lists them: read by the generator of the typed facades
      (:mod:`livecore.assembly`), which binds a built-in area's in ``livecore_client`` and a studio's in
      the module its ``python -m livecore.assembly --studio`` writes (docs/extending.md).
    """

    name: str
    summary: str
    #: The page of ``docs/reference/`` that lists its routes (several areas may share one).
    page: str
    builds_on: tuple[str, ...] = ()
    routes: tuple[Route, ...] = ()
    handlers: Mapping[Route, Handler] = attrs.field(factory=dict, validator=_handles_its_routes)
    webhooks: tuple[type[WebhookPayload], ...] = ()
    errors: tuple[Code, ...] = ()
    jobs: tuple[Job, ...] = ()
    tables: Callable[[], object] | None = None
    ports: Mapping[str, MemoryPort] = attrs.field(factory=dict)
    hooks: object | None = None
    hookspecs: type | None = None
    #: The typed sections of a game it brings to the manifest.
    manifest: tuple[Section, ...] = ()
    #: Checks its free-form section of a game in the manifest (``areas.<name>``); None: it takes none.
    settings: SettingsCheck | None = attrs.field(default=None, validator=_takes_a_game)
    merge: MergeStep | None = None
    erase: EraseStep | None = None
    #: The path parameters that name its records, with the code a record the caller may not see is
    #: refused with (``{"guildId": GUILD_NOT_FOUND}``); a route may name its own
    #: (``Route.record_ids``).
    record_ids: Mapping[str, Code] = attrs.field(factory=dict)
    id_prefixes: tuple[str, ...] = ()
    samples: tuple[WebhookPayload, ...] = ()
    #: Called when the reference is rendered, so the rows read the constants as they are then.
    limits: Callable[[], Mapping[str, Sequence[tuple[str, str]]]] = dict
    season: SeasonPart | None = None
    #: What it adds to the tables of the areas it builds on (:mod:`livecore.contributions`): steps of a
    #: finishing attempt, a kind of grant, the record a grant delivers, fields of a friend row, refusals of
    #: their routes, ledger reasons.
    contributes: tuple[Contribution[Any], ...] = ()
    #: Its actions in an embedded simulation, reached by its name as a built-in area's are: a player's
    #: (``ada.quests``, made from the player's handle: ``Quests(ada)``) and the studio backend's
    #: (``sim.server.quests``, made from the simulation).
    player_actions: Callable[[Any], object] | None = None
    server_actions: Callable[[Any], object] | None = None
    #: Its resources in the typed clients (:class:`ClientPart`), by client, in the order bound.
    client: tuple[ClientPart, ...] = ()

    def __repr__(self) -> str:
        # Its name alone: the whole declaration (every route, handler and model) runs to hundreds of
        # kilobytes, and asyncio formats it into every task's repr that reaches a server's services.
        return f"Area({self.name!r})"
