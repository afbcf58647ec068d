"""What the ``livecore-server`` commands share, wherever they are declared (the CLI's own modules, an
area's ``cli`` module, a studio's): the ``--db`` option and its check, the server's configuration, the
refusals with their stable codes, the services a command runs on, and the command classes whose help
shows each description whole.

It names no area: a command opens the services of the areas the registry serves
(:func:`open_services`). Like the root (:mod:`livecore_server.cli`), it imports nothing of the server at
start (docs/server.md, "The CLI")."""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar
from urllib.parse import urlsplit, urlunsplit

import click

from livecore.names import shown
from livecore_server.config import Config, is_postgres, sqlite_path

if TYPE_CHECKING:
    from livecore.clock import Clock
    from livecore_server.services import Services

DB_HELP = (
    "SQLite file path, sqlite:///abs/path.db or postgresql://user@host/dbname"
    " (default: $LIVECORE_DB, else livecore.db)."
)
PRIVATE_WEBHOOKS_HELP = (
    "Let webhooks reach private addresses (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7): for a"
    " backend on an internal network. Link-local and cloud metadata addresses stay refused."
)
DEFAULTS = Config()


def summary(command: click.Command) -> str:
    """The first paragraph of a command's help, whole: click would cut it to fit one line."""
    text = command.short_help or (command.help or "").split("\n\n", 1)[0]
    return " ".join(text.split())


class Command(click.Command):
    """A command whose line in its group's help is its description whole (:func:`summary`)."""

    def get_short_help_str(self, limit: int = 45) -> str:
        return summary(self)


class Group(click.Group):
    """A group of :class:`Command` (its subgroups are Groups too), shown whole in its parent's help."""

    command_class = Command
    group_class = type

    def get_short_help_str(self, limit: int = 45) -> str:
        return summary(self)


F = TypeVar("F", bound=Callable[..., Any])


def area_option(help: str) -> Callable[[F], F]:
    """``--area PACKAGE`` (repeatable; ``LIVECORE_AREAS``, comma-separated), a studio's own area, into the
    parameter ``studio_areas``: ``help`` says what the command does with it."""
    return click.option(
        "--area",
        "studio_areas",
        multiple=True,
        envvar="LIVECORE_AREAS",
        show_envvar=True,
        metavar="PACKAGE",
        help=help,
    )


def area_names(given: tuple[str, ...]) -> tuple[str, ...]:
    """The area names of ``--area`` (repeated) or ``LIVECORE_AREAS`` (comma-separated)."""
    return tuple(n.strip() for v in given for n in v.split(",") if n.strip())


def per_minute_option(flag: str, default: int | None, help: str) -> Callable[[F], F]:
    """A limit a minute, ``--name-per-minute``, also read from ``LIVECORE_NAME_PER_MINUTE``."""
    return click.option(
        flag,
        type=click.IntRange(1, 1_000_000),
        default=default,
        show_default=default is not None,
        envvar="LIVECORE_" + flag.removeprefix("--").replace("-", "_").upper(),
        show_envvar=True,
        help=help,
    )


def auth_failures_option(help: str) -> Callable[[F], F]:
    """``--auth-failures-per-minute``: the server's (``serve``) and the one ``lockouts list`` counts
    against, from the same variable."""
    return per_minute_option("--auth-failures-per-minute", DEFAULTS.auth_failures_per_minute, help)


def finite(ctx: click.Context, param: click.Parameter, value: float) -> float:
    """FloatRange lets NaN through (every comparison with it is false)."""
    if math.isnan(value):
        raise click.BadParameter("must be a number of seconds, not NaN", ctx, param)
    return value


class Refused(click.ClickException):
    """A command refused, with a stable code for ``--json`` (``{"error": {"code", "message", "details"}}``,
    the shape of the API's error envelope)."""

    def __init__(
        self, code: str, message: str, fields: dict[str, str] | None = None, exit_code: int = 1
    ) -> None:
        super().__init__(message)
        self.code = code
        self.fields = fields
        # click exits with exit_code, which it declares a class default (a ClassVar from click 8.5 on); each
        # refusal has its own.
        self.exit_code = exit_code  # type: ignore[misc, unused-ignore]

    def as_json(self) -> str:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.fields is not None:
            error["details"] = {"fields": self.fields}
        return json.dumps({"error": error})


def refuse_as_json(refused: Refused) -> NoReturn:
    """``--json``: the refusal as one JSON object on stdout, where the result would have been."""
    click.echo(refused.as_json())
    raise SystemExit(refused.exit_code)


def refusal(what: str, problems: Mapping[str, str]) -> str:
    """A refused file's problems as the CLI prints them: one on the line that says ``what`` was refused,
    several one per line below it; names from the file escaped (:func:`livecore.names.shown`)."""
    lines = [shown(f"{path}: {message}") for path, message in problems.items()]
    if len(lines) == 1:
        return f"{shown(what)}: {lines[0]}"
    return "\n".join([f"{shown(what)}:", *lines])


# A URL scheme (``mysql://``, ``postgresql:/x``): two letters at least, so that no file name is taken for one.
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+:")


def database(db: str | None, *, creates: bool = False) -> str:
    """The database a command runs on: ``--db``, else ``$LIVECORE_DB``, else ``livecore.db``, checked
    before anything is opened. Only ``creates`` commands (``apply``, ``demo``) may make a new SQLite file,
    and they say so in one line; every other command refuses a file that is not there (a mistyped
    ``--db`` would otherwise leave an empty database and a new server key behind)."""
    value = db or os.environ.get("LIVECORE_DB") or "livecore.db"
    if is_postgres(value):
        if not urlsplit(value).path.strip("/"):
            raise Refused(
                "database_invalid", f"{redact(value)} names no database: postgresql://user@host/dbname"
            )
        return value
    if _SCHEME.match(value) and not value.startswith("sqlite://"):
        raise Refused(
            "database_invalid",
            f"--db {value!r} is not a database livecore runs on: give a SQLite file path,"
            " sqlite:///abs/path.db or postgresql://user@host/dbname",
        )
    path = Path(sqlite_path(value))
    if path.is_dir():
        raise Refused("database_invalid", f"--db {value!r} is a directory, not a database file")
    if not path.parent.is_dir():
        raise Refused(
            "database_invalid", f"--db {value!r}: the directory {str(path.parent)!r} does not exist"
        )
    if not path.exists():
        if not creates:
            raise Refused(
                "database_missing",
                f"no database at {str(path)!r}: check --db (or $LIVECORE_DB); `livecore-server apply MANIFEST"
                f" --db {value}` or `livecore-server demo --db {value}` creates one",
            )
        click.echo(f"creating a new database at {path.resolve()}", err=True)
    return value


def redact(db: str) -> str:
    """The database URL without its password, for logs."""
    parts = urlsplit(db)
    if not is_postgres(db) or parts.password is None:
        return db
    return urlunsplit(parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@", 1)))


def server_config(
    db: str, pool_size: int = 8, webhook_timeout: float = DEFAULTS.webhook_timeout, **settings: Any
) -> Config:
    """The server's configuration; ``settings`` are other :class:`Config` fields a command's flags set."""
    from livecore_server import statement_tally

    return Config(
        db=db,
        pool_size=pool_size,
        bench_baseline=os.environ.get("LIVECORE_BENCH_BASELINE") == "1",
        statement_tally=os.environ.get(statement_tally.ENV_VAR) or None,
        webhook_timeout=webhook_timeout,
        **settings,
    )


@contextlib.contextmanager
def opening() -> Iterator[None]:
    """Why the services could not open, as a one-line CLI error."""
    import psycopg

    from livecore_server.crypto import ServerKeyError

    try:
        yield
    except ServerKeyError as exc:
        raise Refused("server_key", str(exc)) from None
    except psycopg.OperationalError as exc:
        raise Refused("database_unreachable", f"cannot reach PostgreSQL: {str(exc).strip()}") from None


def open_services(config: Config, clock: Clock | None = None, areas: tuple[str, ...] = ()) -> Services:
    """The services of the installed areas and of the studio's ``areas`` named (a studio's command names
    its own, to reach its tables)."""
    from livecore import registry
    from livecore_server import plugins
    from livecore_server.clock import SystemClock
    from livecore_server.registry import installed, storage
    from livecore_server.services import build_services

    try:
        studio = plugins.load(areas)
    except plugins.PluginError as exc:
        raise click.ClickException(str(exc)) from None
    served = (*installed(), *studio)
    try:
        registry.checked([a.area for a in served])
    except registry.AreaConflict as exc:
        raise click.ClickException(str(exc)) from None
    with opening():
        return build_services(config, clock or SystemClock(), served=served, storage=storage(studio))


def operate(db: str | None, action: Callable[[Services], Any], areas: tuple[str, ...] = ()) -> Any:
    """Run an operator command's ``action`` on an existing database (never a new one), with the studio's
    ``areas`` named served beside the built-in ones."""
    services = open_services(server_config(database(db)), areas=areas)
    try:
        return action(services)
    finally:
        services.close()
