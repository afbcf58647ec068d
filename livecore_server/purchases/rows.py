"""The purchases area's rows: each record's columns declared once (read by name) and the
values it writes, in the order of its declaration's ``names`` (:mod:`livecore_server.storage.rows`)."""

from __future__ import annotations

from typing import Any

import orjson

from livecore.clock import from_millis
from livecore.purchases.rules import Purchase, ValidationStatus
from livecore.scope import Environment
from livecore_server.storage.columns import Columns


def _purchase(
    id: Any,
    game_id: Any,
    env: Any,
    player_id: Any,
    external_player_id: Any,
    transaction_id: Any,
    store: Any,
    product_id: Any,
    product_type: Any,
    amount_minor: Any,
    currency: Any,
    normalized_amount_minor: Any,
    fx_rate: Any,
    validation_status: Any,
    purchased_at: Any,
    tracked_at: Any,
    metadata: Any,
) -> Purchase:
    return Purchase(
        id=id,
        game_id=game_id,
        env=Environment(env),
        player_id=player_id,
        external_player_id=external_player_id,
        transaction_id=transaction_id,
        store=store,
        product_id=product_id,
        product_type=product_type,
        amount_minor=amount_minor,
        currency=currency,
        normalized_amount_minor=normalized_amount_minor,
        fx_rate=fx_rate,
        validation_status=ValidationStatus(validation_status),
        purchased_at=from_millis(purchased_at),
        tracked_at=from_millis(tracked_at),
        metadata=orjson.loads(metadata),
    )


PURCHASE_COLUMNS = Columns(_purchase, "u", external_player_id="p.external_id")


PURCHASE_FROM = "FROM purchases u JOIN players p ON p.id = u.player_id"
