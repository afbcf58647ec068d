"""Migration commands: :mod:`livecore.player_tools.migration` applied row by row in one transaction.

Each row is checked completely before it writes anything, so a bad row fails alone and leaves nothing
behind while the rows around it apply.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

import attrs

from livecore.commands import Runtime
from livecore.economy.commands import change
from livecore.economy.rules import Reason, resource
from livecore.economy.store import HasLedger
from livecore.errors import LivecoreError, invalid_request
from livecore.games import Game, ResourceType
from livecore.player_tools.migration import (
    AMOUNT,
    Failure,
    InventoryRow,
    MigrationKind,
    Outcome,
    PlayerRow,
    Row,
    WalletRow,
    check_batch,
    check_row_keys,
    conflict,
    failure,
    outcome,
    row_fingerprint,
)
from livecore.player_tools.store.migrations import HasMigrations
from livecore.players.commands import find_player, first_contact, load_game
from livecore.players.identity import Identity, normalize_avatar, normalize_country, normalize_name
from livecore.players.rules import Player
from livecore.players.store import HasPlayers
from livecore.scope import Scope
from livecore.store.games import HasGames
from livecore.store.outbox import HasOutbox


class MigrationTx(HasGames, HasPlayers, HasLedger, HasMigrations, HasOutbox, Protocol):
    """The ports these commands use."""


R = TypeVar("R", bound=Row)


def _run(
    tx: MigrationTx,
    rt: Runtime,
    scope: Scope,
    kind: MigrationKind,
    rows: list[R],
    apply: Callable[[R], None],
) -> Outcome:

    check_batch(rows)
    check_row_keys(list(rows))
    known = tx.migrations.fingerprints(scope.game_id, scope.env, kind, [r.idempotency_key for r in rows])
    applied = replayed = 0
    failures: list[Failure] = []
    now = rt.clock.now()
    for i, row in enumerate(rows):
        fp = row_fingerprint(row)
        seen = known.get(row.idempotency_key)
        if seen is not None:
            if seen == fp:
                replayed += 1
            else:
                failures.append(failure(i, row, conflict()))
            continue
        try:
            apply(row)
        except LivecoreError as exc:
            failures.append(failure(i, row, exc))
            continue
        tx.migrations.put(scope.game_id, scope.env, kind, row.idempotency_key, fp, now)
        applied += 1
    return outcome(applied, replayed, failures)


def _player(tx: MigrationTx, rt: Runtime, scope: Scope, external_id: str, announce: bool) -> Player:
    return first_contact(tx, rt, scope, external_id, announce=announce)


def migrate_players(
    tx: MigrationTx, rt: Runtime, scope: Scope, rows: list[PlayerRow], *, announce: bool
) -> Outcome:
    def apply(row: PlayerRow) -> None:
        name = normalize_name(row.name) if row.name is not None else None
        avatar = normalize_avatar(row.avatar)
        country = normalize_country(row.country)
        if row.first_seen_at is not None and row.first_seen_at > rt.clock.now():
            raise invalid_request("firstSeenAt is in the future.", {"firstSeenAt": "in the future"})
        existed = find_player(tx, scope, row.external_player_id)
        if existed is None:  # first_contact refuses an id a hidden row holds (other env, retired)
            # One insert with everything the row gives (no update after it: imports are bulk).
            display = Identity(name=name, avatar=avatar, country=country) if name is not None else None
            first_contact(
                tx,
                rt,
                scope,
                row.external_player_id,
                country=country,
                announce=announce,
                first_seen_at=row.first_seen_at,
                display=display,
            )
            return
        updated = existed
        if name is not None or (avatar is not None and existed.display is not None):
            shown = existed.display
            updated = attrs.evolve(
                updated,
                display=Identity(
                    name=name if name is not None else shown.name if shown else "",
                    avatar=avatar if avatar is not None else shown.avatar if shown else None,
                    country=country or existed.country,
                ),
            )
        if country is not None:
            updated = attrs.evolve(updated, resolved_country=country)
        if row.first_seen_at is not None and row.first_seen_at < existed.first_seen_at:
            updated = attrs.evolve(updated, first_seen_at=row.first_seen_at)
        if updated is not existed:
            tx.players.update(updated)

    return _run(tx, rt, scope, MigrationKind.PLAYERS, rows, apply)


def _credit(
    tx: MigrationTx,
    rt: Runtime,
    scope: Scope,
    game: Game,
    external_id: str,
    kind: ResourceType,
    key: str,
    amount: int,
    field: str,
    announce: bool,
    parameters: dict[str, object] | None = None,
) -> None:
    res = resource(game, key, kind)
    AMOUNT.check(amount, field)
    player = _player(tx, rt, scope, external_id, announce)
    if amount or parameters:
        change(
            tx,
            rt,
            scope,
            game,
            player,
            res,
            amount,
            Reason.MIGRATION,
            parameters=parameters,
            announce=announce,
        )


def migrate_wallet(
    tx: MigrationTx, rt: Runtime, scope: Scope, rows: list[WalletRow], *, announce: bool
) -> Outcome:
    game = load_game(tx, scope)

    def apply(row: WalletRow) -> None:
        _credit(
            tx,
            rt,
            scope,
            game,
            row.external_player_id,
            ResourceType.CURRENCY,
            row.economy_key,
            row.amount,
            "amount",
            announce,
        )

    return _run(tx, rt, scope, MigrationKind.WALLET, rows, apply)


def migrate_inventory(
    tx: MigrationTx, rt: Runtime, scope: Scope, rows: list[InventoryRow], *, announce: bool
) -> Outcome:
    game = load_game(tx, scope)

    def apply(row: InventoryRow) -> None:
        _credit(
            tx,
            rt,
            scope,
            game,
            row.external_player_id,
            ResourceType.ITEM,
            row.item_key,
            row.quantity,
            "quantity",
            announce,
            parameters=row.parameters,
        )

    return _run(tx, rt, scope, MigrationKind.INVENTORY, rows, apply)
