"""The files ``livecore-server simulate`` ships, so that it runs from an installed package with no checkout:
``demo`` names the demo manifest (``livecore_server/demo.toml``, the one ``livecore-server demo`` serves)
as a MANIFEST or ``--compare``, and the population written for it (``livecore_server/demo_population.toml``)
as ``--population``. A name is read as a path first: a file called ``demo`` in the working directory wins."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from importlib import resources

import click

#: Shipped manifests and populations by name: files of the ``livecore_server`` package.
MANIFESTS: Mapping[str, str] = {"demo": "demo.toml"}
POPULATIONS: Mapping[str, str] = {"demo": "demo_population.toml"}


def resolve(given: str, shipped: Mapping[str, str]) -> str:
    """The path ``given`` names: itself when it is a path (or names nothing shipped), else the shipped file
    of that name. An installed package is a directory, so the shipped file is a path on disk."""
    if os.path.exists(given) or given not in shipped:
        return given
    return str(resources.files("livecore_server").joinpath(shipped[given]))


def option(
    shipped: Mapping[str, str], what: str
) -> Callable[[click.Context, click.Parameter, str | None], str | None]:
    """A click callback for a file or a shipped name: a path that is neither a file nor a name is refused as
    click refuses a missing file (exit 2)."""
    names = ", ".join(sorted(shipped))

    def check(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
        if value is None:
            return None
        path = resolve(value, shipped)
        if not os.path.isfile(path):
            raise click.BadParameter(
                f"{value!r} is neither a file nor a shipped {what} ({names}).", ctx, param
            )
        return path

    return check
