"""The server key's commands (docs/server.md, "The server key"): ``new-server-key`` mints one,
``rotate-server-key`` re-encrypts every encrypted value under the current one."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import click

from livecore_server.cli_options import (
    DB_HELP,
    Command,
    Refused,
    database,
    open_services,
    opening,
    server_config,
)
from livecore_server.config import is_postgres, sqlite_path

if TYPE_CHECKING:
    from livecore_server.crypto import ServerKeys
    from livecore_server.services import Services


@click.command("new-server-key", cls=Command)
def new_server_key() -> None:
    """Print a new server key (URL-safe base64 of 32 random bytes) for LIVECORE_SECRET_KEY; nothing is
    written or kept."""
    from livecore_server.crypto import encode_key, new_key

    click.echo(encode_key(new_key()))


@click.command("rotate-server-key", cls=Command)
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

    db = database(db)
    services = open_services(server_config(db))
    try:
        with opening():
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


COMMANDS = (new_server_key, rotate_server_key)
