"""The ``livecore-server`` command (docs/reference/manifest-and-cli.md): ``serve``, ``apply``, ``demo``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import click
import psycopg
from aiohttp import web

from livecore.clock import Clock, ManualClock
from livecore.webhooks.delivery import DeliveryStatus, Endpoint
from livecore.webhooks.samples import DEFAULT_SAMPLE_KIND
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
    db: str,
    pool_size: int = 8,
    webhook_timeout: float = DEFAULT_WEBHOOK_TIMEOUT,
    *,
    header_timeout: float = DEFAULTS.header_timeout,
    body_timeout: float = DEFAULTS.body_timeout,
    allow_private_webhooks: bool = False,
) -> Config:
    return Config(
        db=db,
        pool_size=pool_size,
        bench_baseline=os.environ.get("LIVECORE_BENCH_BASELINE") == "1",
        webhook_timeout=webhook_timeout,
        header_timeout=header_timeout,
        body_timeout=body_timeout,
        allow_private_webhooks=allow_private_webhooks,
    )


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
        raise click.ClickException(str(exc)) from None
    except psycopg.OperationalError as exc:
        raise click.ClickException(f"cannot reach PostgreSQL: {str(exc).strip()}") from None


def _services(db: str, clock: Clock) -> Services:
    with _opening():
        return build_services(_config(db), clock)


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


def _serve(
    config: Config, clock: Clock, host: str, port: int, access_log: bool, reuse_port: bool = False
) -> None:
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
            host=host,
            port=port,
            loop=_event_loop(),
            access_log=logging.getLogger("aiohttp.access") if access_log else None,
            shutdown_timeout=10.0,
            print=None,
            reuse_port=reuse_port or None,
        )


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
@_slow_clients
@click.option("--allow-private-webhooks", is_flag=True, help=PRIVATE_WEBHOOKS_HELP)
def serve(
    db: str | None,
    host: str,
    port: int,
    clock_kind: str,
    access_log: bool,
    pool_size: int,
    reuse_port: bool,
    webhook_timeout: float,
    header_timeout: float,
    body_timeout: float,
    allow_private_webhooks: bool,
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
    )
    _serve(config, clock, host, port, access_log, reuse_port)


def _apply(db: str, manifest: Manifest) -> tuple[Services, dict[str, Any]]:
    services = _services(db, SystemClock())
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
        click.echo(f"manifest {manifest} refused; nothing was applied:\n{exc}", err=True)
        sys.exit(2)
    services, result = _apply(_db(db), parsed)
    services.close()
    if as_json:
        click.echo(json.dumps(result))
    else:
        _print_result(result)


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


@main.command()
@click.option("--db", default=None, help=DB_HELP)
@click.option("--port", default=8080, show_default=True, type=int)
@click.option(
    "--clock", "clock_kind", type=click.Choice(["system", "manual"]), default="system", show_default=True
)
@_slow_clients
def demo(db: str | None, port: int, clock_kind: str, header_timeout: float, body_timeout: float) -> None:
    """Apply the built-in demo manifest, print fresh demo keys, then serve on 127.0.0.1."""
    services, result = apply_demo(_db(db))
    services.close()
    _print_result(result)
    game = next(iter(result["games"].values()))
    client = next((k["secret"] for k in game["apiKeys"].values() if k["permission"] == "client_sdk"), None)
    server = next(
        (k["secret"] for k in game["apiKeys"].values() if k["permission"] == "server_integration"), None
    )
    base = f"http://127.0.0.1:{port}"
    click.echo("\nTry it:")
    click.echo(f"  curl -s {base}/server/v1/ping -H 'Authorization: Bearer {server}'")
    click.echo(f"  curl -s -X POST {base}/sdk/v1/players/alice/register -H 'Authorization: Bearer {client}'")
    click.echo(f"  OpenAPI: {base}/sdk/v1/openapi.json and {base}/server/v1/openapi.json\n")
    clock: Clock = ManualClock(SystemClock().now()) if clock_kind == "manual" else SystemClock()
    config = _config(_db(db), header_timeout=header_timeout, body_timeout=body_timeout)
    _serve(config, clock, "127.0.0.1", port, access_log=False)


@main.group()
def webhooks() -> None:
    """Operator actions on webhook endpoints and deliveries (a running server picks them up within 1 s)."""


def _operate(db: str | None, action: Callable[[Services], Any]) -> Any:
    services = _services(_db(db), SystemClock())
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


if __name__ == "__main__":
    main()
