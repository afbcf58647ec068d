"""Every webhook kind with a declared payload, by kind: each built-in area lists its payload classes in
its ``webhooks`` module (``PAYLOADS``, which its :class:`livecore.area.Area` declares), collected here in
the areas' order (:data:`livecore.areas.BUILT_IN`).

Read from the payload modules, not from the areas, so that reading a webhook (``livecore_client.webhooks``)
does not import every area's commands and stores; ``tests/core/test_areas.py`` checks the two agree."""

from __future__ import annotations

from livecore.crates import webhooks as crates
from livecore.economy import webhooks as economy
from livecore.friends import webhooks as friends
from livecore.gifts import webhooks as gifts
from livecore.grants import webhooks as grants
from livecore.guilds import webhooks as guilds
from livecore.leaderboards import webhooks as leaderboards
from livecore.live_events import webhooks as live_events
from livecore.lobbies import webhooks as lobbies
from livecore.players import webhooks as players
from livecore.purchases import webhooks as purchases
from livecore.teams import webhooks as teams
from livecore.webhooks import endpoints
from livecore.webhooks.payload import WebhookPayload

_BUILT_IN = (
    players,
    economy,
    grants,
    crates,
    friends,
    gifts,
    purchases,
    live_events,
    lobbies,
    leaderboards,
    teams,
    guilds,
    endpoints,
)

PAYLOAD_TYPES: dict[str, type[WebhookPayload]] = {
    payload.KIND: payload for module in _BUILT_IN for payload in module.PAYLOADS
}
