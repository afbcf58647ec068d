"""What the tests read of the installed areas, as an entry point reads them at start
(:func:`livecore.registry.installed`): their routes, webhook kinds and samples."""

from __future__ import annotations

from livecore import registry
from livecore.api.route import Route
from livecore.webhooks.payload import WebhookPayload

BUILT_IN = registry.installed()
ALL: tuple[Route, ...] = registry.routes(BUILT_IN)
BY_NAME: dict[str, Route] = {route.name: route for route in ALL}
PAYLOAD_TYPES: dict[str, type[WebhookPayload]] = registry.webhook_kinds(BUILT_IN)
SAMPLES: dict[str, WebhookPayload] = registry.webhook_samples(BUILT_IN)
