"""The operators' admin API' error codes, each with its status and meaning (docs/reference/errors.md), and the
exception a refusal of each raises, in the core and in the typed clients (:mod:`livecore.exceptions`)."""

from __future__ import annotations

from livecore.api.admin import CSRF_INVALID
from livecore.errors import Code
from livecore.exceptions import NotFoundError, PermissionDeniedError

DASHBOARD_ONLY = Code(
    "dashboard_only", 403, "A personal key asked for a dashboard-only action: sign in to the portal."
)
API_KEY_NOT_FOUND = Code("api_key_not_found", 404, "No API key of that id in the game.")
PERSONAL_KEY_NOT_FOUND = Code("personal_key_not_found", 404, "No personal key of that id the member may see.")
WEBHOOK_ENDPOINT_NOT_FOUND = Code(
    "webhook_endpoint_not_found", 404, "No webhook endpoint of that id in the game."
)
DELIVERY_NOT_FOUND = Code("delivery_not_found", 404, "No webhook delivery of that id in the game.")


#: The codes the area adds to the table, in the reference's order (:attr:`livecore.area.Area.errors`):
#: ``csrf_invalid`` among them, which every area's admin write may answer (:mod:`livecore.api.admin`), as
#: the operators admit a member.
CODES = (
    DASHBOARD_ONLY,
    CSRF_INVALID,
    API_KEY_NOT_FOUND,
    PERSONAL_KEY_NOT_FOUND,
    WEBHOOK_ENDPOINT_NOT_FOUND,
    DELIVERY_NOT_FOUND,
)


__all__ = [
    "ApiKeyNotFoundError",
    "CsrfInvalidError",
    "DashboardOnlyError",
    "DeliveryNotFoundError",
    "PersonalKeyNotFoundError",
    "WebhookEndpointNotFoundError",
]


class DashboardOnlyError(PermissionDeniedError, code=DASHBOARD_ONLY):
    """403: a personal key asked for a dashboard-only action (API keys, personal keys, live webhook
    endpoints): a member signed in to the portal takes it."""


class CsrfInvalidError(PermissionDeniedError, code=CSRF_INVALID):
    """403: a portal session's write without its CSRF token (``X-CSRF-Token``); personal keys send none."""


class ApiKeyNotFoundError(NotFoundError, code=API_KEY_NOT_FOUND):
    """404: no API key of that id in the game."""


class PersonalKeyNotFoundError(NotFoundError, code=PERSONAL_KEY_NOT_FOUND):
    """404: no personal key of that id the member may see."""


class WebhookEndpointNotFoundError(NotFoundError, code=WEBHOOK_ENDPOINT_NOT_FOUND):
    """404: no webhook endpoint of that id in the game."""


class DeliveryNotFoundError(NotFoundError, code=DELIVERY_NOT_FOUND):
    """404: no webhook delivery of that id in the game."""
