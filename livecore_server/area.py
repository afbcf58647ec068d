"""What an area brings to the server: :class:`ServerArea`, beside its core declaration.

The core declares the area (:class:`livecore.area.Area`: its routes, webhook kinds, jobs, checks, memory
ports); its server package (``livecore_server/<area>/``) declares the handler bound to each of its routes
and what it keeps in the database: its tables, their migrations and its SQL ports, the same fields for a
built-in area and a studio's own (:mod:`livecore_server.storage.area_storage`). The app mounts the
bindings of every area served (:mod:`livecore_server.registry`), in the areas' order, and its store keeps
what they declare (:func:`storage_of`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING

import attrs
from aiohttp import web

from livecore import contributions
from livecore.api.route import Auth, Route
from livecore.area import Area
from livecore_server.area_service import ServiceFactory
from livecore_server.http.endpoint import Binding, bind
from livecore_server.simulate.section import ReportPart
from livecore_server.storage.area_storage import AreaMigration, AreaStorage, SqlPort, served
from livecore_server.storage.read_ahead import ReadAhead
from livecore_server.storage.schema import Schema
from livecore_server.storage.sqlport import Dialects

if TYPE_CHECKING:
    from livecore_server.services import Services


@attrs.frozen
class Admit:
    """How an area admits the callers of the routes that take a credential it owns, as every namespace's
    guard asks it (:mod:`livecore_server.http.middlewares`), in the guard's order: ``admit``, the whole
    admission of such a route (a member's: its credential, its rate limit, its CSRF token, its studio,
    game and action), raising its refusal; ``sent``, whether a request refused 401 sent such a credential
    (a failed authentication, counted against its address) rather than none; ``shaped``, whether a secret
    sent could be one the area minted (else refused before anything is read: a player's)."""

    admit: Callable[[web.Request, Route, Services, dict[str, str]], Awaitable[None]] | None = None
    sent: Callable[[web.Request], bool] | None = None
    shaped: Callable[[str | None], bool] | None = None


@attrs.frozen
class ServerArea:
    """An area's server side: ``bindings``, the handler of each of its routes the core's declaration does
    not hold (:attr:`livecore.area.Area.handlers`: those that need the server's services, or read ahead
    what they write), or that binds it with more; ``schema``, its declared tables; ``migrations``, those
    that build them, recorded under the area's name (``<area>:<name>``); ``sql_ports``, its SQL ports by
    the attribute a transaction reaches each by (``tx.<name>``, also ``tx.ports.<name>``);
    ``read_ahead``, what it reads ahead of its commands' writes (their declared ``Reads.areas``);
    ``admission``, how the callers of the routes that take a credential it owns are admitted, by the
    route's :class:`~livecore.api.route.Auth` (:class:`Admit`); ``services``, what it runs in the
    server's process beside its routes, by name (:mod:`livecore_server.area_service`)."""

    area: Area
    bindings: tuple[Binding, ...] = ()
    sql_ports: Mapping[str, SqlPort | Dialects] = attrs.field(factory=dict)
    migrations: tuple[AreaMigration, ...] = ()
    #: Its part of a simulated season's report (docs/simulation.md#the-report), if it has one.
    report: ReportPart | None = None
    schema: Schema = attrs.field(factory=Schema)
    read_ahead: ReadAhead | None = None
    admission: Mapping[Auth, Admit] = attrs.field(factory=dict)
    services: Mapping[str, ServiceFactory] = attrs.field(factory=dict)

    @property
    def name(self) -> str:
        return self.area.name

    @property
    def served(self) -> tuple[Binding, ...]:
        """The binding of each of its routes the server answers: its own, then the core's handlers'; the
        app audits a write of an area's own operator action (:func:`livecore_server.audit.audited`)."""
        own = {b.route for b in self.bindings}
        return (*self.bindings, *(bind(r, h) for r, h in self.area.handlers.items() if r not in own))


def admission_of(served_areas: Iterable[ServerArea]) -> dict[Auth, Admit]:
    """How the ``served_areas`` admit each kind of credential, for the namespaces' guards."""
    return {auth: admit for area in served_areas for auth, admit in area.admission.items()}


def storage_of(served_areas: Iterable[ServerArea]) -> AreaStorage:
    """What a store of the ``served_areas`` keeps (the built-in ones, then a studio's own): the tables no
    area owns, then each area's; and the game settings of their manifest sections (the process serves
    their areas, :func:`livecore.contributions.serve`)."""
    served_areas = tuple(served_areas)
    contributions.serve(served_area.area for served_area in served_areas)
    return served(served_areas)
