"""The commands that start a server: ``init`` (a starter manifest), ``serve`` and ``demo`` (which applies
the demo manifest, then serves it).

Everything of the server they run on is imported when they run: ``--help`` loads none of it (docs/server.md,
"The CLI")."""

from __future__ import annotations

import asyncio
import errno
import gc
import logging
import os
import shlex
import socket
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from livecore_server.cli_options import (
    DB_HELP,
    DEFAULTS,
    PRIVATE_WEBHOOKS_HELP,
    Command,
    Refused,
    area_names,
    area_option,
    auth_failures_option,
    database,
    finite,
    open_services,
    opening,
    per_minute_option,
    redact,
    server_config,
)
from livecore_server.config import Config, is_postgres

if TYPE_CHECKING:
    from livecore.clock import Clock
    from livecore_server.config import OidcSettings

POOL_HELP = "PostgreSQL transactions this process runs at once, each on a connection of its pool."
# The contract (docs/reference/webhooks.md#delivery) fixes the webhook attempt timeout at 10 s (Config's
# default); an operator may change it. The upper bound keeps a hanging receiver from holding one of an
# endpoint's 4 attempt slots, and the delivery's claim (timeout + 30 s), for long.
WEBHOOK_TIMEOUT_MAX = 60.0
WEBHOOK_TIMEOUT_HELP = "Seconds a webhook attempt waits for the receiver's answer before it counts as failed."
# docs/server.md, "Slow clients".
TIMEOUT_MAX = 3600.0
HEADER_TIMEOUT_HELP = (
    "Seconds a connection has to send a whole request line and headers, from when it opens or from its"
    " previous response (an idle keep-alive connection is closed after as long)."
)
BODY_TIMEOUT_HELP = "Seconds a request has to send its whole body; later, it is answered 408 and closed."


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
        callback=finite,
        help=help,
    )


def _slow_clients(command: Callable[..., Any]) -> Callable[..., Any]:
    """The timeouts for slow clients, on every command that serves."""
    command = _seconds("body", DEFAULTS.body_timeout, BODY_TIMEOUT_HELP)(command)
    return _seconds("header", DEFAULTS.header_timeout, HEADER_TIMEOUT_HELP)(command)


def _oidc(host: str, port: int) -> OidcSettings | None:
    """The portal's OpenID Connect provider from ``LIVECORE_OIDC_*`` (docs/operators.md#openid-connect);
    the provider sends members back to ``$LIVECORE_PUBLIC_URL/portal/sso/callback``."""
    from livecore_server.config import OidcSettings

    public = os.environ.get("LIVECORE_PUBLIC_URL") or f"http://{host}:{port}"
    try:
        return OidcSettings.from_env(os.environ, redirect_uri=f"{public.rstrip('/')}/portal/sso/callback")
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None


def server_event_loop() -> asyncio.AbstractEventLoop:
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
    services = open_services(config)
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
    with opening():
        web.run_app(
            app,
            sock=sockets,
            loop=server_event_loop(),
            access_log=logging.getLogger("aiohttp.access") if access_log else None,
            access_log_class=RedactingAccessLogger,
            shutdown_timeout=10.0,
            print=None,
        )


def _clock(kind: str) -> Clock:
    from livecore.clock import ManualClock
    from livecore_server.clock import SystemClock

    return ManualClock(SystemClock().now()) if kind == "manual" else SystemClock()


@click.command(cls=Command)
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
    default=DEFAULTS.webhook_timeout,
    show_default=True,
    envvar="LIVECORE_WEBHOOK_TIMEOUT",
    show_envvar=True,
    metavar="SECONDS",
    callback=finite,
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
@per_minute_option(
    "--wrong-secrets-per-minute",
    DEFAULTS.wrong_secrets_per_minute,
    "Wrong player secrets a minute, per player and client address, before that player gets 429.",
)
@auth_failures_option(
    "Failed authentications (keys, session cookies, sign-in links) a minute per client address, before"
    " that address gets 429."
)
@per_minute_option(
    "--address-requests-per-minute",
    None,
    "Requests without a valid key a minute, per client address and bucket, before that address gets"
    " 429 (default: each bucket's default limit).",
)
@per_minute_option(
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
@area_option(
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
    db = database(db)
    if reuse_port and not is_postgres(db):
        raise click.ClickException("--reuse-port runs several processes on one database: use PostgreSQL.")
    config = server_config(
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
        areas=(*plugins.installed(), *area_names(studio_areas)),
    )
    _serve(config, clock, host, port, access_log, reuse_port)


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


@click.command(cls=Command)
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
    from livecore_server.operators.cli import print_result
    from livecore_server.operators.sessions import issue_login_link

    db = database(db, creates=True)
    sockets = _listen("127.0.0.1", port)  # before any key changes: a busy port leaves them as they are
    base = f"http://127.0.0.1:{sockets[0].getsockname()[1]}"
    services = open_services(server_config(db))
    try:
        result, player_secret = apply_demo(services, new_keys=new_keys)
        portal_link = f"{base}/portal/login/{issue_login_link(services, DEMO_MEMBER)}"
    finally:
        services.close()
    print_result(result)
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
    config = server_config(db, header_timeout=header_timeout, body_timeout=body_timeout)
    _serve(config, _clock(clock_kind), "127.0.0.1", port, access_log=True, sockets=sockets)


@click.command(cls=Command)
@click.argument("path", default="manifest.toml", type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Overwrite PATH when it exists.")
def init(path: str, force: bool) -> None:
    """Write a starter manifest to PATH (default manifest.toml): one game with its API keys, a live event,
    a shared leaderboard and a webhook endpoint, commented; `apply` accepts it as written."""
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


COMMANDS = (init, serve, demo)
