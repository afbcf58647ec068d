"""The ``livecore-server`` command (docs/reference/manifest-and-cli.md): ``serve``, ``apply``, ``demo``."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import math
import os
import re
import socket
import sys
from collections.abc import Callable, Iterator
from typing import Any, NoReturn
from urllib.parse import urlsplit, urlunsplit

import click
import psycopg
from aiohttp import web
from aiohttp.web_log import AccessLogger
from aiohttp.web_request import BaseRequest

from livecore.clock import Clock, ManualClock
from livecore.commands.players import register
from livecore.errors import LivecoreError
from livecore.scope import Environment, Scope
from livecore.webhooks.delivery import DeliveryStatus, Endpoint
from livecore.webhooks.samples import DEFAULT_SAMPLE_KIND
from livecore_server import statement_tally
from livecore_server.admin.oidc import OidcSettings
from livecore_server.admin.sessions import SignInError, issue_login_link
from livecore_server.admin.webhooks import (
    OperationError,
    list_deliveries,
    replay_delivery,
    send_sample,
    unpause_endpoint,
)
from livecore_server.app import create_app
from livecore_server.apply import apply_manifest, rotate_key
from livecore_server.clock import SystemClock
from livecore_server.crypto import ServerKeyError
from livecore_server.geo import no_country, offline_country
from livecore_server.manifest import Manifest, ManifestError, demo_manifest, load_manifest
from livecore_server.services import Config, Services, build_services
from livecore_server.storage.server_store import is_postgres

DB_HELP = (
    "SQLite file path, sqlite:///abs/path.db or postgresql://user@host/dbname"
    " (default: $LIVECORE_DB, else livecore.db)."
)
POOL_HELP = "PostgreSQL connections (and worker threads) of this process."
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


def _finite(ctx: click.Context, param: click.Parameter, value: float) -> float:
    """FloatRange lets NaN through (every comparison with it is false)."""
    if math.isnan(value):
        raise click.BadParameter("must be a number of seconds, not NaN", ctx, param)
    return value


def _db(db: str | None) -> str:
    return db or os.environ.get("LIVECORE_DB") or "livecore.db"


def _config(
    db: str, pool_size: int = 8, webhook_timeout: float = DEFAULT_WEBHOOK_TIMEOUT, **settings: Any
) -> Config:
    """The server's configuration; ``settings`` are other :class:`Config` fields a command's flags set."""
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
        self.exit_status = exit_code

    def as_json(self) -> str:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.fields is not None:
            error["details"] = {"fields": self.fields}
        return json.dumps({"error": error})


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
    try:
        yield
    except ServerKeyError as exc:
        raise Refused("server_key", str(exc)) from None
    except psycopg.OperationalError as exc:
        raise Refused("database_unreachable", f"cannot reach PostgreSQL: {str(exc).strip()}") from None


def _services(config: Config, clock: Clock | None = None) -> Services:
    with _opening():
        return build_services(config, clock or SystemClock())


def _event_loop() -> asyncio.AbstractEventLoop:
    """uvloop where installed (measured faster, docs/architecture.md).

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
    port = sockets[0].getsockname()[1]
    app = create_app(config, clock)
    kind = "manual" if isinstance(clock, ManualClock) else "system"

    async def announce(_: web.Application) -> None:  # after the services opened (the cleanup context)
        where = f"db {redact(config.db)}, clock {kind}"
        click.echo(f"livecore-server listening on http://{host}:{port} ({where})")

    app.on_startup.append(announce)
    # run_app opens the services as the app starts, handles SIGINT and SIGTERM: it stops accepting, lets
    # in-flight requests finish (up to the shutdown timeout) and runs the cleanup contexts, which close the
    # database.
    with _opening():
        web.run_app(
            app,
            sock=sockets,
            loop=_event_loop(),
            access_log=logging.getLogger("aiohttp.access") if access_log else None,
            access_log_class=RedactingAccessLogger,
            shutdown_timeout=10.0,
            print=None,
        )


class RedactingAccessLogger(AccessLogger):
    """The access log without the one secret a path carries: a portal sign-in link's token."""

    def log(self, request: BaseRequest, response: web.StreamResponse, time: float) -> None:
        redacted = _SIGN_IN_PATH.sub(r"\1...", request.path_qs)
        if redacted != request.path_qs:
            request = request.clone(rel_url=redacted)
        super().log(request, response, time)


_SIGN_IN_PATH = re.compile(r"(/portal/login/lnk_)[A-Za-z0-9_-]+")


def redact(db: str) -> str:
    """The database URL without its password, for logs."""
    parts = urlsplit(db)
    if not is_postgres(db) or parts.password is None:
        return db
    return urlunsplit(parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@", 1)))


@click.group()
@click.version_option(package_name="livecore")
def main() -> None:
    """livecore reference server."""
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
@click.option(
    "--wrong-secrets-per-minute",
    type=click.IntRange(1, 1_000_000),
    default=DEFAULTS.wrong_secrets_per_minute,
    show_default=True,
    envvar="LIVECORE_WRONG_SECRETS_PER_MINUTE",
    show_envvar=True,
    help="Wrong player secrets a minute, per player and client address, before that player gets 429.",
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
) -> None:
    """Run the server until SIGINT/SIGTERM, then drain and stop cleanly."""
    clock: Clock = ManualClock(SystemClock().now()) if clock_kind == "manual" else SystemClock()
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
        country_of=offline_country if ip_country else no_country,
        oidc=_oidc(host, port),
    )
    _serve(config, clock, host, port, access_log, reuse_port)


def _apply(db: str, manifest: Manifest) -> tuple[Services, dict[str, Any]]:
    services = _services(_config(db))
    result = apply_manifest(services.store, services.keys, services.runtime, manifest)
    services.key_cache.clear()
    services.store.clear_caches()
    return services, result


@main.command()
@click.argument("manifest", type=click.Path(exists=True, dir_okay=False))
@click.option("--db", default=None, help=DB_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.option("--allow-private-webhooks", is_flag=True, help=PRIVATE_WEBHOOKS_HELP)
def apply(manifest: str, db: str | None, as_json: bool, allow_private_webhooks: bool) -> None:
    """Create or update studios, games, settings, API keys and webhooks from a TOML manifest."""
    try:
        parsed = load_manifest(manifest, allow_private_webhooks=allow_private_webhooks)
    except ManifestError as exc:
        refused = Refused(
            "manifest_invalid", f"manifest {manifest} refused; nothing was applied", exc.problems, exit_code=2
        )
        if not as_json:
            click.echo(f"{refused.message}:\n{exc}", err=True)
            sys.exit(2)
        _refuse_as_json(refused)
    try:
        services, result = _apply(_db(db), parsed)
    except Refused as refused:
        if not as_json:
            raise
        _refuse_as_json(refused)
    services.close()
    if as_json:
        click.echo(json.dumps(result))
    else:
        _print_result(result)


def _refuse_as_json(refused: Refused) -> NoReturn:
    """``--json``: the refusal as one JSON object on stdout, where the result would have been."""
    click.echo(refused.as_json())
    sys.exit(refused.exit_status)


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


def apply_demo(db: str) -> tuple[Services, dict[str, Any]]:
    """Apply the demo manifest. Keys are shown only when minted, so on a second run the demo rotates
    its keys: there is always a working key to print."""
    services, result = _apply(db, demo_manifest())
    for game in result["games"].values():
        for name, key in game["apiKeys"].items():
            if key["secret"] is None:
                game["apiKeys"][name] = rotate_key(services.store, services.runtime, game["id"], name)
    services.key_cache.clear()
    return services, result


# The player the demo registers, so that its secret can be printed with the keys.
DEMO_PLAYER = "alice"
# The demo's member, whose sign-in link the demo prints.
DEMO_MEMBER = "owner"


def register_demo_player(services: Services, applied: dict[str, Any]) -> str | None:
    """A fresh secret for the demo's player (registered, or its secret rotated in place: the demo's keys
    are test keys); None when the player is banned."""
    game = next(iter(applied["games"].values()))
    scope = Scope(studio_id=applied["studio"]["id"], game_id=game["id"], env=Environment.TEST)
    try:
        registered = services.store.run(
            lambda tx: register(tx, services.runtime, scope, DEMO_PLAYER, force=True)
        )
    except LivecoreError:
        return None
    return registered.secret


def _demo_exports(applied: dict[str, Any], base: str, player_secret: str | None) -> list[str]:
    """The shell lines that set what the README tour and the examples read."""
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
@_slow_clients
def demo(db: str | None, port: int, clock_kind: str, header_timeout: float, body_timeout: float) -> None:
    """Apply the built-in demo manifest, print fresh demo keys, then serve on 127.0.0.1."""
    db = _db(db)
    sockets = _listen("127.0.0.1", port)  # before any key changes: a busy port leaves them as they are
    base = f"http://127.0.0.1:{sockets[0].getsockname()[1]}"
    services, result = apply_demo(db)
    try:
        player_secret = register_demo_player(services, result)
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
    click.echo(f"  OpenAPI: {base}/sdk/v1/openapi.json and {base}/server/v1/openapi.json")
    click.echo("The operators' portal, signed in as the demo's owner (this link works once, for 15 minutes):")
    click.echo(f"  {portal_link}\n")
    clock: Clock = ManualClock(SystemClock().now()) if clock_kind == "manual" else SystemClock()
    config = _config(db, header_timeout=header_timeout, body_timeout=body_timeout)
    _serve(config, clock, "127.0.0.1", port, access_log=False, sockets=sockets)


@main.group()
def webhooks() -> None:
    """Operator actions on webhook endpoints and deliveries (a running server picks them up within 1 s)."""


def _operate(db: str | None, action: Callable[[Services], Any]) -> Any:
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

    def run(services: Services) -> list[tuple[str, Endpoint]]:
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
    click.echo(_operate(db, lambda s: replay_delivery(s, delivery_id)))


@webhooks.command("unpause")
@click.argument("endpoint_id")
@click.option("--db", default=None, help=DB_HELP)
def webhook_unpause(endpoint_id: str, db: str | None) -> None:
    """Resume a paused endpoint; its held deliveries go out oldest first."""
    changed = _operate(db, lambda s: unpause_endpoint(s, endpoint_id))
    click.echo("unpaused" if changed else "was not paused")


@webhooks.command("sample")
@click.argument("endpoint_id")
@click.option("--kind", default=DEFAULT_SAMPLE_KIND, show_default=True)
@click.option("--db", default=None, help=DB_HELP)
def webhook_sample(endpoint_id: str, kind: str, db: str | None) -> None:
    """Send a signed sample event with placeholder values (header X-Svc-Webhook-Test: 1)."""
    click.echo(_operate(db, lambda s: send_sample(s, endpoint_id, kind)))


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
            chosen = [r for r in rows if studio is None or r[1] == studio]
            return [(key, m) for sid, key in chosen for m in tx.members.of_studio(sid)]

        return services.store.run(read, write=False)

    for studio_key, m in _operate(db, run):
        click.echo(f"{m.id}  {studio_key}/{m.key}  {m.role.value}  {m.email}")


@members.command("login-link")
@click.argument("member")
@click.option("--studio", default=None, help="The studio's key (default: the only one).")
@click.option("--base-url", default="http://127.0.0.1:8080", show_default=True, help="The portal's address.")
@click.option("--db", default=None, help=DB_HELP)
def members_login_link(member: str, studio: str | None, base_url: str, db: str | None) -> None:
    """Print a one-time sign-in link for MEMBER (its key in the manifest): it works once, for 15 minutes."""

    def run(services: Services) -> str:
        try:
            return issue_login_link(services, member, studio)
        except SignInError as exc:
            raise click.ClickException(str(exc)) from None

    token = _operate(db, run)
    click.echo(f"{base_url.rstrip('/')}/portal/login/{token}")


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
