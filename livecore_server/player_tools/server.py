"""The player tools' merge and erasure routes (docs/reference/player-tools.md, "Merge" and "Erasure"),
bound here because they also forget the answers kept that show the merged or erased player's secret
(:mod:`livecore_server.shown_secrets`); their commands run each area's merge or erasure step, in the
runtime's areas' order (the player tools' other handlers are the core's,
:mod:`livecore.player_tools.handlers`)."""

from __future__ import annotations

from livecore.player_tools import api
from livecore.player_tools.commands import erasure, merge
from livecore.player_tools.erasure import ErasureReason
from livecore_server import shown_secrets
from livecore_server.http.endpoint import Binding, Call, bind
from livecore_server.storage.server_store import ServerTransaction


def merge_into(call: Call[None, None], tx: ServerTransaction) -> api.MergePlayerResponse:
    source = call.params["fromExternalId"]
    done = merge.merge(tx, call.rt, call.scope, source, call.params["toExternalId"])
    # The source's secret is gone with it: so are the answers kept that show it.
    shown_secrets.replaced(tx, call.services.store, shown_secrets.player(call.scope.game_id, source))
    return api.MergePlayerResponse(
        status=done.status.value,
        from_external_player_id=done.record.from_external_id,
        to_external_player_id=done.target.external_id,
        anonymized_external_player_id=done.record.placeholder,
        merged_at=done.record.merged_at,
    )


def delete(
    call: Call[api.DeletePlayerRequest | None, None], tx: ServerTransaction
) -> api.DeletePlayerResponse:
    body = call.body or api.DeletePlayerRequest()
    done = erasure.erase(tx, call.rt, call.scope, call.external_id, ErasureReason(body.reason.value))
    erased = shown_secrets.player(call.scope.game_id, call.external_id)
    shown_secrets.replaced(tx, call.services.store, erased)
    return api.DeletePlayerResponse(status=done.status.value, anonymized_external_id=done.placeholder)


BINDINGS: list[Binding] = [
    bind(api.PLAYER_MERGE, merge_into),
    bind(api.PLAYER_DELETE, delete),
]
