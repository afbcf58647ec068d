"""Importing players, wallets and inventories from another backend: ``server.migration``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from livecore.api.call import Call
from livecore.player_tools.api import (
    MIGRATE_INVENTORY,
    MIGRATE_PLAYERS,
    MIGRATE_WALLET,
    MigrateInventoryRequest,
    MigrateInventoryRow,
    MigrateOutcome,
    MigratePlayerRow,
    MigratePlayersRequest,
    MigrateWalletRequest,
    MigrateWalletRow,
)

from .._client import AsyncClient, AsyncResource, SyncClient, SyncResource, async_method, sync_method
from ._base import ServerCalls

__all__ = ["AsyncServerMigration", "ServerMigration"]


_Row = TypeVar("_Row", MigratePlayerRow, MigrateWalletRow, MigrateInventoryRow)


def _rows(cls: type[_Row], rows: Sequence[_Row | Mapping[str, Any]]) -> list[_Row]:
    """The rows as ``cls``; a mapping is read as keyword arguments (``TypeError`` for unknown names)."""
    return [cls(**row) if isinstance(row, Mapping) else row for row in rows]


class _ServerMigrationCalls(ServerCalls):
    """The ``/server/v1`` migration calls."""

    def _players(
        self,
        rows: Sequence[MigratePlayerRow | Mapping[str, Any]],
        *,
        emit_webhooks: bool = False,
        idempotency_key: str | None = None,
    ) -> Call[MigrateOutcome]:
        """Import up to 1,000 players from a legacy backend: ``MigratePlayerRow(external_player_id,
        idempotency_key, name=None, avatar=None, country=None, first_seen_at=None)``, or mappings of
        those names. Each row's own ``idempotency_key`` makes a re-run of the same rows ``replayed``
        rather than applied twice; give them stable values (``f"players:{legacy_id}"``).

        Bad rows are reported in ``failures`` (``index``, ``idempotency_key``, ``code``, ``message``)
        and the others apply. No webhooks fire unless ``emit_webhooks=True``.
        """
        return Call(
            MIGRATE_PLAYERS,
            MigrateOutcome,
            body=MigratePlayersRequest(rows=_rows(MigratePlayerRow, rows), emit_webhooks=emit_webhooks),
            idempotency_key=idempotency_key,
        )

    def _wallet(
        self,
        rows: Sequence[MigrateWalletRow | Mapping[str, Any]],
        *,
        emit_webhooks: bool = False,
        idempotency_key: str | None = None,
    ) -> Call[MigrateOutcome]:
        """Import up to 1,000 currency balances: ``MigrateWalletRow(external_player_id,
        idempotency_key, economy_key, amount)`` (or mappings of those names), each credited once per
        row key; players are created as needed. Outcome and webhooks as :meth:`players`."""
        return Call(
            MIGRATE_WALLET,
            MigrateOutcome,
            body=MigrateWalletRequest(rows=_rows(MigrateWalletRow, rows), emit_webhooks=emit_webhooks),
            idempotency_key=idempotency_key,
        )

    def _inventory(
        self,
        rows: Sequence[MigrateInventoryRow | Mapping[str, Any]],
        *,
        emit_webhooks: bool = False,
        idempotency_key: str | None = None,
    ) -> Call[MigrateOutcome]:
        """Import up to 1,000 item holdings: ``MigrateInventoryRow(external_player_id, idempotency_key,
        item_key, quantity, parameters=None)`` (or mappings of those names); ``parameters`` are the
        player's per-instance item attributes. Outcome and webhooks as :meth:`players`."""
        return Call(
            MIGRATE_INVENTORY,
            MigrateOutcome,
            body=MigrateInventoryRequest(rows=_rows(MigrateInventoryRow, rows), emit_webhooks=emit_webhooks),
            idempotency_key=idempotency_key,
        )


class ServerMigration(SyncResource[SyncClient], _ServerMigrationCalls):
    """``server.migration``: the ``/server/v1`` migration calls."""

    players = sync_method(_ServerMigrationCalls._players)
    wallet = sync_method(_ServerMigrationCalls._wallet)
    inventory = sync_method(_ServerMigrationCalls._inventory)


class AsyncServerMigration(AsyncResource[AsyncClient], _ServerMigrationCalls):
    """The methods of :class:`ServerMigration`, awaited."""

    players = async_method(_ServerMigrationCalls._players)
    wallet = async_method(_ServerMigrationCalls._wallet)
    inventory = async_method(_ServerMigrationCalls._inventory)
