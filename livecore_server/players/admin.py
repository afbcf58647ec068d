"""An operator's rotation of a player's secret (:data:`livecore.players.admin.ROTATE_SECRET`), served by the
core's handler (:func:`livecore.players.handlers.rotate`) and bound here because its answer shows the new
secret: the answers kept that show the player's earlier secret are withdrawn, and this one is marked so
(:mod:`livecore_server.shown_secrets`)."""

from __future__ import annotations

from livecore.api.admin import Audited, EnvQuery
from livecore.players import admin, handlers
from livecore_server import shown_secrets
from livecore_server.http.endpoint import Binding, Call, bind
from livecore_server.storage.server_store import ServerTransaction


def rotate_secret(call: Call[None, EnvQuery], tx: ServerTransaction) -> Audited[admin.RotateSecretResponse]:
    answer = handlers.rotate(call, tx)
    holder = shown_secrets.player(call.scope.game_id, call.external_id)
    shown_secrets.replaced(tx, call.services.store, holder)
    shown_secrets.shown(tx, call.idempotency_key, holder)
    return answer


BINDINGS: list[Binding] = [bind(admin.ROTATE_SECRET, rotate_secret)]
