"""Exceptions raised by the clients: one class per meaning, so callers catch what they can handle.

Callers should match on the class or on ``code`` (stable, docs/reference/errors.md), never on ``message``. The
classes form two families under :class:`LivecoreClientError`:

- :class:`LivecoreAPIError`: the call was refused (the service answered with an error envelope). A
  class per stable code subclasses the class of its HTTP status, so ``except NotFoundError`` also
  catches :class:`PlayerNotFoundError`.
- :class:`APIConnectionError` (and :class:`APITimeoutError`): no answer came back.

The first family is defined in the core, :mod:`livecore.exceptions`, and re-exported here under the same
names: an embedded simulation raises the same classes for the same codes, so code written against the
client handles both. This module adds what only a call over the network raises.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx

from livecore import exceptions
from livecore.crates import errors as crates
from livecore.crates.errors import *  # noqa: F403
from livecore.economy import errors as economy
from livecore.economy.errors import *  # noqa: F403
from livecore.exceptions import *  # noqa: F403
from livecore.exceptions import _BY_CODE as _BY_CODE
from livecore.exceptions import REQUEST_ID_HEADER as REQUEST_ID_HEADER
from livecore.exceptions import LivecoreAPIError, LivecoreClientError, error_class
from livecore.friends import errors as friends
from livecore.friends.errors import *  # noqa: F403
from livecore.gifts import errors as gifts
from livecore.gifts.errors import *  # noqa: F403
from livecore.grants import errors as grants
from livecore.grants.errors import *  # noqa: F403
from livecore.guilds import errors as guilds
from livecore.guilds.errors import *  # noqa: F403
from livecore.live_events import errors as live_events
from livecore.live_events.errors import *  # noqa: F403
from livecore.lobbies import errors as lobbies
from livecore.lobbies.errors import *  # noqa: F403
from livecore.operators import errors as operators
from livecore.operators.errors import *  # noqa: F403
from livecore.player_tools import errors as player_tools
from livecore.player_tools.errors import *  # noqa: F403
from livecore.players import errors as players
from livecore.players.errors import *  # noqa: F403
from livecore.purchases import errors as purchases
from livecore.purchases.errors import *  # noqa: F403
from livecore.teams import errors as teams
from livecore.teams.errors import *  # noqa: F403

# The core's classes, then each area's by its module's ``__all__``: a class an area adds is exported with
# no line here. The embedded side's own functions stay the core's.
__all__ = [
    "APIConnectionError",
    "APIResponseValidationError",
    "APITimeoutError",
    "error_from_response",
]
__all__ += exceptions.__all__
__all__.remove("api_error")
__all__.remove("error_class")
__all__ += players.__all__
__all__ += economy.__all__
__all__ += grants.__all__
__all__ += crates.__all__
__all__ += friends.__all__
__all__ += gifts.__all__
__all__ += player_tools.__all__
__all__ += purchases.__all__
__all__ += live_events.__all__
__all__ += lobbies.__all__
__all__ += teams.__all__
__all__ += guilds.__all__
__all__ += operators.__all__


class APIConnectionError(LivecoreClientError):
    """The request got no response: DNS, refused connection, reset, or a broken proxy."""


class APITimeoutError(APIConnectionError):
    """The request timed out. A write may or may not have been applied; a retry with the same
    idempotency key is safe (docs/reference/errors.md), which is what the client's own retries do."""


class APIResponseValidationError(LivecoreClientError):
    """A 2xx answer whose body does not match the contract: a server bug or a proxy in the way."""

    def __init__(self, message: str, *, status: int, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.headers = httpx.Headers(headers)


def error_from_response(status: int, headers: Mapping[str, str], payload: Any, text: str) -> LivecoreAPIError:
    """The exception for an error answer. ``payload`` is the decoded JSON body (``None`` when it was not
    JSON); ``text`` is the raw body, quoted when there is no envelope so the cause is not lost."""
    envelope = payload.get("error") if isinstance(payload, dict) else None
    if isinstance(envelope, dict) and isinstance(envelope.get("code"), str):
        code: str | None = envelope["code"]
        message = str(envelope.get("message", ""))
        raw_details = envelope.get("details")
        details = raw_details if isinstance(raw_details, dict) else None
    else:
        code, details = None, None
        message = f"HTTP {status} without an error envelope: {text[:200]!r}"
    cls = error_class(status, code)
    return cls(message, status=status, code=code, details=details, headers=httpx.Headers(headers))
