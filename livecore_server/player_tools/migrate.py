"""Migration routes (docs/reference/player-tools.md#migration): players, wallet and inventory, up to 1,000
rows a call."""

from __future__ import annotations

from livecore.player_tools import api
from livecore.player_tools.commands import migration as cmd
from livecore.player_tools.commands.migration import MigrationTx
from livecore.player_tools.migration import Outcome, check_batch
from livecore_server.http.endpoint import Binding, Call, bind


def _outcome(o: Outcome) -> api.MigrateOutcome:
    return api.MigrateOutcome(
        applied=o.applied,
        replayed=o.replayed,
        failed=o.failed,
        failures=[api.MigrateFailure(f.index, f.idempotency_key, f.code, f.message) for f in o.failures],
    )


def players(call: Call[api.MigratePlayersRequest, None], tx: MigrationTx) -> api.MigrateOutcome:
    check_batch(call.body.rows)
    return _outcome(
        cmd.migrate_players(tx, call.rt, call.scope, call.body.rows, announce=call.body.emit_webhooks)
    )


def wallet(call: Call[api.MigrateWalletRequest, None], tx: MigrationTx) -> api.MigrateOutcome:
    check_batch(call.body.rows)
    return _outcome(
        cmd.migrate_wallet(tx, call.rt, call.scope, call.body.rows, announce=call.body.emit_webhooks)
    )


def inventory(call: Call[api.MigrateInventoryRequest, None], tx: MigrationTx) -> api.MigrateOutcome:
    check_batch(call.body.rows)
    return _outcome(
        cmd.migrate_inventory(tx, call.rt, call.scope, call.body.rows, announce=call.body.emit_webhooks)
    )


BINDINGS: list[Binding] = [
    bind(api.MIGRATE_PLAYERS, players),
    bind(api.MIGRATE_WALLET, wallet),
    bind(api.MIGRATE_INVENTORY, inventory),
]
