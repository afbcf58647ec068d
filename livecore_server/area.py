"""What an area brings to the server: :class:`ServerArea`, beside its core declaration.

The core declares the area (:class:`livecore.area.Area`: its routes, webhook kinds, jobs, checks, memory
ports); its server package (``livecore_server/<area>/``) declares the handler bound to each of its routes
and what it keeps in the database: its tables, their migrations and its SQL ports, the same fields for a
built-in area and a studio's own (:mod:`livecore_server.storage.area_storage`). The app mounts the
bindings of every area served (:mod:`livecore_server.registry`), in the areas' order, and its store keeps
what they declare (:func:`storage_of`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import attrs

from livecore import contributions
from livecore.area import Area
from livecore_server.http.endpoint import Binding, bind
from livecore_server.simulate.section import ReportPart
from livecore_server.storage.area_storage import AreaMigration, AreaStorage, SqlPort, served
from livecore_server.storage.read_ahead import ReadAhead
from livecore_server.storage.schema import Schema
from livecore_server.storage.sqlport import Dialects


@attrs.frozen
class ServerArea:
    """An area's server side: ``bindings``, the handler of each of its routes the core's declaration does
    not hold (:attr:`livecore.area.Area.handlers`: those that need the server's services, or read ahead
    what they write), or that binds it with more; ``schema``, its declared tables; ``migrations``, those
    that build them, recorded under the area's name (``<area>:<name>``); ``sql_ports``, its SQL ports by
    the attribute a transaction reaches each by (``tx.<name>``, also ``tx.ports.<name>``);
    ``read_ahead``, what it reads ahead of its commands' writes (their declared ``Reads.areas``)."""

    area: Area
    bindings: tuple[Binding, ...] = ()
    sql_ports: Mapping[str, SqlPort | Dialects] = attrs.field(factory=dict)
    migrations: tuple[AreaMigration, ...] = ()
    #: Its part of a simulated season's report (docs/simulation.md#the-report), if it has one.
    report: ReportPart | None = None
    schema: Schema = attrs.field(factory=Schema)
    read_ahead: ReadAhead | None = None

    @property
    def name(self) -> str:
        return self.area.name

    @property
    def served(self) -> tuple[Binding, ...]:
        """The binding of each of its routes the server answers: its own, then the core's handlers'; the
        app audits a write of an area's own operator action (:func:`livecore_server.audit.audited`)."""
        own = {b.route for b in self.bindings}
        return (*self.bindings, *(bind(r, h) for r, h in self.area.handlers.items() if r not in own))


def storage_of(served_areas: Iterable[ServerArea]) -> AreaStorage:
    """What a store of the ``served_areas`` keeps (the built-in ones, then a studio's own): the tables no
    area owns, then each area's; and the game settings of their manifest sections (the process serves
    their areas, :func:`livecore.contributions.serve`)."""
    served_areas = tuple(served_areas)
    contributions.serve(served_area.area for served_area in served_areas)
    return served(served_areas)
