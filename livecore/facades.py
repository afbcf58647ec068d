"""The facades the assembly writes (:mod:`livecore.assembly`): each client module with its two clients,
and the parts each area binds to each facade, in the areas' order. Shared by the generator of the
service's own facades and that of a studio's (:mod:`livecore.studio_facades`)."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from livecore.area import Area, ClientPart, Facade


@attrs.frozen
class Client:
    """A generated client module: its two clients, the blocking one and its asyncio twin (``Async...``,
    each part's class prefixed the same), and the class each extends, ``(module, class)``."""

    path: str
    key: Facade
    name: str
    base: tuple[str, str]
    twin: str
    twin_base: tuple[str, str]


#: The simulated facades (a player's actions, the studio's backend's), each with the client facade whose
#: simulated parts (:attr:`livecore.area.ClientPart.simulated`) it holds.
SIMULATED: dict[str, Facade] = {"player": "sdk", "sim_server": "server"}


CLIENTS = (
    Client(
        "livecore_client/sdk.py",
        "sdk",
        "SdkClient",
        ("._surfaces", "SdkSurface"),
        "AsyncSdkClient",
        ("._surfaces", "AsyncSdkSurface"),
    ),
    Client(
        "livecore_client/server.py",
        "server",
        "ServerClient",
        ("._client", "SyncClient"),
        "AsyncServerClient",
        ("._client", "AsyncClient"),
    ),
    Client(
        "livecore_client/admin.py",
        "admin",
        "AdminClient",
        (".resources.operators.surface", "AdminSurface"),
        "AsyncAdminClient",
        (".resources.operators.surface", "AsyncAdminSurface"),
    ),
)
#: What each facade's attributes are called on in the docs, for the composed groups' docstrings.


def parts_of(key: str, registered: Sequence[Area]) -> dict[str, list[tuple[str, ClientPart]]]:
    """The facade's attributes in the areas' order, each with its parts (area, part), in the areas' order:
    a simulated facade's are the simulated parts of its client's."""
    facade = SIMULATED.get(key, key)
    found: dict[str, list[tuple[str, ClientPart]]] = {}
    for area in registered:
        for part in area.client:
            if part.facade == facade and (key == facade or part.simulated):
                found.setdefault(part.attribute, []).append((area.name, part))
    return found
