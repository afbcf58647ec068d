"""Commands: load what a rule needs through the store ports, apply the rule, write the result and the
events it caused, all in the caller's transaction. The server and an embedded simulation run these same
functions."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import attrs

from livecore.clock import Clock
from livecore.contributions import Contributions, installed
from livecore.events import DomainEvent
from livecore.hashing import KeyedHasher
from livecore.hooks import NO_CHECKS, Checks
from livecore.ids import Prefix, new_id
from livecore.rand import RandomSource
from livecore.scope import Environment, Scope
from livecore.store import HasOutbox
from livecore.webhooks.payload import WebhookPayload


@attrs.frozen
class Runtime:
    """What a command may use besides the store: time, randomness, the secret hasher, and how a player's
    presence is read."""

    clock: Clock
    rng: RandomSource
    hasher: KeyedHasher
    # The checks the registered areas add to built-in commands (livecore.hooks).
    checks: Checks = NO_CHECKS
    # A server keeps heartbeats on its presence board, newer than the stored rows
    # (livecore_server.presence), and reads presence through it; an embedded store has only the rows.
    # A players.presence.PresenceOf: by default, the presence the player's record holds.
    # Left out of == and hash: a board's bound method hashes its board, which is mutable.
    presence_of: Callable[[Any], Any] = attrs.field(default=operator.attrgetter("presence"), eq=False)
    # The areas it runs and what they add to each other's tables (livecore.contributions): the installed
    # areas unless a server or a simulation gives its own (livecore.registry.runtime).
    contributions: Contributions = attrs.field(factory=installed, eq=False)


def emit(
    tx: HasOutbox,
    rt: Runtime,
    scope: Scope,
    payload: WebhookPayload,
    *,
    env: Environment | None = None,
    debounce_key: str | None = None,
) -> DomainEvent:
    """Emit ``payload`` as an event of its kind in the caller's transaction. ``env`` overrides the
    scope's environment for worker-driven events, which fire live (docs/reference/webhooks.md)."""
    event = DomainEvent(
        id=new_id(Prefix.EVENT, rt.clock.now(), rt.rng),
        kind=payload.KIND,
        studio_id=scope.studio_id,
        game_id=scope.game_id,
        env=env or scope.env,
        occurred_at=rt.clock.now(),
        payload=payload,
        debounce_key=debounce_key,
    )
    tx.outbox.emit(event)
    return event
