"""The files ``livecore-server simulate`` ships, so that it runs from an installed package with no checkout:
``demo`` names the demo manifest (``livecore_server/demo.toml``, the one ``livecore-server demo`` serves)
as a MANIFEST or ``--compare``, and the population written for it (``livecore_server/demo_population.toml``)
as ``--population``. A name is read as a path first: a file called ``demo`` in the working directory wins."""

from __future__ import annotations

import os
from collections.abc import Mapping
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
    return os.fspath(resources.files("livecore_server").joinpath(shipped[given]))


def option(shipped: Mapping[str, str], what: str) -> click.ParamType:
    """A click type for a file or a shipped name: a path that is neither a file nor a name is refused as
    click refuses a missing file (exit 2)."""
    names = ", ".join(sorted(shipped))

    class _Shipped(click.ParamType):
        name = "path"

        def convert(self, value: str, param: click.Parameter | None, ctx: click.Context | None) -> str:
            path = resolve(value, shipped)
            if not os.path.isfile(path):
                self.fail(f"{value!r} is neither a file nor a shipped {what} ({names}).", param, ctx)
            return path

    return _Shipped()
