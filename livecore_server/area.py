"""What an area brings to the server: :class:`ServerArea`, beside its core declaration.

The core declares the area (:class:`livecore.area.Area`: its routes, webhook kinds, jobs, checks, memory
ports); its server package (``livecore_server/<area>/``) declares the handler bound to each of its routes
and, for a studio's own area, its tables (their migrations) and its SQL ports. The app mounts the
bindings of every area served (:mod:`livecore_server.areas`), in the areas' order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import attrs

from livecore.area import Area
from livecore_server.http.endpoint import Binding
from livecore_server.simulate.section import ReportPart
from livecore_server.storage.area_storage import AreaMigration, AreaStorage, SqlPort


@attrs.frozen
class ServerArea:
    area: Area
    bindings: tuple[Binding, ...] = ()
    sql_ports: Mapping[str, SqlPort] = attrs.field(factory=dict)
    migrations: tuple[AreaMigration, ...] = ()
    #: Its part of a simulated season's report (docs/simulation.md#the-report), if it has one.
    report: ReportPart | None = None

    @property
    def name(self) -> str:
        return self.area.name


def storage_of(served: Iterable[ServerArea]) -> AreaStorage:
    """What the served areas add to the database."""
    served = tuple(served)
    return AreaStorage(
        migrations=tuple((a.name, m) for a in served for m in a.migrations),
        ports={name: port for a in served for name, port in a.sql_ports.items()},
    )
