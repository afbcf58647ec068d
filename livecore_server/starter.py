"""The starter manifest that ``livecore-server init`` writes (docs/server.md): ``starter.toml`` beside this
module, one studio with one game, its API keys, a live event, a shared leaderboard and a webhook endpoint,
commented for a studio to edit. ``apply`` accepts it as written.

Only the standard library: ``init`` runs before anything else is set up, and quickly."""

from __future__ import annotations

import os
from importlib import resources

__all__ = ["DEFAULT_PATH", "starter_manifest_text", "write_starter"]

DEFAULT_PATH = "manifest.toml"
_RESOURCE = "starter.toml"


def starter_manifest_text() -> str:
    """The starter manifest, as it ships."""
    return resources.files("livecore_server").joinpath(_RESOURCE).read_text(encoding="utf-8")


def write_starter(path: str | os.PathLike[str], *, force: bool = False) -> None:
    """Write the starter manifest to ``path``. An existing file is left as it is (``FileExistsError``)
    unless ``force``: the check and the creation are one step, so nothing is overwritten by a race."""
    with open(path, "w" if force else "x", encoding="utf-8") as fh:
        fh.write(starter_manifest_text())
