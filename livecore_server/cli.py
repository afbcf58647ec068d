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
import logging
import os
from collections.abc import Iterable
from types import ModuleType
from typing import TYPE_CHECKING

import click

from livecore_server import cli_keys, cli_lockouts, cli_serve
from livecore_server.cli_options import Group, area_names
from livecore_server.simulate import cli as simulate_cli

if TYPE_CHECKING:
    pass

#: The module of an area's package that lists its commands.
AREA_MODULE = "cli"


def area_packages() -> tuple[str, ...]:
    """The packages whose ``cli`` module may bring commands: each built-in area's server package, in the
    registry's order, then each studio's area package that ``LIVECORE_AREAS`` names or an installed
    distribution names by entry point (docs/extending.md#its-commands)."""
    from livecore import registry
    from livecore_server import plugins

    studio = (*plugins.installed(), *area_names((os.environ.get("LIVECORE_AREAS", ""),)))
    return (*(f"livecore_server.{area.name}" for area in registry.installed()), *dict.fromkeys(studio))


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


@functools.cache
def _every(packages: tuple[str, ...]) -> dict[str, click.Command]:
    """The CLI's own commands (:data:`OWN`) and those of the areas' ``packages``."""
    from livecore.registry import importable

    areas = ((f"{p}.{AREA_MODULE}", importable(f"{p}.{AREA_MODULE}")) for p in packages)
    return _listed((*((module.__name__, module) for module in OWN), *areas))


class _Root(Group):
    """The root group: the CLI's own commands (:data:`OWN`, registered as it is made), then each area's,
    found when asked for; listed in alphabetical order."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_every(area_packages()))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return super().get_command(ctx, cmd_name) or _every(area_packages()).get(cmd_name)


@click.group(cls=_Root)
@click.version_option(package_name="livecore")
@click.pass_context
def main(ctx: click.Context) -> None:
    """livecore reference server: apply a manifest, serve the API, or try it all with `demo`.

    Every command takes --db (or $LIVECORE_DB): a SQLite file, or a postgresql:// URL. `livecore-server
    COMMAND --help` tells more of each."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")


#: The modules of the CLI's own commands, which name no area, each with its ``COMMANDS``.
OWN: tuple[ModuleType, ...] = (cli_serve, cli_keys, cli_lockouts, simulate_cli)
for _module in OWN:
    for _command in _module.COMMANDS:
        main.add_command(_command)


if __name__ == "__main__":
    main()
