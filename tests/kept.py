"""How the tests have a server keep every event its writes emit: the way a studio does, by subscribing an
endpoint to them (docs/webhooks.md#what-is-kept). A server stores an event in its outbox only when an
endpoint of the event's game and environment subscribes to its kind; the tests read what their requests
emit from the outbox (``World.events``), so the test world subscribes one endpoint per game and
environment to ``*`` as it starts.

The endpoints are paused: a paused endpoint counts as a subscriber and keeps its deliveries, and the
dispatcher sends it nothing, so no receiver of a test hears of it and no breaker counts it. Tests that
list a game's endpoints or deliveries, or test what a server keeps, start without them (the
``every_event`` fixture, or ``start_world(every_event=False)``).

Their ids are derived from the game and environment, and their secrets drawn from the operating system,
rather than from the server's random source: what the tests expect of the ids the server draws stays as
it was.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from livecore.clock import to_millis
from livecore.ids import Prefix, derived_id
from livecore.scope import Environment
from livecore.webhooks.delivery import Endpoint, EndpointStatus
from livecore_server.crypto import ServerKeys
from livecore_server.storage.server_store import ServerStore, ServerTransaction

# Never sent to (the endpoints are paused); a reserved name that resolves nowhere, should one be unpaused.
KEPT_URL = "https://every-event.invalid/hooks"

# When a bare store's endpoints are made, if its test names no time: it names the endpoints' ids only.
KEPT_SINCE = datetime(2026, 1, 1, tzinfo=UTC)


def kept_name(env: Environment) -> str:
    """The name of the endpoint that keeps a game's events of ``env``."""
    return f"every-event-{env.value}"


def keep_every_event(tx: ServerTransaction, now: datetime, keys: ServerKeys | None = None) -> None:
    """Subscribe a paused endpoint of every game of the store, in each environment, to every kind (a game
    that has one already is left as it is). ``keys``: the server's, which seal its signing secret as the
    server seals one; a bare store of no server, whose endpoints nothing signs with, stores none."""
    for game in tx.games.every():
        for env in Environment:
            name = kept_name(env)
            if tx.webhooks.endpoint_id(game.id, name) is not None:
                continue
            endpoint = Endpoint(
                derived_id(Prefix.WEBHOOK_ENDPOINT, now, game.id, name),
                game.id,
                name,
                env,
                KEPT_URL,
                ("*",),
                status=EndpointStatus.PAUSED,
            )
            sealed = b"" if keys is None else keys.encrypt(secrets.token_urlsafe(32), context=endpoint.id)
            tx.webhooks.insert_endpoint(endpoint, sealed, to_millis(now))
            tx.webhooks.save_endpoint(endpoint, now)  # an endpoint is created active


def keep_every_event_in(store: ServerStore, now: datetime = KEPT_SINCE) -> None:
    """:func:`keep_every_event` on a bare store of no server (a test's own SQLite or PostgreSQL store)."""
    store.run(lambda tx: keep_every_event(tx, now))
