"""What an area runs in a server's process beside its routes: its services (the players' presence board
and heartbeat cache, the live events' board stream hubs).

An area declares each on its :class:`~livecore_server.area.ServerArea` (``services``: a name and what builds
it), and the server's shared modules start, feed and close every one without naming it, as Django starts
each application through its ``AppConfig``. A service lives as long as the server's
:class:`~livecore_server.services.Services`:

- built as they start (:data:`ServiceFactory`, from the config and the store), before the runtime, which
  reads what the services give it (:meth:`AreaService.gives_runtime`: the presence board reads a player's
  presence), then handed the runtime (:meth:`AreaService.given`);
- following the store's committed changes (:meth:`AreaService.follow`, :meth:`AreaService.player_written`,
  :meth:`AreaService.watching`) and each admitted player request (:meth:`AreaService.saw`);
- running its background work while the app serves (:meth:`AreaService.background`);
- flushed with the process's other buffers, and closed when the app stops.

Handlers reach one by its typed key, ``services.of(PRESENCE)``.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Iterator, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, cast

import attrs

from livecore.area import Area
from livecore.commands import Runtime
from livecore.platforms import ClientBuild
from livecore_server.config import Config

if TYPE_CHECKING:
    from livecore_server.storage.server_store import ServerStore

S = TypeVar("S", bound="AreaService")


@attrs.frozen
class ServiceKey(Generic[S]):
    """An area's service, typed: ``PRESENCE: ServiceKey[PresenceBoard] = ServiceKey("presence")``, declared
    beside the service and read ``services.of(PRESENCE)``. ``name`` is its name in ``ServerArea.services``."""

    name: str


class AreaService:
    """An area's service. Each hook does nothing unless the service has something to do then."""

    def gives_runtime(self) -> Mapping[str, Any]:
        """Fields of the runtime it provides (:class:`livecore.commands.Runtime`), read before the runtime
        is made."""
        return {}

    def given(self, runtime: Runtime) -> None:
        """The runtime of the server's commands, once it is made."""

    def follow(self, store: ServerStore) -> None:
        """Listen to what the store's transactions commit (``store.on_player_written``, ...)."""

    def player_written(self, player_id: str) -> None:
        """Another process committed a write of this player's row (heard through ``store.watch``)."""

    def watching(self, on: bool) -> None:
        """The store hears every process's changes from now on (True), or no longer does (False)."""

    def saw(self, player: Any, now: datetime, build: ClientBuild | None) -> None:
        """A request of ``player`` (a :class:`livecore.players.rules.Player`, which this shared module
        does not name) was admitted at ``now``, from ``build`` when it named one."""

    def background(self, config: Config) -> list[Coroutine[Any, Any, None]]:
        """What it runs while the app serves, each as a task cancelled when the app stops."""
        return []

    async def flush_async(self, store: ServerStore) -> object:
        """Write what it holds in memory between the periodic flushes."""
        return None

    def flush(self, store: ServerStore) -> object:
        """:meth:`flush_async`, as the services close."""
        return None

    async def aclose(self) -> None:
        """End what it runs (the app is stopping)."""


#: Builds an area's service from the server's config and store.
ServiceFactory = Callable[[Config, "ServerStore"], AreaService]


class Serving(Protocol):
    """An area as the server's services build it: its core declaration and its services
    (:class:`livecore_server.area.ServerArea`)."""

    @property
    def area(self) -> Area: ...

    @property
    def services(self) -> Mapping[str, ServiceFactory]: ...


class AreaServices:
    """The services of the areas served, by name, in the areas' order."""

    __slots__ = ("_made",)

    def __init__(self, made: Mapping[str, AreaService]) -> None:
        self._made = dict(made)

    def of(self, key: ServiceKey[S]) -> S:
        try:
            return cast(S, self._made[key.name])
        except KeyError:
            raise LookupError(f"no area service {key.name!r} is served") from None

    def __iter__(self) -> Iterator[AreaService]:
        return iter(self._made.values())
