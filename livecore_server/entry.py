"""The ``livecore-server`` command as installed: the server's dependencies are checked before the CLI is
imported, so that a plain install (the core and the clients) answers in one line what to install rather
than with a traceback from the first import that fails. The client examples check the same before they
start a demo of their own (:func:`demo_of_its_own`).

Only the standard library is imported here, and nothing of the modules checked is loaded: finding them
is enough, and the CLI imports each when a command needs it (docs/server.md, "The CLI").
"""

from __future__ import annotations

import importlib.util
import sys
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from livecore_server.embedded import Demo

#: The modules the server imports beyond the core and the clients, by import name: the ``server`` extra
#: of pyproject.toml (tests/packaging/test_entry.py holds the two together).
SERVER_MODULES: tuple[str, ...] = (
    "aiohttp",
    "sqlite_utils",
    "cryptography",
    "click",
    *(("uvloop",) if sys.platform != "win32" else ()),
    "psycopg",
    "psycopg_pool",
    "greenlet",
    "iptocc",
    "jinja2",
    "aiohttp_jinja2",
    "authlib",
    "mcp",
    "matplotlib",
)

HINT = 'pip install "livecore[server]"'


def missing() -> list[str]:
    """The server's modules this environment cannot import, in :data:`SERVER_MODULES` order."""
    return [name for name in SERVER_MODULES if importlib.util.find_spec(name) is None]


def _refuse(needs: str, absent: list[str]) -> NoReturn:
    """Exit 1 with one line on stderr: what ``needs`` the server's dependencies, and how to install them."""
    print(
        f"Error: {needs} the server's dependencies, not installed here (missing: {', '.join(absent)});"
        f" install them with: {HINT}",
        file=sys.stderr,
    )
    raise SystemExit(1)


def demo_of_its_own(script: str, variables: str, where: str | None = None) -> AbstractContextManager[Demo]:
    """The demo server a client example starts when ``variables`` (those naming a running server; ``where``
    says where they come from, by default the demo's export lines) are not set:
    :func:`livecore_server.embedded.demo_server`. Where the server is not installed, the example exits as
    ``livecore-server`` does, in one line: what to set, or what to install."""
    absent = missing()
    if absent:
        them = "them" if " and " in variables else "it"
        where = where or f"`livecore-server demo` prints {them}"
        _refuse(
            f"{Path(script).name} needs {variables} ({where}); without {them} it starts a demo of its own,"
            " which needs",
            absent,
        )
    from livecore_server.embedded import demo_server

    return demo_server()


def main() -> None:
    absent = missing()
    if absent:
        _refuse("livecore-server needs", absent)
    from livecore_server.cli import main as cli

    cli()


if __name__ == "__main__":
    main()
