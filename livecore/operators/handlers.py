"""The operators' own routes' handlers, by route (docs/operators.md); every other area's admin route is
that area's. Creating a webhook endpoint and rotating its signing secret are the server's
(``livecore_server.operators.webhooks``): the secret is sealed under the server's keys, and the URL
checked against the deployment's address policy."""

from __future__ import annotations

from livecore.api.request import Handler
from livecore.api.route import Route
from livecore.operators import api, audit, keys, members, players, webhooks

HANDLERS: dict[Route, Handler] = {
    api.ME: members.me,
    api.MEMBERS: members.members,
    api.PLAYER_LOOKUP: players.lookup,
    api.WEBHOOKS: webhooks.endpoints,
    api.WEBHOOK_DELIVERIES: webhooks.deliveries,
    api.WEBHOOK_UNPAUSE: webhooks.unpause_route,
    api.WEBHOOK_SEND_SAMPLE: webhooks.send_sample_route,
    api.DELIVERY_REPLAY: webhooks.replay_route,
    api.API_KEYS: keys.api_keys,
    api.API_KEY_CREATE: keys.create_api_key,
    api.API_KEY_ROTATE: keys.rotate_api_key_route,
    api.API_KEY_REVOKE: keys.revoke_api_key,
    api.PERSONAL_KEYS: keys.personal_keys,
    api.PERSONAL_KEY_CREATE: keys.create_personal_key,
    api.PERSONAL_KEY_REVOKE: keys.revoke_personal_key,
    api.AUDIT: audit.audit_log,
    api.GAME_AUDIT: audit.game_audit_log,
}
