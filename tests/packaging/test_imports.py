"""What a plain install needs (README.md, Quickstart; docs/client.md#installing-only-the-client).

Importing the core or the clients loads no command, store or area registry and nothing of the server or
its dependencies: only what ``pip install livecore`` brings. Counted in modules, in a fresh interpreter,
never timed (the figures are the benchmarks', ``python -m benchmarks.imports``). And the
``livecore-server`` entry point checks the server's modules against the ``server`` extra before it imports
the CLI. tests/packaging/test_built_package.py installs the wheel both ways and runs each.
"""

from __future__ import annotations

import importlib.metadata
import re
import tomllib

import pytest
from packaging.requirements import Requirement

from livecore_server import entry
from tests.packaging.fresh_support import ROOT, fresh

#: The parts of the core that run commands on a store, and the registry that gathers them: the server's
#: and the simulation's, never the wire declarations'.
CORE_PACKAGES = ("areas", "store", "memory", "commands", "simulation")
AREA_PARTS = ("commands", "store", "memory", "handlers")


def _loaded_after(statement: str) -> list[str]:
    """Every module a fresh interpreter holds after ``statement``, from this checkout."""
    loaded: list[str] = fresh(f"import json, sys\n{statement}\nprint(json.dumps(sorted(sys.modules)))\n")
    return loaded


def _not_for_a_plain_import(name: str) -> bool:
    parts = name.split(".")
    if parts[0] == "livecore_server" or parts[0] in entry.SERVER_MODULES:
        return True
    if parts[0] != "livecore" or len(parts) < 2:
        return False
    return parts[1] in CORE_PACKAGES or (len(parts) > 2 and parts[2] in AREA_PARTS)


CLIENT_IMPORTS = [
    "import livecore_client",
    "from livecore_client import SdkClient, ServerClient, AdminClient",
    "from livecore_client import construct_event",
    "import livecore_client.models, livecore_client.webhooks",
]


def test_the_check_catches_what_it_is_meant_to() -> None:
    assert _not_for_a_plain_import("livecore.live_events.commands.boards")
    assert _not_for_a_plain_import("livecore.store")
    assert _not_for_a_plain_import("livecore.areas")
    assert _not_for_a_plain_import("aiohttp.web")
    assert _not_for_a_plain_import("livecore_server.entry")
    assert not _not_for_a_plain_import("livecore.live_events.api")
    assert not _not_for_a_plain_import("livecore_client.models")


@pytest.fixture(scope="module")
def httpx_loads() -> frozenset[str]:
    """What ``import httpx`` alone loads here: its command line's click too, when click is installed (as
    the server's dependency in a development environment; not in a plain install)."""
    return frozenset(_loaded_after("import httpx"))


@pytest.mark.parametrize("statement", CLIENT_IMPORTS)
def test_the_clients_import_nothing_of_the_commands_the_stores_or_the_server(
    statement: str, httpx_loads: frozenset[str]
) -> None:
    loaded = _loaded_after(statement)
    assert "livecore_client" in loaded
    assert [name for name in loaded if _not_for_a_plain_import(name) and name not in httpx_loads] == []


def test_importing_the_clients_builds_no_wire_model_until_one_is_named() -> None:
    """Each client, the models and the webhooks load on first use (livecore_client/__init__.py): the
    package alone holds the errors and the transport."""
    loaded = _loaded_after("import livecore_client")
    assert "livecore_client.models" not in loaded
    assert [name for name in loaded if re.fullmatch(r"livecore\.\w+\.(api|webhooks|calls)", name)] == []


def test_reading_webhooks_builds_no_route_model() -> None:
    """A backend that only reads webhooks loads the payloads, not the clients' answers: no area's routes
    or calls (docs/client.md#import-cost)."""
    loaded = _loaded_after("from livecore_client import construct_event")
    assert [name for name in loaded if re.fullmatch(r"livecore\.\w+\.(api|calls)", name)] == []


def test_every_name_the_clients_export_resolves_when_named() -> None:
    code = (
        "import livecore_client as c\n"
        "assert set(c.__all__) <= set(dir(c)), set(c.__all__) - set(dir(c))\n"
        "from livecore_client import *\n"
        "assert ServerClient is c.server.ServerClient and construct_event is c.webhooks.construct_event\n"
        "assert c.models.GiftView.__module__ == 'livecore.gifts.api'\n"
    )
    assert "livecore_client.models" in _loaded_after(code)


def test_the_core_imports_only_its_errors_and_its_version() -> None:
    loaded = _loaded_after("import livecore")
    assert sorted(name for name in loaded if name.startswith("livecore")) == [
        "livecore",
        "livecore.errors",
        "livecore.version",
    ]
    assert [name for name in loaded if _not_for_a_plain_import(name)] == []


# --- the livecore-server entry point ------------------------------------------------------------------


def test_the_entry_point_imports_nothing_of_the_server() -> None:
    loaded = _loaded_after("import livecore_server.entry")
    assert not [name for name in loaded if name.split(".")[0] in entry.SERVER_MODULES]
    assert "livecore_server.cli" not in loaded


def test_a_missing_module_is_named_in_one_line_with_the_extra_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(entry, "SERVER_MODULES", ("json", "livecore_no_such_module", "click"))
    with pytest.raises(SystemExit) as exited:
        entry.main()
    assert exited.value.code == 1
    out, err = capsys.readouterr()
    assert out == ""
    (line,) = err.strip().splitlines()
    assert line.startswith("Error: ")
    assert "(missing: livecore_no_such_module)" in line
    assert line.endswith('pip install "livecore[server]"')


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_the_entry_point_checks_the_server_extra_module_for_requirement() -> None:
    """Every module the entry point checks comes from what ``livecore[server]`` installs, and every
    requirement of the extra is checked through a module of its own: the list cannot drift from
    pyproject.toml (read here, with this environment's distributions, which hold the extra)."""
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    wanted = [Requirement(r) for r in extra["server"]]
    wanted = [r for r in wanted if r.marker is None or r.marker.evaluate()]
    direct = {_canonical(r.name) for r in wanted}
    # What an extra of a requirement adds (psycopg[pool] is psycopg-pool, whose module is psycopg_pool).
    added = set()
    for r in wanted:
        for line in importlib.metadata.requires(r.name) or []:
            dependency = Requirement(line)
            marker = dependency.marker
            if (
                marker is not None
                and "extra" in str(marker)
                and any(marker.evaluate({"extra": e}) for e in r.extras)
            ):
                added.add(_canonical(dependency.name))
    provided = importlib.metadata.packages_distributions()
    sources = {name: {_canonical(d) for d in provided.get(name, [])} for name in entry.SERVER_MODULES}
    assert {name for name, dists in sources.items() if not dists & (direct | added)} == set()
    assert direct - set().union(*sources.values()) == set()
