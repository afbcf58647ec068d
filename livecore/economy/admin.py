"""The economy's admin route (docs/operators.md#player-look-up): an operator sets a player's values of an
item's declared attributes."""

from __future__ import annotations

from typing import Any

import attrs

from livecore.api.admin import AreaAction, EnvQuery, game_admin_route
from livecore.economy.api import ItemAdjustResponse
from livecore.economy.errors import INSUFFICIENT_QUANTITY, RESOURCE_NOT_FOUND, SYSTEM_RESOURCE_LOCKED
from livecore.limits import FREE_FORM, FREE_TEXT, limited
from livecore.players.errors import PLAYER_NOT_FOUND
from livecore.roles import Role

EDIT_ITEM_ATTRIBUTES_ACTION = AreaAction(
    "player.item_attributes_edit", frozenset({Role.GAME_ADMIN, Role.GAME_DEBUGGER})
)


@attrs.frozen
class EditItemAttributesRequest:
    """Values of the item's attributes, key by key (the others keep theirs): each an attribute the catalog
    declares for the item, of the type of its catalog default."""

    attributes: dict[str, Any] = attrs.field(metadata=limited(FREE_FORM))
    reason: str | None = attrs.field(default=None, metadata=limited(FREE_TEXT))


EDIT_ITEM_ATTRIBUTES = game_admin_route(
    "admin.players.edit_item_attributes",
    "PATCH",
    "/players/{externalId}/inventory/{itemKey}/attributes",
    "Set the player's values of the item's declared attributes, key by key (inventory.changed, delta 0,"
    " in a platform-managed game).",
    ItemAdjustResponse,
    EDIT_ITEM_ATTRIBUTES_ACTION,
    request=EditItemAttributesRequest,
    query=EnvQuery,
    errors=(PLAYER_NOT_FOUND, RESOURCE_NOT_FOUND, SYSTEM_RESOURCE_LOCKED, INSUFFICIENT_QUANTITY),
)

ROUTES = (EDIT_ITEM_ATTRIBUTES,)
