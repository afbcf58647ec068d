"""Bulk migration from another backend (docs/reference/player-tools.md#migration): players, wallet balances,
inventory.

Rules:
- At most :data:`MAX_ROWS` rows per call (more: 400 ``invalid_request``, nothing applied).
- Every row carries its own ``idempotencyKey`` (scoped to the game, environment and kind of migration):
  a row seen before with the same content counts as ``replayed`` and changes nothing; the same key with
  other content fails that row with ``idempotency_conflict``.
- A bad row (unknown resource, bad amount, bad name) fails alone and is reported in ``failures`` with its
  index, key, code and message; the other rows apply.
- Players: created on first sight (no ``player.registered`` by default), with the given display
  identity, country and ``firstSeenAt``; a player that exists gets the given fields set.
- Wallet rows credit ``amount`` (>= 0; 0 only ensures the player) and inventory rows add ``quantity``
  with optional per-player item ``parameters``; both are ledger entries with reason ``migration`` and
  create missing players. No webhooks unless the call asks for them (``emitWebhooks: true``).
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

import attrs
import orjson

from livecore.errors import IDEMPOTENCY_CONFLICT, LivecoreError, invalid_request
from livecore.idempotency import KEY
from livecore.limits import FREE_FORM, ID, MAX_AMOUNT, Count, Range, limited
from livecore.players.identity import AVATAR, NAME

MAX_ROWS = 1_000
ROWS = Count(max_items=MAX_ROWS)
AMOUNT = Range(0, MAX_AMOUNT)  # a migrated balance may be zero


class MigrationKind(enum.StrEnum):
    PLAYERS = "players"
    WALLET = "wallet"
    INVENTORY = "inventory"


@attrs.frozen
class PlayerRow:
    external_player_id: str = attrs.field(metadata=limited(ID))
    idempotency_key: str = attrs.field(metadata=limited(KEY))
    name: str | None = attrs.field(default=None, metadata=limited(NAME))
    avatar: str | None = attrs.field(default=None, metadata=limited(AVATAR))
    country: str | None = None
    first_seen_at: datetime | None = None


@attrs.frozen
class WalletRow:
    external_player_id: str = attrs.field(metadata=limited(ID))
    idempotency_key: str = attrs.field(metadata=limited(KEY))
    economy_key: str = attrs.field(metadata=limited(ID))
    amount: int = attrs.field(metadata=limited(AMOUNT))


@attrs.frozen
class InventoryRow:
    external_player_id: str = attrs.field(metadata=limited(ID))
    idempotency_key: str = attrs.field(metadata=limited(KEY))
    item_key: str = attrs.field(metadata=limited(ID))
    quantity: int = attrs.field(metadata=limited(AMOUNT))
    parameters: dict[str, Any] | None = attrs.field(default=None, metadata=limited(FREE_FORM))


Row = PlayerRow | WalletRow | InventoryRow


@attrs.frozen
class Failure:
    index: int
    idempotency_key: str
    code: str
    message: str


@attrs.frozen
class Outcome:
    applied: int
    replayed: int
    failed: int
    failures: tuple[Failure, ...]


def check_batch(rows: list[Any]) -> None:
    ROWS.check(rows, "rows")


def check_row_keys(rows: list[Row]) -> None:
    """Keys identify rows: a key repeated inside one call would apply twice or race itself."""
    seen: set[str] = set()
    for i, row in enumerate(rows):
        if not row.idempotency_key or not row.external_player_id:
            raise invalid_request(
                "Every row needs an externalPlayerId and an idempotencyKey.", {f"rows[{i}]": "missing ids"}
            )
        KEY.check(row.idempotency_key, f"rows[{i}].idempotencyKey")
        if row.idempotency_key in seen:
            raise invalid_request(
                f"idempotencyKey {row.idempotency_key!r} appears twice in this call.",
                {f"rows[{i}].idempotencyKey": "duplicate"},
            )
        seen.add(row.idempotency_key)


def row_fingerprint(row: Row) -> str:
    """What makes two rows with one key the same row (JSON objects are unordered: keys sorted)."""
    return orjson.dumps(attrs.asdict(row), option=orjson.OPT_SORT_KEYS, default=str).decode()


def failure(index: int, row: Row, exc: LivecoreError) -> Failure:
    return Failure(index=index, idempotency_key=row.idempotency_key, code=exc.code.value, message=exc.message)


def conflict() -> LivecoreError:
    return LivecoreError(IDEMPOTENCY_CONFLICT, "This idempotencyKey was used for a different row.")


def outcome(applied: int, replayed: int, failures: list[Failure]) -> Outcome:
    return Outcome(applied=applied, replayed=replayed, failed=len(failures), failures=tuple(failures))
