"""The operators area's ``livecore-server`` commands (found by the root command, livecore_server/cli.py):
``apply`` (a manifest's studios, games, keys, webhooks and members), ``webhooks`` (endpoints and
deliveries) and ``members`` (who signs in to the portal, their sign-in links and personal keys)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from livecore.operators.rules import KEY_DAYS_OFFERED, KEY_LIFETIME
from livecore.roles import Role
from livecore.webhooks.delivery import DEFAULT_OVERLAP, OVERLAP, DeliveryStatus
from livecore_server.cli_options import (
    DB_HELP,
    PRIVATE_WEBHOOKS_HELP,
    Command,
    Group,
    Refused,
    area_names,
    area_option,
    database,
    open_services,
    operate,
    refusal,
    refuse_as_json,
    server_config,
)
from livecore_server.config import is_postgres, sqlite_path

if TYPE_CHECKING:
    from livecore_server.services import Services


def _operate(db: str | None, action: Callable[[Services], Any]) -> Any:
    """:func:`~livecore_server.cli_options.operate`, an operation's refusal as a one-line CLI error."""
    from livecore_server.operators.webhooks import OperationError

    try:
        return operate(db, action)
    except OperationError as exc:
        raise click.ClickException(str(exc)) from None


def _key_note(db: str) -> str:
    """Where the server key of ``db`` is (docs/server.md, "The server key"), for ``apply`` to say."""
    from livecore_server.crypto import ENV_VAR, key_file_for

    if os.environ.get(ENV_VAR):
        return f"server key: from ${ENV_VAR}"
    path = key_file_for(None if is_postgres(db) else sqlite_path(db)).resolve()
    return f"server key: {path} (back it up with the database: without it no key or secret works)"


def print_result(result: dict[str, Any]) -> None:
    """What applying a manifest made or changed, with each secret shown when it was created."""
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


@click.command(cls=Command)
@click.argument("manifest", type=click.Path(exists=True, dir_okay=False))
@click.option("--db", default=None, help=DB_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.option("--allow-private-webhooks", is_flag=True, help=PRIVATE_WEBHOOKS_HELP)
@area_option(
    "A studio's own area the server serves by serve --area (repeatable; LIVECORE_AREAS:"
    " comma-separated): the manifest may configure it without naming it in [plugins] areas."
)
def apply(
    manifest: str, db: str | None, as_json: bool, allow_private_webhooks: bool, studio_areas: tuple[str, ...]
) -> None:
    """Create or update studios, games, settings, API keys and webhooks from a TOML manifest."""
    from livecore.manifest import ManifestError
    from livecore_server.manifest import load_manifest
    from livecore_server.operators.apply import apply_manifest

    try:
        parsed = load_manifest(
            manifest, allow_private_webhooks=allow_private_webhooks, areas=area_names(studio_areas)
        )
    except ManifestError as exc:
        refused = Refused(
            "manifest_invalid", f"manifest {manifest} refused; nothing was applied", exc.problems, exit_code=2
        )
        if not as_json:
            click.echo(refusal(refused.message, exc.problems), err=True)
            sys.exit(2)
        refuse_as_json(refused)
    try:
        db = database(db, creates=True)
        services = open_services(server_config(db))
        result = apply_manifest(services.store, services.keys, services.runtime, parsed)
    except Refused as refused:
        if not as_json:
            raise
        refuse_as_json(refused)
    services.close()
    if as_json:
        click.echo(json.dumps(result))
    else:
        print_result(result)
        click.echo(_key_note(db))


@click.group(cls=Group)
def webhooks() -> None:
    """Operator actions on webhook endpoints and deliveries (a running server picks them up within 1 s)."""


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


@click.group(cls=Group)
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


COMMANDS = (apply, webhooks, members)
