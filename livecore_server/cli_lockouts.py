"""The ``lockouts`` commands: the client addresses locked out for failed authentications, of any key,
session cookie or sign-in link the server checks (docs/operators.md#lock-outs; livecore_server/lockouts.py
counts them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from livecore_server.cli_options import DB_HELP, Group, auth_failures_option, operate

if TYPE_CHECKING:
    from livecore_server.services import Services


@click.group(cls=Group)
def lockouts() -> None:
    """Client addresses locked out for failed authentications (docs/operators.md#lock-outs)."""


@lockouts.command("list")
@click.option("--db", default=None, help=DB_HELP)
@auth_failures_option("The servers' --auth-failures-per-minute, which the failures are counted against.")
def lockouts_list(db: str | None, auth_failures_per_minute: int) -> None:
    """List the addresses with failed authentications counted (the last minute's, until the server's
    housekeeping drops them): failures, the last one's time, and until when the address is locked out."""
    from livecore.clock import format_ts, from_millis
    from livecore_server.lockouts import AUTH_FAILURES, NotTheServersLimit, lockouts

    def run(services: Services) -> list[Any]:
        return services.store.run(lambda tx: tx.rate_buckets.of_bucket(AUTH_FAILURES), write=False)

    try:
        listed = lockouts(operate(db, run), auth_failures_per_minute)
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

    click.echo("cleared" if operate(db, run) else "had no failures counted")


COMMANDS = (lockouts,)
