"""livecore_client: typed Python clients for the livecore service.

- :class:`SdkClient` / :class:`AsyncSdkClient` for the game-client surface ``/sdk/v1``;
- :class:`ServerClient` / :class:`AsyncServerClient` for the studio-backend surface ``/server/v1``;
- :class:`AdminClient` / :class:`AsyncAdminClient` for the operators' admin API ``/admin/v1``, with a
  member's personal key;
- each client's methods are grouped by resource (``sdk.friends.list(...)``), one module per area under
  :mod:`livecore_client.resources`, which also holds what a studio needs to add its own resource;
- :mod:`livecore_client.errors`: one exception per meaning, all under :class:`LivecoreClientError`;
- :mod:`livecore_client.models`: the wire models the methods accept and return.
"""

import importlib
from typing import TYPE_CHECKING, Any

from livecore import __version__
from livecore.crates.errors import *  # noqa: F403
from livecore.economy.errors import *  # noqa: F403
from livecore.exceptions import *  # noqa: F403
from livecore.friends.errors import *  # noqa: F403
from livecore.gifts.errors import *  # noqa: F403
from livecore.grants.errors import *  # noqa: F403
from livecore.guilds.errors import *  # noqa: F403
from livecore.live_events.errors import *  # noqa: F403
from livecore.lobbies.errors import *  # noqa: F403
from livecore.operators.errors import *  # noqa: F403
from livecore.player_tools.errors import *  # noqa: F403
from livecore.players.errors import *  # noqa: F403
from livecore.purchases.errors import *  # noqa: F403
from livecore.teams.errors import *  # noqa: F403

from . import errors
from ._transport import RetryPolicy
from .errors import APIConnectionError, APIResponseValidationError, APITimeoutError

if TYPE_CHECKING:
    from . import models, webhooks
    from .admin import AdminClient, AsyncAdminClient
    from .sdk import AsyncSdkClient, SdkClient
    from .server import AsyncServerClient, ServerClient
    from .webhooks import (
        InvalidPayloadError,
        WebhookError,
        WebhookEvent,
        WebhookSignatureError,
        construct_event,
    )

# Each client, the models and the webhooks are loaded on first use: each surface's wire models are many
# classes, and a studio's backend that reads webhooks only, or calls one surface, should not build them
# all (docs/client.md#import-cost).
_ON_FIRST_USE = {
    "AdminClient": "admin",
    "AsyncAdminClient": "admin",
    "SdkClient": "sdk",
    "AsyncSdkClient": "sdk",
    "ServerClient": "server",
    "AsyncServerClient": "server",
    "InvalidPayloadError": "webhooks",
    "WebhookError": "webhooks",
    "WebhookEvent": "webhooks",
    "WebhookSignatureError": "webhooks",
    "construct_event": "webhooks",
    "models": "models",
    "webhooks": "webhooks",
}


def __getattr__(name: str) -> Any:
    module = _ON_FIRST_USE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    loaded = importlib.import_module(f"{__name__}.{module}")
    value = loaded if name == module else getattr(loaded, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_ON_FIRST_USE})


__all__ = [
    "APIConnectionError",
    "APIResponseValidationError",
    "APITimeoutError",
    "AdminClient",
    "AsyncAdminClient",
    "AsyncSdkClient",
    "AsyncServerClient",
    "InvalidPayloadError",
    "RetryPolicy",
    "SdkClient",
    "ServerClient",
    "WebhookError",
    "WebhookEvent",
    "WebhookSignatureError",
    "__version__",
    "construct_event",
    "models",
    "webhooks",
]
# Every exception class, the core's and each area's, as the errors module exports them (by each module's
# list; the star imports above are what a type checker reads).
__all__ += [
    name for name in errors.__all__ if name not in __all__ and isinstance(getattr(errors, name), type)
]
