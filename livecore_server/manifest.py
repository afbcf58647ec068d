"""The server's reading of a manifest: its file, the studio's areas it may use, and the built-in demo.

The parser and every rule are the core's (:mod:`livecore.manifest`, each area's section in
``livecore/<area>/manifest.py``); here is what needs the machine: reading the file (an unreadable or
non-UTF-8 file is a :class:`~livecore.manifest.ManifestError` at path ``manifest``), importing the
studio's areas ``[plugins] areas`` names and those the server serves besides, and the packaged demo
manifest (``livecore-server demo``).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from importlib import resources

from livecore import manifest as core_manifest
from livecore.area import Area
from livecore.manifest import Manifest, ManifestError

__all__ = ["demo_manifest", "demo_manifest_text", "load_manifest", "parse_manifest", "read_manifest"]

_DEMO_RESOURCE = "demo.toml"


def _load_area(name: str) -> Area | str:
    """The area of the package a manifest's ``[plugins] areas`` names, or why it does not load."""
    from livecore_server import plugins

    try:
        return plugins.load_area(name).area
    except plugins.PluginError as exc:
        return str(exc)


def _served(names: Sequence[str]) -> list[Area]:
    """The areas the server is told to serve (``serve --area``, ``LIVECORE_AREAS``: ``names``) and those
    installed by entry point. One that does not load is the server's refusal to start (serve names it),
    not the manifest's."""
    from livecore_server import plugins

    found: list[Area] = []
    for name in (*names, *plugins.installed()):
        with contextlib.suppress(plugins.PluginError):
            found.append(plugins.load_area(name).area)
    return found


def parse_manifest(text: str, *, allow_private_webhooks: bool = False, areas: Sequence[str] = ()) -> Manifest:
    """:func:`livecore.manifest.parse_manifest` with the studio's areas the server knows.
    ``allow_private_webhooks``: webhook URLs may name private addresses (``apply
    --allow-private-webhooks``). ``areas``: the studio's areas the server serves besides those the
    manifest names (``apply --area``), whose sections and webhook kinds the manifest may use."""
    return core_manifest.parse_manifest(
        text, allow_private_webhooks=allow_private_webhooks, load_area=_load_area, areas=_served(areas)
    )


def load_manifest(
    path: str | os.PathLike[str], *, allow_private_webhooks: bool = False, areas: Sequence[str] = ()
) -> Manifest:
    """Read a manifest file (UTF-8 TOML) and parse it; an unreadable file is a :class:`ManifestError` too."""
    return parse_manifest(read_manifest(path), allow_private_webhooks=allow_private_webhooks, areas=areas)


def read_manifest(path: str | os.PathLike[str]) -> str:
    """A manifest file's text (UTF-8); an unreadable file is a :class:`ManifestError` at path ``manifest``."""
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise ManifestError({"manifest": f"cannot be read from {os.fspath(path)}: {exc}"}) from None


def demo_manifest_text() -> str:
    """The built-in demo manifest (``livecore-server demo``), as TOML text."""
    return resources.files("livecore_server").joinpath(_DEMO_RESOURCE).read_text(encoding="utf-8")


def demo_manifest() -> Manifest:
    """The built-in demo manifest, parsed."""
    return parse_manifest(demo_manifest_text())
