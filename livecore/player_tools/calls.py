"""The player tools' calls on ``server.players``, as the typed clients send them and a simulation runs them
(``sim.server.players``): one builder per route (:mod:`livecore.api.call`), after the players area's own
server call (:class:`livecore.players.calls.ServerPlayersCalls`), as the player tools build on players;
and the migration calls on ``server.migration`` (:class:`ServerMigrationCalls`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from livecore.api.call import Call, ServerCalls
from livecore.player_tools import api
from livecore.players.calls import ServerPlayersCalls


class PlayerToolsCalls(ServerPlayersCalls):
    """The ``/server/v1`` player tools' calls, after the players area's."""

    def _profile(self, external_id: str, *, limit: int | None = None) -> Call[api.PlayerProfileResponse]:
        """A player's profile: the record (with ``banned``, ``debug`` and ``lifecycle``), the most recent
        ``grants`` (and ``attempts`` and ``lobbies``), and the ``summary`` counters. ``limit`` caps each
        list; it defaults to 50 and must be from 1 to 200 (else
        :class:`~livecore_client.errors.InvalidRequestError`). Raises
        :class:`~livecore_client.errors.PlayerNotFoundError` for an unknown player.
        """
        query = api.ProfileQuery() if limit is None else api.ProfileQuery(limit=limit)
        return Call(
            api.PLAYER_PROFILE, api.PlayerProfileResponse, path={"externalId": external_id}, query=query
        )

    def _ban(
        self, external_id: str, *, reason: str, idempotency_key: str | None = None
    ) -> Call[api.BanPlayerResponse]:
        """Ban a player (soft): their player-scoped client writes and registration raise
        :class:`~livecore_client.errors.PlayerBannedError`; reads keep working. ``reason`` (1 to 500
        characters) is required.

        ``applied`` is true only on the transition (which fires ``player.banned``); banning a banned
        player refreshes the reason quietly and answers ``applied=False``. ``ban`` is the state after.
        """
        return Call(
            api.PLAYER_BAN,
            api.BanPlayerResponse,
            path={"externalId": external_id},
            body=api.BanRequest(reason=reason),
            idempotency_key=idempotency_key,
        )

    def _unban(self, external_id: str, *, idempotency_key: str | None = None) -> Call[api.BanPlayerResponse]:
        """Lift a ban. ``applied`` is true only when the player was banned (which fires
        ``player.unbanned``); unbanning a player who is not banned answers ``applied=False``."""
        return Call(
            api.PLAYER_UNBAN,
            api.BanPlayerResponse,
            path={"externalId": external_id},
            idempotency_key=idempotency_key,
        )

    def _flag_debug(
        self, external_id: str, *, reason: str | None = None, idempotency_key: str | None = None
    ) -> Call[api.DebugPlayerResponse]:
        """Flag a debug (test or staff) account: it is left out of revenue reporting
        (:meth:`purchases.spend_players`, :meth:`purchases.revenue_summary`), retroactively, while its own
        :meth:`purchases.player_spend` keeps counting. ``reason`` is optional (at most 500 characters).
        Idempotent: ``applied`` is false when the player was already flagged."""
        return Call(
            api.PLAYER_DEBUG_SET,
            api.DebugPlayerResponse,
            path={"externalId": external_id},
            body=None if reason is None else api.DebugRequest(reason=reason),
            idempotency_key=idempotency_key,
        )

    def _unflag_debug(
        self, external_id: str, *, idempotency_key: str | None = None
    ) -> Call[api.DebugPlayerResponse]:
        """Remove the debug flag, retroactively: the player's purchases count in revenue reporting
        again. Idempotent: ``applied`` is false when the player was not flagged."""
        return Call(
            api.PLAYER_DEBUG_CLEAR,
            api.DebugPlayerResponse,
            path={"externalId": external_id},
            idempotency_key=idempotency_key,
        )

    def _merge(
        self, from_external_id: str, to_external_id: str, *, idempotency_key: str | None = None
    ) -> Call[api.MergePlayerResponse]:
        """Fold player ``from_external_id`` into ``to_external_id``: grants, gifts, purchases, friends
        and the wallet and inventory ledgers move to the target (balances of the same key are summed).
        The source's row stays under the placeholder ``anonymized_external_player_id`` and its
        original id becomes free. Fires ``player.merged``.

        ``status`` is ``"merged"``, or ``"no_op_already_merged"`` when the source was already merged
        into this same target (a safe replay). Raises
        :class:`~livecore_client.errors.PlayerNotFoundError` when either player never existed and
        :class:`~livecore_client.errors.InvalidMergeError` (422) for the same player twice, a source
        merged elsewhere or erased, or a banned, merged or erased target.
        """
        return Call(
            api.PLAYER_MERGE,
            api.MergePlayerResponse,
            path={"fromExternalId": from_external_id, "toExternalId": to_external_id},
            idempotency_key=idempotency_key,
        )

    def _delete(
        self,
        external_id: str,
        *,
        reason: api.ErasureReasonView | str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[api.DeletePlayerResponse]:
        """Erase a player: ``player.deleted`` fires with the original id, then the row is anonymized in
        place under ``anonymized_external_id``; financial records (purchases, ledgers) are kept.
        ``reason`` is ``"gdpr_erasure"`` (the service's default), ``"studio_request"`` or ``"test"``
        (or :class:`~livecore_client.models.ErasureReasonView`); ``ValueError`` (before any request)
        for another value.

        Idempotent: ``status`` is ``"deleted"``, or begins with ``no_op_`` for a player already erased
        or one that never existed (``anonymized_external_id`` may then be ``None``).
        """
        body = None if reason is None else api.DeletePlayerRequest(reason=api.ErasureReasonView(reason))
        return Call(
            api.PLAYER_DELETE,
            api.DeletePlayerResponse,
            path={"externalId": external_id},
            body=body,
            idempotency_key=idempotency_key,
        )

    def _export(self, external_id: str) -> Call[api.ExportPlayerResponse]:
        """Everything held about a player (a data-access request): the player record, grants, inventory
        and wallet holdings, purchases, attempts and lobby memberships, each list capped at 1,000 rows.
        Raises :class:`~livecore_client.errors.PlayerNotFoundError` for an unknown player."""
        return Call(api.PLAYER_EXPORT, api.ExportPlayerResponse, path={"externalId": external_id})


_Row = TypeVar("_Row", api.MigratePlayerRow, api.MigrateWalletRow, api.MigrateInventoryRow)


def _rows(cls: type[_Row], rows: Sequence[_Row | Mapping[str, Any]]) -> list[_Row]:
    """The rows as ``cls``; a mapping is read as keyword arguments (``TypeError`` for unknown names)."""
    return [cls(**row) if isinstance(row, Mapping) else row for row in rows]


class ServerMigrationCalls(ServerCalls):
    """The ``/server/v1`` migration calls."""

    def _players(
        self,
        rows: Sequence[api.MigratePlayerRow | Mapping[str, Any]],
        *,
        emit_webhooks: bool = False,
        idempotency_key: str | None = None,
    ) -> Call[api.MigrateOutcome]:
        """Import up to 1,000 players from a legacy backend: ``MigratePlayerRow(external_player_id,
        idempotency_key, name=None, avatar=None, country=None, first_seen_at=None)``, or mappings of
        those names. Each row's own ``idempotency_key`` makes a re-run of the same rows ``replayed``
        rather than applied twice; give them stable values (``f"players:{legacy_id}"``).

        Bad rows are reported in ``failures`` (``index``, ``idempotency_key``, ``code``, ``message``)
        and the others apply. No webhooks fire unless ``emit_webhooks=True``.
        """
        return Call(
            api.MIGRATE_PLAYERS,
            api.MigrateOutcome,
            body=api.MigratePlayersRequest(
                rows=_rows(api.MigratePlayerRow, rows), emit_webhooks=emit_webhooks
            ),
            idempotency_key=idempotency_key,
        )

    def _wallet(
        self,
        rows: Sequence[api.MigrateWalletRow | Mapping[str, Any]],
        *,
        emit_webhooks: bool = False,
        idempotency_key: str | None = None,
    ) -> Call[api.MigrateOutcome]:
        """Import up to 1,000 currency balances: ``MigrateWalletRow(external_player_id,
        idempotency_key, economy_key, amount)`` (or mappings of those names), each credited once per
        row key; players are created as needed. Outcome and webhooks as :meth:`players`."""
        return Call(
            api.MIGRATE_WALLET,
            api.MigrateOutcome,
            body=api.MigrateWalletRequest(
                rows=_rows(api.MigrateWalletRow, rows), emit_webhooks=emit_webhooks
            ),
            idempotency_key=idempotency_key,
        )

    def _inventory(
        self,
        rows: Sequence[api.MigrateInventoryRow | Mapping[str, Any]],
        *,
        emit_webhooks: bool = False,
        idempotency_key: str | None = None,
    ) -> Call[api.MigrateOutcome]:
        """Import up to 1,000 item holdings: ``MigrateInventoryRow(external_player_id, idempotency_key,
        item_key, quantity, parameters=None)`` (or mappings of those names); ``parameters`` are the
        player's per-instance item attributes. Outcome and webhooks as :meth:`players`."""
        return Call(
            api.MIGRATE_INVENTORY,
            api.MigrateOutcome,
            body=api.MigrateInventoryRequest(
                rows=_rows(api.MigrateInventoryRow, rows), emit_webhooks=emit_webhooks
            ),
            idempotency_key=idempotency_key,
        )
