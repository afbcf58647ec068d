"""The webhooks port in SQL (server-only; SQLite and PostgreSQL alike): endpoints, the outbox fan-out
and deliveries.

The fan-out turns committed outbox rows into one delivery per receiving endpoint (the routing rule is
:func:`livecore.webhooks.delivery.receives`) and marks the rows done, in one transaction, so a committed
event is never left without its deliveries and never fanned out twice. With several processes on one
PostgreSQL database the fan-out locks the rows it takes (``FOR UPDATE SKIP LOCKED``), and a delivery is
*claimed* until a wall-clock time before it is attempted (:meth:`SqlWebhooks.claim_due`): one process
attempts it at a time, and if that process dies the claim runs out and another one takes the delivery
over.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

import attrs
import orjson

from livecore.clock import from_millis, to_millis
from livecore.events import DomainEvent
from livecore.scope import Environment
from livecore.webhooks.delivery import (
    Delivery,
    DeliveryStatus,
    Endpoint,
    EndpointStatus,
    claimed,
    receives,
    subscribes_to,
)
from livecore_server.storage import sqlport
from livecore_server.storage.columns import Columns
from livecore_server.storage.rows import OUTBOX_COLUMNS
from livecore_server.storage.sqlport import GAME_CHANGED, SqlPort


@attrs.frozen
class DueDelivery:
    delivery: Delivery
    endpoint: Endpoint
    secret_enc: bytes
    event: DomainEvent
    sample: bool
    # The rotated secret's predecessor, while it is kept: it signs too until
    # ``endpoint.previous_secret_until`` (:meth:`Endpoint.signs_with_previous`).
    previous_secret_enc: bytes | None = None


def _endpoint(
    id: Any,
    game_id: Any,
    name: Any,
    env: Any,
    url: Any,
    events: Any,
    status: Any,
    consecutive_failures: Any,
    previous_secret_until: Any,
) -> Endpoint:
    return Endpoint(
        id=id,
        game_id=game_id,
        name=name,
        env=Environment(env),
        url=url,
        events=tuple(orjson.loads(events)),
        status=EndpointStatus(status),
        consecutive_failures=consecutive_failures,
        previous_secret_until=None if previous_secret_until is None else from_millis(previous_secret_until),
    )


_ENDPOINT_COLUMNS = Columns(_endpoint)


def _delivery(
    id: Any,
    event_id: Any,
    endpoint_id: Any,
    status: Any,
    attempts: Any,
    next_attempt_at: Any,
    created_at: Any,
    last_status: Any,
    last_error: Any,
    delivered_at: Any,
) -> Delivery:
    return Delivery(
        id=id,
        event_id=event_id,
        endpoint_id=endpoint_id,
        status=DeliveryStatus(status),
        attempts=attempts,
        next_attempt_at=from_millis(next_attempt_at),
        created_at=from_millis(created_at),
        last_status=last_status,
        last_error=last_error,
        delivered_at=from_millis(delivered_at) if delivered_at is not None else None,
    )


# Of a delivery joined with its event (outbox ``o``): the event's id is the outbox row's.
_DELIVERY_COLUMNS = Columns(_delivery, "d", event_id="o.id")


def _due(secret_enc: Any, previous_enc: Any, sample: Any, row: Sequence[Any]) -> DueDelivery:
    """A claimed delivery from its endpoint's secrets (the current and the previous one), whether it is a
    sample, and a row of the delivery's, the endpoint's and the event's columns."""
    delivery, rest = _DELIVERY_COLUMNS.split(row)
    endpoint, event = _ENDPOINT_COLUMNS.split(rest)
    return DueDelivery(
        delivery=delivery,
        endpoint=endpoint,
        secret_enc=bytes(secret_enc),
        previous_secret_enc=None if previous_enc is None else bytes(previous_enc),
        sample=bool(sample),
        event=OUTBOX_COLUMNS.of(event),
    )


class SqlWebhooks(SqlPort):
    """Webhook endpoints, the outbox fan-out and deliveries."""

    __slots__ = ()

    def all_endpoints(self) -> list[tuple[str, Endpoint]]:
        """Every endpoint with its game's key, by game key and name (the operator's listing)."""
        rows = self.db.read(
            f"SELECT g.key, {_ENDPOINT_COLUMNS.qualified('e')}"
            " FROM webhook_endpoints e JOIN games g ON g.id = e.game_id ORDER BY g.key, e.name",
            (),
        )
        return [(game_key, _ENDPOINT_COLUMNS.of(endpoint)) for game_key, *endpoint in rows]

    def endpoints_of_game(self, game_id: str) -> list[Endpoint]:
        rows = self.db.read(
            f"SELECT {_ENDPOINT_COLUMNS.sql} FROM webhook_endpoints WHERE game_id = ?", (game_id,)
        )
        return [_ENDPOINT_COLUMNS.of(r) for r in rows]

    def get_endpoint(self, endpoint_id: str, *, lock: bool = False) -> Endpoint | None:
        """The endpoint; ``lock``: for update (its breaker is read, changed and written back)."""
        row = self.db.read(
            f"SELECT {_ENDPOINT_COLUMNS.sql} FROM webhook_endpoints WHERE id = ?"
            f"{self.db.for_update() if lock else ''}",
            (endpoint_id,),
        ).fetchone()
        return None if row is None else _ENDPOINT_COLUMNS.of(row)

    def save_endpoint(self, endpoint: Endpoint, now: datetime) -> None:
        self.db.change(
            "webhook_endpoints",
            "UPDATE webhook_endpoints SET status = ?, consecutive_failures = ?, updated_at = ?,"
            " paused_at = CASE WHEN ? = 'paused' THEN COALESCE(paused_at, ?) ELSE NULL END WHERE id = ?",
            (
                endpoint.status.value,
                endpoint.consecutive_failures,
                to_millis(now),
                endpoint.status.value,
                to_millis(now),
                endpoint.id,
            ),
        )

    def fan_out(self, now: datetime, new_id: Callable[[], str], limit: int = 500) -> int:
        """Create the deliveries of committed events that are due (debounced ones wait); returns how many."""
        assert limit <= self.db.MAX_IN_LIST  # the fanned-out rows are marked with one IN list
        now_ms = to_millis(now)
        rows = self.db.read(
            f"SELECT seq, target_endpoint, {OUTBOX_COLUMNS.sql} FROM outbox WHERE {self.db.NOT_FANNED_OUT}"
            f" AND (not_before IS NULL OR not_before <= ?) ORDER BY seq LIMIT ?{self.db.skip_locked()}",
            (now_ms, limit),
        ).fetchall()
        endpoints: dict[str, list[Endpoint]] = {}
        deliveries = []
        for seq, target, *event_row in rows:
            event = OUTBOX_COLUMNS.of(event_row)
            if event.game_id not in endpoints:
                endpoints[event.game_id] = self.endpoints_of_game(event.game_id)
            for endpoint in endpoints[event.game_id]:
                if receives(endpoint, event, target=target):
                    deliveries.append((new_id(), seq, endpoint.id, now_ms, now_ms, now_ms))
        self.db.executemany(
            "INSERT INTO webhook_deliveries (id, event_seq, endpoint_id, status, attempts,"
            " next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, 'pending', 0, ?, ?, ?)",
            deliveries,
        )
        if rows:
            # One statement for the whole batch: on PostgreSQL each statement costs the server a round trip.
            fanned, params = self.db.in_list("seq", [seq for seq, *_ in rows])
            self.db.change("outbox", f"UPDATE outbox SET fanned_out = TRUE WHERE {fanned}", params)
        created = len(deliveries)
        return created

    def claim_due(
        self,
        now: datetime,
        wall_ms: int,
        claim_until_ms: int,
        *,
        limit: int,
        busy: Mapping[str, int],
        per_endpoint: int,
    ) -> list[DueDelivery]:
        """Claim pending deliveries due by ``now`` (service time) to active endpoints, oldest first, that no
        live claim holds (claims are wall-clock ms): of the first ``limit``, as many per endpoint as it has
        free slots (``per_endpoint`` less what the caller has ``busy`` there), claimed until
        ``claim_until_ms`` and their attempts counted (:func:`~livecore.webhooks.delivery.claimed`: the
        deliveries returned carry the number of the attempt to make). Rows another process is claiming
        right now are skipped, not waited for."""
        rows = self.db.read(
            "SELECT e.secret_enc, e.previous_secret_enc, o.target_endpoint IS NOT NULL,"
            f" {_DELIVERY_COLUMNS.sql},"
            f" {_ENDPOINT_COLUMNS.qualified('e')}, {OUTBOX_COLUMNS.qualified('o')}"
            " FROM webhook_deliveries d"
            " JOIN webhook_endpoints e ON e.id = d.endpoint_id"
            " JOIN outbox o ON o.seq = d.event_seq"
            " WHERE d.status = 'pending' AND d.next_attempt_at <= ? AND e.status = 'active'"
            " AND (d.claimed_until IS NULL OR d.claimed_until <= ?)"
            f" ORDER BY d.next_attempt_at, d.event_seq LIMIT ?{self.db.skip_locked('d')}",
            (to_millis(now), wall_ms, limit),
        ).fetchall()
        taken = dict(busy)
        out = []
        for secret_enc, previous_enc, sample, *row in rows:
            item = _due(secret_enc, previous_enc, sample, row)
            endpoint_id = item.endpoint.id
            if taken.get(endpoint_id, 0) < per_endpoint:
                taken[endpoint_id] = taken.get(endpoint_id, 0) + 1
                out.append(attrs.evolve(item, delivery=claimed(item.delivery)))
        self.db.executemany(
            "UPDATE webhook_deliveries SET claimed_until = ?, attempts = ? WHERE id = ?",
            [(claim_until_ms, item.delivery.attempts, item.delivery.id) for item in out],
        )
        return out

    def release_claims(self, delivery_ids: list[str] | None = None) -> int:
        """Give up the claims on ``delivery_ids`` (attempts cut short by a shutdown), or every claim (a
        single-process store starting up, whose earlier run left them)."""
        if delivery_ids is None:
            return self.db.change(
                "webhook_deliveries",
                "UPDATE webhook_deliveries SET claimed_until = NULL WHERE claimed_until IS NOT NULL",
                (),
            ).rowcount
        self.db.executemany(
            "UPDATE webhook_deliveries SET claimed_until = NULL WHERE id = ? AND status = 'pending'",
            [(d,) for d in delivery_ids],
        )
        return len(delivery_ids)

    def next_due(self) -> datetime | None:
        """When the dispatcher next has work: an undelivered event to fan out or a delivery coming due."""
        row = self.db.read(
            "SELECT min(t) FROM ("
            f" SELECT COALESCE(not_before, 0) AS t FROM outbox WHERE {self.db.NOT_FANNED_OUT}"
            " UNION ALL"
            " SELECT d.next_attempt_at FROM webhook_deliveries d"
            " JOIN webhook_endpoints e ON e.id = d.endpoint_id"
            " WHERE d.status = 'pending' AND e.status = 'active') AS due",
            (),
        ).fetchone()
        return None if row[0] is None else from_millis(row[0])

    def get_delivery(self, delivery_id: str, *, lock: bool = False) -> Delivery | None:
        """The delivery; ``lock``: its row for update."""
        row = self.db.read(
            f"SELECT {_DELIVERY_COLUMNS.sql} FROM webhook_deliveries d JOIN outbox o ON o.seq = d.event_seq"
            f" WHERE d.id = ?{self.db.for_update('d') if lock else ''}",
            (delivery_id,),
        ).fetchone()
        return None if row is None else _DELIVERY_COLUMNS.of(row)

    def save_delivery(self, delivery: Delivery, now: datetime) -> None:
        self.db.change(
            "webhook_deliveries",
            "UPDATE webhook_deliveries SET status = ?, attempts = ?, next_attempt_at = ?, last_status = ?,"
            " last_error = ?, delivered_at = ?, updated_at = ?, claimed_until = NULL WHERE id = ?",
            (
                delivery.status.value,
                delivery.attempts,
                to_millis(delivery.next_attempt_at),
                delivery.last_status,
                delivery.last_error,
                to_millis(delivery.delivered_at) if delivery.delivered_at else None,
                to_millis(now),
                delivery.id,
            ),
        )

    def insert_delivery_like(self, source_id: str, delivery: Delivery) -> None:
        """A new delivery of the same event as ``source_id`` (replay); the dispatcher hears of it once
        committed."""
        self.db.emitted = True
        ms = to_millis(delivery.created_at)
        self.db.change(
            "webhook_deliveries",
            "INSERT INTO webhook_deliveries (id, event_seq, endpoint_id, status, attempts, next_attempt_at,"
            " created_at, updated_at) SELECT ?, event_seq, endpoint_id, 'pending', 0, ?, ?, ?"
            " FROM webhook_deliveries WHERE id = ?",
            (delivery.id, to_millis(delivery.next_attempt_at), ms, ms, source_id),
        )

    def list_deliveries(
        self, endpoint_id: str, *, status: DeliveryStatus | None = None, limit: int = 100
    ) -> list[tuple[Delivery, str]]:
        """Newest first, with each delivery's event kind."""
        query = (
            f"SELECT o.kind, {_DELIVERY_COLUMNS.sql}"
            " FROM webhook_deliveries d JOIN outbox o ON o.seq = d.event_seq"
            " WHERE d.endpoint_id = ?"
        )
        params: list[Any] = [endpoint_id]
        if status is not None:
            query += " AND d.status = ?"
            params.append(status.value)
        # Ids are time-ordered: they break ties between deliveries created in the same millisecond.
        query += " ORDER BY d.created_at DESC, d.id DESC LIMIT ?"
        params.append(limit)
        return [(_DELIVERY_COLUMNS.of(delivery), kind) for kind, *delivery in self.db.read(query, params)]

    def event_kind(self, delivery_id: str) -> str | None:
        row = self.db.read(
            "SELECT o.kind FROM webhook_deliveries d JOIN outbox o ON o.seq = d.event_seq WHERE d.id = ?",
            (delivery_id,),
        ).fetchone()
        return None if row is None else str(row[0])

    def resume(self, endpoint: Endpoint, now: datetime) -> None:
        """Save an endpoint an operator unpaused: the dispatcher hears of its held deliveries once
        committed."""
        self.db.emitted = True
        self.save_endpoint(endpoint, now)

    def game_deliveries(self, game_id: str, limit: int) -> list[tuple[Delivery, str, bytes | str]]:
        """The game's newest deliveries (every endpoint), with each one's event kind and data as stored
        (JSON): what the player look-up filters by player."""
        rows = self.db.read(
            f"SELECT o.kind, o.data, {_DELIVERY_COLUMNS.sql} FROM webhook_deliveries d"
            " JOIN outbox o ON o.seq = d.event_seq JOIN webhook_endpoints e ON e.id = d.endpoint_id"
            " WHERE e.game_id = ? ORDER BY d.created_at DESC, d.id DESC LIMIT ?",
            (game_id, limit),
        )
        return [(_DELIVERY_COLUMNS.of(delivery), kind, data) for kind, data, *delivery in rows]

    def purge_finished(self, before: datetime) -> int:
        """Remove finished deliveries last touched before ``before``, then fanned-out events that old with
        no delivery left. Pending deliveries and their events stay."""
        cutoff = to_millis(before)
        removed = self.db.change(
            "webhook_deliveries",
            "DELETE FROM webhook_deliveries WHERE status != 'pending' AND updated_at < ?",
            (cutoff,),
        ).rowcount
        self.db.change(
            "outbox",
            f"DELETE FROM outbox WHERE {self.db.FANNED_OUT} AND occurred_at < ?"
            " AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_seq = outbox.seq)",
            (cutoff,),
        )
        return removed

    def endpoint_id(self, game_id: str, name: str) -> str | None:
        """The id of the game's endpoint of that name (``apply`` matches endpoints by name)."""
        row = self.db.read(
            "SELECT id FROM webhook_endpoints WHERE game_id = ? AND name = ?", (game_id, name)
        ).fetchone()
        return None if row is None else str(row[0])

    def insert_endpoint(self, endpoint: Endpoint, secret_enc: bytes, now_ms: int) -> None:
        """A new endpoint with its signing secret encrypted (the secret itself is never stored)."""
        self.db.change(
            "webhook_endpoints",
            "INSERT INTO webhook_endpoints"
            " (id, game_id, name, env, url, events, secret_enc, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                endpoint.id,
                endpoint.game_id,
                endpoint.name,
                endpoint.env.value,
                endpoint.url,
                orjson.dumps(list(endpoint.events)).decode(),
                secret_enc,
                now_ms,
                now_ms,
            ),
        )
        self.db.config_changed(GAME_CHANGED + endpoint.game_id)

    def rotate_secret(
        self, endpoint_id: str, secret_enc: bytes, previous_until: datetime | None, now: datetime
    ) -> None:
        """Give the endpoint a new secret (encrypted). The secret it had becomes the previous one, signing
        until ``previous_until``, or (None) is dropped; an earlier previous secret is dropped either way."""
        # The right-hand sides read the row as it was, in SQLite and PostgreSQL alike.
        previous = "NULL" if previous_until is None else "secret_enc"
        self.db.change(
            "webhook_endpoints",
            f"UPDATE webhook_endpoints SET previous_secret_enc = {previous}, previous_secret_until = ?,"
            " secret_enc = ?, updated_at = ? WHERE id = ?",
            (
                None if previous_until is None else to_millis(previous_until),
                secret_enc,
                to_millis(now),
                endpoint_id,
            ),
        )

    def next_previous_secret_expiry(self) -> datetime | None:
        """When the next previous secret's overlap ends, if any is kept."""
        row = self.db.read("SELECT min(previous_secret_until) FROM webhook_endpoints", ()).fetchone()
        return None if row[0] is None else from_millis(row[0])

    def forget_previous_secrets(self, now: datetime) -> int:
        """Delete the previous secrets whose overlap has ended by ``now``; how many."""
        return self.db.change(
            "webhook_endpoints",
            "UPDATE webhook_endpoints SET previous_secret_enc = NULL, previous_secret_until = NULL"
            " WHERE previous_secret_until <= ?",
            (to_millis(now),),
        ).rowcount

    def update_endpoint_target(
        self, endpoint_id: str, env: Environment, url: str, events: tuple[str, ...], now_ms: int
    ) -> None:
        """Environment, URL and event kinds, in place (status, failures and secret stay)."""
        row = self.db.change(
            "webhook_endpoints",
            "UPDATE webhook_endpoints SET env = ?, url = ?, events = ?, updated_at = ? WHERE id = ?"
            " RETURNING game_id",
            (env.value, url, orjson.dumps(list(events)).decode(), now_ms, endpoint_id),
        ).fetchone()
        if row is not None:
            self.db.config_changed(GAME_CHANGED + str(row[0]))

    def subscribes(self, game_id: str, env: Environment, kind: str) -> bool:
        """Whether an endpoint of the game in ``env`` subscribes to events of ``kind``, paused or not (a
        paused endpoint keeps its deliveries for when it resumes): an event nobody subscribes to is not
        stored (docs/webhooks.md#what-is-kept). Read once per GAME_CACHE_TTL, dropped by every change of
        the game's endpoints (:meth:`insert_endpoint`, :meth:`update_endpoint_target`)."""
        now = time.monotonic()
        cached = self.db.subscription_cache.get(game_id)
        if cached is None or now - cached[0] >= sqlport.GAME_CACHE_TTL:
            kinds: dict[str, set[str]] = {}
            for endpoint_env, events in self.db.read(
                "SELECT env, events FROM webhook_endpoints WHERE game_id = ?", (game_id,)
            ):
                kinds.setdefault(endpoint_env, set()).update(orjson.loads(events))
            cached = (now, {e: frozenset(k) for e, k in kinds.items()})
            self.db.subscription_cache[game_id] = cached
        return subscribes_to(cached[1].get(env.value, frozenset()), kind)
