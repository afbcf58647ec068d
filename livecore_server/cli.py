"""The ``livecore-server`` command (docs/reference/manifest-and-cli.md): the root group, which finds each
command where it is declared.

The CLI's own commands, which name no area, are in :data:`OWN` (``init``, ``serve``, ``demo``: the
server's start; the server key's; ``lockouts``; the simulation's ``simulate`` and ``population``). Each
area brings its own, as Django's applications bring their management commands: the ``cli`` module of
the area's package, if it has one (``livecore_server/<area>/cli.py`` for a built-in area, ``<package>/cli.py``
for a studio's), lists them in ``COMMANDS``, a tuple of click commands or groups. The packages are those of
:func:`area_packages`; a command is found only when it is asked for (``--help`` lists them all).

Every other import of the server happens in the command that needs it: ``--help`` and the commands that only
read the database answer without loading the web server, the portal, OpenID Connect or /mcp
(docs/server.md, "The CLI"; tests/server/test_cli_first_contact.py holds it).
"""

from __future__ import annotations

import functools
import importlib
import logging
import os
from collections.abc import Iterable, Iterator
from types import ModuleType
from typing import TYPE_CHECKING

import click

from livecore_server.cli_options import OPENER, Group, area_names, opening

if TYPE_CHECKING:
    from livecore.clock import Clock
    from livecore_server.config import Config
    from livecore_server.services import Services

#: The modules of the CLI's own commands, each with its ``COMMANDS``.
OWN = (
    "livecore_server.cli_serve",
    "livecore_server.cli_keys",
    "livecore_server.cli_lockouts",
    "livecore_server.simulate.cli",
)
#: The module of an area's package that lists its commands.
AREA_MODULE = "cli"


def area_packages() -> tuple[str, ...]:
    """The packages whose ``cli`` module may bring commands: each built-in area's server package, in the
    registry's order, then each studio's area package that ``LIVECORE_AREAS`` names or an installed
    distribution names by entry point (docs/extending.md#its-commands)."""
    from livecore import areas
    from livecore_server import plugins

    studio = (*plugins.installed(), *area_names((os.environ.get("LIVECORE_AREAS", ""),)))
    return (*(f"livecore_server.{area.name}" for area in areas.BUILT_IN), *dict.fromkeys(studio))


def _listed(modules: Iterable[tuple[str, ModuleType | None]]) -> dict[str, click.Command]:
    """The commands the ``modules`` list in ``COMMANDS``, by name; a module that is not there brings none.
    Two commands of one name are refused: which one ran would depend on the order the areas are named."""
    found: dict[str, tuple[click.Command, str]] = {}
    for name, module in modules:
        for command in getattr(module, "COMMANDS", ()):
            if command.name in found:
                raise click.ClickException(
                    f"the command {command.name} of {name} is also {found[command.name][1]}'s: rename one"
                )
            found[str(command.name)] = command, name
    return {name: command for name, (command, _) in found.items()}


def _own() -> Iterator[tuple[str, ModuleType]]:
    return ((name, importlib.import_module(name)) for name in OWN)


@functools.cache
def _every(packages: tuple[str, ...]) -> dict[str, click.Command]:
    from livecore.areas import importable

    areas = ((f"{p}.{AREA_MODULE}", importable(f"{p}.{AREA_MODULE}")) for p in packages)
    return _listed((*_own(), *areas))


class _Root(Group):
    """The root group: the CLI's own commands (:data:`OWN`), found without reading the registry of the
    areas, then each area's; listed in alphabetical order."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_every(area_packages()))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return _listed(_own()).get(cmd_name) or _every(area_packages()).get(cmd_name)


def _services(config: Config, clock: Clock | None = None, areas: tuple[str, ...] = ()) -> Services:
    """The services every command runs on (:func:`livecore_server.cli_options.open_services`): the built-in
    areas' and those of the studio's ``areas`` named."""
    from livecore import areas as registry
    from livecore_server import plugins
    from livecore_server.areas import storage
    from livecore_server.clock import SystemClock
    from livecore_server.services import build_services

    try:
        studio = plugins.load(areas)
    except plugins.PluginError as exc:
        raise click.ClickException(str(exc)) from None
    served = registry.registered(a.area for a in studio)
    with opening():
        return build_services(config, clock or SystemClock(), served=served, storage=storage(studio))


@click.group(cls=_Root)
@click.version_option(package_name="livecore")
@click.pass_context
def main(ctx: click.Context) -> None:
    """livecore reference server: apply a manifest, serve the API, or try it all with `demo`.

    Every command takes --db (or $LIVECORE_DB): a SQLite file, or a postgresql:// URL. `livecore-server
    COMMAND --help` tells more of each."""
    ctx.meta[OPENER] = _services
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")


if __name__ == "__main__":
    main()
