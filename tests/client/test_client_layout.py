"""Where the client's methods are written: each method's builder is its area's, in the core
(``livecore/<area>/calls.py``, which a simulation runs too), not in the client; and each area's client
resource is its own: a resource another area adds to (``sdk.grants`` with the crates' ``open_crate``) is
composed by the client of each area's part (``livecore_client/sdk.py``), never by a class in one area's
module that extends another area's."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from typing import Any

import pytest

import livecore_client.resources
from livecore_client._client import BUILDER
from livecore_client._method_table import CLIENTS, public_methods

#: The methods written by hand, each over a builder of the core (an iterator cannot be one builder).
HAND_WRITTEN = {"sdk.live_events.stream_leaderboard", "server.purchases.iter", "admin.audit.iter"}
#: The operators' builders still written in the client (``livecore_client/resources/operators/``), as many
#: as there are now so that the count only falls; every other surface's are the core's.
CLIENT_SIDE = {"sdk": 0, "server": 0, "admin": 28}
_CORE_CALLS = re.compile(r"livecore\.\w+\.calls")


def _outside_core(client: type[Any], var: str) -> list[str]:
    found = []
    for name, method in public_methods(client).items():
        builder = getattr(method, BUILDER, None)
        if builder is None:
            assert f"{var}.{name}" in HAND_WRITTEN, f"{var}.{name} has no builder"
        elif not _CORE_CALLS.fullmatch(builder.__module__):
            found.append(f"{var}.{name} ({builder.__module__})")
    return found


@pytest.mark.parametrize(
    ("client", "var"),
    [pytest.param(c, v, id=c.__name__) for sync, twin, v in CLIENTS for c in (sync, twin)],
)
def test_each_builder_is_its_areas_in_the_core(client: type[Any], var: str) -> None:
    outside = _outside_core(client, var)
    if len(outside) > CLIENT_SIDE[var]:
        listed = "\n".join(f"  {found}" for found in outside)
        pytest.fail(
            f"{len(outside)} builders of {client.__name__} outside livecore/<area>/calls.py "
            f"(at most {CLIENT_SIDE[var]}):\n{listed}",
            pytrace=False,
        )


def _resource_modules() -> list[str]:
    package = livecore_client.resources
    return [f"{package.__name__}.{info.name}" for info in pkgutil.iter_modules(package.__path__)]


@pytest.mark.parametrize("module", _resource_modules())
def test_an_areas_resources_extend_no_other_resource_module(module: str) -> None:
    """A class of one resource module built on a class of another (``class Grants(grants.Grants, ...)`` in
    the crates' module) would make one area's resource another's; the clients compose them instead."""
    loaded = importlib.import_module(module)
    found = []
    for name, cls in inspect.getmembers(loaded, inspect.isclass):
        if cls.__module__ != module:
            continue
        found.extend(
            f"{name} extends {base.__module__}.{base.__qualname__}"
            for base in cls.__mro__[1:]
            if base.__module__.startswith("livecore_client.resources.")
            and base.__module__ != module
            and not base.__module__.endswith("._base")
        )
    assert not found, "\n".join(found)
