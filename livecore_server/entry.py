"""The ``livecore-server`` command as installed: the server's dependencies are checked before the CLI is
imported, so that a plain ``pip install livecore`` (the core and the clients) answers in one line what to
install rather than with a traceback from the first import that fails.

Only the standard library is imported here, and nothing of the modules checked is loaded: finding them
is enough, and the CLI imports each when a command needs it (docs/server.md, "The CLI").
"""

from __future__ import annotations

import importlib.util
import sys

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


def main() -> None:
    absent = missing()
    if absent:
        print(
            f"Error: livecore-server needs the server's dependencies, not installed here (missing:"
            f" {', '.join(absent)}); install them with: {HINT}",
            file=sys.stderr,
        )
        raise SystemExit(1)
    from livecore_server.cli import main as cli

    cli()


if __name__ == "__main__":
    main()
