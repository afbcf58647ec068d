"""The ``livecore-server`` command (docs/reference/manifest-and-cli.md): ``serve``, ``apply``, ``demo``,
``simulate``, ``population`` and the operators' commands."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import gc
import json
import logging
import math
import os
import re
import shlex
import socket
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar
from urllib.parse import urlsplit, urlunsplit

import click

from livecore.names import shown
from livecore.operators.rules import KEY_DAYS_OFFERED, KEY_LIFETIME
from livecore.roles import Role
from livecore.webhooks.delivery import DEFAULT_OVERLAP, OVERLAP, DeliveryStatus
from livecore_server.config import Config, is_postgres, sqlite_path
from livecore_server.simulate import MOST_SEEDS, shipped

# Every other import of the server happens in the command that needs it: `--help` and the commands that
# only read the database answer without loading the web server, the portal, OpenID Connect or /mcp
# (docs/server.md, "The CLI"; tests/server/test_cli_imports.py holds it).
if TYPE_CHECKING:
    from livecore.clock import Clock
    from livecore.manifest import Manifest
    from livecore_server.config import OidcSettings
    from livecore_server.crypto import ServerKeys
    from livecore_server.services import Services

DB_HELP = (
    "SQLite file path, sqlite:///abs/path.db or postgresql://user@host/dbname"
    " (default: $LIVECORE_DB, else livecore.db)."
)
POOL_HELP = "PostgreSQL transactions this process runs at once, each on a connection of its pool."
# The contract (docs/reference/webhooks.md#delivery) fixes the webhook attempt timeout at 10 s (Config's
# default); an operator may change it. The upper bound keeps a hanging receiver from holding one of an
# endpoint's 4 attempt slots, and the delivery's claim (timeout + 30 s), for long.
DEFAULTS = Config()
DEFAULT_WEBHOOK_TIMEOUT = DEFAULTS.webhook_timeout
WEBHOOK_TIMEOUT_MAX = 60.0
WEBHOOK_TIMEOUT_HELP = "Seconds a webhook attempt waits for the receiver's answer before it counts as failed."
# docs/server.md, "Slow clients".
TIMEOUT_MAX = 3600.0
HEADER_TIMEOUT_HELP = (
    "Seconds a connection has to send a whole request line and headers, from when it opens or from its"
    " previous response (an idle keep-alive connection is closed after as long)."
)
BODY_TIMEOUT_HELP = "Seconds a request has to send its whole body; later, it is answered 408 and closed."
PRIVATE_WEBHOOKS_HELP = (
    "Let webhooks reach private addresses (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7): for a"
    " backend on an internal network. Link-local and cloud metadata addresses stay refused."
)


F = TypeVar("F", bound=Callable[..., Any])


def _area_option(help: str) -> Callable[[F], F]:
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


def _per_minute_option(flag: str, default: int | None, help: str) -> Callable[[F], F]:
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


def _auth_failures_option(help: str) -> Callable[[F], F]:
    """``--auth-failures-per-minute``: the server's (``serve``) and the one ``lockouts list`` counts
    against, from the same variable."""
    return _per_minute_option("--auth-failures-per-minute", DEFAULTS.auth_failures_per_minute, help)


def _finite(ctx: click.Context, param: click.Parameter, value: float) -> float:
    """FloatRange lets NaN through (every comparison with it is false)."""
    if math.isnan(value):
        raise click.BadParameter("must be a number of seconds, not NaN", ctx, param)
    return value


# A URL scheme (``mysql://``, ``postgresql:/x``): two letters at least, so that no file name is taken for one.
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+:")


def _db(db: str | None, *, creates: bool = False) -> str:
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


def _key_note(db: str) -> str:
    """Where the server key of ``db`` is (docs/server.md, "The server key"), for ``apply`` to say."""
    from livecore_server.crypto import ENV_VAR, key_file_for

    if os.environ.get(ENV_VAR):
        return f"server key: from ${ENV_VAR}"
    path = key_file_for(None if is_postgres(db) else sqlite_path(db)).resolve()
    return f"server key: {path} (back it up with the database: without it no key or secret works)"


def _config(
    db: str, pool_size: int = 8, webhook_timeout: float = DEFAULT_WEBHOOK_TIMEOUT, **settings: Any
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


def _oidc(host: str, port: int) -> OidcSettings | None:
    """The portal's OpenID Connect provider from ``LIVECORE_OIDC_*`` (docs/operators.md#openid-connect);
    the provider sends members back to ``$LIVECORE_PUBLIC_URL/portal/sso/callback``."""
    from livecore_server.config import OidcSettings

    public = os.environ.get("LIVECORE_PUBLIC_URL") or f"http://{host}:{port}"
    try:
        return OidcSettings.from_env(os.environ, redirect_uri=f"{public.rstrip('/')}/portal/sso/callback")
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None


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


def _refusal(what: str, problems: Mapping[str, str]) -> str:
    """A refused file's problems as the CLI prints them: one on the line that says ``what`` was refused,
    several one per line below it; names from the file escaped (:func:`livecore.names.shown`)."""
    lines = [shown(f"{path}: {message}") for path, message in problems.items()]
    if len(lines) == 1:
        return f"{shown(what)}: {lines[0]}"
    return "\n".join([f"{shown(what)}:", *lines])


def _seconds(name: str, default: float, help: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return click.option(
        f"--{name}-timeout",
        f"{name}_timeout",
        type=click.FloatRange(0, TIMEOUT_MAX, min_open=True),
        default=default,
        show_default=True,
        envvar=f"LIVECORE_{name.upper()}_TIMEOUT",
        show_envvar=True,
        metavar="SECONDS",
        callback=_finite,
        help=help,
    )


def _slow_clients(command: Callable[..., Any]) -> Callable[..., Any]:
    """The timeouts for slow clients, on every command that serves."""
    command = _seconds("body", DEFAULTS.body_timeout, BODY_TIMEOUT_HELP)(command)
    return _seconds("header", DEFAULTS.header_timeout, HEADER_TIMEOUT_HELP)(command)


@contextlib.contextmanager
def _opening() -> Iterator[None]:
    """Why the services could not open, as a one-line CLI error."""
    import psycopg

    from livecore_server.crypto import ServerKeyError

    try:
        yield
    except ServerKeyError as exc:
        raise Refused("server_key", str(exc)) from None
    except psycopg.OperationalError as exc:
        raise Refused("database_unreachable", f"cannot reach PostgreSQL: {str(exc).strip()}") from None


def _services(config: Config, clock: Clock | None = None) -> Services:
    from livecore_server.clock import SystemClock
    from livecore_server.registry import installed, storage
    from livecore_server.services import build_services

    with _opening():
        return build_services(config, clock or SystemClock(), served=installed(), storage=storage())


def server_event_loop() -> asyncio.AbstractEventLoop:
    """uvloop where installed (measured faster, docs/decisions/0007-uvloop.md).

    ``LIVECORE_EVENT_LOOP=asyncio`` opts out."""
    if os.environ.get("LIVECORE_EVENT_LOOP", "uvloop") != "asyncio":
        try:
            import uvloop

            return uvloop.new_event_loop()
        except ImportError:
            pass
    return asyncio.new_event_loop()


def _listen(host: str, port: int, reuse_port: bool = False) -> list[socket.socket]:
    """The server's listening sockets, bound before anything else happens: a second server on a busy
    port stops here, with one line, having changed nothing (the demo mints its keys only after this)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise Refused("cannot_listen", f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sockets: list[socket.socket] = []
    try:
        for family, kind, proto, _, address in dict.fromkeys(found):
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if reuse_port:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
            sock.listen(128)
            sock.setblocking(False)
    except OSError as exc:
        for sock in sockets:
            sock.close()
        if exc.errno == errno.EADDRINUSE:
            message = (
                f"port {port} on {host} is already in use (another livecore-server?):"
                " stop that server or choose another --port"
            )
        else:
            message = f"cannot listen on {host}:{port}: {exc.strerror}"
        raise Refused("cannot_listen", message) from None
    return sockets


def _require_api_keys(config: Config) -> None:
    """Refuse to serve a database no manifest was applied to: every request would be refused as an
    unknown key. Opening the services also checks the server key (livecore_server.crypto)."""
    services = _services(config)
    try:
        applied = services.store.run(lambda tx: tx.keys.any_key(), write=False)
    finally:
        services.close()
    if not applied:
        where = "" if config.db == "livecore.db" else f" --db {redact(config.db)}"
        raise Refused(
            "no_api_keys",
            f"the database {redact(config.db)} has no API key yet: run"
            f" `livecore-server apply MANIFEST{where}` first (docs/reference/manifest-and-cli.md#manifest),"
            " or try `livecore-server demo`",
        )


def _serve(
    config: Config,
    clock: Clock,
    host: str,
    port: int,
    access_log: bool,
    reuse_port: bool = False,
    sockets: list[socket.socket] | None = None,
) -> None:
    if sockets is None:
        sockets = _listen(host, port, reuse_port)
        _require_api_keys(config)
    from aiohttp import web

    from livecore.clock import ManualClock
    from livecore_server.access_log import RedactingAccessLogger
    from livecore_server.app import create_app
    from livecore_server.plugins import PluginError

    port = sockets[0].getsockname()[1]
    try:
        app = create_app(config, clock)
    except PluginError as exc:
        raise click.ClickException(str(exc)) from None
    kind = "manual" if isinstance(clock, ManualClock) else "system"

    async def announce(app: web.Application) -> None:  # after the services opened (the cleanup context)
        from livecore.clock import to_millis
        from livecore_server.operators.sessions import PORTAL_ADDRESS, served_address
        from livecore_server.services import SERVICES

        where = f"db {redact(config.db)}, clock {kind}"
        click.echo(f"livecore-server listening on http://{host}:{port} ({where})")
        # Where `members login-link` points its links (docs/operators.md#sign-in-links).
        services = app[SERVICES]
        address = served_address(host, port, config.public_url)
        now_ms = to_millis(services.clock.now())
        await services.store.run_async(lambda tx: tx.meta.put(PORTAL_ADDRESS, address, now_ms))

    async def freeze_startup_objects(app: web.Application) -> None:
        # What the process made to start (modules, routes, areas, converters, the services) lives as long
        # as it does, yet each full collection walked all of it while the server answered nothing
        # (docs/deployment.md#garbage-collection). The server process is ours to tune; an
        # embedded server leaves its host's collector alone.
        gc.freeze()

    app.on_startup.append(announce)
    app.on_startup.append(freeze_startup_objects)
    # run_app opens the services as the app starts, handles SIGINT and SIGTERM: it stops accepting, lets
    # in-flight requests finish (up to the shutdown timeout) and runs the cleanup contexts, which close the
    # database.
    with _opening():
        web.run_app(
            app,
            sock=sockets,
            loop=server_event_loop(),
            access_log=logging.getLogger("aiohttp.access") if access_log else None,
            access_log_class=RedactingAccessLogger,
            shutdown_timeout=10.0,
            print=None,
        )


def redact(db: str) -> str:
    """The database URL without its password, for logs."""
    parts = urlsplit(db)
    if not is_postgres(db) or parts.password is None:
        return db
    return urlunsplit(parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@", 1)))


def _summary(command: click.Command) -> str:
    """The first paragraph of a command's help, whole: click would cut it to fit one line."""
    text = command.short_help or (command.help or "").split("\n\n", 1)[0]
    return " ".join(text.split())


class _Command(click.Command):
    def get_short_help_str(self, limit: int = 45) -> str:
        return _summary(self)


class _Group(click.Group):
    command_class = _Command
    group_class = type  # subgroups are _Groups too

    def get_short_help_str(self, limit: int = 45) -> str:
        return _summary(self)


@click.group(cls=_Group)
@click.version_option(package_name="livecore")
def main() -> None:
    """livecore reference server: apply a manifest, serve the API, or try it all with `demo`.

    Every command takes --db (or $LIVECORE_DB): a SQLite file, or a postgresql:// URL. `livecore-server
    COMMAND --help` tells more of each."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")


@main.command()
@click.option("--db", default=None, help=DB_HELP)
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8080, show_default=True, type=int)
@click.option(
    "--clock", "clock_kind", type=click.Choice(["system", "manual"]), default="system", show_default=True
)
@click.option("--access-log/--no-access-log", default=False, help="Log every request line.")
@click.option(
    "--db-pool", "pool_size", default=8, show_default=True, type=click.IntRange(1, 256), help=POOL_HELP
)
@click.option(
    "--reuse-port",
    is_flag=True,
    help="Share the port with other livecore-server processes on this machine (SO_REUSEPORT; PostgreSQL).",
)
@click.option(
    "--webhook-timeout",
    type=click.FloatRange(0, WEBHOOK_TIMEOUT_MAX, min_open=True),
    default=DEFAULT_WEBHOOK_TIMEOUT,
    show_default=True,
    envvar="LIVECORE_WEBHOOK_TIMEOUT",
    show_envvar=True,
    metavar="SECONDS",
    callback=_finite,
    help=WEBHOOK_TIMEOUT_HELP,
)
@click.option(
    "--ip-country/--no-ip-country",
    default=True,
    show_default=True,
    envvar="LIVECORE_IP_COUNTRY",
    show_envvar=True,
    help="Without a CDN geo header, resolve a player's country from the client address, offline.",
)
@_slow_clients
@click.option("--allow-private-webhooks", is_flag=True, help=PRIVATE_WEBHOOKS_HELP)
@_per_minute_option(
    "--wrong-secrets-per-minute",
    DEFAULTS.wrong_secrets_per_minute,
    "Wrong player secrets a minute, per player and client address, before that player gets 429.",
)
@_auth_failures_option(
    "Failed authentications (keys, session cookies, sign-in links) a minute per client address, before"
    " that address gets 429."
)
@_per_minute_option(
    "--address-requests-per-minute",
    None,
    "Requests without a valid key a minute, per client address and bucket, before that address gets"
    " 429 (default: each bucket's default limit).",
)
@_per_minute_option(
    "--admin-requests-per-minute",
    DEFAULTS.admin_requests_per_minute,
    "Admin API requests a minute, per portal session or personal key, before that session or key gets 429.",
)
@click.option(
    "--client-address-header",
    default=None,
    envvar="LIVECORE_CLIENT_ADDRESS_HEADER",
    show_envvar=True,
    metavar="HEADER",
    help="Behind a proxy: the request header it puts the client's address in (X-Forwarded-For, X-Real-IP,"
    " CF-Connecting-IP, Forwarded; the last value of all its lines, any spelling of an IP address; a value"
    " that is not one counts as the peer's). Default: the connection's peer.",
)
@_area_option(
    "Serve a studio's own area, by package name (repeatable; LIVECORE_AREAS: comma-separated). Areas"
    " installed by entry point and those any studio's applied manifest names are served too"
    " (docs/extending.md)."
)
def serve(
    db: str | None,
    host: str,
    port: int,
    clock_kind: str,
    access_log: bool,
    pool_size: int,
    reuse_port: bool,
    webhook_timeout: float,
    ip_country: bool,
    header_timeout: float,
    body_timeout: float,
    allow_private_webhooks: bool,
    wrong_secrets_per_minute: int,
    auth_failures_per_minute: int,
    address_requests_per_minute: int | None,
    admin_requests_per_minute: int,
    client_address_header: str | None,
    studio_areas: tuple[str, ...],
) -> None:
    """Run the server until SIGINT/SIGTERM, then drain and stop cleanly."""
    from livecore_server import plugins
    from livecore_server.geo import no_country, offline_country

    clock = _clock(clock_kind)
    db = _db(db)
    if reuse_port and not is_postgres(db):
        raise click.ClickException("--reuse-port runs several processes on one database: use PostgreSQL.")
    config = _config(
        db,
        pool_size,
        webhook_timeout,
        header_timeout=header_timeout,
        body_timeout=body_timeout,
        allow_private_webhooks=allow_private_webhooks,
        wrong_secrets_per_minute=wrong_secrets_per_minute,
        auth_failures_per_minute=auth_failures_per_minute,
        address_requests_per_minute=address_requests_per_minute,
        admin_requests_per_minute=admin_requests_per_minute,
        client_address_header=client_address_header or None,
        country_of=offline_country if ip_country else no_country,
        oidc=_oidc(host, port),
        public_url=os.environ.get("LIVECORE_PUBLIC_URL") or None,
        areas=(*plugins.installed(), *_area_names(studio_areas)),
    )
    _serve(config, clock, host, port, access_log, reuse_port)


def _area_names(given: tuple[str, ...]) -> tuple[str, ...]:
    """The area names of ``--area`` (repeated) or ``LIVECORE_AREAS`` (comma-separated)."""
    return tuple(n.strip() for v in given for n in v.split(",") if n.strip())


def _clock(kind: str) -> Clock:
    from livecore.clock import ManualClock
    from livecore_server.clock import SystemClock

    return ManualClock(SystemClock().now()) if kind == "manual" else SystemClock()


def _apply(db: str, manifest: Manifest) -> tuple[Services, dict[str, Any]]:
    from livecore_server.operators.apply import apply_manifest

    services = _services(_config(db))
    result = apply_manifest(services.store, services.keys, services.runtime, manifest)
    return services, result


@main.command()
@click.argument("manifest", type=click.Path(exists=True, dir_okay=False))
@click.option("--db", default=None, help=DB_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.option("--allow-private-webhooks", is_flag=True, help=PRIVATE_WEBHOOKS_HELP)
@_area_option(
    "A studio's own area the server serves by serve --area (repeatable; LIVECORE_AREAS:"
    " comma-separated): the manifest may configure it without naming it in [plugins] areas."
)
def apply(
    manifest: str, db: str | None, as_json: bool, allow_private_webhooks: bool, studio_areas: tuple[str, ...]
) -> None:
    """Create or update studios, games, settings, API keys and webhooks from a TOML manifest."""
    from livecore.manifest import ManifestError
    from livecore_server.manifest import load_manifest

    try:
        parsed = load_manifest(
            manifest, allow_private_webhooks=allow_private_webhooks, areas=_area_names(studio_areas)
        )
    except ManifestError as exc:
        refused = Refused(
            "manifest_invalid", f"manifest {manifest} refused; nothing was applied", exc.problems, exit_code=2
        )
        if not as_json:
            click.echo(_refusal(refused.message, exc.problems), err=True)
            sys.exit(2)
        _refuse_as_json(refused)
    try:
        db = _db(db, creates=True)
        services, result = _apply(db, parsed)
    except Refused as refused:
        if not as_json:
            raise
        _refuse_as_json(refused)
    services.close()
    if as_json:
        click.echo(json.dumps(result))
    else:
        _print_result(result)
        click.echo(_key_note(db))


def _refuse_as_json(refused: Refused) -> NoReturn:
    """``--json``: the refusal as one JSON object on stdout, where the result would have been."""
    click.echo(refused.as_json())
    sys.exit(refused.exit_code)


def _print_result(result: dict[str, Any]) -> None:
    click.echo(f"studio {result['studio']['key']} ({result['studio']['id']})")
    for game_key, game in result["games"].items():
        click.echo(f"  game {game_key} ({game['id']})")
        for name, key in game["apiKeys"].items():
            secret = key["secret"] or "(unchanged; shown only when created)"
            click.echo(f"    api key {name} [{key['env']}, {key['permission']}]: {secret}")
        for name, hook in game["webhooks"].items():
            secret = hook["secret"] or "(unchanged; shown only when created)"
            click.echo(f"    webhook {name} [{hook['env']}] signing secret: {secret}")
    for key, member in result.get("members", {}).items():
        click.echo(f"  member {key} [{member['role']}]: {member['email']}")


def _demo_exports(applied: dict[str, Any], base: str, player_secret: str | None) -> list[str]:
    """The shell lines that set what the README tour and the examples read."""
    from livecore_server.demo import DEMO_PLAYER

    game = next(iter(applied["games"].values()))
    by_permission = {k["permission"]: k["secret"] for k in game["apiKeys"].values()}
    lines = [
        f"export LIVECORE_URL={base}",
        f"export LIVECORE_CLIENT_KEY={by_permission['client_sdk']}",
        f"export LIVECORE_SERVER_KEY={by_permission['server_integration']}",
    ]
    if player_secret is not None:
        lines.append(f"export PLAYER_SECRET={player_secret}   # the secret of the demo player {DEMO_PLAYER}")
    return lines


@main.command()
@click.option("--db", default=None, help=DB_HELP)
@click.option("--port", default=8080, show_default=True, type=int)
@click.option(
    "--clock", "clock_kind", type=click.Choice(["system", "manual"]), default="system", show_default=True
)
@click.option(
    "--new-keys",
    is_flag=True,
    help="Replace the demo's keys and its player's secret (the old ones stop at once); by default a"
    " restart prints the same ones.",
)
@_slow_clients
def demo(
    db: str | None,
    port: int,
    clock_kind: str,
    new_keys: bool,
    header_timeout: float,
    body_timeout: float,
) -> None:
    """Apply the built-in demo manifest, print its keys (the same ones on every start unless --new-keys)
    and a portal sign-in link, then serve on 127.0.0.1 with one access-log line per request."""
    from livecore_server.demo import DEMO_MEMBER, DEMO_PLAYER, apply_demo
    from livecore_server.operators.sessions import issue_login_link

    db = _db(db, creates=True)
    sockets = _listen("127.0.0.1", port)  # before any key changes: a busy port leaves them as they are
    base = f"http://127.0.0.1:{sockets[0].getsockname()[1]}"
    services = _services(_config(db))
    try:
        result, player_secret = apply_demo(services, new_keys=new_keys)
        portal_link = f"{base}/portal/login/{issue_login_link(services, DEMO_MEMBER)}"
    finally:
        services.close()
    _print_result(result)
    click.echo("\nSet these in another shell (the README tour and the examples read them):")
    for line in _demo_exports(result, base, player_secret):
        click.echo(f"  {line}")
    click.echo("Then try:")
    click.echo('  curl -s $LIVECORE_URL/server/v1/ping -H "Authorization: Bearer $LIVECORE_SERVER_KEY"')
    click.echo(
        f"  curl -s -X PUT $LIVECORE_URL/sdk/v1/players/{DEMO_PLAYER}/identity"
        ' -H "Authorization: Bearer $LIVECORE_CLIENT_KEY" -H "X-Player-Secret: $PLAYER_SECRET"'
        """ -H "Content-Type: application/json" -d '{"name": "Alice"}'"""
    )
    click.echo(
        f"  OpenAPI: {base}/sdk/v1/openapi.json, {base}/server/v1/openapi.json"
        f" and {base}/admin/v1/openapi.json (operators)"
    )
    click.echo("The operators' portal, signed in as the demo's owner (this link works once, for 15 minutes):")
    click.echo(f"  {portal_link}")
    click.echo(
        "A personal key of the owner, for the admin API and examples/support_desk.py (printed once, in"
        " another shell):"
    )
    where = "" if db == "livecore.db" else f" --db {shlex.quote(redact(db))}"
    click.echo(f"  livecore-server members personal-key {DEMO_MEMBER}{where}\n")
    config = _config(db, header_timeout=header_timeout, body_timeout=body_timeout)
    _serve(config, _clock(clock_kind), "127.0.0.1", port, access_log=True, sockets=sockets)


@main.group()
def webhooks() -> None:
    """Operator actions on webhook endpoints and deliveries (a running server picks them up within 1 s)."""


def _operate(db: str | None, action: Callable[[Services], Any]) -> Any:
    """Run an operator command's ``action`` on an existing database (never a new one)."""
    from livecore_server.operators.webhooks import OperationError

    services = _services(_config(_db(db)))
    try:
        return action(services)
    except OperationError as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        services.close()


@webhooks.command("endpoints")
@click.option("--db", default=None, help=DB_HELP)
def webhook_endpoints(db: str | None) -> None:
    """List webhook endpoints with their status."""

    def run(services: Services) -> list[tuple[str, Any]]:
        return services.store.run(lambda tx: tx.webhooks.all_endpoints(), write=False)

    for game_key, e in _operate(db, run):
        click.echo(
            f"{e.id}  {game_key}/{e.name}  [{e.env.value}]  {e.status.value}"
            f"  failures={e.consecutive_failures}  {e.url}"
        )


@webhooks.command("deliveries")
@click.argument("endpoint_id")
@click.option("--status", type=click.Choice([s.value for s in DeliveryStatus]), default=None)
@click.option("--limit", default=50, show_default=True, type=click.IntRange(1, 1000))
@click.option("--db", default=None, help=DB_HELP)
def webhook_deliveries(endpoint_id: str, status: str | None, limit: int, db: str | None) -> None:
    """List an endpoint's deliveries, newest first, as JSON lines."""
    from livecore.webhooks.delivery import DeliveryStatus
    from livecore_server.operators.webhooks import list_deliveries

    rows = _operate(
        db,
        lambda s: list_deliveries(
            s, endpoint_id, status=DeliveryStatus(status) if status else None, limit=limit
        ),
    )
    for row in rows:
        click.echo(json.dumps(row))


@webhooks.command("replay")
@click.argument("delivery_id")
@click.option("--db", default=None, help=DB_HELP)
def webhook_replay(delivery_id: str, db: str | None) -> None:
    """Send a delivered or failed delivery's event again (a new delivery, the same event id)."""
    from livecore_server.operators.webhooks import replay_delivery

    click.echo(_operate(db, lambda s: replay_delivery(s, delivery_id)))


@webhooks.command("unpause")
@click.argument("endpoint_id")
@click.option("--db", default=None, help=DB_HELP)
def webhook_unpause(endpoint_id: str, db: str | None) -> None:
    """Resume a paused endpoint; its held deliveries go out oldest first."""
    from livecore_server.operators.webhooks import unpause_endpoint

    changed = _operate(db, lambda s: unpause_endpoint(s, endpoint_id))
    click.echo("unpaused" if changed else "was not paused")


@webhooks.command("sample")
@click.argument("endpoint_id")
@click.option("--kind", default=None, help="The event kind to sample (default: player.registered).")
@click.option("--db", default=None, help=DB_HELP)
def webhook_sample(endpoint_id: str, kind: str | None, db: str | None) -> None:
    """Send a signed sample event with placeholder values (header X-Svc-Webhook-Test: 1)."""
    from livecore.operators.webhooks import DEFAULT_SAMPLE_KIND
    from livecore_server.operators.webhooks import send_sample

    click.echo(_operate(db, lambda s: send_sample(s, endpoint_id, kind or DEFAULT_SAMPLE_KIND)))


@webhooks.command("rotate-secret")
@click.argument("endpoint_id")
@click.option(
    "--overlap",
    "overlap_seconds",
    default=int(DEFAULT_OVERLAP.total_seconds()),
    show_default=True,
    type=click.IntRange(OVERLAP.minimum, OVERLAP.maximum),
    help="Seconds the old secret keeps signing beside the new one (0: it stops at once; at most 7 days).",
)
@click.option("--db", default=None, help=DB_HELP)
def webhook_rotate_secret(endpoint_id: str, overlap_seconds: int, db: str | None) -> None:
    """Mint a new signing secret and print it (shown once); the old one signs beside it for the overlap."""
    from livecore.clock import format_ts
    from livecore_server.operators.webhooks import rotate_secret

    endpoint, secret = _operate(db, lambda s: rotate_secret(s, endpoint_id, overlap_seconds))
    until = endpoint.previous_secret_until
    click.echo(f"signing secret: {secret}")
    old = "no longer signs" if until is None else f"signs until {format_ts(until)}"
    click.echo(f"the old secret {old}")


@main.group()
def members() -> None:
    """A studio's members: the operators who sign in to the portal (docs/operators.md)."""


@members.command("list")
@click.option("--studio", default=None, help="The studio's key (default: the only one).")
@click.option("--db", default=None, help=DB_HELP)
def members_list(studio: str | None, db: str | None) -> None:
    """List the studio's members and their roles."""

    def run(services: Services) -> list[Any]:
        def read(tx: Any) -> list[Any]:
            rows = tx.execute("SELECT id, key FROM studios ORDER BY key", ()).fetchall()
            chosen = [(sid, key) for sid, key in rows if studio is None or key == studio]
            return [(key, m) for sid, key in chosen for m in tx.members.of_studio(sid)]

        return services.store.run(read, write=False)

    for studio_key, m in _operate(db, run):
        click.echo(f"{m.id}  {studio_key}/{m.key}  {m.role.value}  {m.email}")


@members.command("login-link")
@click.argument("member")
@click.option("--studio", default=None, help="The studio's key (default: the only one).")
@click.option(
    "--base-url",
    default=None,
    help="The portal's address (default: the one the last server started on the database serves, its"
    " LIVECORE_PUBLIC_URL or http://HOST:PORT; http://127.0.0.1:8080 before any).",
)
@click.option("--db", default=None, help=DB_HELP)
def members_login_link(member: str, studio: str | None, base_url: str | None, db: str | None) -> None:
    """Print a one-time sign-in link for MEMBER (its key in the manifest): it works once, for 15 minutes."""
    from livecore_server.operators.sessions import SignInError, issue_login_link, link_address

    def run(services: Services) -> tuple[str, str]:
        try:
            token = issue_login_link(services, member, studio)
        except SignInError as exc:
            raise click.ClickException(str(exc)) from None
        return base_url or services.store.run(link_address, write=False), token

    base, token = _operate(db, run)
    click.echo(f"{base.rstrip('/')}/portal/login/{token}")


@members.command("personal-key")
@click.argument("member")
@click.option("--studio", default=None, help="The studio's key (default: the only one).")
@click.option(
    "--days",
    default=KEY_DAYS_OFFERED,
    show_default=True,
    type=click.IntRange(KEY_LIFETIME.minimum, KEY_LIFETIME.maximum),
    help="Days the key works.",
)
@click.option("--read-only", is_flag=True, help="Refuse every write the key is sent with.")
@click.option(
    "--role",
    type=click.Choice([r.value for r in Role]),
    default=None,
    help="A lower role than the member's for the key (default: the member's own).",
)
@click.option("--db", default=None, help=DB_HELP)
def members_personal_key(
    member: str, studio: str | None, days: int, read_only: bool, role: str | None, db: str | None
) -> None:
    """Make MEMBER's personal key (svc_pk_...) and print it, once, alone on stdout; the member's key
    before it stops working. The same action as the portal's Personal keys page, audited as the member's
    with actor.via "cli"; for a machine with no browser."""
    from livecore.clock import format_ts
    from livecore.errors import LivecoreError
    from livecore_server.operators.sessions import SignInError, issue_personal_key

    def run(services: Services) -> Any:
        try:
            return issue_personal_key(
                services,
                member,
                studio,
                expires_in_days=days,
                read_only=read_only,
                role=Role(role) if role else None,
            )
        except SignInError as exc:
            raise click.ClickException(str(exc)) from None
        except LivecoreError as exc:
            fields = (exc.details or {}).get("fields") or {}
            reasons = "; ".join(f"{name} {why}" for name, why in fields.items())
            message = f"{exc.message.rstrip('.')}: {reasons}" if reasons else exc.message
            raise Refused(exc.code.value, message, fields or None) from None

    made = _operate(db, run)
    click.echo(made.secret)
    key = made.key
    click.echo(
        f"the personal key {key.prefix}... ({key.key_id}) of {key.member_key}, until"
        f" {format_ts(key.expires_at)}{', read-only' if key.read_only else ''}"
        f"{f', role {key.role.value}' if key.role else ''}: shown this once, and the member's key before it"
        " no longer works",
        err=True,
    )


@main.group()
def lockouts() -> None:
    """Client addresses locked out for failed authentications (docs/operators.md#lock-outs)."""


@lockouts.command("list")
@click.option("--db", default=None, help=DB_HELP)
@_auth_failures_option("The servers' --auth-failures-per-minute, which the failures are counted against.")
def lockouts_list(db: str | None, auth_failures_per_minute: int) -> None:
    """List the addresses with failed authentications counted (the last minute's, until the server's
    housekeeping drops them): failures, the last one's time, and until when the address is locked out."""
    from livecore.clock import format_ts, from_millis
    from livecore_server.lockouts import AUTH_FAILURES, NotTheServersLimit, lockouts

    def run(services: Services) -> list[Any]:
        return services.store.run(lambda tx: tx.rate_buckets.of_bucket(AUTH_FAILURES), write=False)

    try:
        listed = lockouts(_operate(db, run), auth_failures_per_minute)
    except NotTheServersLimit as exc:
        raise click.ClickException(str(exc)) from None
    for address, failures, last_ms, until_ms in listed:
        locked = "" if until_ms is None else f"  locked_until={format_ts(from_millis(until_ms))}"
        click.echo(f"{address}  failures={failures}  last={format_ts(from_millis(last_ms))}{locked}")


@lockouts.command("clear")
@click.argument("address")
@click.option("--db", default=None, help=DB_HELP)
def lockouts_clear(address: str, db: str | None) -> None:
    """Forget ADDRESS's failed authentications (any spelling of it): its lock-out lifts (every server
    within 3 s)."""
    from livecore_server.lockouts import AUTH_FAILURES, normal_address, subject

    counted = subject(normal_address(address) or address)

    def run(services: Services) -> bool:
        return services.store.run(lambda tx: tx.rate_buckets.clear(counted, AUTH_FAILURES))

    click.echo("cleared" if _operate(db, run) else "had no failures counted")


@main.command("new-server-key")
def new_server_key() -> None:
    """Print a new server key (URL-safe base64 of 32 random bytes) for LIVECORE_SECRET_KEY; nothing is
    written or kept."""
    from livecore_server.crypto import encode_key, new_key

    click.echo(encode_key(new_key()))


@main.command("rotate-server-key")
@click.option("--db", default=None, help=DB_HELP)
@click.option(
    "--batch",
    default=500,
    show_default=True,
    type=click.IntRange(1, 100_000),
    help="Values re-encrypted per transaction (smaller: shorter row locks beside serving processes).",
)
def rotate_server_key(db: str | None, batch: int) -> None:
    """Re-encrypt every encrypted value under the current server key, in batches, while servers run
    (docs/server.md#rotating-the-server-key). With LIVECORE_SECRET_KEY the new key is that variable, the
    old one in LIVECORE_PREVIOUS_SECRET_KEYS; with a key file, the command writes a new key into it.
    Refused while a server whose key ring lacks the new key runs (with a key file: any server). Run it
    again after a stop: it goes on where it was."""
    from livecore.clock import to_millis
    from livecore_server.crypto import ENV_VAR, PREVIOUS_ENV_VAR
    from livecore_server.rotation import rotate
    from livecore_server.serving import ServersRunning

    db = _db(db)
    services = _services(_config(db))
    try:
        with _opening():
            keys = _rotation_keys(services, db)
            tallies = rotate(services.store, keys, to_millis(services.clock.now()), batch=batch)
    except ServersRunning as exc:
        raise Refused("servers_running", str(exc)) from None
    finally:
        services.close()
    for what, tally in tallies.items():
        click.echo(
            f"{what}: {tally.reencrypted} re-encrypted, {tally.current} already under key {keys.key_id.hex()}"
        )
    unreadable = sum(tally.unreadable for tally in tallies.values())
    if unreadable:
        raise Refused(
            "server_key",
            f"{unreadable} values open under no key of the ring (a key missing from it, or damaged) and were"
            f" left as they are: add the missing key to {PREVIOUS_ENV_VAR} and run the command again",
        )
    where = f"${ENV_VAR}" if os.environ.get(ENV_VAR) else "the key file"
    click.echo(f"every encrypted value is under the current key ({where}); earlier keys may leave the ring")


def _rotation_keys(services: Services, db: str) -> ServerKeys:
    """The ring a rotation re-encrypts under: the services' own with LIVECORE_SECRET_KEY (the operator
    minted and placed the new key). With a key file, a new key is minted and written into the file as
    its current key, the old one as previous, unless a rotation stopped half-way is to be finished."""
    from livecore_server.crypto import (
        ENV_VAR,
        KEY_CHECK,
        RETIRED_HASH_KEYS,
        ROTATING,
        ServerKeys,
        key_id,
        load_server_key,
        new_key,
        write_key_ring,
    )
    from livecore_server.serving import refuse_lacking

    keys = services.keys
    if os.environ.get(ENV_VAR):
        return keys
    ring = load_server_key(None if is_postgres(db) else sqlite_path(db), services.config.key_file)
    check, rotating = services.store.run(
        lambda tx: (tx.meta.get(KEY_CHECK), tx.meta.get(ROTATING)), write=False
    )
    if check != keys.check_value or rotating == keys.key_id.hex():
        return keys  # a rotation to the file's current key is under way: finish it
    assert ring.file is not None
    fresh = new_key()
    # No running server can hold a key just minted: refused before the key file changes.
    services.store.run(lambda tx: refuse_lacking(tx, key_id(fresh).hex()), write=False)
    # The file's earlier keys are dropped: the last rotation left nothing under them.
    write_key_ring(ring.file, fresh, [ring.master])
    rotated = ServerKeys(fresh, [ring.master])
    rotated.take_retired(services.store.run(lambda tx: tx.meta.get(RETIRED_HASH_KEYS), write=False))
    click.echo(
        f"new server key written to {ring.file.resolve()} (the old one kept in it as previous)", err=True
    )
    return rotated


@main.command()
@click.argument("manifest", callback=shipped.option(shipped.MANIFESTS, "manifest"))
# A first season plays in about 20 s; a month of 10,000 players takes minutes (docs/simulation.md).
@click.option("--days", default=7, show_default=True, type=click.IntRange(1, 366), help="Days to play.")
@click.option(
    "--players", default=1_000, show_default=True, type=click.IntRange(1, 1_000_000), help="Players to make."
)
@click.option("--seed", default=0, show_default=True, type=int, help="Every draw comes from it.")
@click.option(
    "--seeds",
    default=1,
    show_default=True,
    type=click.IntRange(1, MOST_SEEDS),
    help="Seeds to play, --seed the first (in parallel, a process per core): the report gives each headline"
    " number's spread over them and, with --compare, whether each change stands out of their noise.",
)
@click.option(
    "--out",
    "out",
    required=True,
    type=click.Path(file_okay=False),
    help="The directory report.json and report.html are written into (made if missing).",
)
@click.option(
    "--population",
    callback=shipped.option(shipped.POPULATIONS, "population"),
    default=None,
    help="The population file (docs/simulation.md#the-population), or demo: the one shipped for the demo"
    " manifest; default: three segments of players.",
)
@click.option(
    "--compare",
    "other",
    callback=shipped.option(shipped.MANIFESTS, "manifest"),
    default=None,
    help="Another manifest (or demo): play both on the same population and report them side by side.",
)
@click.option(
    "--compare-population",
    "other_population",
    callback=shipped.option(shipped.POPULATIONS, "population"),
    default=None,
    help="Another population file (or demo): play the manifest (with --compare, the other manifest) with it"
    " too, on the same seeds, and report both side by side.",
)
@click.option(
    "--expect",
    "expected",
    multiple=True,
    metavar='"SECTION.SUBJECT.METRIC < +10%"',
    help="With a comparison: a limit on a compared row's relative change (repeatable). The report says which"
    " limits were broken, and a broken one fails the run (exit 1) once the report is written.",
)
@click.option(
    "--start",
    default="2026-01-05",
    show_default=True,
    type=click.DateTime(["%Y-%m-%d", "%Y-%m-%dT%H:%M:%S"]),
    help="When the season starts (UTC).",
)
@click.option("--game", default=None, help="The game to play, when the manifest declares several.")
@click.option(
    "--check",
    is_flag=True,
    help="Read each of the season's own actions through its wire form, as the server reads a request"
    " (slower; the report is the same, and an action the wire reads otherwise fails the run).",
)
@_area_option(
    "Play a studio's own area, by package name, as serve --area serves it (repeatable; LIVECORE_AREAS:"
    " comma-separated). Areas installed by entry point and those the manifest names in [plugins] areas are"
    " played too."
)
def simulate(
    manifest: str,
    days: int,
    players: int,
    seed: int,
    seeds: int,
    out: str,
    population: str | None,
    other: str | None,
    other_population: str | None,
    expected: tuple[str, ...],
    start: Any,
    game: str | None,
    check: bool,
    studio_areas: tuple[str, ...],
) -> None:
    """Play a seeded population through a manifest's season, embedded, and write its report.

    The players of the population (--population, else the default one) play the game's events,
    lobbies, teams, shared leaderboards, guilds, gifts and crates, and the studio's own areas (--area),
    for --days days; report.json and report.html (one self-contained page with charts) go into --out.
    With --compare OTHER_MANIFEST both manifests are played by the same players and reported side by
    side; with --compare-population OTHER_POPULATION, both populations (another manifest too with both
    options). With --seeds N the seeds --seed to --seed + N - 1 are played (side by side, a process per core):
    the report gives each headline number's spread over them, and a comparison marks which changes stand
    out of the seeds' noise (paired t-tests, the numbers marked chosen together at a 5% false discovery
    rate). --expect states a limit on a compared row's relative change, "economy.coins.minted < +10%": a
    broken one fails the run. The same seeds write the same files, byte for byte. docs/simulation.md says
    what each number means."""
    import time
    from datetime import UTC

    from livecore.manifest import ManifestError
    from livecore.simulation.population import PopulationError
    from livecore_server import plugins
    from livecore_server.manifest import read_manifest
    from livecore_server.simulate import limits as stated
    from livecore_server.simulate.gather import parts
    from livecore_server.simulate.render import write
    from livecore_server.simulate.run import (
        PopulationRefused,
        Sources,
        memory_need,
        parse,
        read_population,
        workers,
    )
    from livecore_server.simulate.run import simulate as run_simulation

    try:
        limits = [stated.parse(text) for text in expected]
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--expect'") from None
    if limits and not (other or other_population):
        raise click.UsageError(
            "--expect limits a comparison's changes: add --compare or --compare-population"
        )
    names = _area_names(studio_areas)
    manifests = []
    texts = []
    for path in (manifest, *([other] if other else [])):
        try:
            text = read_manifest(path)
            manifests.append((os.path.basename(path), parse(text, names)))
            texts.append((os.path.basename(path), text))
        except ManifestError as exc:
            click.echo(_refusal(f"manifest {path} refused", exc.problems), err=True)
            sys.exit(2)
    try:
        # As a server serves them: installed, named, then those the manifests name.
        named = (*plugins.installed(), *names, *(n for _, m in manifests for n in m.plugins.areas))
        served = plugins.load(named)
    except plugins.PluginError as exc:
        raise Refused("plugin_refused", shown(str(exc)), exit_code=2) from None
    for played in served:
        if played.area.season is None:
            # Warned, not refused: its hooks still act on the season; but a report with nothing of an area
            # the command was told to play would read as the area doing nothing.
            click.echo(
                shown(
                    f"warning: area {played.area.name} has no season part (Area.season): its players do"
                    " nothing of its own, and the report has no section of it"
                ),
                err=True,
            )
    populations = []
    given: dict[str, str | None] = {}  # each population's path, by its name in the report
    for file in (population, *([other_population] if other_population else [])):
        try:
            people = read_population(file, served)
        except PopulationError as exc:
            click.echo(_refusal(f"population {file} refused", exc.problems), err=True)
            sys.exit(2)
        name = os.path.basename(file) if file else "default"
        if (idle := people.idle()) is not None:
            # Warned, not refused: a segment may be idle on purpose; but a report of players who play
            # nothing, or a comparison's every row 0 against the other's, would read as a finding.
            click.echo(shown(f"warning: population {name}: {idle}"), err=True)
        given[name] = file
        populations.append((name, people))
    _can_be_directory(out)
    began = time.perf_counter()
    label = f"{players:,} players x {days} days" + (f" x {seeds} seeds" if seeds > 1 else "")
    with contextlib.ExitStack() as stack:
        bars: list[Any] = []

        def starting() -> None:
            """Once every season is checked, before the first player is made (a million take minutes,
            and gigabytes): the memory it needs, and a bar with a step per player made and per player's
            day played, which so moves from the first second."""
            need = memory_need(
                players, days, processes=workers(seeds * max(len(manifests), len(populations)))
            )
            here = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
            beyond = f", more than this machine's {_bytes(here)}" if need > here else ""
            click.echo(f"{label}: about {_bytes(need)} of memory{beyond}", err=True)
            steps = seeds * max(len(manifests), len(populations)) * players * (1 + days)
            bars.append(stack.enter_context(click.progressbar(length=steps, label=label, file=sys.stderr)))

        try:
            report = run_simulation(
                manifests,
                populations,
                players=players,
                days=days,
                seed=seed,
                start=start.replace(tzinfo=UTC),
                game=game,
                areas=served,
                seeds=seeds,
                check=check,
                sources=Sources(tuple(texts), names, named),
                on_start=starting,
                on_day=lambda _: bars[0].update(players),
                on_players=lambda made: bars[0].update(made),
            )
        except PopulationRefused as exc:
            click.echo(_refusal(f"population {given[exc.name]} refused", exc.problems), err=True)
            sys.exit(2)
        except ValueError as exc:
            raise Refused("simulation_refused", shown(str(exc)), exit_code=2) from None
    if limits:
        report["limits"] = stated.judged(limits, report["differences"])
    try:
        json_path, html_path = write(report, Path(out), parts(served))
    except OSError as exc:
        raise Refused(
            "cannot_write", shown(f"cannot write the report into {out}: {exc}"), exit_code=2
        ) from None
    warnings = (
        report["warnings"]
        if "warnings" in report
        else report["base"]["warnings"] + report["other"]["warnings"]
    )
    click.echo(
        f"wrote {json_path}, {html_path} and each table of the page as CSV beside them:"
        f" {len(warnings)} warnings ({time.perf_counter() - began:.1f} s)"
    )
    broken = [found for found in report.get("limits", ()) if found["broken"]]
    for found in broken:
        click.echo(f"limit broken: {found['limit']}: {found['why']}", err=True)
    if broken:
        sys.exit(1)


def _can_be_directory(out: str) -> None:
    """Refuse ``simulate --out`` before the season is played, not after: a path that cannot be a directory
    one can write into (``/dev/null``, ``/proc/x``, a file) is one line, exit 2. Probed by making it (and
    a file in it), then leaving the disk as it was: a season refused later writes nothing."""
    path = Path(out)
    made = [p for p in (path, *path.parents) if not p.exists()]  # the deepest first
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise Refused(
            "cannot_write", shown(f"--out {out} cannot be a directory to write into: {reason}"), exit_code=2
        ) from None
    finally:
        for directory in made:
            with contextlib.suppress(OSError):
                directory.rmdir()


def _bytes(count: int) -> str:
    """A size as people read it: ``350 MB``, ``4.2 GB``."""
    if count >= 10**9:
        return f"{count / 10**9:.1f} GB"
    return f"{max(1, round(count / 10**6))} MB"


def _moment(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
    """An ISO date (its midnight) or date and time, in UTC where it names no offset, within the time the
    service keeps (:data:`~livecore.simulation.world.EARLIEST` to before
    :data:`~livecore.simulation.world.LATEST`: near year 1 or 9999 an offset or a period's arithmetic would
    leave the calendar). Refused in one line, exit status 2."""
    from datetime import UTC, datetime

    from livecore.simulation.world import EARLIEST, LATEST

    if value is None:
        return None
    option = param.opts[0]
    try:
        found = datetime.fromisoformat(value)
    except ValueError:
        raise Refused(
            "invalid_date",
            shown(
                f"{option}: {value!r} is not a date: give 2026-03-02 or 2026-03-02T12:00:00"
                " (UTC unless an offset is given)"
            ),
            exit_code=2,
        ) from None
    try:
        moment = found.replace(tzinfo=UTC) if found.tzinfo is None else found.astimezone(UTC)
    except OverflowError:
        moment = None
    if moment is None or not EARLIEST <= moment < LATEST:
        raise Refused(
            "invalid_date",
            shown(
                f"{option}: {value!r} is out of range: give a time from {EARLIEST:%Y-%m-%d} to before"
                f" {LATEST:%Y-%m-%d} (UTC)"
            ),
            exit_code=2,
        )
    return moment


#: The options a fitting's refusal names (livecore_server.population), by the problem's key.
_FIT_OPTIONS = {"game": "--game", "studio": "--studio", "segments": "--segments", "period": "--since/--until"}


@main.command()
@click.option("--db", default=None, help=DB_HELP)
@click.option("--game", "game_key", required=True, help="The game's key, as the manifest names it.")
@click.option(
    "--studio", default=None, help="The studio's key, when several studios have a game of that key."
)
@click.option(
    "--env",
    type=click.Choice(["test", "live"]),
    default=None,
    help="The environment whose players are fitted; default: live if the game has players on record there,"
    " else test (the demo's).",
)
@click.option(
    "--since",
    metavar="DATE",
    callback=_moment,
    default=None,
    help="The period's start (UTC unless an offset is given), a date or a date and time; default: the"
    " game's first player's first sighting (its whole history).",
)
@click.option(
    "--until",
    metavar="DATE",
    callback=_moment,
    default=None,
    help="The period's end, not included (as --since); default: now, by the system clock (a server on"
    " --clock manual keeps no time of its own in the database: give --until).",
)
@click.option(
    "--segments",
    default=3,
    show_default=True,
    type=click.IntRange(1),
    help="How many segments to find (at most 12, each of 20 players or more: fewer players fit fewer, with a"
    " warning).",
)
@click.option(
    "--out",
    required=True,
    type=click.Path(dir_okay=False, writable=True),
    help="The population file to write (replaced whole, if it exists).",
)
def population(
    db: str | None,
    game_key: str,
    studio: str | None,
    env: str | None,
    since: Any,
    until: Any,
    segments: int,
    out: str,
) -> None:
    """Fit a population file from a game's recorded history, for simulate --population.

    The game's players active in the period are found into --segments segments by their activity (their
    sessions a day, their events' plays, attempts and scores, their gifts and spending; fewer segments,
    with a warning, where the players are too few for them); each segment's
    share and rates are written, with a comment header saying what period and how many players they were
    fitted on. Only aggregates leave the database: no player's id, name or address is in the file. Given
    --until, the same database and arguments write the same file, byte for byte. docs/simulation.md
    ("Fitting from a server's history") says how each rate is fitted."""
    from livecore.scope import Environment
    from livecore.simulation.fitting import FittingError
    from livecore_server import population as fitting
    from livecore_server.clock import SystemClock

    path = Path(out)
    if path.exists() and not path.is_file():
        # The file is replaced by renaming over it: a device (/dev/null) or a socket would be replaced too.
        raise Refused("cannot_write", shown(f"--out {out} is not a regular file"), exit_code=2)
    if not path.parent.is_dir():
        raise Refused(
            "cannot_write",
            shown(f"--out {out}: the directory {str(path.parent)!r} does not exist"),
            exit_code=2,
        )
    request = fitting.Request(
        game=game_key,
        studio=studio,
        env=None if env is None else Environment(env),
        since=since,
        until=until or SystemClock().now().replace(microsecond=0),
        segments=segments,
    )
    played = fitting.parts()
    services = _services(_config(_db(db)))
    try:
        with contextlib.ExitStack() as stack:
            bars: list[Any] = []

            def progress(step: str, done: int, total: int) -> None:
                """A step of the fitting done: the bar, on a terminal only, made at the first (which
                says how many there are)."""
                if not bars:
                    label = f"fitting {game_key}"
                    bars.append(
                        stack.enter_context(click.progressbar(length=total, label=label, file=sys.stderr))
                    )
                bars[0].update(done - bars[0].pos)

            try:
                fitted = fitting.fit(
                    services.store, request, played, progress if sys.stderr.isatty() else None
                )
            except FittingError as exc:
                problems = {_FIT_OPTIONS.get(k, k): m for k, m in exc.problems.items()}
                click.echo(_refusal(f"population of {game_key} not fitted", problems), err=True)
                sys.exit(2)
    finally:
        services.close()
    try:
        fitting.write_atomically(path, fitted.toml())
    except OSError as exc:
        raise Refused("cannot_write", shown(f"cannot write {out}: {exc}"), exit_code=2) from None
    for warning in fitted.warnings:
        click.echo(f"warning: {warning}", err=True)
    shares = ", ".join(f"{s.name} {s.share:.0%}" for s in fitted.population.segments)
    players = f"{fitted.players:,} player{'' if fitted.players == 1 else 's'}"
    click.echo(
        f"wrote {out}: {players} of {fitted.game} ({fitted.env.value}) from"
        f" {fitted.since.isoformat()} to {fitted.until.isoformat()}: {shares}"
    )


@main.command()
@click.argument("path", default="manifest.toml", type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Overwrite PATH when it exists.")
def init(path: str, force: bool) -> None:
    """Write a starter manifest to PATH (default manifest.toml): one game with its API keys, a live event,
    a shared leaderboard and a webhook endpoint, commented; `apply` accepts it as written."""
    import shlex

    from livecore_server.starter import write_starter

    try:
        write_starter(path, force=force)
    except FileExistsError:
        raise Refused(
            "file_exists", f"{path} already exists: choose another PATH, or add --force to overwrite it"
        ) from None
    except OSError as exc:
        raise Refused("cannot_write", f"cannot write {path}: {exc.strerror}") from None
    steps = [
        (f"livecore-server apply {shlex.quote(path)}", "creates it all in livecore.db, prints the keys"),
        ("livecore-server serve", "serves it on http://127.0.0.1:8080"),
        ("livecore-server members login-link owner", "a sign-in link for the portal, /portal/"),
    ]
    width = max(len(command) for command, _ in steps)
    click.echo(f"Wrote a starter manifest to {path}; its comments say what each part does. Next:")
    for command, what in steps:
        click.echo(f"  {command.ljust(width)}   # {what}")


if __name__ == "__main__":
    main()
